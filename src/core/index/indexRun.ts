import type { Logger } from '../logger';
import { keywordDocuments } from './chunkContext';
import type { ChunkOptions } from './chunker';
import { EmbedQueue, type EmbedFunction, type EmbedQueueOptions } from './embedQueue';
import type { FileSource } from './fileSource';
import { prepareFile } from './prepareFile';
import type { ChunkTextSink, RunStore } from './indexPort';
import type { ChunkRef, FileRecord } from './types';

/** Progress of a run, for a status bar: counts only grow within a run. */
export interface IndexProgress {
  readonly phase: 'scanning' | 'embedding' | 'done';
  readonly filesSeen: number;
  readonly filesProcessed: number;
  readonly chunksToEmbed: number;
  readonly chunksEmbedded: number;
}

/** How a run ended. `incomplete` means some chunks still wait for embeddings (the next run resumes). */
export interface IndexRunResult {
  readonly status: 'complete' | 'cancelled' | 'incomplete';
  readonly filesSeen: number;
  readonly filesChanged: number;
  readonly filesUnchanged: number;
  readonly filesSkipped: number;
  readonly filesDeleted: number;
  readonly chunksEmbedded: number;
  readonly chunksReused: number;
  readonly chunksPending: number;
  /** Symbolic links skipped because their real path leaves the workspace folder (set by the index's runs). */
  readonly linksOutside?: number;
  /** Why the run stopped early, in English (the log and the CLI). */
  readonly stopReason?: string;
  /** The same as data, for the host to word in the user's language. */
  readonly stop?: IndexStop;
  readonly elapsedMs: number;
}

/**
 * Why a run stopped before every chunk was embedded: the embedding service refused in a way retrying cannot fix
 * (`fatal`), failed too often in a row (`tooManyFailures`), with its error's message as `detail`; or the team
 * indexer's `--max-files` was reached (`maxFiles`).
 */
export type IndexStop = { readonly kind: 'fatal' | 'tooManyFailures'; readonly detail?: string } | { readonly kind: 'maxFiles'; readonly maxFiles: number };

/** What a run needs from its index. */
export interface RunContext {
  readonly store: RunStore;
  readonly keywords: ChunkTextSink | undefined;
  readonly source: FileSource;
  readonly embed: EmbedFunction;
  readonly embedding: Omit<EmbedQueueOptions, 'embed' | 'signal' | 'dimension' | 'onVectors' | 'logger'>;
  readonly chunking: ChunkOptions | undefined;
  readonly maxFileBytes: number;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly onProgress: ((progress: IndexProgress) => void) | undefined;
  /** Re-chunk even files whose bytes are unchanged (the chunker's options changed). */
  readonly forceRechunk: boolean;
}

/** A file the walk or a change event produced. */
export interface RunEntry {
  readonly key: string;
  readonly absPath: string;
  readonly size: number;
  readonly mtimeMs: number;
}

interface PendingFile {
  readonly record: FileRecord;
  readonly missing: Set<string>;
}

const PREPARE_CONCURRENCY = 8;

/**
 * One pass over a set of files: prepare each, reuse every vector whose chunk hash is known (in any
 * file, so renames and copies are free), queue the rest for embedding, and record a file only once
 * all its chunks have vectors. Every stored batch is checkpointed, so an interruption loses nothing
 * that was embedded.
 */
export class IndexRun {
  /** Keys that should stay in the index (present and indexable, or unreadable but known). */
  readonly seen = new Set<string>();
  private readonly pending = new Map<string, PendingFile>();
  private readonly waiting = new Map<string, Set<string>>();
  private readonly queued = new Set<string>();
  private readonly active = new Set<Promise<void>>();
  private readonly queue: EmbedQueue;
  private readonly started = Date.now();
  private lastProgress = 0;
  private counts = { seen: 0, processed: 0, changed: 0, unchanged: 0, skipped: 0, reused: 0, toEmbed: 0 };
  filesDeleted = 0;

  constructor(private readonly ctx: RunContext) {
    this.queue = new EmbedQueue({
      ...ctx.embedding,
      embed: ctx.embed,
      signal: ctx.signal,
      logger: ctx.logger,
      dimension: () => ctx.store.dimension,
      onVectors: (items) => this.stored(items),
    });
  }

  /** Starts on one file, waiting first while too many are being prepared. */
  async add(entry: RunEntry): Promise<void> {
    if (this.ctx.signal.aborted) return;
    this.counts.seen++;
    if (this.unchanged(entry)) return;
    while (this.active.size >= PREPARE_CONCURRENCY) await Promise.race(this.active);
    const job: Promise<void> = this.process(entry)
      .catch((error: unknown) => this.ctx.logger.error(`Indexing ${entry.key} failed: ${String(error)}`))
      .finally(() => this.active.delete(job));
    this.active.add(job);
  }

  /** Same size and time as recorded (and already in the keyword index): nothing to read. */
  private unchanged(entry: RunEntry): boolean {
    const previous = this.ctx.store.getFile(entry.key);
    if (this.ctx.forceRechunk || !previous || previous.size !== entry.size || previous.mtimeMs !== entry.mtimeMs) return false;
    if (this.ctx.keywords && !this.ctx.keywords.has(entry.key)) return false;
    this.seen.add(entry.key);
    this.counts.unchanged++;
    this.progressed('scanning');
    return true;
  }

