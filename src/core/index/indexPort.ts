import type { FileRecord } from './types';

/**
 * The storage port of an index run: what `IndexRun` reads and writes. Two implementations: the local
 * `IndexStore` (a snapshot file plus journal on this machine) and the team index's `PgRunStore`
 * (PostgreSQL with pgvector). The calls are synchronous because a run asks them for every chunk;
 * a remote store answers from what it loaded at open and buffers writes until `checkpoint`.
 */
export interface RunStore {
  /** Vector length; 0 until the first vector decides it. */
  readonly dimension: number;
  /** The recorded file at `path` (complete: every chunk has a vector), if any. */
  getFile(path: string): FileRecord | undefined;
  /** Records a file whose every chunk has a vector. */
  putFile(file: FileRecord): void;
  /** Whether a vector for this chunk hash is stored (in any file, any branch). */
  hasVector(hash: string): boolean;
  /** Stores vectors by chunk hash. */
  addVectors(items: readonly { readonly hash: string; readonly vector: ArrayLike<number> }[]): unknown;
  /** Makes what was written so far durable (one transaction for a database). */
  checkpoint(options?: { sync?: boolean }): Promise<void>;
  /** Whether dead space justifies a compaction now. */
  shouldCompact(): boolean;
  /** Drops what no file references (keeping `keep`); a database may do nothing here. */
  compact(keep?: ReadonlySet<string> | 'all'): Promise<unknown>;
}

/** The port for the keyword side of a run: receives every re-chunked file's chunks with their text. */
export interface ChunkTextSink {
  /** Whether `key`'s chunks are already held (so an unchanged file need not be read). */
  has(key: string): boolean;
  /** Replaces `key`'s chunks. */
  setFile(key: string, chunks: readonly { readonly startLine: number; readonly endLine: number; readonly text: string }[]): void;
}
