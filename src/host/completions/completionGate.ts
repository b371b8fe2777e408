import * as path from 'node:path';
import * as vscode from 'vscode';
import { completionSkip } from '../../core/completions/fileGate';
import { isSecretPath } from '../../core/index/secretFiles';
import { IgnoreRules } from '../../core/index/ignoreRules';
import { hasBinaryExtension } from '../../core/index/walker';
import type { Logger } from '../../core/logger';

/** Why a document is never completed; undefined when it may be. */
export type GateVerdict = 'scheme' | 'secret' | 'binary' | 'ignored' | 'minified' | 'tooLarge' | undefined;

// The index's own limit (cadenza.index.maxFileSizeKB's default): larger files are data, not code.
const MAX_CHARS = 1024 * 1024;

/**
 * Decides which documents may be sent for a completion, with the index's rules: `.gitignore`,
 * `.cadenzaignore`, `files.exclude` + `search.exclude` and the generated folders (through the index's
 * IgnoreRules, one per workspace folder), plus secrets, binary, minified and huge files. The path verdict
 * is cached per document and forgotten when an ignore file or the exclude settings change; the size and
 * minified checks run on each request (two O(1) reads of the document).
 */
export class CompletionGate implements vscode.Disposable {
  private readonly rules = new Map<string, IgnoreRules>();
  private readonly verdicts = new Map<string, Promise<GateVerdict>>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly log: Logger) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/{.gitignore,.cadenzaignore}');
    const forget = (): void => this.forget();
    this.disposables.push(
      watcher,
      watcher.onDidChange(forget),
      watcher.onDidCreate(forget),
      watcher.onDidDelete(forget),
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (/(^|[\\/])\.(git|cadenza)ignore$/.test(document.fileName)) forget();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) forget();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(forget),
      vscode.workspace.onDidCloseTextDocument((document) => this.verdicts.delete(document.uri.toString())),
    );
  }

  /** Why the file at `uri` must not be sent, judged by its path alone (ignore rules, secrets, binary names), or undefined. */
  async verdictForPath(uri: vscode.Uri): Promise<GateVerdict> {
    const key = uri.toString();
    let byPath = this.verdicts.get(key);
    if (!byPath) {
      byPath = this.pathVerdict(uri).catch((error: unknown) => {
        // When the rules cannot be read, send nothing rather than something the user excluded.
        this.log.warn(`Completions: cannot check ${uri.fsPath} against the ignore rules: ${String(error)}`);
        return 'ignored' as const;
      });
      this.verdicts.set(key, byPath);
    }
    return byPath;
  }

  /** Why `document` must not be sent, or undefined. */
  async verdict(document: vscode.TextDocument): Promise<GateVerdict> {
    const fromPath = await this.verdictForPath(document.uri);
    if (fromPath !== undefined) return fromPath;
    const end = document.lineAt(document.lineCount - 1).range.end;
    const length = document.offsetAt(end);
    const sample = document.getText(new vscode.Range(new vscode.Position(0, 0), document.positionAt(Math.min(length, 4096))));
    return completionSkip(document.uri.scheme === 'file' ? document.uri.fsPath : 'untitled', { length, lineCount: document.lineCount, sample }, MAX_CHARS);
  }

  private async pathVerdict(uri: vscode.Uri): Promise<GateVerdict> {
    if (uri.scheme === 'untitled') return undefined;
    if (uri.scheme !== 'file') return 'scheme';
    if (isSecretPath(uri.fsPath)) return 'secret';
    if (hasBinaryExtension(path.basename(uri.fsPath))) return 'binary';
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || folder.uri.scheme !== 'file') return undefined;
    const relative = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
    if (relative === '' || relative.startsWith('..')) return undefined;
    return (await this.rulesFor(folder.uri.fsPath).isPathIgnored(relative, false)) ? 'ignored' : undefined;
  }

  private rulesFor(root: string): IgnoreRules {
    let rules = this.rules.get(root);
    if (!rules) {
      rules = new IgnoreRules(root, { excludes: excludeSettings(), logger: this.log });
      this.rules.set(root, rules);
    }
    return rules;
  }

  private forget(): void {
    this.rules.clear();
    this.verdicts.clear();
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/** `files.exclude` and `search.exclude` merged, as the index's walker takes them. */
function excludeSettings(): Record<string, boolean | { when: string }> {
  const merged: Record<string, boolean | { when: string }> = {};
  for (const section of ['files', 'search']) Object.assign(merged, vscode.workspace.getConfiguration(section).get<Record<string, boolean | { when: string }>>('exclude', {}));
  return merged;
}
