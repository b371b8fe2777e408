// The emulator's tokenizer. Real models use BPE vocabularies we do not have; what tests need is a
// rule that is deterministic and easy to reason about: one token per run of letters/digits and one
// per punctuation or symbol character. Whitespace is attached to the token after it, so the pieces
// concatenate back to the exact input (streaming and truncation rely on that).

const PIECE = /\s*(?:[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_])|\s+$/gu;
const TOKEN = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

/** Splits text into token pieces (leading whitespace included) whose concatenation is the input. */
export function tokenPieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}

/** Counts tokens: words (letter/digit runs) plus punctuation characters. */
export function countTokens(text: string): number {
  let n = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text) !== null) n++;
  return n;
}

/** Keeps at most `max` tokens of `text`; returns the text unchanged when it is shorter. */
export function truncateTokens(text: string, max: number): { text: string; truncated: boolean } {
  const pieces = tokenPieces(text);
  let kept = 0;
  let end = 0;
  for (const piece of pieces) {
    if (piece.trim() === '') break; // trailing whitespace only
    if (kept === max) return { text: text.slice(0, end), truncated: true };
    kept++;
    end += piece.length;
  }
  return { text, truncated: false };
}

/** Per-message overhead added to the prompt count, as chat templates add role markers. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** A fixed charge per image and per audio clip; real models charge by pixels or seconds, but a constant keeps tests predictable. */
export const MEDIA_TOKENS = 256;
