import type { Pool, PoolClient } from 'pg';
import type { Logger } from '../../logger';
import type { ChunkTextSink, RunStore } from '../indexPort';
import type { ChunkRef, FileRecord } from '../types';
import {
  ANALYZE_SQL,
  BLOB_CHUNKS_SELECT_SQL,
  ENTRIES_DELETE_SQL,
  ENTRIES_SELECT_SQL,
  ENTRIES_UPSERT_SQL,
  HASHES_PAGE_SQL,
  MODEL_INSERT_SQL,
  MODEL_SELECT_SQL,
  SNAPSHOT_STATE_SQL,
  VECTORS_INSERT_SQL,
  hnswIndexSql,
} from './pgSql';
import { ensureGraph, ensureSchema } from './pgSchema';
import { inTransaction, openSnapshot, writeBlobs, type ChunkText, type SnapshotKey } from './pgSnapshots';
import { vectorLiteral } from './pgText';

export { ensureSchema };
export { MAX_DELTA_FRACTION, type SnapshotKey } from './pgSnapshots';

/** What a snapshot's own entry for a path says: a content hash, or null for a file deleted relative to the base. */
type OwnEntry = string | null;

/**
 * The team index as an index run's store (the `RunStore` port): PostgreSQL with pgvector. At open it
 * loads the snapshot's visible files (its own entries over its base's) and the model's known chunk
 * hashes, so the run's per-chunk questions are answered from memory; writes are buffered and each
 * `checkpoint` commits them in one transaction, vectors and blobs before the entries that need them.
 * So a killed run leaves only complete files behind, and the next run finds what it already paid for.
 * Only what differs is written: a file whose content the snapshot's base already holds at that path
 * writes nothing, a content the database already holds (any commit, any path) writes one entry row.
 */
export class PgRunStore implements RunStore, ChunkTextSink {
  private readonly files = new Map<string, FileRecord>();
  /** The base snapshot's content hash per path (empty for a full snapshot). */
  private readonly baseHashes = new Map<string, string>();
  /** This snapshot's own entries. */
  private readonly own = new Map<string, OwnEntry>();
  private readonly known = new Set<string>();
  private readonly texts = new Map<string, readonly ChunkText[]>();
  private pendingVectors: { hash: string; vector: string }[] = [];
  private pendingFiles = new Map<string, FileRecord>();
  private pendingDeletes = new Set<string>();
  private modelId = 0;
  private dim = 0;
  private snapshotId = 0;
  private baseId = 0;
  private chunkerVersion = 0;
  private flushing: Promise<void> = Promise.resolve();
  /** Rows this store wrote (entries, blobs, chunks, vectors), for the summary and the tests. */
  readonly written = { entries: 0, blobs: 0, chunks: 0, vectors: 0 };

  private constructor(
    private readonly pool: Pool,
    private readonly key: SnapshotKey,
    private readonly logger: Logger,
  ) {}

  /**
   * Opens (creating) the snapshot for writing. A new commit's snapshot starts from the newest complete
   * one of the repository (see MAX_DELTA_FRACTION). `chunkerVersion` different from the snapshot's
   * empties it (chunk boundaries changed); `dimension`, when known, registers the model at once.
   */
  static async open(pool: Pool, key: SnapshotKey, options: { chunkerVersion: number; dimension?: number | undefined; logger: Logger }): Promise<PgRunStore> {
    // A migration can take long on a large database: said at warn level, which the CLI always prints.
    await ensureSchema(pool, (message) => options.logger.warn(message));
    const store = new PgRunStore(pool, key, options.logger);
    await store.load(options.chunkerVersion, options.dimension);
    return store;
  }

  /** The snapshot's id and its base's (0 when full), once the model is known. */
  get snapshot(): { readonly id: number; readonly baseId: number } {
    return { id: this.snapshotId, baseId: this.baseId };
  }

  private async load(chunkerVersion: number, dimension: number | undefined): Promise<void> {
    this.chunkerVersion = chunkerVersion;
    const model = await this.pool.query<{ id: number; dimension: number }>(MODEL_SELECT_SQL, [this.key.model]);
    const row = model.rows[0];
    if (row) {
      this.modelId = row.id;
      this.dim = row.dimension;
      await ensureGraph(this.pool, row.id, row.dimension, this.key.model, (message) => this.logger.warn(message));
    } else if (dimension) await this.registerModel(dimension);
    await this.openSnapshot();
    if (this.snapshotId) await this.loadEntries();
    if (this.modelId) {
      let after = '';
      for (;;) {
        const page = await this.pool.query<{ hash: string }>(HASHES_PAGE_SQL, [this.modelId, after, 10000]);
        for (const r of page.rows) this.known.add(r.hash);
        const last = page.rows.at(-1);
        if (!last || page.rows.length < 10000) break;
        after = last.hash;
      }
    }
    const kind = this.baseId ? `a delta of ${this.own.size} entries on snapshot ${this.baseId}` : 'a full snapshot';
    this.logger.info(
      `Team index ${this.key.repository}@${this.key.commit} (${this.key.model}): ${this.files.size} files recorded (${kind}), ${this.known.size} vectors known.`,
    );
  }

