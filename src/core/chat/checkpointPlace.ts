// Which window a checkpoint belongs to. Conversations and checkpoints live in the extension's global
// storage, which every window shares, and a checkpoint names its files by workspace-relative path: opened
// in project B's window, a turn of project A would restore A's texts over B's files (and delete B's files
// that A's turn had created). So each checkpoint records the workspace folders its turn ran in, and only a
// window with those same folders may restore it or prune it by its settings.
import * as nodePath from 'node:path';
import type { FolderRoot } from '../tools/workspacePaths';

/**
 * Where a checkpoint belongs, seen from one window: `here` (this window's folders), `elsewhere` (the
 * folders it was recorded in), or `unknown` (recorded before checkpoints kept their folders).
 */
export type CheckpointPlace =
  { readonly kind: 'here' } | { readonly kind: 'elsewhere'; readonly folders: readonly FolderRoot[] } | { readonly kind: 'unknown' };

/** Whether paths are compared ignoring case (Windows; elsewhere VS Code gives each folder one spelling). */
const defaultCaseInsensitive = process.platform === 'win32';

function folderKey(folder: FolderRoot, named: boolean, caseInsensitive: boolean): string {
  // resolve() drops a trailing separator and `.`/`..` segments, so one folder has one key.
  const location = nodePath.resolve(folder.fsPath);
  const key = caseInsensitive ? location.toLowerCase() : location;
  return named ? `${folder.name}\u0000${key}` : key;
}

/**
 * Whether two lists name the same workspace folders, in any order. A relative path means another file
 * once a folder is added or taken away (the first folder takes unnamed paths), and in a multi-root
 * workspace a path starts with its folder's name, so the names count there; with one folder they do not.
 */
export function sameFolders(a: readonly FolderRoot[], b: readonly FolderRoot[], caseInsensitive = defaultCaseInsensitive): boolean {
  if (a.length !== b.length) return false;
  const named = a.length > 1;
  const keys = (list: readonly FolderRoot[]): string[] => list.map((folder) => folderKey(folder, named, caseInsensitive)).sort();
  const left = keys(a);
  const right = keys(b);
  return left.every((key, index) => key === right[index]);
}

/** Where a checkpoint recorded in `recorded` (undefined: before folders were kept) belongs, from a window with `open`. */
export function checkpointPlace(recorded: readonly FolderRoot[] | undefined, open: readonly FolderRoot[]): CheckpointPlace {
  if (recorded === undefined) return { kind: 'unknown' };
  return sameFolders(recorded, open) ? { kind: 'here' } : { kind: 'elsewhere', folders: recorded };
}
