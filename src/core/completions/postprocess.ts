// Turning a chat model's fill-in-the-middle answer into ghost text, the way completion engines do: chat
// models wrap code in fences, add a sentence, repeat the line they were given and run on past the block
// (into code that already follows the cursor). Each step below undoes one of those habits.

/** Single line when the cursor is inside a line (text follows it), multi-line at a line's end. */
export type CompletionMode = 'line' | 'block';

/** Where the completion goes. */
export interface CursorText {
  /** Text before the cursor (possibly cut at a line start by the prompt budget). */
  readonly prefix: string;
  /** Text after the cursor (possibly cut). */
  readonly suffix: string;
}

/** A cleaned answer: `ended` is true when the answer already holds a whole completion, so a stream can stop. */
export interface CleanedCompletion {
  readonly text: string;
  readonly ended: boolean;
}

/** Lines a block completion may have at most. */
const MAX_BLOCK_LINES = 16;

const OPENERS = '([{';
const CLOSERS = ')]}';

/** The text of the cursor's line before it. */
function linePrefixOf(prefix: string): string {
  return prefix.slice(prefix.lastIndexOf('\n') + 1);
}

/** The text of the cursor's line after it. */
function lineSuffixOf(suffix: string): string {
  const end = suffix.indexOf('\n');
  return end < 0 ? suffix : suffix.slice(0, end);
}

/** Line mode when anything but whitespace follows the cursor on its line; block mode at a line's end. */
export function completionMode(cursor: CursorText): CompletionMode {
  return lineSuffixOf(cursor.suffix).trim() === '' ? 'block' : 'line';
}

function indentOf(line: string): number {
  const match = /^[ \t]*/.exec(line);
  return match ? match[0].replace(/\t/g, '    ').length : 0;
}

/** Code inside the first fence (an unclosed fence runs to the end), or before a bare closing fence; `closed` when the fence closed. */
function stripFences(text: string, final: boolean): { text: string; closed: boolean } {
  // A bare fence after code closes the fence the prompt left open (prompt.ts shows the code before the
  // cursor in an open fence): the code is what came before it, and what follows is prose. Code, not a
  // sentence that introduces an opening fence ("Here is the code:").
  const bare = /\n[ \t]*(```+|~~~+)[ \t]*(\n|$)/.exec(text);
  if (bare) {
    const before = text.slice(0, bare.index);
    const intro = /(^|\n)[ \t]*[A-Z][^(){}[\]=;\n]*:[ \t]*$/.test(before.trimEnd());
    if (before.trim() !== '' && !intro && !/(^|\n)[ \t]*(```|~~~)/.test(before) && stripProse(before) === before) return { text: before, closed: true };
  }
  const open = /(^|\n)[ \t]*(```+|~~~+)[^\n]*\n/.exec(text);
  if (!open) {
    // A fence line still arriving ("```ty") is not code yet; nor, while streaming, are its first one or
    // two backticks (a stream's first delta can be a lone "`", which would disagree with what the user
    // typed meanwhile and abort the request: the UI test's rare missing ghost text). A whole answer of
    // one backtick is code (closing a template literal).
    if (/^[ \t]*(```|~~~)[^\n]*$/.test(text)) return { text: '', closed: false };
    if (!final && /^[ \t]*(`{1,2}|~{1,2})$/.test(text)) return { text: '', closed: false };
    return { text, closed: false };
  }
  const marker = open[2] ?? '```';
  const body = text.slice(open.index + open[0].length);
  const close = new RegExp(`(^|\\n)[ \\t]*${marker.startsWith('`') ? '`' : '~'}{${marker.length},}[ \\t]*(\\n|$)`).exec(body);
  if (!close) return { text: body, closed: false };
  return { text: body.slice(0, close.index), closed: true };
}

