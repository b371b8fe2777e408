import { crc32, HASH_BYTES, readHash, writeHash } from '../hashing';
import type { ChunkRef, FileRecord } from '../types';
import { ByteReader, ByteWriter, FormatError } from './bytes';
import { readExactly, writeFully, type StoreFile, type StoreIo } from './storeIo';

/**
 * The journal: an append-only log of changes since the snapshot it is paired with (by generation).
 *
 * Rewriting a 400 MB snapshot for every embedded batch or every saved file would cost seconds, so
 * checkpoints append to this log instead (O(change)), and the snapshot is rewritten only when the
 * log grows large. Each record is `u32 length | type | payload | u32 CRC-32(type + payload)`; a
 * record cut short by a crash or power loss fails its CRC, and replay stops there and truncates, so
 * at worst the last moments of work are embedded again. A journal whose generation differs from the
 * snapshot's is stale (the snapshot was compacted after it) and is dropped.
 */
const JOURNAL_MAGIC = 'CDZJRNL1';
const JOURNAL_VERSION = 1;
const HEADER_BYTES = 32;
const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** One change, as written and as replayed. Replayed vector values are views: copy them at once. */
export type JournalRecord =
  | { readonly type: 'vectors'; readonly items: readonly { readonly hash: string; readonly values: Int8Array; readonly factor: number }[] }
  | { readonly type: 'putFile'; readonly file: FileRecord }
  | { readonly type: 'deleteFile'; readonly path: string };

const TYPE = { vectors: 1, putFile: 2, deleteFile: 3 } as const;

/** Encodes records into one buffer of framed entries, ready to append. */
export function encodeRecords(records: readonly JournalRecord[], dimension: number): Buffer {
  const out = new ByteWriter();
  const hash = Buffer.alloc(HASH_BYTES);
  for (const record of records) {
    const w = new ByteWriter();
    w.u8(TYPE[record.type]);
    switch (record.type) {
      case 'vectors':
        w.u32(record.items.length).u32(dimension);
        for (const item of record.items) {
          writeHash(item.hash, hash, 0);
          w.raw(hash)
            .f32(item.factor)
            .raw(new Uint8Array(item.values.buffer, item.values.byteOffset, dimension));
        }
        break;
      case 'putFile':
        writeHash(record.file.hash, hash, 0);
        w.str16(record.file.path).raw(hash).f64(record.file.size).f64(record.file.mtimeMs).u32(record.file.chunks.length);
        for (const chunk of record.file.chunks) {
          writeHash(chunk.hash, hash, 0);
          w.u32(chunk.startLine).u32(chunk.endLine).raw(hash);
        }
        break;
      case 'deleteFile':
        w.str16(record.path);
        break;
      default: {
        const never: never = record;
        throw new Error(`unknown record ${String(never)}`);
      }
    }
    const body = w.finish();
    out.u32(body.length).raw(body).u32(crc32(body));
  }
  return Buffer.from(out.finish());
}

function decodeRecord(body: Buffer, dimension: number): JournalRecord {
  const r = new ByteReader(body);
  const type = r.u8();
  if (type === TYPE.vectors) {
    const count = r.u32();
    const dim = r.u32();
    if (dim !== dimension) throw new FormatError(`vectors of ${dim} dimensions in a ${dimension}-d journal`);
    const items: { hash: string; values: Int8Array; factor: number }[] = [];
    for (let i = 0; i < count; i++) {
      const hash = readHash(r.raw(HASH_BYTES), 0);
      const factor = r.f32();
      const raw = r.raw(dim);
      items.push({ hash, factor, values: new Int8Array(raw.buffer, raw.byteOffset, dim) });
    }
    return { type: 'vectors', items };
  }
  if (type === TYPE.putFile) {
    const path = r.str16();
    const hash = readHash(r.raw(HASH_BYTES), 0);
    const size = r.f64();
    const mtimeMs = r.f64();
    const n = r.u32();
    const chunks: ChunkRef[] = [];
    for (let i = 0; i < n; i++) chunks.push({ startLine: r.u32(), endLine: r.u32(), hash: readHash(r.raw(HASH_BYTES), 0) });
    return { type: 'putFile', file: { path, hash, size, mtimeMs, chunks } };
  }
  if (type === TYPE.deleteFile) return { type: 'deleteFile', path: r.str16() };
  throw new FormatError(`unknown record type ${type}`);
}

