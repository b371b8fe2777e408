// What the composer's `@` list offers: the workspace's files and folders (walked once with the index's
// ignore rules, .gitignore included, then cached and kept current by a watcher, so a keystroke only filters a
// list), symbols from the workspace symbol providers, and the fixed entries (selection, problems, terminal,
// git diffs, codebase search).
import * as vscode from 'vscode';
import { ListFilter, listWorkspace, type ListedPath } from '../../../core/chat/context/fileCatalog';
import type { Logger } from '../../../core/logger';
import { fuzzyFilter, type MentionCandidate } from '../../../shared/mentionCandidates';
import { gitRepository, repositoryRefs } from './gitDiff';

/** `files.exclude` and `search.exclude`, merged, as the walker takes them. */
export function excludeSettings(): Record<string, boolean | { when: string }> {
  const merged: Record<string, boolean | { when: string }> = {};
  for (const section of ['files', 'search'])
    Object.assign(merged, vscode.workspace.getConfiguration(section).get<Record<string, boolean | { when: string }>>('exclude', {}));
  return merged;
}

/** The fixed entries, always offered (filtered like the rest). */
function fixedCandidates(): MentionCandidate[] {
  return [
    { kind: 'selection', id: 'selection', label: 'selection', detail: vscode.l10n.t('The selected text of the active editor') },
    { kind: 'problems', id: 'file', label: 'problems', detail: vscode.l10n.t("The active file's errors and warnings") },
    { kind: 'problems', id: 'workspace', label: 'problems (workspace)', detail: vscode.l10n.t('Errors and warnings of every file') },
    { kind: 'terminal', id: 'last', label: 'terminal', detail: vscode.l10n.t("The active terminal's last command and its output") },
    { kind: 'git', id: 'unstaged', label: 'git diff', detail: vscode.l10n.t('Unstaged changes') },
    { kind: 'git', id: 'staged', label: 'git diff (staged)', detail: vscode.l10n.t('Staged changes') },
    { kind: 'codebase', id: 'codebase', label: 'codebase', detail: vscode.l10n.t('Semantic search of the index for your question') },
  ];
}

/** The `@` list's source, with the file list cached between keystrokes. */
export class MentionCatalog implements vscode.Disposable {
  private files: ListedPath[] | undefined;
  private building: Promise<ListedPath[]> | undefined;
  private generation = 0;
  private walksDone = 0;
  private readonly filter = new ListFilter();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly log: Logger) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const invalidate = (): void => this.invalidate();
    this.disposables.push(
      watcher,
      watcher.onDidCreate(invalidate),
      watcher.onDidDelete(invalidate),
      vscode.workspace.onDidChangeWorkspaceFolders(invalidate),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) invalidate();
      }),
    );
  }

  /** How many walks of the workspace have finished (the tests' view of when the list was built). */
  get walks(): number {
    return this.walksDone;
  }

  /** Forgets the file list; the next query walks again (the old list serves until then). */
  invalidate(): void {
    this.generation++;
    this.building = undefined;
  }

  /** The workspace's files and folders (cached; a stale list answers at once while a new one is walked). */
  async fileList(): Promise<readonly ListedPath[]> {
    if (this.files && this.generation === 0) return this.files;
    if (!this.building) {
      const generation = this.generation;
      const roots = this.roots().map((folder) => ({ name: folder.name, path: folder.uri.fsPath }));
      const started = performance.now();
      this.building = listWorkspace(roots, { excludes: excludeSettings(), logger: this.log }).then((files) => {
        this.walksDone++;
        this.log.debug(`Mention list: ${files.length} files and folders in ${(performance.now() - started).toFixed(0)} ms.`);
        if (generation === this.generation) {
          this.files = files;
          this.generation = 0;
        }
        this.building = undefined;
        return files;
      });
    }
    return this.files ?? this.building;
  }

  private roots(): vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  }

  /** A listed path as the offer the panel gets (its id is the file's URI, checked again when resolved). */
  private candidate(entry: ListedPath): MentionCandidate {
    const folder = this.roots()[entry.root];
    const id = folder ? vscode.Uri.joinPath(folder.uri, ...entry.relPath.split('/')).toString() : '';
    return { kind: entry.kind, id, label: entry.label };
  }

  /** The files below a folder (a folder mention lists them), by the folder's URI. */
  async filesBelow(folderUri: string): Promise<string[]> {
    const list = await this.fileList();
    const prefix = `${folderUri}/`;
    return list
      .filter((entry) => entry.kind === 'file')
      .map((entry) => this.candidate(entry))
      .filter((candidate) => candidate.id.startsWith(prefix))
      .map((candidate) => candidate.label);
  }

  /** The best offers for what was typed after `@`. Symbols are asked for only once the query has two characters. */
  async query(text: string, limit = 50): Promise<MentionCandidate[]> {
    const fixed = fuzzyFilter(fixedCandidates(), text, (item) => item.label, limit);
    const branches = text.length >= 1 ? await this.branchCandidates() : [];
    const files = this.filter.filter(await this.fileList(), text, limit).map((entry) => this.candidate(entry));
    const symbols = text.length >= 2 ? await this.symbols(text) : [];
    return [...fixed, ...fuzzyFilter(branches, text, (item) => item.label, 5), ...files, ...symbols].slice(0, limit);
  }

  /** `git diff against <branch>` for each local branch but the current one. */
  private async branchCandidates(): Promise<MentionCandidate[]> {
    const repository = await gitRepository().catch(() => undefined);
    if (!repository) return [];
    const current = repository.state.HEAD?.name;
    const refs = await repositoryRefs(repository);
    return refs
      .filter((ref) => ref.type === 0 && ref.name !== undefined && ref.name !== current)
      .map((ref) => ({
        kind: 'git',
        id: `branch:${ref.name ?? ''}`,
        label: `git diff ${ref.name ?? ''}`,
        detail: vscode.l10n.t('Changes against the branch {0}', ref.name ?? ''),
      }));
  }

  private async symbols(text: string): Promise<MentionCandidate[]> {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', text).then(
      (value) => value ?? [],
      () => [],
    );
    return fuzzyFilter(found, text, (symbol) => symbol.name, 20).map((symbol) => ({
      kind: 'symbol',
      id: `${symbol.location.uri.toString()}#${symbol.location.range.start.line}`,
      label: symbol.name,
      detail: vscode.l10n.t(
        '{0} in {1}:{2}',
        vscode.SymbolKind[symbol.kind],
        vscode.workspace.asRelativePath(symbol.location.uri),
        symbol.location.range.start.line + 1,
      ),
    }));
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
