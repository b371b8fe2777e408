// Where a path the model wrote points, and whether it is inside the workspace. Pure (node:path only), so
// the rule that matters most for safety is unit-tested in plain Node: nothing outside the workspace
// folders is read, listed, edited or used as a working directory.
import * as nodePath from 'node:path';
import { ToolError } from './toolTypes';

/** A workspace folder: its name (for multi-root paths) and where it is on disk. */
export interface FolderRoot {
  readonly name: string;
  readonly fsPath: string;
}

/** A path resolved inside a folder. */
export interface ResolvedPath {
  readonly folder: FolderRoot;
  /** Absolute, normalised. */
  readonly absolute: string;
  /** What the model is shown: relative with forward slashes; `<folder>/...` in a multi-root workspace; '' for a root. */
  readonly display: string;
}

type PathApi = Pick<typeof nodePath, 'isAbsolute' | 'resolve' | 'relative' | 'sep'>;

function inside(root: string, target: string, api: PathApi): string | undefined {
  const relative = api.relative(root, target);
  if (relative === '') return '';
  if (relative === '..' || relative.startsWith(`..${api.sep}`) || api.isAbsolute(relative)) return undefined;
  return relative;
}

/** The display form of an absolute path inside `folder`. */
export function displayPath(folder: FolderRoot, relative: string, folders: readonly FolderRoot[], api: PathApi = nodePath): string {
  const slashed = relative.split(api.sep).join('/');
  if (folders.length <= 1) return slashed;
  return slashed === '' ? folder.name : `${folder.name}/${slashed}`;
}

/**
 * Resolves `input` against the workspace folders: absolute paths must lie inside one; relative paths are
 * taken from the first folder, or from the folder they name first in a multi-root workspace. `..` may
 * not leave the folder. Throws ToolError 'outsideWorkspace' otherwise, and when no folder is open.
 */
export function resolveWorkspacePath(input: string, folders: readonly FolderRoot[], api: PathApi = nodePath): ResolvedPath {
  const first = folders[0];
  if (!first) throw new ToolError('outsideWorkspace', 'No folder is open, so there is no workspace to use.');
  const raw = input.trim().replace(/^\.\/+/, '');
  const candidates: { folder: FolderRoot; absolute: string }[] = [];
  if (raw !== '' && api.isAbsolute(raw)) {
    for (const folder of folders) candidates.push({ folder, absolute: api.resolve(raw) });
  } else {
    const [head, ...rest] = raw.split(/[\\/]/);
    const named = folders.length > 1 ? folders.find((folder) => folder.name === head) : undefined;
    if (named) candidates.push({ folder: named, absolute: api.resolve(named.fsPath, rest.join('/')) });
    candidates.push({ folder: first, absolute: api.resolve(first.fsPath, raw === '.' ? '' : raw) });
  }
  for (const { folder, absolute } of candidates) {
    const relative = inside(api.resolve(folder.fsPath), absolute, api);
    if (relative !== undefined) return { folder, absolute, display: displayPath(folder, relative, folders, api) };
  }
  throw new ToolError('outsideWorkspace', `${input} is outside the workspace folders; only files inside them can be used.`);
}
