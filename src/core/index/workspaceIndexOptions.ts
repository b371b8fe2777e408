// What the host gives a WorkspaceIndex and what it reads back: the options, a located search result, the
// status bar's counts, one run's options, and where a model's index file lives.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { Logger } from '../logger';
import type { ChunkOptions } from './chunker';
import type { EmbedFunction, FailureAction } from './embedQueue';
import type { FileSource } from './fileSource';
import type { IgnoreOptions } from './ignoreRules';
import type { IndexProgress, IndexRunResult } from './indexRun';
import type { SearchResult } from './search';
import type { StoreIo } from './store/storeIo';
import type { IndexRoot } from './types';
import type { VectorSearchOptions } from './vectorSearch';

/** Everything the host configures. Only `roots`, `storagePath`, `modelId` and `embed` are required. */
export interface WorkspaceIndexOptions {
  readonly roots: readonly IndexRoot[];
  /** The snapshot file (see `indexFilePath`), or undefined to keep the index in memory only. */
  readonly storagePath: string | undefined;
  readonly modelId: string;
  /** 4,096 for E5-Mistral-7B-Instruct; when absent the first embedding decides. */
  readonly dimension?: number | undefined;
  readonly embed: EmbedFunction;
  /** `files.exclude` + `search.exclude`, generated-folder overrides, `.gitignore` use, case. */
  readonly ignore?: Omit<IgnoreOptions, 'logger'> | undefined;
  readonly maxFileBytes?: number | undefined;
  readonly followSymlinks?: boolean | undefined;
  readonly maxFiles?: number | undefined;
  readonly chunking?: ChunkOptions | undefined;
  readonly embedding?:
    | {
        readonly batchSize?: number | undefined;
        readonly concurrency?: number | undefined;
        readonly maxConsecutiveFailures?: number | undefined;
        /** First wait before a failed batch is retried within the run (default 1 s, doubling). */
        readonly retryDelayMs?: number | undefined;
        readonly failureAction?: ((error: unknown) => FailureAction) | undefined;
      }
    | undefined;
  /** Keep a BM25 index for hybrid search (default true; costs one read of every file per session). */
  readonly keywordIndex?: boolean | undefined;
  readonly search?: VectorSearchOptions | undefined;
  readonly logger?: Logger | undefined;
  readonly fileSource?: FileSource | undefined;
  readonly io?: StoreIo | undefined;
  readonly preferSimd?: boolean | undefined;
}

/** A search result with the file located in the workspace. */
export interface IndexSearchResult extends SearchResult {
  readonly root: string;
  readonly relPath: string;
  /** Undefined when the result's workspace folder is no longer open. */
  readonly absPath: string | undefined;
}

/** What the status bar and the "index status" command show. */
export interface IndexStats {
  readonly files: number;
  readonly chunks: number;
  readonly vectors: number;
  readonly keywordChunks: number;
  readonly dimension: number;
  readonly modelId: string;
  readonly diskBytes: number;
  readonly writable: boolean;
  readonly simd: boolean;
  readonly running: boolean;
  readonly lastRun: IndexRunResult | undefined;
}

/** Options of one run. */
export interface RunOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: IndexProgress) => void) | undefined;
}

/** The index file for a model in a storage folder: one file per model, so switching models never mixes vectors. */
export function indexFilePath(storageDir: string, modelId: string): string {
  const slug = modelId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  const digest = createHash('sha256').update(modelId).digest('hex').slice(0, 8);
  return path.join(storageDir, `index-${slug}-${digest}.cdzi`);
}
