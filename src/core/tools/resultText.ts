// Tool results as text for the model: cut to fit the room the context leaves, always saying how much was
// left out, and the compact diff an edit's approval card shows.
import { estimateTokens } from '../chat/contextBudget';

/** Characters per token of the budget's estimate (contextBudget.ts); used to turn tokens into a cut. */
export const charsPerToken = 4;

/**
 * Cuts `text` to about `maxTokens` at a line boundary when it is longer, and appends a note with how
 * many lines and characters (and about how many tokens) were left out, so the model can ask for less.
 */
export function truncateResult(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  const limit = Math.max(0, maxTokens * charsPerToken - 200);
  let cut = text.lastIndexOf('\n', limit);
  if (cut < limit / 2) cut = limit;
  const kept = text.slice(0, cut);
  const dropped = text.slice(cut);
  const totalLines = countLines(text);
  const droppedLines = totalLines - countLines(kept);
  return `${kept}\n[Cut to fit the context: ${droppedLines.toLocaleString('en-US')} of ${totalLines.toLocaleString('en-US')} lines (${dropped.length.toLocaleString('en-US')} characters, about ${estimateTokens(dropped).toLocaleString('en-US')} tokens) were left out. Ask for less, e.g. a line range or a narrower query.]`;
}

function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
}

const contextLines = 3;
const maxDiffLines = 400;

/**
 * A unified-style diff of one replaced region: the lines that differ with up to three lines of context,
 * each prefixed `-`, `+` or a space, under an `@@ -a,b +c,d @@` header. Enough for a card; the editor's
 * diff view shows the whole file.
 */
export function compactDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  if (start === a.length && start === b.length) return '(no change)';
  const from = Math.max(0, start - contextLines);
  const toA = Math.min(a.length, endA + contextLines);
  const toB = Math.min(b.length, endB + contextLines);
  const lines = [`@@ -${from + 1},${toA - from} +${from + 1},${toB - from} @@`];
  for (let index = from; index < start; index += 1) lines.push(` ${a[index] ?? ''}`);
  for (let index = start; index < endA; index += 1) lines.push(`-${a[index] ?? ''}`);
  for (let index = start; index < endB; index += 1) lines.push(`+${b[index] ?? ''}`);
  for (let index = endA; index < toA; index += 1) lines.push(` ${a[index] ?? ''}`);
  if (lines.length <= maxDiffLines) return lines.join('\n');
  return `${lines.slice(0, maxDiffLines).join('\n')}\n… ${lines.length - maxDiffLines} more lines (open the diff to see them)`;
}

/** The most of a new file's content an approval card (and the stored conversation) keeps. */
export const maxPreviewChars = 20_000;

/** What a card leaves out of a long text: the lines and characters after what it shows. */
export interface Omitted {
  readonly lines: number;
  readonly characters: number;
}

/**
 * The head of `content` a card shows (at most `maxChars`, cut at a line end when one is near) and what it
 * leaves out, so the card can say so; the editor's diff view shows the whole text.
 */
export function contentPreview(content: string, maxChars = maxPreviewChars): { readonly text: string; readonly omitted?: Omitted } {
  if (content.length <= maxChars) return { text: content };
  const lineEnd = content.lastIndexOf('\n', maxChars - 1);
  const end = lineEnd >= maxChars / 2 ? lineEnd + 1 : maxChars;
  const text = content.slice(0, end);
  const rest = content.slice(end);
  const lines = rest.split('\n').length - (rest.endsWith('\n') ? 1 : 0);
  return { text, omitted: { lines, characters: rest.length } };
}
