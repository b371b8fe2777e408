// The matching half of search_text, pure: the host finds and reads the files (findFiles with the
// workspace's excludes, a size cap, open editors' unsaved text); this decides which lines match.
import type { TextMatch, TextQuery } from './workspacePort';

/** Decides whether one line matches. Smart case, as ripgrep's: a query with no capital letter ignores case. */
export function lineMatcher(query: TextQuery): (line: string) => boolean {
  const ignoreCase = query.text === query.text.toLowerCase();
  if (query.isRegex) {
    const pattern = new RegExp(query.text, ignoreCase ? 'iu' : 'u');
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
