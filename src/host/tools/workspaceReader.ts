// The reading half of the workspace port over the VS Code API: files, directories, globs, text search,
// the semantic index, diagnostics, document symbols and the active editor.
import * as vscode from 'vscode';
import { realpath } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { IgnoreRules } from '../../core/index/ignoreRules';
import { ignoredAsOpened, isWithin, realRoot } from '../../core/index/walker';
import { collectMatches, lineMatcher } from '../../core/tools/textSearch';
import { ToolError } from '../../core/tools/toolTypes';
import type { DiagnosticInfo, DirectoryEntry, SelectionInfo, SemanticHit, SymbolInfo, TextMatch, TextQuery } from '../../core/tools/workspacePort';
import { excludeGlob, folderRoots, maxReadBytes, openText, readText, resolveTarget, throwIfAborted, tokenFor, workspacePathOf } from './portSupport';

/** The index's search, as the reader needs it (IndexService in the extension; a stub in tests). */
export type SemanticSearch = (query: string, k: number, signal: AbortSignal) => Promise<readonly SemanticHit[]>;

/** Files search_text reads at most; past it the answer says the search was partial. */
const maxSearchFiles = 5000;
/** Files read at once while searching. */
const searchConcurrency = 16;
/** Characters of a selection the answer carries. */
const maxSelectionChars = 20_000;

const severities: Readonly<Record<vscode.DiagnosticSeverity, DiagnosticInfo['severity']>> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function kindOf(type: vscode.FileType): DirectoryEntry['kind'] {
  if (type & vscode.FileType.Directory) return 'directory';
  if (type & vscode.FileType.File) return 'file';
  return 'other';
}

function toSymbols(entries: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[]): SymbolInfo[] {
  return entries.map((entry) => {
    const range = 'range' in entry ? entry.range : entry.location.range;
    const children = 'children' in entry && entry.children.length > 0 ? { children: toSymbols(entry.children) } : {};
    return { name: entry.name, kind: vscode.SymbolKind[entry.kind].toLowerCase(), startLine: range.start.line + 1, endLine: range.end.line + 1, ...children };
  });
}

/** Reads the workspace for the agent's read-only functions. */
export class WorkspaceReader {
  constructor(private readonly semantic: SemanticSearch) {}

  async readFile(path: string, signal: AbortSignal): Promise<{ path: string; text: string; realPath?: string }> {
    throwIfAborted(signal);
    const target = await resolveTarget(path);
    return { path: target.display, text: await readText(target), ...(target.realDisplay !== undefined ? { realPath: target.realDisplay } : {}) };
  }

