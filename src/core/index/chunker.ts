import { contentHash, crc32 } from './hashing';

/**
 * Splitting text into chunks on structural boundaries.
 *
 * Token estimate: a line costs ceil(characters after its indentation / 4) + 1. Four characters per
 * token is the usual BPE average for English and code; indentation and the newline mostly merge into
 * one token, hence the +1 and the trimmed indent. It is deterministic and errs a little high, which
 * keeps chunks safely inside E5-Mistral's 4,096-token input.
 *
 * Boundaries, strongest (3) first: a line at column 0 that starts a declaration (`function`, `class`,
 * `export`, `def`, `fn`, `func`, `pub`, `impl`, `interface`, `type`, `struct`, ...), a comment,
 * decorator or attribute at column 0 (so a doc comment stays with what it documents), the line after
 * a closing `}`/`end` at column 0, and column-0 text after a blank line; then (2) any text after a
 * blank line; then (1) a dedent. A chunk ends at the strongest boundary whose size is between
 * `minTokens` and `maxTokens`, the one nearest `targetTokens` among equals. When a chunk had to end
 * inside a structure (no strength-3 boundary), the next one repeats its last `overlapLines` lines for
 * context (blank lines not counted); after a clean structural cut the overlap would only repeat the tail of the previous
 * declaration, so there is none. A line longer than `maxTokens` is cut into pieces by characters.
 */
export interface ChunkOptions {
  readonly targetTokens?: number | undefined;
  readonly minTokens?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly overlapLines?: number | undefined;
  /**
   * Also cut cleanly (strength 3) above a declaration nested in another (a method in a class, a
   * function in a function, at any indentation), or above the decorators and comments attached to it.
   */
  readonly declarationsAtAnyDepth?: boolean | undefined;
}

/** A chunk: 1-based inclusive line range, its text (lines joined with `\n`), hash and token estimate. */
export interface TextChunk {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly hash: string;
  readonly tokens: number;
}

interface Resolved {
  readonly target: number;
  readonly min: number;
  readonly max: number;
  readonly overlap: number;
  readonly nested: boolean;
}

/**
 * Bumped whenever the chunks of unchanged bytes change, so stored indexes (local and team) are
 * re-chunked rather than mixed. 2: chunks start with the names of their enclosing declarations
 * (chunkContext.ts, applied by prepareFile), which changes the embedded text and the hashes.
 */
const ALGORITHM = 2;

function resolve(options: ChunkOptions = {}): Resolved {
  const target = Math.max(16, Math.round(options.targetTokens ?? 320));
  const min = Math.max(1, Math.round(options.minTokens ?? target * 0.4));
  const max = Math.max(target, Math.round(options.maxTokens ?? target * 1.6));
  return {
    target,
    min: Math.min(min, target),
    max,
    overlap: Math.max(0, Math.round(options.overlapLines ?? 2)),
    nested: options.declarationsAtAnyDepth ?? false,
  };
}

/** A number that changes whenever chunk boundaries could (algorithm or options); stored in the index. */
export function chunkerVersion(options?: ChunkOptions): number {
  const r = resolve(options);
  return crc32(Buffer.from(`chunker/${ALGORITHM}/${r.target}/${r.min}/${r.max}/${r.overlap}${r.nested ? '/nested' : ''}`));
}

/**
 * The most lines a chunk can span: every line costs at least one token (a blank one exactly one), so a
 * chunk of at most `maxTokens` tokens spans at most that many lines (the pieces of a cut line share its
 * number). A span longer than this did not come from the chunker.
 */
export function maxChunkLines(options?: ChunkOptions): number {
  return resolve(options).max;
}

/** The token estimate described above, for any text. */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const line of text.split('\n')) tokens += lineTokens(line);
  return tokens;
}

function lineTokens(line: string): number {
  const indent = line.length - line.trimStart().length;
  return Math.ceil((line.length - indent) / 4) + 1;
}

interface Segment {
  readonly line: number;
  readonly text: string;
  readonly tokens: number;
  readonly blank: boolean;
  readonly indent: number;
  readonly continuation: boolean;
}

const DECLARATION =
  /^(?:(?:export|pub(?:\([^)]*\))?|public|private|protected|internal|static|abstract|final|sealed|async|default|declare|extern|inline|unsafe|override|virtual|partial|open|data|suspend)\s+)*(?:function\*?|class|interface|type|enum|struct|trait|impl|def|fn|func|module|namespace|package|object|record|union|macro_rules!|template|typedef|const|let|var|val|sub|proc|export)\b/;
const COMMENT_OR_ATTRIBUTE = /^(?:\/\*\*?|\/\/|#|--|"""|'''|@\w|\(\*)/;
/** A declaration inside another: a nested `def`/`class`/`function`/`fn`/..., or a method `name(...) {`. */
const NESTED_DECLARATION =
  /^(?:(?:pub(?:\([^)]*\))?|public|private|protected|internal|static|abstract|final|async|override|virtual|unsafe|get|set)\s+)*(?:(?:def|class|function\*?|interface|enum|struct|trait|impl|fn|func)\s+[A-Za-z_$]|(?!(?:if|for|while|switch|catch|with|return|else|do|try|elif|except)\b)[A-Za-z_$][\w$]*\s*(?:<[^>]*>)?\([^;]*\)\s*(?::\s*[^{;]+)?\{\s*$)/;
const CLOSING = /^(?:[}\])]+[;,)]*|end\b.*|fi|esac|done)\s*$/;

