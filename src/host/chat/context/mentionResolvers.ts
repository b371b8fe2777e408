// Turns a picked `@` mention into a context part: reads the file, the folder's listing, the symbol's lines,
// the selection, the diagnostics, the terminal's last command, a git diff. Every path comes from the
// untrusted webview, so a file or folder is read only when its real path lies inside a workspace folder.
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { contextPart, type ContextPart } from '../../../core/chat/context/contextProvider';
import { IgnoreRules } from '../../../core/index/ignoreRules';
import { isSecretPath } from '../../../core/index/secretFiles';
import { skipByPath, type PathSkip } from '../../../core/index/walker';
import type { MentionCandidate } from '../../../shared/mentionCandidates';
import { gitDiff } from './gitDiff';
import { excludeSettings } from './mentionCatalog';
import type { TerminalOutputs } from './terminalOutputs';

/** Files larger than this are read only this far (the budget would cut them anyway), and say so. */
const maxReadBytes = 512 * 1024;
/** A folder mention lists at most this many entries. */
const maxFolderEntries = 500;

/** The workspace folder holding `uri` when its real path stays inside that folder; undefined otherwise. */
async function insideWorkspace(uri: vscode.Uri): Promise<{ folder: vscode.WorkspaceFolder; rel: string; realRel: string } | undefined> {
  if (uri.scheme !== 'file') return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return undefined;
  try {
    const root = await fs.realpath(folder.uri.fsPath);
    const real = await fs.realpath(uri.fsPath);
    if (real !== root && !real.startsWith(root + path.sep)) return undefined;
    const slashed = (from: string, to: string): string => path.relative(from, to).split(path.sep).join('/');
    return { folder, rel: slashed(folder.uri.fsPath, uri.fsPath), realRel: slashed(root, real) };
  } catch {
    return undefined;
  }
}

/** The note of a path that is not sent: why (a secret's name, the ignore rules, a binary), and where a link led. */
function skippedNote(why: PathSkip, rel: string, link: boolean): string {
  switch (why) {
    case 'secret':
      return link
        ? vscode.l10n.t('It leads to {0}, which looks like a secret (keys, passwords, tokens): nothing is sent.', rel)
        : vscode.l10n.t('{0} looks like a secret (keys, passwords, tokens): nothing is sent.', rel);
    case 'ignored':
      return link
        ? vscode.l10n.t('It leads to {0}, which is left out by the ignore rules: nothing is sent.', rel)
        : vscode.l10n.t('{0} is left out by the ignore rules: nothing is sent.', rel);
    default:
      return link
        ? vscode.l10n.t('It leads to {0}, which is a binary file: nothing is sent.', rel)
        : vscode.l10n.t('{0} is a binary file: nothing is sent.', rel);
  }
}

/**
 * Why a mentioned file is not read, or undefined when it may be: a file mention is read only when the `@`
 * list could offer it (the index's rules for a path: ignore files, `files.exclude`, a secret's name, a
 * binary name); a symbol's file only when neither its name nor where a link leads looks like a secret,
 * and a link does not lead to a file those rules leave out. Both are judged on the path and on where a
 * link leads, so `config/app.txt -> ../.env` is never sent as the text of `config/app.txt`.
 */
async function leftOut(place: { folder: vscode.WorkspaceFolder; rel: string; realRel: string }, kind: 'file' | 'symbol'): Promise<string | undefined> {
  const rules = new IgnoreRules(place.folder.uri.fsPath, { excludes: excludeSettings() });
  for (const rel of new Set([place.rel, place.realRel])) {
    if (rel === '') continue;
    const why = kind === 'file' || rel !== place.rel ? await skipByPath(rules, rel, false) : isSecretPath(rel) ? 'secret' : undefined;
    if (why === undefined) continue;
    return skippedNote(why, rel, rel !== place.rel);
  }
  return undefined;
}

function relative(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** Reads a text file of the workspace (an open editor's unsaved text wins), at most `maxReadBytes`. */
async function readText(uri: vscode.Uri): Promise<{ text: string; note?: string }> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) return { text: open.getText() };
  const handle = await fs.open(uri.fsPath, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, maxReadBytes));
    await handle.read(buffer, 0, buffer.length, 0);
    if (buffer.includes(0)) return { text: '', note: vscode.l10n.t('A binary file: nothing of it is sent.') };
    return {
      text: buffer.toString('utf8'),
      ...(size > maxReadBytes ? { note: vscode.l10n.t('Only the first {0} KB of {1} KB were read.', maxReadBytes / 1024, Math.round(size / 1024)) } : {}),
    };
  } finally {
    await handle.close();
  }
}

const severity = ['error', 'warning', 'info', 'hint'];

function diagnosticLines(uri: vscode.Uri, diagnostics: readonly vscode.Diagnostic[]): string[] {
  return diagnostics.map(
    (diagnostic) =>
      `${relative(uri)}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1} ${severity[diagnostic.severity] ?? 'problem'}: ${diagnostic.message}${diagnostic.source ? ` (${diagnostic.source})` : ''}`,
  );
}

/** Resolves mentions (all but `@codebase`, which needs the question and is resolved when the message is sent). */
/** What the terminal mention says for a command without output: VS Code passes on only the output that
 * reaches the terminal after the command's start mark, so a command that ends at once can show some. */
const noOutput = "(no output reached Cadenza; VS Code's shell integration can miss the output of a command that ends at once)";

export class MentionResolvers {
  constructor(
    private readonly terminals: TerminalOutputs,
    private readonly folderFiles: (folder: string) => Promise<readonly string[]>,
  ) {}

