// What a failed call is told so that the next call can be right: a small model sent edit_file with text that
// is not in the file, and create_file with the path ".", and then repeated them (issue #35; bench/agent/agentTasks.ts
// measures how often). Each error names what is wrong and ends with one sentence saying what to do next.
import { ToolError } from './toolTypes';

/** What a path that does not exist is told: how to find the right one. */
export const findPathHint = 'Find the right path with find_files or list_directory.';

/** Rethrows a ToolError 'notFound' (a path that does not exist) with `hint` after its message. */
export async function withPathHint<T>(work: Promise<T>, hint = findPathHint): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (ToolError.is(error, 'notFound')) throw new ToolError('notFound', `${error.message} ${hint}`, { cause: error });
    throw error;
  }
}

/** Character pairs of a text, counted (for a Dice similarity that does not care where the words are). */
function pairs(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index + 1 < text.length; index += 1) {
    const pair = text.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

function similarity(a: Map<string, number>, aSize: number, b: string): number {
  const other = pairs(b);
  const bSize = Math.max(0, b.length - 1);
  if (aSize + bSize === 0) return 0;
  let shared = 0;
  for (const [pair, count] of other) shared += Math.min(count, a.get(pair) ?? 0);
  return (2 * shared) / (aSize + bSize);
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Lines shown at most, and how alike (0..1, character pairs) the best lines must be to be shown. */
const maxShownLines = 3;
const minSimilarity = 0.5;
/** Files past this are not searched for a close match (the error then only says to read the file). */
const maxSearchedChars = 400_000;

/**
 * The lines of `text` most like `wanted` (as many lines as it has, at most three shown), with their 1-based
 * numbers; none when nothing is alike enough to help.
 */
function closestLines(text: string, wanted: string): { readonly line: number; readonly text: string }[] {
  if (text.length > maxSearchedChars) return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const wantedLines = wanted
    .replace(/\r\n/g, '\n')
    .replace(/^\n+|\n+$/g, '')
    .split('\n');
  const size = Math.max(1, Math.min(wantedLines.length, lines.length));
  const target = squash(wanted);
  const targetPairs = pairs(target);
  const targetSize = Math.max(0, target.length - 1);
  let best = -1;
  let bestScore = 0;
  for (let start = 0; start + size <= lines.length; start += 1) {
    const window = squash(lines.slice(start, start + size).join('\n'));
    if (window === '') continue;
    const score = similarity(targetPairs, targetSize, window);
    if (score > bestScore) {
      best = start;
      bestScore = score;
    }
  }
  if (best < 0 || bestScore < minSimilarity) return [];
  return lines
    .slice(best, best + Math.min(size, maxShownLines))
    .map((line, index) => ({ line: best + index + 1, text: line.length > 200 ? `${line.slice(0, 200)}…` : line }));
}

/** edit_file's error when old_text is not in the file: the closest lines, or that nothing is alike. */
export function notFoundText(path: string, text: string, oldText: string): string {
  const close = closestLines(text, oldText);
  if (close.length === 0)
    return `old_text was not found in ${path}, and no line of it looks like old_text. Read the file with read_file, then copy the text to replace exactly.`;
  const shown = close.map((entry) => `${entry.line}: ${entry.text}`).join('\n');
  return `old_text was not found in ${path}. The closest ${close.length === 1 ? 'line is' : 'lines are'}:\n${shown}\nCopy old_text exactly from the file, whitespace included (without the line numbers).`;
}

/** The 1-based line of each offset (in order) of `text`. */
export function linesOf(text: string, offsets: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let at = 0;
  for (const offset of offsets) {
    for (; at < offset; at += 1) if (text.charCodeAt(at) === 10) line += 1;
    out.push(line);
  }
  return out;
}

/** A list of line numbers for a message: "1, 6", or the first eight and "…". */
export function lineList(lines: readonly number[]): string {
  return lines.length > 8 ? `${lines.slice(0, 8).join(', ')}, …` : lines.join(', ');
}