function segments(text: string, maxTokens: number, pieceChars: number): Segment[] {
  const out: Segment[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const indent = line.length - line.trimStart().length;
    const blank = indent === line.length;
    if (lineTokens(line) <= maxTokens) {
      out.push({ line: index + 1, text: line, tokens: lineTokens(line), blank, indent, continuation: false });
      return;
    }
    for (let at = 0; at < line.length; at += pieceChars) {
      const piece = line.slice(at, at + pieceChars);
      out.push({ line: index + 1, text: piece, tokens: Math.ceil(piece.length / 4) + 1, blank: false, indent: at === 0 ? indent : 0, continuation: at > 0 });
    }
  });
  return out;
}

function boundaryScore(segs: readonly Segment[], i: number, prevIndent: number, nested: boolean): number {
  const seg = segs[i];
  const prev = segs[i - 1];
  if (!seg || !prev || seg.continuation) return 0;
  const topLevel = !seg.blank && seg.indent === 0;
  if (nested && !seg.blank && seg.indent > 0) {
    const text = seg.text.trimStart();
    const decorator = /^@\w/.test(text) || text.startsWith('/**');
    if (NESTED_DECLARATION.test(text) || (decorator && prev.blank)) {
      // Attached to the decorator or doc comment above it: that line was the cut.
      const attached = !prev.blank && prev.indent === seg.indent && COMMENT_OR_ATTRIBUTE.test(prev.text.trimStart());
      if (!attached) return 3;
    }
  }
  if (topLevel && (DECLARATION.test(seg.text) || COMMENT_OR_ATTRIBUTE.test(seg.text))) {
    // A declaration right under its doc comment or decorator belongs with it: cut above those instead.
    const attached = !prev.blank && prev.indent === 0 && COMMENT_OR_ATTRIBUTE.test(prev.text);
    if (!attached) return 3;
    return 0;
  }
  if (!prev.blank && prev.indent === 0 && CLOSING.test(prev.text)) return 3;
  if (prev.blank && topLevel) return 3;
  if (prev.blank && !seg.blank) return 2;
  if (!seg.blank && seg.indent < prevIndent) return 1;
  return 0;
}

/** Splits `text` into chunks as described in the module comment; deterministic for equal input. */
export function chunkText(text: string, options?: ChunkOptions): TextChunk[] {
  const r = resolve(options);
  const segs = segments(text, r.max, r.target * 4);
  const n = segs.length;
  const scores = new Int8Array(n);
  let lastIndent = 0;
  for (let i = 0; i < n; i++) {
    scores[i] = boundaryScore(segs, i, lastIndent, r.nested);
    const seg = segs[i];
    if (seg && !seg.blank) lastIndent = seg.indent;
  }
  const chunks: TextChunk[] = [];
  let s = 0;
  while (s < n) {
    let total = 0;
    let e = s;
    while (e < n && total + (segs[e]?.tokens ?? 0) <= r.max) total += segs[e++]?.tokens ?? 0;
    if (e === s) e = s + 1;
    if (e >= n) {
      emit(chunks, segs, s, n - 1);
      break;
    }
    let best = e;
    let bestScore = -1;
    let bestDistance = Infinity;
    let running = 0;
    for (let c = s + 1; c <= e; c++) {
      running += segs[c - 1]?.tokens ?? 0;
      if (running < r.min) continue;
      const score = scores[c] ?? 0;
      const distance = Math.abs(running - r.target);
      if (score > bestScore || (score === bestScore && distance < bestDistance)) {
        best = c;
        bestScore = score;
        bestDistance = distance;
      }
    }
    emit(chunks, segs, s, best - 1);
    let next = best;
    if (bestScore < 3) {
      // Step back over `overlap` lines of text (blank lines do not count as context), but never to or
      // before this chunk's first line of text: a chunk that began at a blank line (trimmed when
      // emitted) would otherwise be followed by the same text again.
      let first = s;
      while (first < best - 1 && segs[first]?.blank) first++;
      for (let taken = 0; taken < r.overlap && next > first + 1;) if (!segs[--next]?.blank) taken++;
    }
    s = next;
  }
  return chunks;
}

function emit(out: TextChunk[], segs: readonly Segment[], from: number, to: number): void {
  let a = from;
  let b = to;
  while (a <= b && segs[a]?.blank) a++;
  while (b >= a && segs[b]?.blank) b--;
  if (a > b) return;
  let text = '';
  let tokens = 0;
  for (let i = a; i <= b; i++) {
    const seg = segs[i];
    if (!seg) continue;
    text += i === a ? seg.text : seg.continuation ? seg.text : `\n${seg.text}`;
    tokens += seg.tokens;
  }
  out.push({ startLine: segs[a]?.line ?? 1, endLine: segs[b]?.line ?? 1, text, hash: contentHash(text), tokens });
}
