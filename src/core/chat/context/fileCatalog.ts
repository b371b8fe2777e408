// The file list behind the composer's `@`: every file the index's rules keep (nested .gitignore,
// .cadenzaignore, files.exclude/search.exclude, generated folders), and the folders that hold them, walked
// once and then filtered per keystroke. Labels are lowercased once here, so a query over 20,000 paths is a
// scan of plain strings (bench/panel/mentions.ts measures both).
import { fuzzyFilter, isSubsequence } from '../../../shared/mentionCandidates';
import { walkWorkspace } from '../../index/walker';
import type { IgnoreOptions } from '../../index/ignoreRules';

/** A listed file or folder: workspace-relative, a folder's label ending in `/`. */
export interface ListedPath {
  readonly kind: 'file' | 'folder';
  /** Which root it belongs to (the index in the roots given to `listWorkspace`). */
  readonly root: number;
  /** Relative to its root, with `/`. */
  readonly relPath: string;
  /** What the list shows: the relative path, prefixed by the root's name when there are several roots. */
  readonly label: string;
  readonly lower: string;
}

/** Walks the roots and lists their files and folders, folders and shallow paths first. */
export async function listWorkspace(
  roots: readonly { readonly name: string; readonly path: string }[],
  ignore: IgnoreOptions,
  maxFiles = 200_000,
  signal?: AbortSignal,
): Promise<ListedPath[]> {
  const files: ListedPath[] = [];
  const folders = new Map<string, ListedPath>();
  const multi = roots.length > 1;
  for (const [index, root] of roots.entries()) {
    const prefix = multi ? `${root.name}/` : '';
    for await (const entry of walkWorkspace({ ...ignore, roots: [root], maxFiles, maxFileBytes: Number.MAX_SAFE_INTEGER, signal })) {
      const label = `${prefix}${entry.relPath}`;
      files.push({ kind: 'file', root: index, relPath: entry.relPath, label, lower: label.toLowerCase() });
      const segments = entry.relPath.split('/');
      for (let depth = 1; depth < segments.length; depth++) {
        const relPath = segments.slice(0, depth).join('/');
        const folderLabel = `${prefix}${relPath}/`;
        if (!folders.has(folderLabel)) folders.set(folderLabel, { kind: 'folder', root: index, relPath, label: folderLabel, lower: folderLabel.toLowerCase() });
      }
    }
  }
  const depth = (entry: ListedPath): number => entry.relPath.split('/').length;
  return [...folders.values(), ...files].sort((a, b) => depth(a) - depth(b) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

/** The best `limit` listed paths for a query (fuzzy, see shared/mentionCandidates). */
export function filterListed(list: readonly ListedPath[], query: string, limit = 50): ListedPath[] {
  return fuzzyFilter(
    list,
    query,
    (entry) => entry.label,
    limit,
    (entry) => entry.lower,
  );
}

/**
 * Filters one list as the user types: a query that extends the last one (the usual keystroke) only scans
 * the paths the last one matched, since a path that lacks "cha" in order lacks "chat" too. The same best
 * items as `filterListed` over the whole list.
 */
export class ListFilter {
  private last: { list: readonly ListedPath[]; query: string; matches: readonly ListedPath[] } | undefined;

  filter(list: readonly ListedPath[], query: string, limit = 50): ListedPath[] {
    const lower = query.toLowerCase();
    const base = this.last && this.last.list === list && lower.startsWith(this.last.query) ? this.last.matches : list;
    const matches = lower === '' ? list : base.filter((entry) => isSubsequence(lower, entry.lower));
    this.last = { list, query: lower, matches };
    return filterListed(matches, query, limit);
  }
}
