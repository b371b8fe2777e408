import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { crc32, HASH_BYTES, readHash, writeHash } from '../hashing';
import type { ChunkRef, DiscardReason, FileRecord } from '../types';
import { ByteReader, ByteWriter, FormatError } from './bytes';
import { readExactly, writeFully, type StoreFile, type StoreIo } from './storeIo';
import { VectorArena } from './vectorArena';

/**
 * The snapshot file: one self-checking, versioned binary image of the index, replaced atomically.
 *
 * ```
 * header (64 bytes, little-endian)
 *   0  "CDZINDEX"        8  format version   12 header bytes (64)  16 dimension
 *   20 file count        24 chunk count      28 vector count       32 model id bytes
 *   36 metadata bytes    40 generation (8 random bytes, pairs the journal with this snapshot)
 *   48 chunker version   52 CRC-32 of padding + vectors   56 CRC-32 of the metadata   60 CRC-32 of bytes 0..59
 * metadata
 *   model id (UTF-8)
 *   per file: u16 path length, path, 16-byte content hash, f64 size, f64 mtime, u32 chunk count,
 *             then per chunk: u32 start line, u32 end line, u32 vector index
 *   vector table: 16-byte chunk hash x vectors, then f32 cosine factor x vectors
 * zero padding to a multiple of 16
 * vectors: int8 x dimension x vectors
 * ```
 * The metadata has its own checksum so a damaged model id or table is told from a real model change
 * before the (large) vector section is read. Vectors are keyed by chunk-content hash, so identical chunks in several files share one vector.
 * Chunk texts are not stored: previews and the keyword index re-read the files, which keeps a 4,096-d
 * chunk at ~4.1 KB (4,096 + 20 vector-table + 12 chunk + the file's share of its record).
 */
const SNAPSHOT_MAGIC = 'CDZINDEX';
/** Bumped on any layout change; an older or newer file is discarded as `foreignVersion` and rebuilt. */
const SNAPSHOT_VERSION = 1;
const HEADER_BYTES = 64;
const BLOCK_BYTES = 4 * 1024 * 1024;

/** Everything a snapshot holds besides the vector rows themselves. */
export interface SnapshotContent {
  readonly modelId: string;
  readonly dimension: number;
  readonly chunkerVersion: number;
  readonly generation: string;
  readonly files: readonly FileRecord[];
  /** The vectors to write, in order: content hash and the arena slot holding the row. */
  readonly vectors: readonly { readonly hash: string; readonly slot: number }[];
}

/** A loaded snapshot: vectors occupy arena slots 0..vectorHashes.length-1 in order. */
export interface LoadedSnapshot {
  readonly modelId: string;
  readonly dimension: number;
  readonly chunkerVersion: number;
  readonly generation: string;
  readonly files: FileRecord[];
  readonly vectorHashes: string[];
  readonly arena: VectorArena | undefined;
  readonly bytes: number;
}

/** What reading a snapshot found. */
export type SnapshotRead =
  | { readonly kind: 'ok'; readonly snapshot: LoadedSnapshot }
  | { readonly kind: 'missing' }
  | { readonly kind: 'discarded'; readonly reason: DiscardReason; readonly detail: string };

/** A fresh random generation id (16 hex characters). */
export function newGeneration(): string {
  return randomBytes(8).toString('hex');
}

function pad16(n: number): number {
  return (16 - (n % 16)) % 16;
}

function encodeMeta(content: SnapshotContent, arena: VectorArena | undefined): { meta: Buffer; chunkCount: number } {
  const index = new Map<string, number>();
  content.vectors.forEach((v, i) => index.set(v.hash, i));
  const w = new ByteWriter();
  w.raw(Buffer.from(content.modelId, 'utf8'));
  let chunkCount = 0;
  const hash = Buffer.alloc(HASH_BYTES);
  for (const file of content.files) {
    writeHash(file.hash, hash, 0);
    w.str16(file.path).raw(hash).f64(file.size).f64(file.mtimeMs).u32(file.chunks.length);
    for (const chunk of file.chunks) {
      const vectorIndex = index.get(chunk.hash);
      if (vectorIndex === undefined) throw new Error(`chunk of ${file.path} has no vector`);
      w.u32(chunk.startLine).u32(chunk.endLine).u32(vectorIndex);
      chunkCount++;
    }
  }
  for (const v of content.vectors) {
    writeHash(v.hash, hash, 0);
    w.raw(hash);
  }
  for (const v of content.vectors) w.f32(arena ? arena.factor(v.slot) : 0);
  return { meta: Buffer.from(w.finish()), chunkCount };
}

/**
 * Writes a snapshot to `target` atomically: a temporary file beside it, fsync, rename over, fsync the
 * directory. A failure at any step leaves the previous snapshot untouched (and removes the temporary).
 */
