// What the workspace port's parts share: the folders, path resolution with the symlink check, the
// text of a file as the editor sees it, the workspace's excludes as one glob, and AbortSignal → token.
import * as vscode from 'vscode';
import { realpath } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { ApiError } from '../../core/api/errors';
import { ToolError } from '../../core/tools/toolTypes';
import { displayPath, resolveWorkspacePath, type FolderRoot, type ResolvedPath } from '../../core/tools/workspacePaths';

/** A path inside the workspace, with its URI. */
export interface WorkspaceTarget extends ResolvedPath {
  readonly uri: vscode.Uri;
  /** Where the path really leads (display form), when a link inside the workspace makes it differ. */
  readonly realDisplay?: string;
}

/** Whether a path relative to a root leaves it (`..` as a whole segment, or another drive). */
function leavesRoot(relative: string): boolean {
  return relative === '..' || relative.startsWith(`..${nodePath.sep}`) || nodePath.isAbsolute(relative);
}

/** Files larger than this are not read as text (read_file, search_text). */
export const maxReadBytes = 4 * 1024 * 1024;

/** The open workspace folders on disk. */
export function folderRoots(): FolderRoot[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ name: folder.name, fsPath: folder.uri.fsPath }));
}

/**
 * Resolves a path the model wrote. Besides the lexical check (core/tools/workspacePaths.ts), an existing
 * path's real location must be inside the folder's real location too: a symbolic link in the workspace
 * must not lead the agent outside it.
 */
export async function resolveTarget(input: string): Promise<WorkspaceTarget> {
  const folders = folderRoots();
  const resolved = resolveWorkspacePath(input, folders);
  const real = await realLocation(resolved.absolute);
  let realDisplay: string | undefined;
  if (real !== undefined) {
    const root = await realpath(resolved.folder.fsPath).catch(() => resolved.folder.fsPath);
    const relative = nodePath.relative(root, real);
    if (leavesRoot(relative)) throw new ToolError('outsideWorkspace', `${input} leads outside the workspace folders (a link); it cannot be used.`);
    const display = displayPath(resolved.folder, relative, folders);
    if (display !== resolved.display) realDisplay = display;
  }
  return { ...resolved, uri: vscode.Uri.file(resolved.absolute), ...(realDisplay !== undefined ? { realDisplay } : {}) };
}

/** Where a path really is: the real path of its deepest existing ancestor, with the rest appended. */
async function realLocation(absolute: string): Promise<string | undefined> {
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    const real = await realpath(current).catch(() => undefined);
    if (real !== undefined) return nodePath.join(real, ...rest.reverse());
    const parent = nodePath.dirname(current);
    if (parent === current) return undefined;
    rest.push(nodePath.basename(current));
    current = parent;
  }
}

/** The display path of a URI inside the workspace, or undefined outside it. */
export function workspacePathOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file') return undefined;
  const roots = folderRoots();
  for (const root of roots) {
    const relative = nodePath.relative(root.fsPath, uri.fsPath);
    if (!leavesRoot(relative)) return displayPath(root, relative, roots);
  }
  return undefined;
}

/** Throws ApiError `canceled` when the signal has aborted (tools stop at their next step). */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ApiError('canceled', 'Stopped by the user');
}

/** A CancellationToken that follows `signal`; dispose it when done. */
export function tokenFor(signal: AbortSignal): vscode.CancellationTokenSource {
  const source = new vscode.CancellationTokenSource();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', () => source.cancel(), { once: true });
  return source;
}

/** The text of an open document, unsaved changes included; undefined when it is not open. */
export function openText(uri: vscode.Uri): string | undefined {
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString())?.getText();
}

/** A file's text as the editor sees it: the open document's, else the file on disk (refused over the size cap). */
export async function readText(target: WorkspaceTarget): Promise<string> {
  const open = openText(target.uri);
  if (open !== undefined) return open;
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(target.uri);
  } catch (error) {
    throw new ToolError('notFound', `${target.display || '.'} does not exist.`, { cause: error });
  }
  if (stat.type & vscode.FileType.Directory) throw new ToolError('invalid', `${target.display || '.'} is a directory; use list_directory.`);
  if (stat.size > maxReadBytes)
    throw new ToolError('tooLarge', `${target.display} is ${(stat.size / 1048576).toFixed(1)} MB; files over ${maxReadBytes / 1048576} MB are not read.`);
  return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(target.uri));
}

/** `files.exclude` and `search.exclude` (plain `true` entries) as one glob for findFiles; undefined when empty. */
export function excludeGlob(): string | undefined {
  const patterns = new Set<string>();
  for (const section of ['files', 'search']) {
    const value = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude', {});
    for (const [pattern, on] of Object.entries(value)) if (on === true) patterns.add(pattern);
  }
  // findFiles replaces files.exclude by an explicit exclude, so both settings go into it.
  return patterns.size === 0 ? undefined : `{${[...patterns].join(',')}}`;
}
