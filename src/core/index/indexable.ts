// Whether the local index would index one file: the walk's rules for a single path, so a file named by a
// watcher event, a chunk about to be read for a preview or the chat's context, and a hit the team's
// database names are all judged alike. The team index is a database the editor only reads: whoever can
// write to it must not be able to pick which local files (`.env`, `.git/config`, `deploy.pem`) are read.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { FileSource } from './fileSource';
import type { IgnoreRules } from './ignoreRules';
import type { IndexRoot } from './types';
import { isWithin, realRoot, skipByPath, type PathSkip } from './walker';

/** Why the local index would not index a file. */
export type IndexSkip = PathSkip | 'notPlain' | 'outsideWorkspace' | 'excludedBySibling' | 'notAFile' | 'tooLarge' | 'vanished' | 'unreadable';

/** What judging a path needs: its workspace folder and that folder's rules and limits, as the index has them. */
export interface IndexableContext {
  readonly root: IndexRoot;
  readonly rules: IgnoreRules;
  readonly maxFileBytes: number;
  readonly source: FileSource;
}

/** A root-relative path in the index's form: `/`-separated, no empty, `.` or `..` segment, no backslash. */
function isPlainRelative(rel: string): boolean {
  return (
    rel !== '' &&
    !rel.includes('\\') &&
    !rel.includes('\0') &&
    !path.isAbsolute(rel) &&
    rel.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

/**
 * Why the local index would leave out `rel` (relative to `context.root`), or undefined when it would
 * index it: a path not in the index's form, the ignore rules (`.git` always), a secret's name or a binary
 * extension on the path or on where a link leads, a real path outside the folder, a folder or a file over
 * the size limit, a sibling-conditional exclude. Binary or minified content is judged when it is read.
 */
export async function whyNotIndexed(context: IndexableContext, rel: string): Promise<IndexSkip | undefined> {
  if (!isPlainRelative(rel)) return 'notPlain';
  const byPath = await skipByPath(context.rules, rel, false);
  if (byPath !== undefined) return byPath;
  const absPath = path.join(context.root.path, ...rel.split('/'));
  let real: string;
  try {
    real = await fsp.realpath(absPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'vanished' : 'unreadable';
  }
  const rootReal = await realRoot(context.root.path);
  if (!isWithin(rootReal, real)) return 'outsideWorkspace';
  const realRel = path.relative(rootReal, real).split(path.sep).join('/');
  if (realRel === '') return 'notAFile';
  if (realRel !== rel) {
    const byTarget = await skipByPath(context.rules, realRel, false);
    if (byTarget !== undefined) return byTarget;
  }
  let stat: Awaited<ReturnType<FileSource['stat']>>;
  try {
    stat = await context.source.stat(absPath);
  } catch {
    return 'unreadable';
  }
  if (!stat) return 'vanished';
  if (!stat.isFile) return 'notAFile';
  if (stat.size > context.maxFileBytes) return 'tooLarge';
  if (context.rules.hasSiblingConditions) {
    const siblings = await fsp.readdir(path.dirname(absPath)).catch(() => [] as string[]);
    if (context.rules.isExcludedBySibling(rel, new Set(siblings))) return 'excludedBySibling';
  }
  return undefined;
}