const PROSE =
  /^(here(?:'s| is| are)|sure|certainly|of course|okay|ok[,.]|the (?:completion|code|missing|rest)|this (?:completes|code|fills)|completion:|answer:|output:)/i;

/** Drops a leading sentence a chat model puts before the code ("Here is the completion:"). */
function stripProse(text: string): string {
  const lines = text.split('\n');
  while (lines.length > 1 && PROSE.test((lines[0] ?? '').trim())) lines.shift();
  if (lines.length === 1 && PROSE.test((lines[0] ?? '').trim()) && /:\s*$/.test(lines[0] ?? '')) return '';
  return lines.join('\n');
}

/**
 * Drops what repeats the text before the cursor: models often start their answer with the current line, or
 * the last few lines, again. The longest tail of the prefix (at least 3 visible characters) that starts the
 * answer goes; a tail that starts a line may match with the line's indentation dropped.
 */
function stripPrefixEcho(text: string, prefix: string, final: boolean): string {
  // A small base model may start by rewriting the file from an earlier line (Gemma 3 270M in the real-model
  // tier began with the file's first comment): while the answer could still be such a rewrite, wait; once
  // it covers the text up to the cursor, keep only what follows.
  const shown = prefix.slice(-4_000);
  for (let start = shown.length < prefix.length ? shown.indexOf('\n') + 1 : 0; ;) {
    const from = shown.slice(start);
    if (from.trim().length < 3) break;
    if (from.includes('\n')) {
      if (text.startsWith(from)) return text.slice(from.length);
      if (!final && text.trim() !== '' && text.length < from.length && from.startsWith(text)) return '';
    }
    const next = shown.indexOf('\n', start);
    if (next < 0) break;
    start = next + 1;
  }
  const tail = prefix.slice(-600);
  const lineStart = tail.lastIndexOf('\n') + 1;
  const line = tail.slice(lineStart);
  // The cursor's line with its indentation, however short ("  r", asked after one letter): an answer that
  // starts with that indentation and those letters writes the line again (a continuation never
  // re-indents); keep what follows. While streaming, its indentation alone may still become that echo.
  if (lineStart > 0 && /^[ \t]+\S/.test(line)) {
    if (text.startsWith(line)) return text.slice(line.length);
    if (!final && text !== '' && line.startsWith(text)) return '';
  }
  // A partial answer that could still be the start of an echo says nothing yet.
  if (
    !final &&
    text.trim() !== '' &&
    line.trim().length >= 3 &&
    (line.startsWith(text) || line.trimStart().startsWith(text.trimStart())) &&
    text.length < line.length
  )
    return '';
  for (let i = 0; i < tail.length; i++) {
    const candidate = tail.slice(i);
    if (candidate.trim().length < 3) break;
    if (text.startsWith(candidate)) return text.slice(candidate.length);
    const atLineStart = i === 0 ? tail.length < 600 || prefix.length === tail.length : tail[i - 1] === '\n';
    if (atLineStart) {
      const bare = candidate.trimStart();
      const answer = text.trimStart();
      if (bare.length >= 3 && answer.startsWith(bare)) return answer.slice(bare.length);
    }
  }
  return text;
}

/**
 * Where a closer in `text` closes a bracket opened before the cursor (depth below zero), skipping
 * strings and `//` comments; -1 when none does.
 */
function unbalancedCloserAt(text: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote || (c === '\n' && quote !== '`')) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '/' && text.charAt(i + 1) === '/') {
      const end = text.indexOf('\n', i);
      if (end < 0) return -1;
      i = end;
    } else if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c)) {
      depth--;
      if (depth < 0) return i;
    }
  }
  return -1;
}

/** Cuts a line completion: first line only, brackets and punctuation that the rest of the line already has removed. */
function cutLine(text: string, cursor: CursorText, final: boolean): CleanedCompletion {
  const newline = text.indexOf('\n');
  let line = newline < 0 ? text : text.slice(0, newline);
  const ended = newline >= 0 && text.slice(0, newline).trim() !== '';
  // A partial line is shown only for consistency checks; its cuts wait for the whole line.
  if (!final && !ended) return { text: line, ended: false };
  const rest = lineSuffixOf(cursor.suffix).trimStart();
  // A closer that closes what was opened before the cursor belongs to the text after it.
  const closer = unbalancedCloserAt(line);
  if (closer >= 0 && rest.startsWith(line.charAt(closer))) line = line.slice(0, closer);
  // Trailing punctuation the line already has after the cursor (`;`, `",`), never letters or digits.
  for (let length = Math.min(line.length, rest.length); length > 0; length--) {
    const overlap = rest.slice(0, length);
    if (line.endsWith(overlap) && !/[\w$]/.test(overlap)) {
      // Brackets are the balance step's business: a closer here closes something the completion opened.
      if (!/[()[\]{}]/.test(overlap)) line = line.slice(0, line.length - length);
      break;
    }
  }
  return { text: line.trimEnd(), ended };
}

/** The first non-blank lines of the suffix after the cursor's line, as whole lines. */
function suffixLines(suffix: string, count: number): string[] {
  const lines = suffix.split('\n').slice(1);
  const found: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    found.push(line.trimEnd());
    if (found.length >= count) break;
  }
  return found;
}