/** What replaying a journal found. */
export interface ReplayResult {
  readonly records: number;
  /** Bytes after the last good record, dropped (a torn or corrupt tail). */
  readonly discardedBytes: number;
  /** Why the whole journal was ignored (stale generation, foreign header), if it was. */
  readonly ignored?: string;
}

/** An open journal positioned at its end, ready to append. */
export class Journal {
  private constructor(
    private file: StoreFile | undefined,
    private end: number,
  ) {}

  /** Size in bytes, header included. */
  get bytes(): number {
    return this.end;
  }

  /** Starts an empty journal for `generation`, replacing any file at `path`. */
  static async create(io: StoreIo, path: string, generation: string, dimension: number): Promise<Journal> {
    const file = await io.open(path, 'w');
    try {
      const header = Buffer.alloc(HEADER_BYTES);
      header.write(JOURNAL_MAGIC, 0, 'latin1');
      header.writeUInt32LE(JOURNAL_VERSION, 8);
      header.writeUInt32LE(dimension, 12);
      header.write(generation, 16, 'hex');
      header.writeUInt32LE(crc32(header.subarray(0, 28)), 28);
      await writeFully(file, header, 0);
      await file.sync();
      return new Journal(file, HEADER_BYTES);
    } catch (error) {
      await file.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Replays the journal at `path` through `onRecord` and returns it open for appending, or undefined
   * when there is none or it does not belong to this snapshot (the caller then creates a new one).
   */
  static async replay(
    io: StoreIo,
    path: string,
    generation: string,
    dimension: number,
    onRecord: (record: JournalRecord) => void,
  ): Promise<{ journal: Journal | undefined; result: ReplayResult }> {
    let file: StoreFile;
    try {
      file = await io.open(path, 'r+');
    } catch (error) {
      const ignored = (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : String(error);
      return { journal: undefined, result: { records: 0, discardedBytes: 0, ...(ignored ? { ignored } : {}) } };
    }
    const fail = async (ignored: string): Promise<{ journal: undefined; result: ReplayResult }> => {
      await file.close().catch(() => undefined);
      return { journal: undefined, result: { records: 0, discardedBytes: 0, ignored } };
    };
    try {
      const { size } = await file.stat();
      const header = Buffer.alloc(HEADER_BYTES);
      if (size < HEADER_BYTES || !(await readExactly(file, header, 0))) return await fail('journal shorter than its header');
      if (header.toString('latin1', 0, 8) !== JOURNAL_MAGIC || header.readUInt32LE(28) !== crc32(header.subarray(0, 28)))
        return await fail('journal header damaged');
      if (header.readUInt32LE(8) !== JOURNAL_VERSION) return await fail('journal of another format version');
      if (header.toString('hex', 16, 24) !== generation) return await fail('journal belongs to an older snapshot');
      if (header.readUInt32LE(12) !== dimension) return await fail('journal of another dimension');
      let at = HEADER_BYTES;
      let records = 0;
      const frame = Buffer.alloc(4);
      while (at + 4 <= size) {
        if (!(await readExactly(file, frame, at))) break;
        const length = frame.readUInt32LE(0);
        if (length === 0 || length > MAX_RECORD_BYTES || at + 8 + length > size) break;
        const body = Buffer.alloc(length + 4);
        if (!(await readExactly(file, body, at + 4))) break;
        if (body.readUInt32LE(length) !== crc32(body.subarray(0, length))) break;
        let record: JournalRecord;
        try {
          record = decodeRecord(body.subarray(0, length), dimension);
        } catch {
          break;
        }
        onRecord(record);
        records++;
        at += 8 + length;
      }
      if (at < size) await file.truncate(at);
      return { journal: new Journal(file, at), result: { records, discardedBytes: size - at } };
    } catch (error) {
      return await fail(String(error));
    }
  }

  /**
   * Appends encoded records. On failure the file is cut back to its last good end so later appends
   * never follow garbage; if even that fails the journal closes itself and `append` keeps throwing
   * (the store then relies on compaction).
   */
  async append(encoded: Buffer): Promise<void> {
    const file = this.file;
    if (!file) throw new Error('journal is closed');
    try {
      await writeFully(file, encoded, this.end);
      this.end += encoded.length;
    } catch (error) {
      try {
        await file.truncate(this.end);
      } catch {
        this.file = undefined;
        await file.close().catch(() => undefined);
      }
      throw error;
    }
  }

  /** Flushes appended records to the disk. */
  async sync(): Promise<void> {
    await this.file?.sync();
  }

  /** Closes the file; the journal stays on disk for the next open to replay. */
  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }
}