  private async loadEntries(): Promise<void> {
    const entries = await this.pool.query<{ snapshot_id: number; path: string; blob_id: string | null; hash: string | null; size: string; mtime_ms: number }>(
      ENTRIES_SELECT_SQL,
      [this.snapshotId, this.baseId],
    );
    const chunks = await this.pool.query<{ blob_id: string; start_line: number; end_line: number; hash: string }>(BLOB_CHUNKS_SELECT_SQL, [
      this.snapshotId,
      this.baseId,
    ]);
    const byBlob = new Map<string, ChunkRef[]>();
    for (const c of chunks.rows) {
      let list = byBlob.get(c.blob_id);
      if (!list) byBlob.set(c.blob_id, (list = []));
      list.push({ startLine: c.start_line, endLine: c.end_line, hash: c.hash });
    }
    const record = (e: (typeof entries.rows)[number]): FileRecord => ({
      path: e.path,
      hash: e.hash ?? '',
      size: Number(e.size),
      mtimeMs: e.mtime_ms,
      chunks: (e.blob_id && byBlob.get(e.blob_id)) || [],
    });
    // The base first, then this snapshot's own entries over it.
    for (const e of entries.rows) {
      if (e.snapshot_id !== this.baseId || e.hash === null) continue;
      this.baseHashes.set(e.path, e.hash);
      this.files.set(e.path, record(e));
    }
    for (const e of entries.rows) {
      if (e.snapshot_id !== this.snapshotId) continue;
      this.own.set(e.path, e.hash);
      if (e.hash === null) this.files.delete(e.path);
      else this.files.set(e.path, record(e));
    }
  }

  private async registerModel(dimension: number): Promise<void> {
    await this.pool.query(MODEL_INSERT_SQL, [this.key.model, dimension]);
    const model = await this.pool.query<{ id: number; dimension: number }>(MODEL_SELECT_SQL, [this.key.model]);
    const row = model.rows[0];
    if (!row) throw new Error(`Cannot register the model ${this.key.model}.`);
    if (row.dimension !== dimension) throw new Error(`The database holds ${this.key.model} vectors of dimension ${row.dimension}, not ${dimension}.`);
    this.modelId = row.id;
    this.dim = row.dimension;
    await this.pool.query(hnswIndexSql(dimension));
  }

  /** Finds or creates the snapshot; a new one starts from its parent's files, copied inside the database. */
  private async openSnapshot(): Promise<void> {
    if (!this.modelId) return;
    const opened = await openSnapshot(this.pool, this.key, this.modelId, this.chunkerVersion);
    this.snapshotId = opened.id;
    this.baseId = opened.baseId;
  }

  get dimension(): number {
    return this.dim;
  }

  /** The snapshot's recorded files (complete ones only). */
  paths(): IterableIterator<string> {
    return this.files.keys();
  }

  getFile(path: string): FileRecord | undefined {
    return this.files.get(path);
  }

  has(key: string): boolean {
    return this.files.has(key) || this.texts.has(key);
  }

  setFile(key: string, chunks: readonly ChunkText[]): void {
    this.texts.set(
      key,
      chunks.map((c) => ({ startLine: c.startLine, endLine: c.endLine, text: c.text })),
    );
  }

  putFile(file: FileRecord): void {
    this.files.set(file.path, file);
    this.pendingFiles.set(file.path, file);
    this.pendingDeletes.delete(file.path);
  }

  /** Drops a file from the snapshot at the next checkpoint. */
  deleteFile(path: string): boolean {
    if (!this.files.delete(path)) return false;
    this.pendingFiles.delete(path);
    this.pendingDeletes.add(path);
    return true;
  }

  hasVector(hash: string): boolean {
    return this.known.has(hash);
  }

  addVectors(items: readonly { readonly hash: string; readonly vector: ArrayLike<number> }[]): string[] {
    const added: string[] = [];
    for (const item of items) {
      if (this.dim === 0) this.dim = item.vector.length;
      if (item.vector.length !== this.dim || this.known.has(item.hash)) continue;
      this.known.add(item.hash);
      this.pendingVectors.push({ hash: item.hash, vector: vectorLiteral(item.vector) });
      added.push(item.hash);
    }
    return added;
  }

