// The matching half of search_text, pure: the host finds and reads the files (findFiles with the
// workspace's excludes, real paths inside the workspace, ignore files, a size cap, open editors' unsaved
// text); this decides which lines match. A regular expression from the model runs on RE2's linear-time
// engine (re2js, pure JavaScript): V8's backtracking engine would let `^(a+)+$` on a 28-character line
// block the extension host, shared by every extension, for seconds, doubling with each character.
import { RE2JS } from 're2js';
import { ToolError } from './toolTypes';
import type { TextMatch, TextQuery } from './workspacePort';

/** A compiled regular expression, or the ToolError saying why the model's pattern cannot be used. */
function compileRegex(text: string, ignoreCase: boolean): RE2JS {
  try {
    return RE2JS.compile(text, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ToolError('invalid', `query is not a regular expression this search supports (RE2 syntax: no backreferences or lookaround): ${why}`);
  }
}

/** Throws ToolError 'invalid' when a regex query cannot be compiled (so the model can fix it). */
export function checkQuery(query: TextQuery): void {
  if (query.isRegex) compileRegex(query.text, false);
}

/**
 * Decides whether one line matches, in time linear in the line's length whatever the pattern. Smart
 * case, as ripgrep's: a query with no capital letter ignores case.
 */
export function lineMatcher(query: TextQuery): (line: string) => boolean {
  const ignoreCase = query.text === query.text.toLowerCase();
  if (query.isRegex) {
    const pattern = compileRegex(query.text, ignoreCase);
    return (line) => pattern.test(line);
  }
  if (!ignoreCase) return (line) => line.includes(query.text);
  return (line) => line.toLowerCase().includes(query.text);
}

/**
 * Appends the matching lines of one file to `out` while it holds fewer than `limit`; returns false when
 * a match beyond the limit exists (the caller stops and reports "more"). Binary files (a NUL byte) are skipped.
 */
export function collectMatches(path: string, text: string, matches: (line: string) => boolean, limit: number, out: TextMatch[]): boolean {
  if (text.includes('\u0000')) return true;
  let line = 1;
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    const content = text.slice(start, stop).replace(/\r$/, '');
    if (matches(content)) {
      if (out.length >= limit) return false;
      out.push({ path, line, text: content });
    }
    if (end < 0) break;
    start = end + 1;
    line += 1;
  }
  return true;
}
