// What the composer's `@` list offers: the workspace's files and folders (walked once with the index's
// ignore rules, .gitignore included, then cached and kept current by a watcher, so a keystroke only filters a
// list), symbols from the workspace symbol providers, and the fixed entries (selection, problems, terminal,
// git diffs, codebase search).
import * as vscode from 'vscode';
import { walkWorkspace } from '../../../core/index/walker';
import type { Logger } from '../../../core/logger';
import { fuzzyFilter, type MentionCandidate } from '../../../shared/mentions';
import { gitRepository } from './gitDiff';

/** Files beyond this are not listed (the walk stops): a mention list is for finding, not for everything. */
const maxListedFiles = 200_000;

/** `files.exclude` and `search.exclude`, merged, as the walker takes them. */
export function excludeSettings(): Record<string, boolean | { when: string }> {
  const merged: Record<string, boolean | { when: string }> = {};
  for (const section of ['files', 'search']) Object.assign(merged, vscode.workspace.getConfiguration(section).get<Record<string, boolean | { when: string }>>('exclude', {}));
  return merged;
}

/** The fixed entries, always offered (filtered like the rest). */
function fixedCandidates(): MentionCandidate[] {
  return [
    { kind: 'selection', id: 'selection', label: 'selection', detail: 'The selected text of the active editor' },
    { kind: 'problems', id: 'file', label: 'problems', detail: "The active file's errors and warnings" },
    { kind: 'problems', id: 'workspace', label: 'problems (workspace)', detail: 'Errors and warnings of every file' },
    { kind: 'terminal', id: 'last', label: 'terminal', detail: "The active terminal's last command and its output" },
    { kind: 'git', id: 'unstaged', label: 'git diff', detail: 'Unstaged changes' },
    { kind: 'git', id: 'staged', label: 'git diff (staged)', detail: 'Staged changes' },
    { kind: 'codebase', id: 'codebase', label: 'codebase', detail: 'Semantic search of the index for your question' },
  ];
}

/** A listed file or folder with its label lowercased once (the filter runs per keystroke over all of them). */
type Listed = MentionCandidate & { readonly lower: string };

/** The `@` list's source, with the file list cached between keystrokes. */
export class MentionCatalog implements vscode.Disposable {
  private files: Listed[] | undefined;
  private building: Promise<Listed[]> | undefined;
  private generation = 0;
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

  /** Forgets the file list; the next query walks again (the old list serves until then). */
  invalidate(): void {
    this.generation++;
    this.building = undefined;
  }

  /** The workspace's files and folders, workspace-relative (prefixed by the folder's name in a multi-root workspace). */
  async fileList(): Promise<readonly Listed[]> {
    if (this.building) return this.building;
    if (this.files && this.generation === 0) return this.files;
    const generation = this.generation;
    this.building = this.walk().then((files) => {
      if (generation === this.generation) {
        this.files = files;
        this.generation = 0;
        this.building = undefined;
      }
      return files;
    });
    // A stale list answers at once while the new one is walked.
    return this.files ?? this.building;
  }

  private async walk(): Promise<Listed[]> {
    const started = performance.now();
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
    const multi = folders.length > 1;
    const files: Listed[] = [];
    const dirs = new Map<string, Listed>();
    for (const folder of folders) {
      const prefix = multi ? `${folder.name}/` : '';
      for await (const entry of walkWorkspace({ roots: [{ name: folder.name, path: folder.uri.fsPath }], excludes: excludeSettings(), maxFiles: maxListedFiles, maxFileBytes: Number.MAX_SAFE_INTEGER, logger: this.log })) {
        const label = `${prefix}${entry.relPath}`;
        files.push({ kind: 'file', id: vscode.Uri.joinPath(folder.uri, ...entry.relPath.split('/')).toString(), label, lower: label.toLowerCase() });
        const segments = entry.relPath.split('/');
        for (let depth = 1; depth < segments.length; depth++) {
          const rel = segments.slice(0, depth).join('/');
          const label = `${prefix}${rel}/`;
          if (!dirs.has(label)) dirs.set(label, { kind: 'folder', id: vscode.Uri.joinPath(folder.uri, ...rel.split('/')).toString(), label, lower: label.toLowerCase() });
        }
      }
    }
    // Shorter paths first: with an empty query the list starts at the top of the tree.
    const all = [...dirs.values(), ...files].sort((a, b) => a.label.split('/').length - b.label.split('/').length || (a.label < b.label ? -1 : 1));
    this.log.debug(`Mention list: ${files.length} files, ${dirs.size} folders in ${(performance.now() - started).toFixed(0)} ms.`);
    return all;
  }

  /** The best offers for what was typed after `@`. Symbols are asked for only once the query has two characters. */
  async query(text: string, limit = 50): Promise<MentionCandidate[]> {
    const fixed = fuzzyFilter(fixedCandidates(), text, (item) => item.label, limit);
    const branches = text.length >= 1 ? await this.branchCandidates() : [];
    const files = fuzzyFilter(await this.fileList(), text, (item) => item.label, limit, (item) => item.lower).map(({ kind, id, label }) => ({ kind, id, label }));
    const symbols = text.length >= 2 ? await this.symbols(text) : [];
    return [...fixed, ...fuzzyFilter(branches, text, (item) => item.label, 5), ...files, ...symbols].slice(0, limit);
  }

  /** `git diff against <branch>` for each local branch but the current one. */
  private async branchCandidates(): Promise<MentionCandidate[]> {
    const repository = await gitRepository().catch(() => undefined);
    if (!repository) return [];
    const current = repository.state.HEAD?.name;
    const refs = await repository.getRefs?.({}).catch(() => undefined) ?? repository.state.refs ?? [];
    return refs.filter((ref) => ref.type === 0 && ref.name !== undefined && ref.name !== current).map((ref) => ({ kind: 'git', id: `branch:${ref.name ?? ''}`, label: `git diff ${ref.name ?? ''}`, detail: `Changes against the branch ${ref.name ?? ''}` }));
  }

  private async symbols(text: string): Promise<MentionCandidate[]> {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', text).then((value) => value ?? [], () => []);
    return fuzzyFilter(found, text, (symbol) => symbol.name, 20).map((symbol) => ({
      kind: 'symbol',
      id: `${symbol.location.uri.toString()}#${symbol.location.range.start.line}`,
      label: symbol.name,
      detail: `${vscode.SymbolKind[symbol.kind]} in ${vscode.workspace.asRelativePath(symbol.location.uri)}:${symbol.location.range.start.line + 1}`,
    }));
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