  async listDirectory(path: string, signal: AbortSignal): Promise<{ path: string; entries: DirectoryEntry[] }> {
    throwIfAborted(signal);
    const target = await resolveTarget(path);
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(target.uri);
    } catch (error) {
      throw new ToolError('notFound', `${target.display || '.'} is not a directory that exists.`, { cause: error });
    }
    return { path: target.display, entries: entries.map(([name, type]) => ({ name, kind: kindOf(type) })) };
  }

  async findFiles(glob: string, limit: number, signal: AbortSignal): Promise<{ paths: string[]; more: boolean }> {
    const source = tokenFor(signal);
    try {
      const uris = await vscode.workspace.findFiles(glob.replace(/^\.\/+/, ''), excludeGlob(), limit + 1, source.token);
      throwIfAborted(signal);
      const paths = uris
        .map((uri) => workspacePathOf(uri))
        .filter((path): path is string => path !== undefined)
        .sort();
      return { paths: paths.slice(0, limit), more: paths.length > limit };
    } finally {
      source.dispose();
    }
  }

  /**
   * Text search without ripgrep (`findTextInFiles` is proposed API): the files findFiles lists under the
   * workspace's excludes, read a few at a time (open editors' unsaved text first, nothing over the size
   * cap), matched line by line in core/tools/textSearch.ts.
   */
  async searchText(query: TextQuery, limit: number, signal: AbortSignal): Promise<{ matches: TextMatch[]; more: boolean; filesSearched: number }> {
    const matches = lineMatcher(query);
    const source = tokenFor(signal);
    let uris: vscode.Uri[];
    try {
      uris = await vscode.workspace.findFiles(query.glob ?? '**/*', excludeGlob(), maxSearchFiles, source.token);
    } finally {
      source.dispose();
    }
    uris.sort((a, b) => a.fsPath.localeCompare(b.fsPath));
    uris = await searchable(uris, signal);
    const out: TextMatch[] = [];
    let searched = 0;
    for (let start = 0; start < uris.length; start += searchConcurrency) {
      throwIfAborted(signal);
      const batch = uris.slice(start, start + searchConcurrency);
      const texts = await Promise.all(batch.map((uri) => searchableText(uri)));
      for (const [index, text] of texts.entries()) {
        const uri = batch[index];
        const path = uri ? workspacePathOf(uri) : undefined;
        if (text === undefined || path === undefined) continue;
        searched += 1;
        if (!collectMatches(path, text, matches, limit, out)) return { matches: out, more: true, filesSearched: searched };
      }
    }
    return { matches: out, more: uris.length >= maxSearchFiles, filesSearched: searched };
  }

  async semanticSearch(query: string, k: number, signal: AbortSignal): Promise<readonly SemanticHit[]> {
    throwIfAborted(signal);
    return this.semantic(query, k, signal);
  }

  async diagnostics(path: string | undefined, signal: AbortSignal): Promise<DiagnosticInfo[]> {
    throwIfAborted(signal);
    const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = [];
    if (path === undefined) {
      entries.push(...vscode.languages.getDiagnostics());
    } else {
      const target = await resolveTarget(path);
      entries.push([target.uri, vscode.languages.getDiagnostics(target.uri)]);
    }
    const out: DiagnosticInfo[] = [];
    for (const [uri, diagnostics] of entries) {
      const display = workspacePathOf(uri);
      if (display === undefined) continue;
      for (const diagnostic of diagnostics) {
        const source = typeof diagnostic.source === 'string' && diagnostic.source !== '' ? { source: diagnostic.source } : {};
        out.push({
          path: display,
          line: diagnostic.range.start.line + 1,
          column: diagnostic.range.start.character + 1,
          severity: severities[diagnostic.severity],
          message: diagnostic.message,
          ...source,
        });
      }
    }
    const rank = { error: 0, warning: 1, info: 2, hint: 3 } as const;
    return out.sort((a, b) => rank[a.severity] - rank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line);
  }

  async symbols(path: string, signal: AbortSignal): Promise<{ path: string; symbols: SymbolInfo[] }> {
    throwIfAborted(signal);
    const target = await resolveTarget(path);
    await readText(target);
    // The document must be open for the language's providers to see it.
    await vscode.workspace.openTextDocument(target.uri);
    const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      target.uri,
    );
    return { path: target.display, symbols: toSymbols(found ?? []) };
  }

  async selection(signal: AbortSignal): Promise<SelectionInfo> {
    throwIfAborted(signal);
    const editor = vscode.window.activeTextEditor;
    const activePath = editor ? workspacePathOf(editor.document.uri) : undefined;
    const openEditors = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .map((tab) => (tab.input instanceof vscode.TabInputText ? workspacePathOf(tab.input.uri) : undefined))
      .filter((path): path is string => path !== undefined);
    const base = { openEditors: [...new Set(openEditors)] };
    if (!editor || activePath === undefined) return base;
    const selection = editor.selection;
    return {
      ...base,
      activePath,
      language: editor.document.languageId,
      selection: {
        startLine: selection.start.line + 1,
        startColumn: selection.start.character + 1,
        endLine: selection.end.line + 1,
        endColumn: selection.end.character + 1,
        text: editor.document.getText(selection).slice(0, maxSelectionChars),
      },
    };
  }

  /** Whether the folder's `.gitignore` or `.cadenzaignore` files ignore the path (read fresh each time). */
  async isIgnored(path: string, signal: AbortSignal): Promise<boolean> {
    throwIfAborted(signal);
    const target = await resolveTarget(path);
    const relative = nodePath.relative(target.folder.fsPath, target.absolute).split(nodePath.sep).join('/');
    return relative !== '' && ignoredAsOpened(new IgnoreRules(target.folder.fsPath, { generated: [] }), relative, false);
  }

  /** Whether a folder between the path and its workspace folder holds pyvenv.cfg (one stat per folder). */
  async isInVirtualEnv(path: string, signal: AbortSignal): Promise<boolean> {
    throwIfAborted(signal);
    const target = await resolveTarget(path);
    const folders = nodePath.relative(target.folder.fsPath, target.absolute).split(nodePath.sep).slice(0, -1);
    for (let depth = folders.length; depth > 0; depth--) {
      const marker = vscode.Uri.file(nodePath.join(target.folder.fsPath, ...folders.slice(0, depth), 'pyvenv.cfg'));
      if (
        await vscode.workspace.fs.stat(marker).then(
          (stat) => (stat.type & vscode.FileType.File) !== 0,
          () => false,
        )
      )
        return true;
    }
    return false;
  }

  async exists(path: string, signal: AbortSignal): Promise<{ path: string; exists: boolean; realPath?: string }> {
    throwIfAborted(signal);
    const target = await resolveTarget(path);
    const exists = await vscode.workspace.fs.stat(target.uri).then(
      () => true,
      () => false,
    );
    return { path: target.display, exists, ...(target.realDisplay !== undefined ? { realPath: target.realDisplay } : {}) };
  }
}

