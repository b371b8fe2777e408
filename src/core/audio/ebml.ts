// EBML (the encoding under Matroska and WebM) primitives: variable-length ids and sizes.

/** An EBML variable-length integer: its value and how many bytes it took. */
export interface Vint {
  readonly value: number;
  readonly length: number;
  /** True for the reserved all-ones value that means "size unknown" (live streams). */
  readonly unknown: boolean;
}

/** Reads an EBML size vint at `o` (marker bit stripped), or `undefined` when malformed. */
export function readVint(b: Uint8Array, o: number): Vint | undefined {
  const first = b[o];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (o + length > b.length) return undefined;
  let value = first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = b[o + i] ?? 0;
    if (byte !== 0xff) allOnes = false;
    value = value * 256 + byte;
  }
  return { value, length, unknown: allOnes };
}

/** Reads an EBML element id at `o` (marker bit kept, as ids are written in specs). */
export function readId(b: Uint8Array, o: number): { value: number; length: number } | undefined {
  const first = b[o];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (length > 4 || o + length > b.length) return undefined;
  let value = first;
  for (let i = 1; i < length; i++) value = value * 256 + (b[o + i] ?? 0);
  return { value, length };
}
