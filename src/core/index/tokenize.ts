/**
 * Identifier-aware tokenisation for the keyword index.
 *
 * Code search queries are often identifiers or pieces of them, so every identifier yields itself
 * (lower-cased) and, when it is compound, its parts: `parseHttpRequest` gives `parsehttprequest`,
 * `parse`, `http`, `request`; `MAX_RETRY_COUNT` gives `max_retry_count`, `max`, `retry`, `count`;
 * `HTMLElement` gives `htmlelement`, `html`, `element`. Parts break at `_`/`$`, at a lower-to-upper
 * change, before the last capital of a capital run that a lower-case letter follows, and between
 * letters and digits. A whole identifier is rare, so BM25 gives an exact-identifier hit a high
 * weight, while the parts let `http request` find it as well. Tokens of one character and over 64
 * characters (hashes, base64) are dropped.
 *
 * This runs over every chunk of the workspace, so ASCII is scanned by character code (a Unicode
 * property regex costs ~8x more); words with other letters take the regex path.
 */
const UNICODE_WORD = /[\p{L}\p{N}_$]+/gu;
const UNICODE_PART = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+/gu;
const UNICODE_CHAR = /[\p{L}\p{N}]/u;
const MAX_TOKEN = 64;

const enum Kind {
  Other,
  Lower,
  Upper,
  Digit,
  Joiner,
  NonAscii,
}

function kindOf(c: number): Kind {
  if (c >= 97 && c <= 122) return Kind.Lower;
  if (c >= 65 && c <= 90) return Kind.Upper;
  if (c >= 48 && c <= 57) return Kind.Digit;
  if (c === 95 || c === 36) return Kind.Joiner;
  return c >= 128 ? Kind.NonAscii : Kind.Other;
}

/** Parts of an ASCII identifier word[start, end), pushed lower-cased; returns how many there were. */
function asciiParts(text: string, start: number, end: number, out: string[] | undefined): number {
  let parts = 0;
  let from = -1;
  let prev = Kind.Other;
  const flush = (to: number): void => {
    if (from >= 0 && to > from) {
      parts++;
      if (out && to - from >= 2) out.push(text.slice(from, to).toLowerCase());
    }
  };
  for (let i = start; i < end; i++) {
    const kind = kindOf(text.charCodeAt(i));
    if (kind === Kind.Joiner) {
      flush(i);
      from = -1;
      prev = kind;
      continue;
    }
    if (from < 0) from = i;
    else if ((prev === Kind.Lower && kind === Kind.Upper) || (prev === Kind.Digit) !== (kind === Kind.Digit)) {
      flush(i);
      from = i;
    } else if (prev === Kind.Upper && kind === Kind.Lower && i - 1 > from) {
      flush(i - 1);
      from = i - 1;
    }
    prev = kind;
  }
  flush(end);
  return parts;
}

function unicodeParts(word: string, out: string[] | undefined): number {
  let parts = 0;
  for (const piece of word.split(/[_$]+/)) {
    for (const part of piece.matchAll(UNICODE_PART)) {
      parts++;
      if (out && part[0].length >= 2) out.push(part[0].toLowerCase());
    }
  }
  return parts;
}

/** Calls `visit(start, end, ascii)` for every word of `text`. */
function words(text: string, visit: (start: number, end: number, ascii: boolean) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let kind = kindOf(text.charCodeAt(i));
    if (kind === Kind.Other || (kind === Kind.NonAscii && !UNICODE_CHAR.test(text.charAt(i)))) {
      i++;
      continue;
    }
    const start = i;
    let ascii = true;
    while (i < n) {
      kind = kindOf(text.charCodeAt(i));
      if (kind === Kind.Other) break;
      if (kind === Kind.NonAscii) {
        if (!UNICODE_CHAR.test(text.charAt(i))) break;
        ascii = false;
      }
      i++;
    }
    visit(start, i, ascii);
  }
}

/** Tokens of `text` in order, compound identifiers followed by their parts. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  words(text, (start, end, ascii) => {
    if (end - start > MAX_TOKEN) return;
    const word = text.slice(start, end);
    const lower = word.toLowerCase();
    if (lower.length >= 2) out.push(lower);
    if (ascii) {
      const mark = out.length;
      if (asciiParts(text, start, end, undefined) > 1) asciiParts(text, start, end, out);
      else out.length = mark;
    } else {
      for (const w of word.matchAll(UNICODE_WORD)) if (unicodeParts(w[0], undefined) > 1) unicodeParts(w[0], out);
    }
  });
  return out;
}

/**
 * The compound identifiers of a query (`parseHttpRequest`, `MAX_RETRY_COUNT`, `utf8Decode`),
 * lower-cased: words that split into parts. A chunk containing one verbatim is an exact hit.
 */
export function compoundIdentifiers(text: string): string[] {
  const out = new Set<string>();
  words(text, (start, end, ascii) => {
    if (end - start > MAX_TOKEN || end - start < 4) return;
    const parts = ascii ? asciiParts(text, start, end, undefined) : unicodeParts(text.slice(start, end), undefined);
    if (parts > 1) out.add(text.slice(start, end).toLowerCase());
  });
  return [...out];
}
