/**
 * @-mentions: what the composer offers after `@`, the fuzzy filter that ranks the offers (run in the host
 * over its cached file list, and testable in plain Node), and the chip a mention becomes.
 */
import * as v from 'valibot';
import { optional, shortText } from './protocol/schema';

/** The kinds of context a mention can add. */
export type MentionKind = 'file' | 'folder' | 'symbol' | 'selection' | 'problems' | 'terminal' | 'git' | 'codebase';

const mentionKinds = ['file', 'folder', 'symbol', 'selection', 'problems', 'terminal', 'git', 'codebase'] as const satisfies readonly MentionKind[];

/** One offer of the `@` list. `id` is what the host resolves (a path, a symbol's location, `staged`...). */
export interface MentionCandidate {
  readonly kind: MentionKind;
  readonly id: string;
  /** What the list shows and the filter matches (a workspace-relative path, a symbol name, `problems`...). */
  readonly label: string;
  /** A second, dimmer line: the folder of a symbol, what a fixed entry adds. */
  readonly detail?: string;
}

/** A mention attached in the composer: resolved by the host, kept there under `token` until `chat/send`. */
export interface MentionChip {
  readonly token: string;
  readonly kind: MentionKind;
  readonly label: string;
  /** Its estimated token cost (0 for `@codebase`, resolved with the question when sent). */
  readonly tokens: number;
  /** Says what was cut or why it is empty; never cut silently. */
  readonly note?: string;
}

/** The shape of a mention candidate from the webview (its messages are untrusted): a known kind, an id and label of at most 4,096 characters. */
export const mentionCandidate: v.GenericSchema<unknown, MentionCandidate> = v.object({
  kind: v.picklist(mentionKinds),
  id: shortText(4096),
  label: shortText(4096),
  detail: optional(v.string()),
});

/** Whether a value is a mention candidate (the webview's messages are untrusted). */
export function isMentionCandidate(value: unknown): value is MentionCandidate {
  return v.is(mentionCandidate, value);
}

/** `/ \\ . _ - space :` as char codes: a character after one starts a word. */
function isSeparator(code: number): boolean {
  return code === 47 || code === 92 || code === 46 || code === 95 || code === 45 || code === 32 || code === 58;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

/** Greedy subsequence score of `q` in `t` (lowercased `text`) from `from` on, or undefined when it does not match there. */
function scoreFrom(q: string, t: string, text: string, from: number, nameStart: number): number | undefined {
  let score = 0;
  let qi = 0;
  let previous = -2;
  let want = q.charCodeAt(0);
  for (let ti = from; ti < t.length; ti++) {
    if (t.charCodeAt(ti) !== want) continue;
    let gain = 1;
    if (previous === ti - 1) gain += 5;
    const before = ti === 0 ? 47 : text.charCodeAt(ti - 1);
    if (isSeparator(before)) gain += 8;
    else if (isUpper(text.charCodeAt(ti)) && !isUpper(before)) gain += 6;
    if (ti >= nameStart) gain += 2;
    score += gain;
    previous = ti;
    qi++;
    if (qi === q.length) return score;
    want = q.charCodeAt(qi);
  }
  return undefined;
}

/** Whether `q`'s characters appear in `t` in order (native indexOf: the cheap test before scoring). */
export function isSubsequence(q: string, t: string): boolean {
  let at = -1;
  for (let qi = 0; qi < q.length; qi++) {
    at = t.indexOf(q[qi] ?? '', at + 1);
    if (at < 0) return false;
  }
  return true;
}

/**
 * Scores `text` for a typed `query` as a fuzzy subsequence match (case-insensitive), or undefined when the
 * query's characters do not all appear in order. Higher is better: consecutive characters, characters at
 * the start of a word or path segment or camelCase hump, and matches in the last path segment (the file
 * name) score more; a query found whole in the file name most; longer texts score slightly less. The match
 * is tried within the file name first, then over the whole path, and the better one counts (linear time).
 */
export function fuzzyScore(query: string, text: string, lower?: string): number | undefined {
  if (query === '') return 0;
  const q = query.toLowerCase();
  const t = lower ?? text.toLowerCase();
  if (!isSubsequence(q, t)) return undefined;
  const trimmed = text.endsWith('/') ? text.length - 1 : text.length;
  const nameStart = text.lastIndexOf('/', trimmed - 1) + 1;
  const inName = nameStart > 0 ? scoreFrom(q, t, text, nameStart, nameStart) : undefined;
  const whole = scoreFrom(q, t, text, 0, nameStart);
  if (whole === undefined) return undefined;
  let score = Math.max(whole, inName ?? -Infinity);
  // A query that is a substring of the file name outranks scattered matches.
  if (t.slice(nameStart).includes(q)) score += 10;
  return score - text.length * 0.01;
}

/**
 * The best `limit` items for `query`, best first (ties keep the input order). With an empty query the first
 * `limit` items in input order. Keeps only a bounded top list, so 20,000 paths take a few milliseconds.
 */
export function fuzzyFilter<T>(items: readonly T[], query: string, labelOf: (item: T) => string, limit = 50, lowerOf?: (item: T) => string): T[] {
  if (query === '') return items.slice(0, limit);
  const top: { item: T; score: number; order: number }[] = [];
  for (let order = 0; order < items.length; order++) {
    const item = items[order] as T;
    const score = fuzzyScore(query, labelOf(item), lowerOf?.(item));
    if (score === undefined) continue;
    if (top.length === limit && score <= (top[top.length - 1]?.score ?? -Infinity)) continue;
    let at = top.length;
    while (at > 0 && (top[at - 1]?.score ?? 0) < score) at--;
    top.splice(at, 0, { item, score, order });
    if (top.length > limit) top.pop();
  }
  return top.map((entry) => entry.item);
}