export async function writeSnapshot(io: StoreIo, target: string, content: SnapshotContent, arena: VectorArena | undefined): Promise<number> {
  const dimension = content.dimension;
  const { meta, chunkCount } = encodeMeta(content, arena);
  const modelBytes = Buffer.byteLength(content.modelId, 'utf8');
  const padding = Buffer.alloc(pad16(HEADER_BYTES + meta.length));
  const tmp = `${target}.tmp-${process.pid}-${newGeneration().slice(0, 8)}`;
  await io.mkdir(path.dirname(target));
  let file: StoreFile | undefined = await io.open(tmp, 'wx');
  try {
    let position = HEADER_BYTES;
    const metaCrc = crc32(meta);
    await writeFully(file, meta, position);
    position += meta.length;
    let bodyCrc = crc32(padding);
    await writeFully(file, padding, position);
    position += padding.length;
    if (arena && dimension > 0 && content.vectors.length > 0) {
      const rowsPerBlock = Math.max(1, Math.floor(BLOCK_BYTES / dimension));
      const block = Buffer.alloc(Math.min(rowsPerBlock, content.vectors.length) * dimension);
      for (let start = 0; start < content.vectors.length; start += rowsPerBlock) {
        const end = Math.min(content.vectors.length, start + rowsPerBlock);
        for (let i = start; i < end; i++) {
          const row = arena.row(content.vectors[i]?.slot ?? 0);
          block.set(new Uint8Array(row.buffer, row.byteOffset, dimension), (i - start) * dimension);
        }
        const used = block.subarray(0, (end - start) * dimension);
        bodyCrc = crc32(used, bodyCrc);
        await writeFully(file, used, position);
        position += used.length;
      }
    }
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(SNAPSHOT_MAGIC, 0, 'latin1');
    header.writeUInt32LE(SNAPSHOT_VERSION, 8);
    header.writeUInt32LE(HEADER_BYTES, 12);
    header.writeUInt32LE(dimension, 16);
    header.writeUInt32LE(content.files.length, 20);
    header.writeUInt32LE(chunkCount, 24);
    header.writeUInt32LE(content.vectors.length, 28);
    header.writeUInt32LE(modelBytes, 32);
    header.writeUInt32LE(meta.length, 36);
    header.write(content.generation, 40, 'hex');
    header.writeUInt32LE(content.chunkerVersion >>> 0, 48);
    header.writeUInt32LE(bodyCrc >>> 0, 52);
    header.writeUInt32LE(metaCrc >>> 0, 56);
    header.writeUInt32LE(crc32(header.subarray(0, 60)), 60);
    await writeFully(file, header, 0);
    await file.sync();
    await file.close();
    file = undefined;
    await io.rename(tmp, target);
    await io.syncDir(path.dirname(target));
    return position;
  } catch (error) {
    if (file) await file.close().catch(() => undefined);
    await io.unlink(tmp).catch(() => undefined);
    throw error;
  }
}

/** Expectations a snapshot must meet to be used. */
export interface SnapshotExpectation {
  readonly modelId: string;
  readonly dimension?: number | undefined;
  readonly preferSimd?: boolean | undefined;
}

/** Reads and verifies a snapshot; never throws for a bad file, only reports why it was discarded. */
export async function readSnapshot(io: StoreIo, source: string, expect: SnapshotExpectation): Promise<SnapshotRead> {
  let file: StoreFile;
  try {
    file = await io.open(source, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'discarded', reason: 'unreadable', detail: String(error) };
  }
  try {
    return await readOpened(file, expect);
  } catch (error) {
    if (error instanceof FormatError) return { kind: 'discarded', reason: 'corrupt', detail: error.message };
    return { kind: 'discarded', reason: 'unreadable', detail: String(error) };
  } finally {
    await file.close().catch(() => undefined);
  }
}

