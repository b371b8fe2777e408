import type { Pool } from 'pg';
import { silentLogger, type Logger } from '../../logger';
import { chunkerVersion, type ChunkOptions } from '../chunker';
import type { EmbedFunction } from '../embedQueue';
import { nodeFileSource } from '../fileSource';
import { IgnoreRules } from '../ignoreRules';
import { IndexRun, type IndexProgress, type IndexRunResult } from '../indexRun';
import type { IndexRoot } from '../types';
import { DEFAULT_MAX_FILE_BYTES, newWalkStats, walkWorkspace } from '../walker';
import { PgRunStore, type SnapshotKey } from './pgRunStore';

/** What the command-line indexer (and CI) asks for. */
export interface TeamIndexOptions extends SnapshotKey {
  /** The checkout to walk. */
  readonly root: string;
  readonly pool: Pool;
  readonly embed: EmbedFunction;
  readonly dimension?: number | undefined;
  readonly batchSize?: number | undefined;
  readonly concurrency?: number | undefined;
  readonly chunking?: ChunkOptions | undefined;
  readonly maxFileBytes?: number | undefined;
  /**
   * Stop after this many files (none by default: the extension's own limit, 250,000, would cut a large
   * monorepo short). A run stopped by it is incomplete, so the snapshot is never published with files missing.
   */
  readonly maxFiles?: number | undefined;
  readonly logger?: Logger | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: IndexProgress) => void) | undefined;
}

/** A run's outcome plus what the snapshot holds afterwards. */
export interface TeamIndexResult extends IndexRunResult {
  readonly files: number;
  readonly chunks: number;
  /** Rows this run wrote: proportional to what changed since the snapshot's parent, not to the repository. */
  readonly written: PgRunStore['written'];
}

/**
 * Brings a team-index snapshot up to date with a checkout: the same walk, ignore rules, chunker and
 * index run as the extension's local index, writing to PostgreSQL. Only chunks whose hash the
 * database lacks are embedded; each stored batch is one transaction; the snapshot is marked
 * complete only when every file is.
 */
export async function buildTeamIndex(options: TeamIndexOptions): Promise<TeamIndexResult> {
  const logger = options.logger ?? silentLogger;
  const version = chunkerVersion(options.chunking);
  const store = await PgRunStore.open(options.pool, options, { chunkerVersion: version, dimension: options.dimension, logger });
  const signal = options.signal ?? new AbortController().signal;
  const root: IndexRoot = { name: options.repository, path: options.root };
  const rules = new IgnoreRules(root.path, { logger });
  const run = new IndexRun({
    store,
    keywords: store,
    source: nodeFileSource,
    embed: options.embed,
    embedding: { batchSize: options.batchSize, concurrency: options.concurrency },
    chunking: options.chunking,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    logger,
    signal,
    onProgress: options.onProgress,
    forceRechunk: false,
  });
  const stats = newWalkStats();
  const maxFiles = options.maxFiles ?? Number.POSITIVE_INFINITY;
  for await (const entry of walkWorkspace({
    roots: [root],
    maxFileBytes: options.maxFileBytes,
    maxFiles,
    rules: new Map([[root.path, rules]]),
    signal,
    stats,
    logger,
  })) {
    await run.add(entry);
    if (signal.aborted) break;
  }
  const finished = await run.finish();
  const result: IndexRunResult =
    stats.truncated && finished.status === 'complete'
      ? {
          ...finished,
          status: 'incomplete',
          stopReason: `stopped after ${maxFiles} files (--max-files); raise it, or leave files out with .cadenzaignore`,
          stop: { kind: 'maxFiles', maxFiles },
        }
      : finished;
  let deleted = 0;
  if (!signal.aborted && !stats.truncated && !stats.failedRoots.has(root.name)) {
    for (const path of [...store.paths()]) if (!run.seen.has(path) && store.deleteFile(path)) deleted++;
  }
  await store.setComplete(result.status === 'complete');
  let chunks = 0;
  let files = 0;
  for (const path of store.paths()) {
    files++;
    chunks += store.getFile(path)?.chunks.length ?? 0;
  }
  return { ...result, filesDeleted: deleted, files, chunks, written: { ...store.written } };
}