/**
 * The files search_text may read: inside a workspace folder for real (a link out of it, such as
 * `notes.txt -> ~/.aws/credentials`, is dropped, as read_file refuses it), and not ignored by the
 * folder's `.gitignore` or `.cadenzaignore` files (as ripgrep and the index skip them), judged on the
 * path and on where a link leads (`config/app.txt -> ../.env` is the ignored `.env`).
 */
async function searchable(uris: readonly vscode.Uri[], signal: AbortSignal): Promise<vscode.Uri[]> {
  const roots = folderRoots().map((folder) => ({ folder, rules: new IgnoreRules(folder.fsPath, { generated: [] }), real: realRoot(folder.fsPath) }));
  const kept: vscode.Uri[] = [];
  for (let start = 0; start < uris.length; start += searchConcurrency) {
    throwIfAborted(signal);
    const batch = uris.slice(start, start + searchConcurrency);
    const verdicts = await Promise.all(
      batch.map(async (uri) => {
        if (uri.scheme !== 'file') return false;
        for (const root of roots) {
          const relative = nodePath.relative(root.folder.fsPath, uri.fsPath);
          if (relative === '' || relative === '..' || relative.startsWith(`..${nodePath.sep}`) || nodePath.isAbsolute(relative)) continue;
          const real = await realpath(uri.fsPath).catch(() => undefined);
          const rootReal = await root.real;
          if (real === undefined || !isWithin(rootReal, real)) return false;
          const realRelative = nodePath.relative(rootReal, real);
          for (const rel of new Set([relative, realRelative]))
            if (rel === '' || (await ignoredAsOpened(root.rules, rel.split(nodePath.sep).join('/'), false))) return false;
          return true;
        }
        return false;
      }),
    );
    batch.forEach((uri, index) => {
      if (verdicts[index]) kept.push(uri);
    });
  }
  return kept;
}

/** A file's text for searching, or undefined when it is too large or unreadable. */
async function searchableText(uri: vscode.Uri): Promise<string | undefined> {
  const open = openText(uri);
  if (open !== undefined) return open;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > maxReadBytes / 4) return undefined;
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
