import * as vscode from 'vscode';
import { queryTextFor } from '../../core/index/search';
import { searchIndexes } from '../../core/index/searchPolicy';
import type { IndexProgress, IndexRunResult } from '../../core/index/indexRun';
import type { IndexRoot, LoadStatus } from '../../core/index/types';
import type { IndexStats, WorkspaceIndex } from '../../core/index/workspaceIndex';
import type { WorkspaceContext } from '../chat/turnTypes';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';
import type { HostContext } from '../context';
import { IndexConsent } from './indexConsent';
import { indexExcludes, readIndexSettings } from './indexSettings';
import { IndexStatusBar } from './indexStatusBar';
import { progressMessage, reportLoad, reportRun } from './indexNotices';
import { TEAM_CONNECTION_SECRET, TeamConnection, teamRepository } from './teamConnection';
import { TeamIndexState, type TeamState } from './teamIndexState';
import { searchHit, workspaceContextOf, type SearchHit } from './searchHits';
import { searchTeam } from './teamSearch';

export type { SearchHit } from './searchHits';
export type { TeamState } from './teamIndexState';

/**
 * The workspace's semantic index: opened from the extension's workspace storage, built on consent (or
 * automatically, per `cadenza.index.mode`), kept fresh by a debounced file watcher whose changes become
 * one batch, searchable with the service's embeddings plus BM25. Never throws into the UI: failures
 * are logged and shown with what to do.
 */
export class IndexService implements vscode.Disposable {
  private index: WorkspaceIndex | undefined;
  private opening: Promise<WorkspaceIndex | undefined> | undefined;
  private running: AbortController | undefined;
  private paused = false;
  private reopening: Promise<void> = Promise.resolve();
  private lastLoad: LoadStatus | undefined;
  private pending = new Set<string>();
  private debounce: NodeJS.Timeout | undefined;
  private readonly statusBar = new IndexStatusBar();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly permission: IndexConsent;
  private readonly team: TeamConnection;
  private readonly teamState: TeamIndexState;
  private roots: IndexRoot[] = [];