async function readOpened(file: StoreFile, expect: SnapshotExpectation): Promise<SnapshotRead> {
  const discard = (reason: DiscardReason, detail: string): SnapshotRead => ({ kind: 'discarded', reason, detail });
  const { size } = await file.stat();
  const header = Buffer.alloc(HEADER_BYTES);
  if (size < HEADER_BYTES || !(await readExactly(file, header, 0))) return discard('corrupt', `file is ${size} bytes, shorter than a header`);
  if (header.toString('latin1', 0, 8) !== SNAPSHOT_MAGIC) return discard('corrupt', 'not a Cadenza index (bad magic)');
  if (header.readUInt32LE(60) !== crc32(header.subarray(0, 60))) return discard('corrupt', 'header checksum mismatch');
  const version = header.readUInt32LE(8);
  if (version !== SNAPSHOT_VERSION) return discard('foreignVersion', `format version ${version}, this build reads ${SNAPSHOT_VERSION}`);
  const dimension = header.readUInt32LE(16);
  const fileCount = header.readUInt32LE(20);
  const chunkCount = header.readUInt32LE(24);
  const vectorCount = header.readUInt32LE(28);
  const modelBytes = header.readUInt32LE(32);
  const metaBytes = header.readUInt32LE(36);
  const generation = header.toString('hex', 40, 48);
  const chunkerVersion = header.readUInt32LE(48);
  const bodyCrc = header.readUInt32LE(52);
  const vectorsAt = HEADER_BYTES + metaBytes + pad16(HEADER_BYTES + metaBytes);
  const expectedSize = vectorsAt + vectorCount * dimension;
  if (size !== expectedSize) return discard('corrupt', `file is ${size} bytes, header says ${expectedSize}`);
  if (modelBytes > metaBytes) return discard('corrupt', 'model id longer than metadata');

  const meta = Buffer.alloc(metaBytes);
  if (!(await readExactly(file, meta, HEADER_BYTES))) return discard('corrupt', 'metadata truncated');
  if (crc32(meta) !== header.readUInt32LE(56)) return discard('corrupt', 'metadata checksum mismatch');
  let crc = crc32(Buffer.alloc(vectorsAt - HEADER_BYTES - metaBytes));
  const r = new ByteReader(meta);
  const modelId = r.raw(modelBytes).toString('utf8');
  if (modelId !== expect.modelId) return discard('otherModel', `index was built with ${modelId}, the current model is ${expect.modelId}`);
  if (expect.dimension !== undefined && dimension !== 0 && dimension !== expect.dimension) {
    return discard('otherModel', `index vectors have ${dimension} dimensions, the model gives ${expect.dimension}`);
  }

  const rawFiles: { path: string; hash: string; size: number; mtimeMs: number; refs: number[] }[] = [];
  let chunksSeen = 0;
  for (let f = 0; f < fileCount; f++) {
    const filePath = r.str16();
    const hash = readHash(r.raw(HASH_BYTES), 0);
    const fileSize = r.f64();
    const mtimeMs = r.f64();
    const n = r.u32();
    if (n * 12 > r.remaining) throw new FormatError(`file ${f} claims ${n} chunks`);
    const refs: number[] = [];
    for (let c = 0; c < n; c++) refs.push(r.u32(), r.u32(), r.u32());
    chunksSeen += n;
    rawFiles.push({ path: filePath, hash, size: fileSize, mtimeMs, refs });
  }
  if (chunksSeen !== chunkCount) throw new FormatError(`chunk count ${chunksSeen}, header says ${chunkCount}`);
  const vectorHashes: string[] = [];
  for (let v = 0; v < vectorCount; v++) vectorHashes.push(readHash(r.raw(HASH_BYTES), 0));
  const factors: number[] = [];
  for (let v = 0; v < vectorCount; v++) factors.push(r.f32());
  if (r.remaining !== 0) throw new FormatError(`${r.remaining} stray metadata bytes`);

  const files: FileRecord[] = rawFiles.map((raw) => {
    const chunks: ChunkRef[] = [];
    for (let i = 0; i < raw.refs.length; i += 3) {
      const hash = vectorHashes[raw.refs[i + 2] ?? vectorCount];
      if (hash === undefined) throw new FormatError(`chunk of ${raw.path} points past the vector table`);
      chunks.push({ startLine: raw.refs[i] ?? 0, endLine: raw.refs[i + 1] ?? 0, hash });
    }
    return { path: raw.path, hash: raw.hash, size: raw.size, mtimeMs: raw.mtimeMs, chunks };
  });

  let arena: VectorArena | undefined;
  if (dimension > 0) {
    arena = new VectorArena(dimension, { preferSimd: expect.preferSimd ?? true, initialCapacity: Math.max(64, vectorCount) });
    const rowsPerBlock = Math.max(1, Math.floor(BLOCK_BYTES / dimension));
    const block = Buffer.alloc(Math.min(rowsPerBlock, Math.max(1, vectorCount)) * dimension);
    for (let start = 0; start < vectorCount; start += rowsPerBlock) {
      const end = Math.min(vectorCount, start + rowsPerBlock);
      const used = block.subarray(0, (end - start) * dimension);
      if (!(await readExactly(file, used, vectorsAt + start * dimension))) throw new FormatError('vectors truncated');
      crc = crc32(used, crc);
      const rows = new Int8Array(used.buffer, used.byteOffset, used.length);
      for (let i = start; i < end; i++) {
        const factor = factors[i] ?? 0;
        if (!(factor > 0) || !Number.isFinite(factor)) throw new FormatError(`vector ${i} has factor ${factor}`);
        const slot = arena.allocate();
        arena.set(slot, rows.subarray((i - start) * dimension, (i - start + 1) * dimension), factor);
      }
    }
  } else if (vectorCount > 0) {
    throw new FormatError('vectors without a dimension');
  }
  if (crc >>> 0 !== bodyCrc) return discard('corrupt', 'body checksum mismatch');
  return { kind: 'ok', snapshot: { modelId, dimension, chunkerVersion, generation, files, vectorHashes, arena, bytes: size } };
}