  /** The context a mention adds, measured; a mention that adds nothing says why in its note. */
  async resolve(mention: MentionCandidate): Promise<ContextPart> {
    switch (mention.kind) {
      case 'file':
        return this.file(vscode.Uri.parse(mention.id, true));
      case 'folder':
        return this.folder(vscode.Uri.parse(mention.id, true));
      case 'symbol':
        return this.symbol(mention);
      case 'selection':
        return this.selection();
      case 'problems':
        return this.problems(mention.id === 'workspace');
      case 'terminal':
        return this.terminal();
      case 'git': {
        const diff = await gitDiff(mention.id);
        if (typeof diff === 'string') return contextPart('git', mention.label, '', diff);
        return contextPart('git', diff.label, diff.text, diff.text === '' ? vscode.l10n.t('No changes.') : undefined);
      }
      case 'codebase':
        return contextPart('codebase', 'codebase', '', vscode.l10n.t('Searched with your question when the message is sent.'));
      default: {
        const unreachable: never = mention.kind;
        return unreachable;
      }
    }
  }

  private async file(uri: vscode.Uri): Promise<ContextPart> {
    const place = await insideWorkspace(uri);
    if (!place) return contextPart('file', relative(uri), '', vscode.l10n.t('Not a file inside the workspace: nothing is sent.'));
    const refused = await leftOut(place, 'file');
    if (refused !== undefined) return contextPart('file', relative(uri), '', refused);
    const { text, note } = await readText(uri);
    return contextPart('file', relative(uri), text, note);
  }

  private async folder(uri: vscode.Uri): Promise<ContextPart> {
    const folder = await insideWorkspace(uri);
    const label = `${relative(uri)}/`;
    if (!folder) return contextPart('folder', label, '', vscode.l10n.t('Not a folder inside the workspace: nothing is sent.'));
    const entries = await this.folderFiles(uri.toString());
    const listed = entries.slice(0, maxFolderEntries);
    const note = entries.length > listed.length ? vscode.l10n.t('Lists {0} of {1} files.', listed.length, entries.length) : undefined;
    return contextPart('folder', label, `Files in ${label} (workspace-relative):\n${listed.join('\n')}`, note);
  }

  private async symbol(mention: MentionCandidate): Promise<ContextPart> {
    const hash = mention.id.lastIndexOf('#');
    const uri = vscode.Uri.parse(mention.id.slice(0, hash), true);
    const line = Number(mention.id.slice(hash + 1));
    const place = await insideWorkspace(uri);
    if (!place || !Number.isInteger(line))
      return contextPart('symbol', mention.label, '', vscode.l10n.t('Not a symbol inside the workspace: nothing is sent.'));
    const refused = await leftOut(place, 'symbol');
    if (refused !== undefined) return contextPart('symbol', mention.label, '', refused);
    // The symbol's whole extent comes from the document's own symbols (the workspace list may give only its name).
    const document = await vscode.workspace.openTextDocument(uri);
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', uri).then(
      (value) => value ?? [],
      () => [],
    );
    const flat: vscode.DocumentSymbol[] = [];
    const visit = (list: readonly vscode.DocumentSymbol[]): void =>
      list.forEach((symbol) => {
        flat.push(symbol);
        visit(symbol.children ?? []);
      });
    visit(symbols);
    const match =
      flat.filter((symbol) => symbol.name === mention.label && symbol.range.start.line <= line && symbol.range.end.line >= line).at(-1) ??
      flat.filter((symbol) => symbol.range.start.line <= line && symbol.range.end.line >= line).at(-1);
    const range = match?.range ?? new vscode.Range(line, 0, Math.min(document.lineCount - 1, line + 20), 0);
    const text = document.getText(new vscode.Range(range.start.line, 0, range.end.line + 1, 0));
    return contextPart('symbol', `${mention.label} (${relative(uri)}:${range.start.line + 1}-${range.end.line + 1})`, text);
  }

  private selection(): ContextPart {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) return contextPart('selection', 'selection', '', vscode.l10n.t('Nothing is selected in the active editor.'));
    const { start, end } = editor.selection;
    return contextPart(
      'selection',
      `selection (${relative(editor.document.uri)}:${start.line + 1}-${end.line + 1})`,
      editor.document.getText(editor.selection),
    );
  }

  private problems(workspace: boolean): ContextPart {
    if (!workspace) {
      const uri = vscode.window.activeTextEditor?.document.uri;
      if (!uri) return contextPart('problems', 'problems', '', vscode.l10n.t('No file is open in an editor.'));
      const lines = diagnosticLines(uri, vscode.languages.getDiagnostics(uri));
      return contextPart(
        'problems',
        `problems (${relative(uri)})`,
        lines.join('\n'),
        lines.length === 0 ? vscode.l10n.t('No problems in this file.') : undefined,
      );
    }
    const lines = vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) => diagnosticLines(uri, diagnostics));
    return contextPart('problems', 'problems (workspace)', lines.join('\n'), lines.length === 0 ? vscode.l10n.t('No problems in the workspace.') : undefined);
  }

  private terminal(): ContextPart {
    const last = this.terminals.last(vscode.window.activeTerminal);
    if (typeof last === 'string') return contextPart('terminal', 'terminal', '', last);
    return contextPart(
      'terminal',
      `terminal (${last.terminal})`,
      `$ ${last.command}\n${last.output.text || noOutput}${last.exitCode !== undefined ? `\n(exit code ${last.exitCode})` : ''}`,
      last.output.cut ? vscode.l10n.t('Only the end of a long output was kept.') : undefined,
    );
  }
}