/**
 * Cuts a block completion at the end of the block. After a line with code, lines indented deeper continue
 * it; when that line opens a block (`{`, `:`, `(`, `[`, `=>`), one closing line at its indentation is kept
 * too. On a blank line, lines at the typed indentation or deeper continue, and one closing line less
 * indented is kept. Any other line ends the block. Then drops the lines the code after the cursor already
 * has (with their indentation, so an inner `}` never matches an outer one) and a closer of a bracket opened
 * before the cursor that the suffix starts with. A line still arriving (`final` false) is left out.
 */
function cutBlock(text: string, cursor: CursorText, final: boolean): CleanedCompletion {
  const linePrefix = linePrefixOf(cursor.prefix);
  const base = indentOf(linePrefix);
  const blank = linePrefix.trim() === '';
  const opensBlock = /([{([:]|=>)\s*$/.test(linePrefix);
  const lines = text.split('\n');
  const kept: string[] = [lines[0] ?? ''];
  const whole = final ? lines.length : lines.length - 1;
  let ended = false;
  let closed = false;
  for (let i = 1; i < whole; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      kept.push(line);
      continue;
    }
    const indent = indentOf(line);
    const closer = /^[)\]}]/.test(line.trim()) || /^(end|fi|done|esac)\b/.test(line.trim());
    let keep: boolean;
    if (closed) keep = false;
    else if (blank) {
      keep = indent >= base || closer;
      if (indent < base && closer) closed = true;
    } else {
      keep = indent > base || (opensBlock && indent === base && closer);
      if (opensBlock && indent === base && closer) closed = true;
    }
    if (!keep) {
      ended = true;
      break;
    }
    kept.push(line);
    if (kept.length >= MAX_BLOCK_LINES) {
      ended = true;
      break;
    }
  }
  if (!final && !ended && lines.length > 1) kept.push('');
  let out = kept.join('\n');
  // Lines the suffix already has: the longest run of the answer's last lines equal to the suffix's first.
  const outLines = out.split('\n');
  const next = suffixLines(cursor.suffix, outLines.length);
  for (let start = 1; start < outLines.length; start++) {
    const tail = outLines
      .slice(start)
      .filter((line) => line.trim() !== '')
      .map((line) => line.trimEnd());
    if (tail.length > 0 && tail.every((line, k) => line === next[k])) {
      out = outLines.slice(0, start).join('\n');
      ended = true;
      break;
    }
  }
  const closerAt = unbalancedCloserAt(out);
  if (closerAt >= 0 && cursor.suffix.trimStart().startsWith(out.charAt(closerAt))) {
    out = out.slice(0, closerAt);
    ended = true;
  }
  return { text: final || ended ? out.replace(/\s+$/, '') : out, ended };
}

/**
 * Cleans a raw (possibly partial) answer for the cursor: fences and prose stripped, an echo of the text
 * before the cursor dropped, cut at the end of the line or block, without what the text after the cursor
 * already has. `ended` says the answer is complete (a closing fence, the line's end, the block's end), so
 * a stream can be stopped there.
 */
export function cleanCompletion(raw: string, cursor: CursorText, mode: CompletionMode = completionMode(cursor), final = true): CleanedCompletion {
  const fenced = stripFences(raw.replace(/\r\n?/g, '\n'), final);
  let text = stripProse(fenced.text).replace(/<\/?(?:CURSOR|FILL_ME|FILL|cursor)>/g, '');
  text = stripPrefixEcho(text, cursor.prefix, final);
  // At a line's end with a blank line typed, the answer's own first newline is not a new line of code.
  if (mode === 'block' && linePrefixOf(cursor.prefix).trim() === '' && text.startsWith('\n')) text = text.replace(/^\n+/, '');
  const cut = mode === 'line' ? cutLine(text, cursor, final) : cutBlock(text, cursor, final);
  if (mode === 'block' && linePrefixOf(cursor.prefix).trim() === '') {
    // The user's own indentation is already typed: do not indent the first line again, whether the answer
    // repeats that indentation or starts with a space of its own (a base model behind a Question/Answer
    // template writes "Answer: return a + b").
    const typed = linePrefixOf(cursor.prefix);
    if (typed !== '') return { text: cut.text.replace(/^[ \t]+/, ''), ended: cut.ended || fenced.closed };
  }
  return { text: cut.text, ended: cut.ended || fenced.closed };
}
