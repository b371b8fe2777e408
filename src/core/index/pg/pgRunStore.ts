import type { Pool, PoolClient } from 'pg';
import type { Logger } from '../../logger';
import type { ChunkTextSink, RunStore } from '../indexPort';
import type { ChunkRef, FileRecord } from '../types';
import {
  ANALYZE_SQL,
  CHUNKS_INSERT_SQL,
  CHUNKS_SELECT_SQL,
  FILES_DELETE_SQL,
  FILES_INSERT_SQL,
  FILES_SELECT_SQL,
  HASHES_PAGE_SQL,
  MODEL_INSERT_SQL,
  MODEL_SELECT_SQL,
  SCHEMA_LOCK_SQL,
  SCHEMA_SQL,
  SCHEMA_UNLOCK_SQL,
  SNAPSHOT_RESET_SQL,
  SNAPSHOT_STATE_SQL,
  SNAPSHOT_UPSERT_SQL,
  SNAPSHOT_VERSION_SQL,
  VECTORS_INSERT_SQL,
  hnswIndexSql,
} from './pgSql';
import { pgText, tsvectorLiteral, vectorLiteral } from './pgText';

/** Which snapshot a writer fills: one repository at one commit, embedded by one model. */
export interface SnapshotKey {
  readonly repository: string;
  readonly commit: string;
  readonly model: string;
}

/** Creates the schema (tables, extension); needs a role that may create them. Idempotent. */
export async function ensureSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    // One schema change at a time when several CI jobs start together.
    await client.query(SCHEMA_LOCK_SQL);
    try {
      for (const sql of SCHEMA_SQL) await client.query(sql);
    } finally {
      await client.query(SCHEMA_UNLOCK_SQL);
    }
  } finally {
    client.release();
  }
}

interface ChunkText {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The team index as an index run's store (the `RunStore` port): PostgreSQL with pgvector. At open it
 * loads the snapshot's files and the model's known chunk hashes, so the run's per-chunk questions are
 * answered from memory; writes are buffered and each `checkpoint` commits them in one transaction,
 * vectors before the files that need them. So a killed run leaves only complete files behind, and the
 * next run finds the vectors it already paid for.
 */
export class PgRunStore implements RunStore, ChunkTextSink {
  private readonly files = new Map<string, FileRecord>();
  private readonly known = new Set<string>();
  private readonly texts = new Map<string, readonly ChunkText[]>();
  private pendingVectors: { hash: string; vector: string }[] = [];
  private pendingFiles = new Map<string, FileRecord>();
  private pendingDeletes = new Set<string>();
  private modelId = 0;
  private dim = 0;
  private snapshotId = 0;
  private flushing: Promise<void> = Promise.resolve();

  private constructor(private readonly pool: Pool, private readonly key: SnapshotKey, private readonly logger: Logger) {}

  /**
   * Opens (creating) the snapshot for writing. `chunkerVersion` different from the snapshot's empties
   * it (chunk boundaries changed); `dimension`, when known, registers the model at once.
   */
  static async open(pool: Pool, key: SnapshotKey, options: { chunkerVersion: number; dimension?: number | undefined; logger: Logger }): Promise<PgRunStore> {
    await ensureSchema(pool);
    const store = new PgRunStore(pool, key, options.logger);
    await store.load(options.chunkerVersion, options.dimension);
    return store;
  }

  private async load(chunkerVersion: number, dimension: number | undefined): Promise<void> {
    const model = await this.pool.query<{ id: number; dimension: number }>(MODEL_SELECT_SQL, [this.key.model]);
    const row = model.rows[0];
    if (row) {
      this.modelId = row.id;
      this.dim = row.dimension;
    } else if (dimension) await this.registerModel(dimension);
    await this.openSnapshot(chunkerVersion);
    const files = await this.pool.query<{ path: string; hash: string; size: string; mtime_ms: number }>(FILES_SELECT_SQL, [this.snapshotId]);
    const chunks = await this.pool.query<{ path: string; start_line: number; end_line: number; hash: string }>(CHUNKS_SELECT_SQL, [this.snapshotId]);
    const byPath = new Map<string, ChunkRef[]>();
    for (const c of chunks.rows) {
      let list = byPath.get(c.path);
      if (!list) byPath.set(c.path, (list = []));
      list.push({ startLine: c.start_line, endLine: c.end_line, hash: c.hash });
    }
    for (const f of files.rows) this.files.set(f.path, { path: f.path, hash: f.hash, size: Number(f.size), mtimeMs: f.mtime_ms, chunks: byPath.get(f.path) ?? [] });
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
    this.logger.info(`Team index ${this.key.repository}@${this.key.commit} (${this.key.model}): ${this.files.size} files recorded, ${this.known.size} vectors known.`);
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

  private async openSnapshot(chunkerVersion: number): Promise<void> {
    if (!this.modelId) return;
    const snap = await this.pool.query<{ id: number; chunker_version: string }>(SNAPSHOT_UPSERT_SQL, [this.key.repository, this.key.commit, this.modelId, chunkerVersion]);
    const row = snap.rows[0];
    if (!row) throw new Error('Cannot create the snapshot row.');
    this.snapshotId = row.id;
    // bigint arrives as a string.
    if (Number(row.chunker_version) !== chunkerVersion) {
      await inTransaction(this.pool, async (client) => {
        await client.query(SNAPSHOT_RESET_SQL, [row.id]);
        await client.query(SNAPSHOT_VERSION_SQL, [row.id, chunkerVersion]);
      });
    }
    this.pendingChunkerVersion = chunkerVersion;
  }

  private pendingChunkerVersion = 0;

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
    this.texts.set(key, chunks.map((c) => ({ startLine: c.startLine, endLine: c.endLine, text: c.text })));
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
      await this.openSnapshot(this.pendingChunkerVersion);
    }
    const vectors = this.pendingVectors;
    const files = [...this.pendingFiles.values()];
    const deletes = [...this.pendingDeletes, ...files.map((f) => f.path)];
    this.pendingVectors = [];
    this.pendingFiles = new Map();
    this.pendingDeletes = new Set();
    await inTransaction(this.pool, async (client) => {
      if (vectors.length > 0) await client.query(VECTORS_INSERT_SQL, [this.modelId, vectors.map((v) => v.hash), vectors.map((v) => v.vector)]);
      if (deletes.length > 0) await client.query(FILES_DELETE_SQL, [this.snapshotId, deletes]);
      if (files.length === 0) return;
      await client.query(FILES_INSERT_SQL, [this.snapshotId, files.map((f) => f.path), files.map((f) => f.hash), files.map((f) => f.size), files.map((f) => f.mtimeMs)]);
      const rows = { path: [] as string[], s: [] as number[], e: [] as number[], hash: [] as string[], body: [] as string[], terms: [] as string[] };
      for (const file of files) {
        const texts = this.texts.get(file.path) ?? [];
        file.chunks.forEach((chunk, i) => {
          const text = texts[i]?.startLine === chunk.startLine ? (texts[i]?.text ?? '') : '';
          rows.path.push(file.path);
          rows.s.push(chunk.startLine);
          rows.e.push(chunk.endLine);
          rows.hash.push(chunk.hash);
          rows.body.push(pgText(text));
          rows.terms.push(tsvectorLiteral(text));
        });
      }
      await client.query(CHUNKS_INSERT_SQL, [this.snapshotId, rows.path, rows.s, rows.e, rows.hash, rows.body, rows.terms]);
    });
    for (const file of files) this.texts.delete(file.path);
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

  /** Vectors are shared by every snapshot, so a run never deletes them. */
  compact(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
