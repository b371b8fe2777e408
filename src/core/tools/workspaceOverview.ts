// The workspace's files, listed with the agent's system prompt (as peers' agents give theirs a file list or
// tree): a small model that knows the paths reads the right file instead of guessing one (issue #35;
// bench/agent/agentTasks). Names only, through the same port and excludes as find_files; shallow paths first so
// a large workspace still shows its shape, cut on a whole line at a character cap (every request of an
// agent turn carries it).
import type { WorkspacePort } from './workspacePort';

/** Files asked of the port: more than fit the cap, so the shallow ones can be picked from them. */
const FILES_ASKED = 1_000;
/** Characters of paths at most (about 500 tokens). */
const OVERVIEW_MAX_CHARS = 2_000;

/** The list as the model reads it; '' when there are no files. `more`: the port had more than it gave. */
export function overviewText(paths: readonly string[], more: boolean, maxChars: number = OVERVIEW_MAX_CHARS): string {
  // A name with a line break or another control character could pass for a line of instructions: left out.
  // eslint-disable-next-line no-control-regex
  const listable = paths.filter((path) => !/[\u0000-\u001f\u007f\u2028\u2029]/.test(path));
  if (listable.length === 0) return '';
  const depth = (path: string): number => path.split('/').length;
  const ordered = [...new Set(listable)].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  const shown: string[] = [];
  let used = 0;
  for (const path of ordered) {
    if (used + path.length + 1 > maxChars) break;
    shown.push(path);
    used += path.length + 1;
  }
  // Listed in name order, so a folder's files stay together.
  shown.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const left = ordered.length - shown.length;
  const tail = left > 0 ? [`(and ${left}${more ? '+' : ''} more files not listed)`] : more ? ['(and more files not listed)'] : [];
  return ['Files in the workspace:', ...shown, ...tail].join('\n');
}

/** Reads the workspace's paths through the port (its excludes apply) and lists them. */
export async function workspaceOverview(port: Pick<WorkspacePort, 'findFiles'>, signal: AbortSignal, maxChars: number = OVERVIEW_MAX_CHARS): Promise<string> {
  const { paths, more } = await port.findFiles('**/*', FILES_ASKED, signal);
  return overviewText(paths, more, maxChars);
}
