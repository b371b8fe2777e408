import * as path from 'node:path';
import { silentLogger, type Logger } from '../logger';
import { decodeFile } from './binaryDetect';
import { KeywordIndex } from './bm25';
import { chunkerVersion, maxChunkLines } from './chunker';
import { nodeFileSource, sliceLines, type FileSource } from './fileSource';
import { CADENZA_IGNORE, GIT_IGNORE, IgnoreRules } from './ignoreRules';
import { IndexRun, type IndexRunResult, type RunEntry } from './indexRun';
import { HybridSearch, type HybridOptions, type HybridQuery, type SearchResult } from './search';
import type { RankedLists } from './fusion';
import { IndexStore } from './store/indexStore';
import type { IndexRoot, LoadStatus } from './types';
import type { IndexSearchResult, IndexStats, RunOptions, WorkspaceIndexOptions } from './workspaceIndexOptions';
import { whyNotIndexed, type IndexSkip } from './indexable';
import { DEFAULT_MAX_FILE_BYTES, newWalkStats, realRoot, skipByPath, staysInside, walkWorkspace } from './walker';

export { indexFilePath, type IndexSearchResult, type IndexStats, type RunOptions, type WorkspaceIndexOptions } from './workspaceIndexOptions';

const empty = (): IndexRunResult => ({
  status: 'complete',
  filesSeen: 0,
  filesChanged: 0,
  filesUnchanged: 0,
  filesSkipped: 0,
  filesDeleted: 0,
  chunksEmbedded: 0,
  chunksReused: 0,
  chunksPending: 0,
  elapsedMs: 0,
});

/**
 * The semantic index of a workspace: the one object the host holds. `sync` walks everything (on
 * start, after settings change), `applyChanges` takes the watcher's paths; both run one at a time,
 * and changes that arrive while a run is busy are merged into the next run, so a branch switch that
 * fires thousands of events is one batch. Search is synchronous and always sees a consistent index.
 */
export class WorkspaceIndex {
  private readonly keywords: KeywordIndex | undefined;
  private readonly searcher: HybridSearch;
  private readonly logger: Logger;
  private readonly source: FileSource;
  private readonly version: number;
  private rules = new Map<string, IgnoreRules>();
  private tail: Promise<unknown> = Promise.resolve();
  private changed = new Set<string>();
  private busy = false;
  private last: IndexRunResult | undefined;
  /** Stops background warm-up when the index closes. */
  private readonly closing = new AbortController();

  private constructor(
    private readonly options: WorkspaceIndexOptions,
    private readonly store: IndexStore,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.source = options.fileSource ?? nodeFileSource;
    this.keywords = options.keywordIndex === false ? undefined : new KeywordIndex();
    this.searcher = new HybridSearch(store, this.keywords, options.search);
    this.version = chunkerVersion(options.chunking);
  }

  /** Opens the index file (creating, or discarding and reporting a bad one); never throws for file problems. */
  static async open(options: WorkspaceIndexOptions): Promise<{ index: WorkspaceIndex; status: LoadStatus }> {
    const { store, status } = await IndexStore.open({
      path: options.storagePath,
      modelId: options.modelId,
      dimension: options.dimension,
      logger: options.logger,
      io: options.io,
      preferSimd: options.preferSimd,
    });
    const index = new WorkspaceIndex(options, store);
    index.warmSoon();
    return { index, status };
  }

