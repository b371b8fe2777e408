/** A workspace folder to index. `name` prefixes every indexed path, so it must be unique among roots. */
export interface IndexRoot {
  readonly name: string;
  readonly path: string;
}

/** One chunk of an indexed file: 1-based inclusive line range and the content hash of its text. */
export interface ChunkRef {
  readonly startLine: number;
  readonly endLine: number;
  readonly hash: string;
}

/**
 * A file whose every chunk has a vector. Files still waiting for embeddings are never recorded, so a
 * recorded file is always complete; `path` is `<root name>/<path relative to the root>` with `/`.
 */
export interface FileRecord {
  readonly path: string;
  readonly hash: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly chunks: readonly ChunkRef[];
}

/** Why an existing index file was not used; the store then starts empty and the host may say so. */
export type DiscardReason = 'corrupt' | 'foreignVersion' | 'otherModel' | 'unreadable';

/** What opening an index found: a usable file, nothing, or a file it had to discard. */
export type LoadStatus =
  | { readonly kind: 'loaded'; readonly files: number; readonly vectors: number; readonly journalRecords: number }
  | { readonly kind: 'created' }
  | { readonly kind: 'discarded'; readonly reason: DiscardReason; readonly detail: string };
