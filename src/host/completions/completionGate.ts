import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { completionSkip } from '../../core/completions/fileGate';
import { IgnoreRules } from '../../core/index/ignoreRules';
import { isSecretPath, windowsSegments } from '../../core/index/secretFiles';
import { hasBinaryExtension, isWithin, realRoot, skipByPath, type PathSkip } from '../../core/index/walker';
import type { Logger } from '../../core/logger';
import { readCompletionSettings } from '../settings';

/** Why a document is never completed; undefined when it may be. */
export type GateVerdict = 'scheme' | 'outside' | 'secret' | 'binary' | 'ignored' | 'minified' | 'tooLarge' | undefined;

const byPathVerdict: Readonly<Record<PathSkip, GateVerdict>> = { ignored: 'ignored', secret: 'secret', binaryExtension: 'binary' };

// The index's own limit (cadenza.index.maxFileSizeKB's default): larger files are data, not code.
const MAX_CHARS = 1024 * 1024;

/**
 * Decides which documents may be sent for a completion, with the index's rules: `.gitignore`,
 * `.cadenzaignore`, `files.exclude` + `search.exclude` and the generated folders (through the index's
 * IgnoreRules, one per workspace folder), plus secrets, binary, minified and huge files, judged on the
 * path and on where a link leads. A file outside the workspace folders (`~/.zshrc`, `~/.config/gh/
 * hosts.yml`), or a link to one, is never sent unless `cadenza.completions.allowOutsideWorkspace` (a user
 * setting) allows it: the project's rules cannot vouch for it. The path verdict is cached per document
 * and forgotten when an ignore file or those settings change; the size and minified checks run on each
 * request (two O(1) reads of the document).
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
        if (['files.exclude', 'search.exclude', 'cadenza.completions.allowOutsideWorkspace'].some((key) => event.affectsConfiguration(key))) forget();
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
    if (hasBinaryExtension(windowsSegments(uri.fsPath).pop() ?? '')) return 'binary';
    const outside: GateVerdict = readCompletionSettings().allowOutsideWorkspace ? undefined : 'outside';
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || folder.uri.scheme !== 'file') return outside;
    const relative = path.relative(folder.uri.fsPath, uri.fsPath);
    if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return outside;
    const rules = this.rulesFor(folder.uri.fsPath);
    // Where a link leads counts as much as its name: `config/app.txt -> ../.env`, `notes.txt -> ~/.zshrc`.
    const real = await realpath(uri.fsPath).catch(() => undefined);
    if (real !== undefined) {
      const rootReal = await realRoot(folder.uri.fsPath);
      if (!isWithin(rootReal, real)) return isSecretPath(real) ? 'secret' : outside;
      const realRelative = path.relative(rootReal, real).split(path.sep).join('/');
      const byTarget = realRelative === '' ? undefined : await skipByPath(rules, realRelative, false);
      if (byTarget !== undefined) return byPathVerdict[byTarget];
    }
    const byPath = await skipByPath(rules, relative.split(path.sep).join('/'), false);
    return byPath === undefined ? undefined : byPathVerdict[byPath];
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
  for (const section of ['files', 'search'])
    Object.assign(merged, vscode.workspace.getConfiguration(section).get<Record<string, boolean | { when: string }>>('exclude', {}));
  return merged;
}