  /** Commits buffered vectors and files in one transaction (one at a time). */
  checkpoint(): Promise<void> {
    const next = this.flushing.then(() => this.flush());
    this.flushing = next.catch(() => undefined);
    return next;
  }

  private async flush(): Promise<void> {
    if (this.pendingVectors.length === 0 && this.pendingFiles.size === 0 && this.pendingDeletes.size === 0) return;
    if (!this.modelId) {
      if (this.dim === 0) return;
      await this.registerModel(this.dim);
      await this.openSnapshot();
      await this.loadBaseForWrites();
    }
    const vectors = this.pendingVectors;
    const files = [...this.pendingFiles.values()];
    const deletes = [...this.pendingDeletes];
    this.pendingVectors = [];
    this.pendingFiles = new Map();
    this.pendingDeletes = new Set();
    // This snapshot's own entries list only what differs from its base: a file whose content the base
    // holds at that path needs no row (and loses one it had), a deleted file of the base a null row.
    const upserts: FileRecord[] = [];
    const drops: string[] = [];
    for (const f of files) {
      if (this.baseHashes.get(f.path) === f.hash) {
        if (this.own.has(f.path)) drops.push(f.path);
      } else if (this.own.get(f.path) !== f.hash) upserts.push(f);
    }
    const tombstones: string[] = [];
    for (const p of deletes) {
      if (this.baseHashes.has(p)) {
        if (this.own.get(p) !== null) tombstones.push(p);
      } else if (this.own.has(p)) drops.push(p);
    }
    try {
      await this.write(vectors, drops, upserts, tombstones);
    } catch (error) {
      // Rolled back: these vectors are not stored, so no later file of this run may count on them.
      for (const v of vectors) this.known.delete(v.hash);
      throw error;
    }
    for (const f of upserts) this.own.set(f.path, f.hash);
    for (const p of tombstones) this.own.set(p, null);
    for (const p of drops) this.own.delete(p);
    for (const file of files) this.texts.delete(file.path);
  }

  /** One flush's rows in one transaction: new vectors, then blobs with their chunks, then entries. */
  private async write(
    vectors: readonly { hash: string; vector: string }[],
    drops: readonly string[],
    upserts: readonly FileRecord[],
    tombstones: readonly string[],
  ): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      if (vectors.length > 0) await client.query(VECTORS_INSERT_SQL, [this.modelId, vectors.map((v) => v.hash), vectors.map((v) => v.vector)]);
      if (drops.length > 0) await client.query(ENTRIES_DELETE_SQL, [this.snapshotId, drops]);
      const blobIds = upserts.length > 0 ? await this.writeBlobs(client, upserts) : new Map<string, string>();
      const blobOf = (f: FileRecord): string => {
        const id = blobIds.get(f.hash);
        if (id === undefined) throw new Error(`No blob row for ${f.path}.`);
        return id;
      };
      const rows = [
        ...upserts.map((f) => ({ path: f.path, blob: blobOf(f) as string | null, size: f.size, mtime: f.mtimeMs })),
        ...tombstones.map((path) => ({ path, blob: null, size: 0, mtime: 0 })),
      ];
      if (rows.length > 0)
        await client.query(ENTRIES_UPSERT_SQL, [
          this.snapshotId,
          rows.map((r) => r.path),
          rows.map((r) => r.blob),
          rows.map((r) => r.size),
          rows.map((r) => r.mtime),
        ]);
      this.written.entries += rows.length;
      this.written.vectors += vectors.length;
    });
  }

  /** Nothing was loaded when the model was unknown at open; a new snapshot may have started from a parent. */
  private async loadBaseForWrites(): Promise<void> {
    const runFiles = new Map(this.files);
    this.files.clear();
    await this.loadEntries();
    for (const [path, file] of runFiles) this.files.set(path, file);
  }

  /** The blob id of each upserted file's content, creating blobs (with their chunks) the database lacks. */
  private async writeBlobs(client: PoolClient, files: readonly FileRecord[]): Promise<Map<string, string>> {
    const { ids, blobs, chunks } = await writeBlobs(client, files, this.chunkerVersion, (path) => this.texts.get(path) ?? []);
    this.written.blobs += blobs;
    this.written.chunks += chunks;
    return ids;
  }

  /** Marks the snapshot complete (or not) after a run. */
  async setComplete(complete: boolean): Promise<void> {
    await this.checkpoint();
    if (this.snapshotId) await this.pool.query(SNAPSHOT_STATE_SQL, [this.snapshotId, complete]);
    // Fresh statistics: with the row counts of an empty table the planner sorts every vector instead of using HNSW.
    await this.pool.query(ANALYZE_SQL);
  }

  shouldCompact(): boolean {
    return false;
  }

  /** Vectors and blobs are shared by every snapshot, so a run never deletes them. */
  compact(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