  private async process(entry: RunEntry): Promise<void> {
    const { store, keywords } = this.ctx;
    const previous = store.getFile(entry.key);
    const prepared = await prepareFile(entry.absPath, entry.mtimeMs, this.ctx.source, this.ctx.maxFileBytes, this.ctx.chunking);
    this.counts.processed++;
    if (prepared.kind === 'skip') {
      this.counts.skipped++;
      if (prepared.reason === 'unreadable') {
        this.ctx.logger.warn(`Cannot read ${entry.absPath} (${prepared.detail}); keeping what the index had.`);
        if (previous) this.seen.add(entry.key);
      } else this.ctx.logger.debug(`Index skips ${entry.absPath}: ${prepared.reason} (${prepared.detail})`);
      this.progressed('scanning');
      return;
    }
    const file = prepared.file;
    if (file.lossy) this.ctx.logger.debug(`${entry.absPath} is not valid UTF-8; decoded as ${file.encoding}.`);
    this.seen.add(entry.key);
    // The keyword index also reads the path relative to the folder (the key without the folder's name).
    keywords?.setFile(entry.key, keywordDocuments(entry.key.slice(entry.key.indexOf('/') + 1), file.chunks));
    const chunks: ChunkRef[] = file.chunks.map((c) => ({ startLine: c.startLine, endLine: c.endLine, hash: c.hash }));
    const record: FileRecord = { path: entry.key, hash: file.hash, size: file.size, mtimeMs: file.mtimeMs, chunks };
    if (previous && previous.hash === file.hash && sameChunks(previous.chunks, chunks)) {
      this.counts.unchanged++;
      // Same bytes, new timestamp (a checkout, a touch): remember the timestamp so the next run skips reading.
      if (previous.size !== file.size || previous.mtimeMs !== file.mtimeMs) store.putFile(record);
      this.progressed('scanning');
      return;
    }
    this.counts.changed++;
    const missing = new Set<string>();
    for (const chunk of file.chunks) {
      if (store.hasVector(chunk.hash)) {
        this.counts.reused++;
        continue;
      }
      missing.add(chunk.hash);
      let keys = this.waiting.get(chunk.hash);
      if (!keys) this.waiting.set(chunk.hash, (keys = new Set()));
      keys.add(entry.key);
      if (!this.queued.has(chunk.hash)) {
        this.queued.add(chunk.hash);
        this.counts.toEmbed++;
        this.queue.push(chunk.hash, chunk.text);
      }
    }
    const stale = this.pending.get(entry.key);
    if (stale) for (const hash of stale.missing) this.waiting.get(hash)?.delete(entry.key);
    if (missing.size === 0) {
      this.pending.delete(entry.key);
      store.putFile(record);
    } else this.pending.set(entry.key, { record, missing });
    this.progressed('scanning');
    await this.queue.waitForRoom();
  }

  private async stored(items: { hash: string; vector: Float32Array }[]): Promise<void> {
    const { store } = this.ctx;
    store.addVectors(items);
    for (const item of items) {
      if (!store.hasVector(item.hash)) continue;
      for (const key of this.waiting.get(item.hash) ?? []) {
        const file = this.pending.get(key);
        if (!file) continue;
        file.missing.delete(item.hash);
        if (file.missing.size === 0) {
          this.pending.delete(key);
          store.putFile(file.record);
        }
      }
      this.waiting.delete(item.hash);
    }
    await store.checkpoint();
    if (store.shouldCompact()) await store.compact('all');
    this.progressed('embedding');
  }

  private progressed(phase: IndexProgress['phase'], force = false): void {
    const onProgress = this.ctx.onProgress;
    if (!onProgress) return;
    const now = Date.now();
    if (!force && now - this.lastProgress < 100) return;
    this.lastProgress = now;
    onProgress({
      phase,
      filesSeen: this.counts.seen,
      filesProcessed: this.counts.seen - this.active.size,
      chunksToEmbed: this.counts.toEmbed,
      chunksEmbedded: this.queue.embedded,
    });
  }

  /** Waits for every file and batch, makes the work durable and reports. */
  async finish(): Promise<IndexRunResult> {
    while (this.active.size > 0) await Promise.race(this.active);
    this.progressed('embedding', true);
    const outcome = await this.queue.finish();
    await this.ctx.store.checkpoint({ sync: true });
    let chunksPending = 0;
    for (const file of this.pending.values()) chunksPending += file.missing.size;
    const cancelled = this.ctx.signal.aborted || outcome.stopped?.why === 'cancelled';
    const stop = outcome.stopped;
    const stopped: IndexStop | undefined =
      stop && stop.why !== 'cancelled' ? { kind: stop.why, ...(stop.error instanceof Error ? { detail: stop.error.message } : {}) } : undefined;
    const stopReason = stopped && ('detail' in stopped ? `${stopped.kind}: ${stopped.detail}` : stopped.kind);
    const result: IndexRunResult = {
      status: cancelled ? 'cancelled' : chunksPending > 0 || stop ? 'incomplete' : 'complete',
      filesSeen: this.counts.seen,
      filesChanged: this.counts.changed,
      filesUnchanged: this.counts.unchanged,
      filesSkipped: this.counts.skipped,
      filesDeleted: this.filesDeleted,
      chunksEmbedded: outcome.embedded,
      chunksReused: this.counts.reused,
      chunksPending,
      ...(stopped && stopReason ? { stopReason, stop: stopped } : {}),
      elapsedMs: Date.now() - this.started,
    };
    this.progressed('done', true);
    return result;
  }

  /** Chunk hashes of files still waiting, which a compaction must keep. */
  pendingHashes(): Set<string> {
    const keep = new Set<string>();
    for (const file of this.pending.values()) for (const chunk of file.record.chunks) keep.add(chunk.hash);
    return keep;
  }
}

function sameChunks(a: readonly ChunkRef[], b: readonly ChunkRef[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.hash !== y.hash || x.startLine !== y.startLine || x.endLine !== y.endLine) return false;
  }
  return true;
}
