/**
 * Deciding whether file bytes are indexable text, and decoding them.
 *
 * - Binary: a NUL byte in the first 8 KB, or more than 10% control characters there (after UTF-16
 *   byte-order marks, which are honoured). UTF-16 without a BOM is full of NULs and counts as binary.
 * - UTF-8 (with or without BOM) is decoded strictly first.
 * - Not UTF-8: if under 1% of the bytes are in broken sequences, a UTF-8 file with a few bad bytes is
 *   decoded leniently (U+FFFD); otherwise it is taken to be a legacy single-byte encoding and decoded
 *   as Windows-1252 (Latin-1 with the C1 punctuation), so Latin-1 sources stay searchable instead of
 *   vanishing. Both cases are reported (`lossy`) so the caller can log them.
 * - Minified or generated: text whose average line is over 1,000 characters (a bundle, a data blob)
 *   is skipped rather than chunked: its embeddings would be noise and it would crowd out real code.
 *   Ordinary files with the odd overlong line are fine; the chunker splits such lines.
 */
export type DecodedFile =
  | { readonly kind: 'text'; readonly text: string; readonly encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'; readonly lossy: boolean }
  | { readonly kind: 'binary'; readonly why: string }
  | { readonly kind: 'minified'; readonly averageLineLength: number };

const SNIFF_BYTES = 8192;
/** Average line length above which a file counts as minified. */
export const MINIFIED_AVERAGE_LINE = 1000;

function countControl(bytes: Uint8Array, end: number): number {
  let control = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i] ?? 0;
    // Tab, LF, VT, FF, CR and ESC (ANSI colour codes in logs) are normal in text.
    if (b < 0x20 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 27) control++;
  }
  return control;
}

function averageLineLength(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.length / lines;
}

function finish(text: string, encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252', lossy: boolean, minifiedAbove: number): DecodedFile {
  const average = averageLineLength(text);
  if (average > minifiedAbove) return { kind: 'minified', averageLineLength: Math.round(average) };
  return { kind: 'text', text, encoding, lossy };
}

/** Classifies and decodes file bytes (see the module comment for the policy). */
export function decodeFile(bytes: Uint8Array, minifiedAbove = MINIFIED_AVERAGE_LINE): DecodedFile {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return finish(new TextDecoder('utf-16le').decode(bytes.subarray(2)), 'utf-16le', false, minifiedAbove);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    swapped.swap16();
    return finish(new TextDecoder('utf-16le').decode(swapped), 'utf-16be', false, minifiedAbove);
  }
  const sniff = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < sniff; i++) if (bytes[i] === 0) return { kind: 'binary', why: 'NUL byte' };
  if (sniff > 0 && countControl(bytes, sniff) / sniff > 0.1) return { kind: 'binary', why: 'control characters' };
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return finish(new TextDecoder('utf-8', { fatal: true }).decode(body), 'utf-8', false, minifiedAbove);
  } catch {
    // Not valid UTF-8: decide between a few bad bytes and a legacy encoding.
  }
  const lenient = new TextDecoder('utf-8').decode(body);
  let replacements = 0;
  for (let i = lenient.indexOf('\ufffd'); i >= 0; i = lenient.indexOf('\ufffd', i + 1)) replacements++;
  if (replacements / Math.max(1, body.length) < 0.01) return finish(lenient, 'utf-8', true, minifiedAbove);
  return finish(decodeWindows1252(body), 'windows-1252', true, minifiedAbove);
}

function decodeWindows1252(body: Uint8Array): string {
  try {
    return new TextDecoder('windows-1252').decode(body);
  } catch {
    // A runtime built without ICU's legacy encodings: Latin-1 differs only in 0x80-0x9F.
    return Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1');
  }
}