  /** Warms search in the background; a failure there only costs the first query its speed. */
  private warmSoon(): void {
    this.searcher.warm(this.closing.signal).catch((error: unknown) => this.logger.debug(`Index warm-up skipped: ${String(error)}`));
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(async () => {
      this.busy = true;
      try {
        return await work();
      } finally {
        this.busy = false;
      }
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  private rulesFor(root: IndexRoot): IgnoreRules {
    let rules = this.rules.get(root.path);
    if (!rules) this.rules.set(root.path, (rules = new IgnoreRules(root.path, { ...this.options.ignore, logger: this.logger })));
    return rules;
  }

  private newRun(options: RunOptions, forceRechunk: boolean): IndexRun {
    return new IndexRun({
      store: this.store,
      keywords: this.keywords,
      source: this.source,
      embed: this.options.embed,
      embedding: this.options.embedding ?? {},
      chunking: this.options.chunking,
      maxFileBytes: this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      logger: this.logger,
      signal: options.signal ?? new AbortController().signal,
      onProgress: options.onProgress,
      forceRechunk,
    });
  }

  /** Walks every root and brings the index up to date: embeds what is new, drops what is gone. */
  sync(options: RunOptions = {}): Promise<IndexRunResult> {
    return this.exclusive(() => this.syncNow(options));
  }

  private async syncNow(options: RunOptions): Promise<IndexRunResult> {
    this.changed.clear();
    this.rules = new Map();
    const store = this.store;
    if (store.fileCount === 0) store.chunkerVersion = this.version;
    const forceRechunk = store.chunkerVersion !== this.version;
    const run = this.newRun(options, forceRechunk);
    const stats = newWalkStats();
    const signal = options.signal;
    for await (const entry of walkWorkspace({
      ...this.options.ignore,
      roots: this.options.roots,
      maxFileBytes: this.options.maxFileBytes,
      followSymlinks: this.options.followSymlinks,
      maxFiles: this.options.maxFiles,
      rules: new Map(this.options.roots.map((r) => [r.path, this.rulesFor(r)])),
      signal,
      stats,
      logger: this.logger,
    })) {
      await run.add(entry);
      if (signal?.aborted) break;
    }
    const result = await run.finish();
    let deleted = 0;
    if (!signal?.aborted && !stats.truncated) {
      const live = new Set(this.options.roots.filter((r) => !stats.failedRoots.has(r.name)).map((r) => r.name));
      const known = new Set(this.options.roots.map((r) => r.name));
      const gone = (key: string): boolean => {
        const rootName = key.slice(0, key.indexOf('/'));
        return !run.seen.has(key) && (live.has(rootName) || !known.has(rootName));
      };
      for (const file of [...store.files()]) if (gone(file.path) && store.deleteFile(file.path)) deleted++;
      if (this.keywords) for (const key of [...this.keywords.paths()]) if (gone(key)) this.keywords.removeFile(key);
    }
    if (result.status === 'complete' && forceRechunk) store.chunkerVersion = this.version;
    await store.checkpoint({ sync: true });
    if (result.status === 'complete' && (store.shouldCompact() || forceRechunk)) await store.compact(run.pendingHashes());
    else if (store.shouldCompact()) await store.compact('all');
    return this.finished({ ...result, filesDeleted: deleted, linksOutside: stats.skipped.outsideWorkspace ?? 0, elapsedMs: result.elapsedMs });
  }

  private finished(result: IndexRunResult): IndexRunResult {
    this.last = result;
    this.warmSoon();
    const level = result.status === 'incomplete' ? 'warn' : 'info';
    this.logger[level](
      `Index ${result.status}: ${result.filesSeen} files (${result.filesChanged} changed, ${result.filesDeleted} removed), ` +
        `${result.chunksEmbedded} chunks embedded, ${result.chunksReused} reused, ${result.chunksPending} pending in ${result.elapsedMs} ms` +
        (result.stopReason ? ` (${result.stopReason})` : ''),
    );
    return result;
  }

  /**
   * Applies file-system events. Every path is checked on disk, so it does not matter whether the
   * watcher said "changed", "created" or "deleted": present files are (re)indexed, absent paths
   * (files or whole folders) are dropped, folders are walked. A changed ignore file means a full sync.
   */
  applyChanges(paths: { readonly changed?: readonly string[]; readonly deleted?: readonly string[] }, options: RunOptions = {}): Promise<IndexRunResult> {
    for (const p of [...(paths.changed ?? []), ...(paths.deleted ?? [])]) this.changed.add(path.resolve(p));
    return this.exclusive(() => this.applyNow(options));
  }

  private locate(absPath: string): { root: IndexRoot; rel: string } | undefined {
    let best: { root: IndexRoot; rel: string } | undefined;
    for (const root of this.options.roots) {
      const rel = path.relative(root.path, absPath);
      if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) continue;
      if (!best || root.path.length > best.root.path.length) best = { root, rel: rel.split(path.sep).join('/') };
    }
    return best;
  }

  private async applyNow(options: RunOptions): Promise<IndexRunResult> {
    const batch = [...this.changed];
    this.changed.clear();
    if (batch.length === 0) return empty();
    const targets = batch.map((p) => this.locate(p)).filter((t): t is { root: IndexRoot; rel: string } => t !== undefined);
    if (targets.some((t) => t.rel.endsWith(GIT_IGNORE) || t.rel.endsWith(CADENZA_IGNORE))) {
      this.logger.info('An ignore file changed; re-walking the workspace.');
      return this.syncNow(options);
    }
    const run = this.newRun(options, false);
    const uncertain = new Set<string>();
    const maxBytes = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const walkStats = newWalkStats();
    let linksOutside = 0;
    for (const { root, rel } of targets) {
      if (options.signal?.aborted) break;
      const key = rel === '' ? root.name : `${root.name}/${rel}`;
      const absPath = path.join(root.path, ...rel.split('/').filter((s) => s !== ''));
      // A path the watcher names may be a link out of the folder, or lie below one: never read it
      // (and drop it, if it was indexed).
      if ((await staysInside(await realRoot(root.path), absPath)) === false) {
        this.logger.debug(`Index skips ${absPath}: a link out of the workspace folder`);
        linksOutside++;
        continue;
      }
      let stat: Awaited<ReturnType<FileSource['stat']>>;
      try {
        stat = await this.source.stat(absPath);
      } catch (error) {
        this.logger.warn(`Cannot check ${absPath}: ${String(error)}`);
        uncertain.add(key);
        continue;
      }
      const rules = this.rulesFor(root);
      if (!stat) continue;
      if (stat.isDirectory) {
        if (rel !== '' && (await skipByPath(rules, rel, true)) !== undefined) continue;
        for await (const entry of walkWorkspace({
          ...this.options.ignore,
          roots: [root],
          below: rel,
          maxFileBytes: maxBytes,
          followSymlinks: this.options.followSymlinks,
          rules: new Map([[root.path, rules]]),
          signal: options.signal,
          stats: walkStats,
          logger: this.logger,
        })) {
          await run.add(entry);
        }
      } else if (stat.isFile && (await this.skipReason(root.name, rel)) === undefined) {
        await run.add({ key, absPath, size: stat.size, mtimeMs: stat.mtimeMs } satisfies RunEntry);
      }
    }
    const result = await run.finish();
    let deleted = 0;
    if (!options.signal?.aborted) {
      // Whatever was named and is not (or no longer) indexable goes: deleted files and folders,
      // files now ignored, too large or binary, and files removed from a folder that changed.
      const named = new Set(targets.map(({ root, rel }) => (rel === '' ? root.name : `${root.name}/${rel}`)).filter((k) => !uncertain.has(k)));
      const covered = (key: string): boolean => {
        if (run.seen.has(key)) return false;
        for (let at = key.length; at > 0; at = key.lastIndexOf('/', at - 1)) if (named.has(key.slice(0, at))) return true;
        return false;
      };
      for (const file of [...this.store.files()]) if (covered(file.path) && this.store.deleteFile(file.path)) deleted++;
      if (this.keywords) for (const key of [...this.keywords.paths()]) if (covered(key)) this.keywords.removeFile(key);
    }
    await this.store.checkpoint({ sync: true });
    if (this.store.shouldCompact()) await this.store.compact('all');
    return this.finished({ ...result, filesDeleted: deleted, linksOutside: linksOutside + (walkStats.skipped.outsideWorkspace ?? 0) });
  }

  /** Hybrid search; pass the query's embedding (see `queryTextFor`) when the service is reachable. */
  search(query: HybridQuery, options?: HybridOptions): IndexSearchResult[] {
    return this.searcher.search(query, options).map((result) => this.placeResult(result));
  }

  /** The three ranked lists before fusion (the team index overlays them with its own). */
  lists(query: HybridQuery, depth: number): RankedLists {
    return this.searcher.lists(query, depth);
  }

  /** A result (`<root name>/<relative path>`) with its root, relative and absolute path in this workspace. */
  placeResult(result: SearchResult): IndexSearchResult {
    const slash = result.path.indexOf('/');
    const rootName = result.path.slice(0, slash);
    const relPath = result.path.slice(slash + 1);
    const root = this.options.roots.find((r) => r.name === rootName);
    return { ...result, root: rootName, relPath, absPath: root ? path.join(root.path, ...relPath.split('/')) : undefined };
  }

  /**
   * Why this index would not hold root-relative `relPath` of the folder named `rootName` (core/index/
   * indexable.ts), or undefined when it would: the same rules as its walk, for one path.
   */
  async skipReason(rootName: string, relPath: string): Promise<IndexSkip | undefined> {
    const root = this.options.roots.find((r) => r.name === rootName);
    if (!root) return 'outsideWorkspace';
    return whyNotIndexed({ root, rules: this.rulesFor(root), maxFileBytes: this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, source: this.source }, relPath);
  }

  /** The most lines a chunk of this index spans (a longer span is cut to it when read). */
  get maxChunkLines(): number {
    return maxChunkLines(this.options.chunking);
  }

  /**
   * The current text of a result's lines (for previews and chat context), at most a chunk's lines;
   * undefined if unreadable now, or if the file is one this index would not hold: a path the team's
   * database names, or a file replaced by a link out of the folder (or to a secret) since it was indexed,
   * must not reach a preview or the chat's context.
   */
  async readChunk(result: { readonly absPath: string | undefined; readonly startLine: number; readonly endLine: number }): Promise<string | undefined> {
    if (!result.absPath) return undefined;
    try {
      const located = this.locate(path.resolve(result.absPath));
      if (!located || (await this.skipReason(located.root.name, located.rel)) !== undefined) return undefined;
      const read = await this.source.read(result.absPath, this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
      if (!read || read === 'tooLarge') return undefined;
      const decoded = decodeFile(read);
      const endLine = Math.min(result.endLine, result.startLine + this.maxChunkLines - 1);
      return decoded.kind === 'text' ? sliceLines(decoded.text, result.startLine, endLine) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Counts for the status bar. */
  stats(): IndexStats {
    let chunks = 0;
    for (const file of this.store.files()) chunks += file.chunks.length;
    return {
      files: this.store.fileCount,
      chunks,
      vectors: this.store.vectorCount,
      keywordChunks: this.keywords?.size ?? 0,
      dimension: this.store.dimension,
      modelId: this.store.modelId,
      diskBytes: this.store.diskBytes,
      writable: this.store.writable,
      simd: this.store.arena?.simd ?? false,
      running: this.busy,
      lastRun: this.last,
    };
  }

  /** Waits for the current run, writes what is pending and closes the files. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.tail;
    await this.store.close();
  }
}