  constructor(
    private readonly host: HostContext,
    private readonly connection: ServiceConnection,
  ) {
    this.team = new TeamConnection(host);
    this.permission = new IndexConsent(host.extension.workspaceState);
    this.teamState = new TeamIndexState(this.team, this.statusBar, host.log, () => this.index?.stats());
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const queue = (uri: vscode.Uri): void => this.queueChange(uri);
    this.disposables.push(
      this.statusBar,
      watcher,
      watcher.onDidCreate(queue),
      watcher.onDidChange(queue),
      watcher.onDidDelete(queue),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.scheduleReopen()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.start()),
      this.team,
      this.teamState,
      host.extension.secrets.onDidChange((event) => {
        if (event.key !== TEAM_CONNECTION_SECRET) return;
        void this.team.reset();
        this.scheduleReopen();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (['cadenza.index', 'files.exclude', 'search.exclude'].some((key) => event.affectsConfiguration(key))) this.scheduleReopen();
      }),
    );
  }

  /** Whether the workspace can have an index at all (a folder is open and storage exists). */
  get available(): boolean {
    return this.host.extension.storageUri !== undefined && (vscode.workspace.workspaceFolders ?? []).some((folder) => folder.uri.scheme === 'file');
  }

  /** The index file of the current model in workspace storage (undefined without a workspace). */
  async indexFile(): Promise<string | undefined> {
    const storage = this.host.extension.storageUri;
    if (!storage) return undefined;
    const { indexFilePath } = await import('../../core/index/workspaceIndex');
    return indexFilePath(storage.fsPath, readIndexSettings().model);
  }

  /** Records that the user asked for the index (running Rebuild is consent to send the files). */
  consent(): Promise<void> {
    return this.permission.given();
  }

  /** Sets this workspace's answer to "Build a semantic index?" (undefined: not asked yet); returns the one before. For the tests. */
  answerConsent(value: boolean | undefined): Promise<boolean | undefined> {
    return this.permission.answer(value);
  }

  /**
   * Called after activation and when the workspace becomes trusted: builds or refreshes per
   * `cadenza.index.mode` (ask once, auto, off). Does nothing in Restricted Mode. Resolves when done.
   */
  async start(): Promise<void> {
    const settings = readIndexSettings();
    if (!this.available) return;
    if (teamRepository() !== '') {
      // The team's index answers; locally only uncommitted files are indexed, at search time. In Restricted
      // Mode the database is not contacted (TeamConnection); granting trust calls start() again.
      await this.refreshTeam();
      return;
    }
    if (settings.mode === 'off') return;
    if (!vscode.workspace.isTrusted) {
      this.host.log.info('Restricted Mode: the workspace index is not built automatically; run "Cadenza: Rebuild Index" to build it.');
      return;
    }
    if (settings.mode === 'ask' && !(await this.permission.ask(settings.model))) return;
    await this.sync(true);
  }

  private async open(): Promise<WorkspaceIndex | undefined> {
    if (this.index) return this.index;
    this.opening ??= this.openNow().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async openNow(): Promise<WorkspaceIndex | undefined> {
    const storage = this.host.extension.storageUri;
    if (!storage || !this.available) return undefined;
    const settings = readIndexSettings();
    const { WorkspaceIndex: Index, indexFilePath } = await import('../../core/index/workspaceIndex');
    await vscode.workspace.fs.createDirectory(storage);
    const names = new Set<string>();
    const roots = (vscode.workspace.workspaceFolders ?? [])
      .filter((folder) => folder.uri.scheme === 'file')
      .map((folder) => {
        let name = folder.name.replace(/\//g, '_');
        while (names.has(name)) name = `${name}_`;
        names.add(name);
        return { name, path: folder.uri.fsPath };
      });
    this.roots = roots;
    // With a team index the local file holds the uncommitted files (and whatever Rebuild Index adds),
    // apart from a full local index of the same model.
    const local = indexFilePath(storage.fsPath, settings.model);
    const { index, status } = await Index.open({
      roots,
      storagePath: teamRepository() !== '' ? `${local}.team` : local,
      modelId: settings.model,
      embed: async (texts, signal) => (await this.connection.client()).embedMany(texts, settings.model, { batchSize: texts.length, concurrency: 1, signal }),
      ignore: { excludes: indexExcludes() },
      maxFileBytes: settings.maxFileBytes,
      embedding: { batchSize: settings.batchSize, concurrency: settings.concurrency },
      logger: this.host.log,
    });
    this.lastLoad = status;
    reportLoad(this.host.log, status);
    this.index = index;
    this.showIdle(index);
    return index;
  }

  private showIdle(index: WorkspaceIndex): void {
    this.teamState.showIdle(index.stats());
  }

  /** Which index answered the last search (undefined without a team index). */
  get teamStatus(): TeamState | undefined {
    return this.teamState.current;
  }

  /** The status bar item's text and tooltip now (tests read what the user sees). */
  get status(): { readonly text: string; readonly tooltip: string } {
    return this.statusBar.current;
  }

  /** Looks the team index up now (at start, after a settings change, and every 30 s while unreachable). */
  refreshTeam(): Promise<TeamState | undefined> {
    return this.teamState.refresh();
  }

  private scheduleReopen(): void {
    this.reopening = this.reopening
      .then(() => this.reopen())
      .catch((error: unknown) => this.host.log.warn(`Reopening the index failed: ${errorView(error).message}`));
  }

  /** Resolves when reopening after a settings or folder change has finished (tests and callers wait on it). */
  whenSettled(): Promise<void> {
    return this.reopening;
  }

  /** How the index file was found when it was last opened: loaded, created, or discarded and why. */
  get loadStatus(): LoadStatus | undefined {
    return this.lastLoad;
  }

  private async reopen(): Promise<void> {
    this.running?.abort();
    const old = this.index;
    this.index = undefined;
    await old?.close();
    if (readIndexSettings().mode !== 'off' && !this.permission.refused) await this.open();
    await this.refreshTeam();
  }

  /** A full pass: walks, re-chunks what changed, embeds what is new. Shows a notification when asked. */
  async sync(notify: boolean, fromScratch = false): Promise<IndexRunResult | undefined> {
    if (fromScratch) await this.discard();
    const index = await this.open();
    if (!index) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder to build a workspace index.'));
      return undefined;
    }
    this.paused = false;
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    const run = (progress?: vscode.Progress<{ message?: string; increment?: number }>): Promise<IndexRunResult> =>
      index.sync({ signal: controller.signal, onProgress: (update) => this.progress(update, progress) });
    try {
      const result = notify
        ? await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Cadenza: indexing the workspace'), cancellable: true },
            (progress, token) => {
              token.onCancellationRequested(() => controller.abort());
              return run(progress);
            },
          )
        : await run();
      reportRun(this.host.log, result);
      return result;
    } catch (error) {
      this.host.log.error(`Indexing failed: ${errorView(error).message}`);
      const showLog = vscode.l10n.t('Show Log');
      void vscode.window
        .showErrorMessage(vscode.l10n.t('Cadenza could not index the workspace: {0}', errorView(error).message), showLog)
        .then((choice) => choice === showLog && this.host.log.show(true));
      return undefined;
    } finally {
      if (this.running === controller) this.running = undefined;
      this.showIdle(index);
    }
  }

  private progress(update: IndexProgress, progress?: vscode.Progress<{ message?: string }>): void {
    this.statusBar.progress(update);
    progress?.report({ message: progressMessage(update) });
  }

  private async discard(): Promise<void> {
    const storage = this.host.extension.storageUri;
    await this.reopen();
    const old = this.index;
    this.index = undefined;
    await old?.close();
    const file = await this.indexFile();
    if (!storage || !file) return;
    for (const suffix of ['', '.journal'])
      await vscode.workspace.fs.delete(vscode.Uri.file(file + suffix), { useTrash: false }).then(undefined, () => undefined);
  }

  private queueChange(uri: vscode.Uri): void {
    if (!this.permission.followsChanges) return;
    // An index opened before the question was answered (a search, completions' keyword lookup) follows no changes.
    if (uri.scheme !== 'file' || this.paused || !this.index || !this.permission.mayRunUnasked || !this.permission.consented) return;
    const storage = this.host.extension.storageUri?.fsPath;
    if (storage && uri.fsPath.startsWith(storage)) return;
    this.pending.add(uri.fsPath);
    // Debounced and batched: a branch switch touching thousands of files becomes one applyChanges.
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.flushChanges(), readIndexSettings().debounceMs);
  }

  private async flushChanges(): Promise<void> {
    const index = this.index;
    const paths = [...this.pending];
    this.pending.clear();
    // Checked again: the index may have been reopened for a team index since these were queued.
    if (!index || paths.length === 0 || !this.permission.followsChanges) return;
    const controller = new AbortController();
    this.running = controller;
    try {
      const result = await index.applyChanges({ changed: paths }, { signal: controller.signal, onProgress: (update) => this.statusBar.progress(update) });
      this.host.log.debug(`Index updated for ${paths.length} changed paths: ${result.chunksEmbedded} chunks embedded.`);
    } catch (error) {
      this.host.log.warn(`Index update failed: ${errorView(error).message}`);
    } finally {
      if (this.running === controller) this.running = undefined;
      this.showIdle(index);
    }
  }

  /** Pauses (cancels the running pass and ignores changes) or resumes. Returns whether it is now paused. */
  togglePause(): boolean {
    this.paused = !this.paused;
    if (this.paused) {
      this.running?.abort();
      this.statusBar.paused();
    } else if (this.index) {
      this.showIdle(this.index);
      if (this.permission.mayRunUnasked) void this.sync(false);
    }
    return this.paused;
  }

  /** What the index holds now. */
  async stats(): Promise<IndexStats | undefined> {
    return (await this.open())?.stats();
  }

  /** Hybrid search by core's policy (core/index/searchPolicy.ts): the query embedded with the index's model plus BM25, the team index first when set. */
  async search(query: string, k = 10, signal?: AbortSignal): Promise<SearchHit[]> {
    let index: WorkspaceIndex | undefined;
    const answer = await searchIndexes(query, k, {
      teamConfigured: async () => teamRepository() !== '' && (await this.team.configured()),
      local: async () => (index = await this.open()),
      embed: () => this.embedQuery(query, signal),
      team: async (hybrid, count) => {
        const settings = readIndexSettings();
        const retrying = this.teamState.current?.kind === 'fallback';
        const found = await searchTeam(
          {
            connection: this.team,
            model: settings.model,
            fresh: retrying,
            roots: this.roots,
            local: index,
            mayIndexLocally: this.permission.mayRunUnasked && !this.paused && settings.mode !== 'off',
            logger: this.host.log,
          },
          hybrid,
          count,
        );
        this.teamState.answered(found);
        return found.results;
      },
      // Keyword search still answers when the service cannot embed the query (offline, no key).
      embedFailed: (error) => this.host.log.warn(`Query embedding failed, keyword search only: ${errorView(error).message}`),
      teamFailed: (error) => this.teamState.failed(error),
    });
    return Promise.all(answer.results.map((result) => searchHit(index, result)));
  }

  /** The local index's vector ranking alone (the query embedded as by `search`; no words, no team index), which the real-model tier measures the model by. */
  async searchByMeaning(query: string, k: number, signal?: AbortSignal): Promise<SearchHit[]> {
    const index = await this.open();
    if (!index || !query.trim()) return [];
    const vector = await this.embedQuery(query, signal);
    if (!vector) return [];
    return Promise.all(index.search({ vector }, { k }).map((result) => searchHit(index, result)));
  }

  /** The query's embedding with the index's model (the instruction only for instruction-tuned models). */
  private async embedQuery(query: string, signal?: AbortSignal): Promise<ArrayLike<number> | undefined> {
    const model = readIndexSettings().model;
    return (await (await this.connection.client()).embed(queryTextFor(query, model), model, signal ? { signal } : {})).embeddings[0];
  }

  /**
   * Keyword-only search (BM25 and exact identifiers; no query embedding, so no request and no cost) of an
   * index that exists: nothing when the index is off, has no chunks or there is no folder. For completions.
   */
  async keywordSearch(query: string, k: number): Promise<SearchHit[]> {
    if (!this.available || readIndexSettings().mode === 'off' || !query.trim()) return [];
    const index = await this.open();
    if (!index || index.stats().chunks === 0) return [];
    return Promise.all(index.search({ text: query }, { k }).map((result) => searchHit(index, result)));
  }

  /**
   * Workspace context for a chat question: the best chunks, numbered, each with its path and lines, as
   * many as fit in `budgetTokens` (about four characters a token). A string says why there is none.
   */
  async workspaceContext(query: string, budgetTokens: number, signal: AbortSignal): Promise<WorkspaceContext | string> {
    if (!this.available) return vscode.l10n.t('Workspace context needs an open folder.');
    const stats = await this.stats();
    const teamMode = teamRepository() !== '' && (await this.team.configured());
    if (!teamMode && (!stats || stats.chunks === 0))
      return vscode.l10n.t('The workspace index is empty: run "Cadenza: Rebuild Index" first. The question was sent without workspace context.');
    return workspaceContextOf(await this.search(query, 8, signal), (hit) => this.chunkText(hit), budgetTokens);
  }

  /** The chunk's whole text (for chat context). */
  async chunkText(hit: SearchHit): Promise<string | undefined> {
    const index = await this.open();
    return index?.readChunk({ absPath: vscode.Uri.parse(hit.uri).fsPath, startLine: hit.startLine, endLine: hit.endLine });
  }

  dispose(): void {
    this.running?.abort();
    if (this.debounce) clearTimeout(this.debounce);
    void this.index?.close();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
