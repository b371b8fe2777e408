// Bounds-checked random access to the parts of a file that a caller has read. Every parser in this
// folder reads through here, so hostile or truncated input can only ever produce `undefined`, never an
// out-of-bounds read or a throw.

/**
 * The cheap-to-read parts of a file: its first bytes, its last bytes and its total size. A 500 MB
 * recording need not be loaded to know its duration; `head` and `tail` may overlap or be the same
 * buffer (see {@link wholeFile}).
 */
export interface AudioParts {
  /** Bytes [0, head.length) of the file. */
  readonly head: Uint8Array;
  /** Bytes [size - tail.length, size) of the file. */
  readonly tail: Uint8Array;
  /** Total size of the file in bytes. */
  readonly size: number;
}

/** Wraps a whole in-memory file as {@link AudioParts}. */
export function wholeFile(bytes: Uint8Array): AudioParts {
  return { head: bytes, tail: bytes, size: bytes.length };
}

/** Random access over {@link AudioParts}: reads answer `undefined` outside the known bytes. */
export class ByteSource {
  /** Total size of the file. */
  readonly size: number;
  /** True when every byte of the file is known (then `all` holds it). */
  readonly whole: boolean;
  /** The whole file when `whole`, else an empty array. */
  readonly all: Uint8Array;
  private readonly head: Uint8Array;
  private readonly tail: Uint8Array;
  private readonly tailStart: number;

  private constructor(head: Uint8Array, tail: Uint8Array, size: number) {
    this.size = size;
    if (head.length >= size || tail.length >= size) {
      this.all = head.length >= size ? head.subarray(0, size) : tail.subarray(tail.length - size);
    } else if (head.length + tail.length >= size) {
      // The two parts touch or overlap: stitching them once is cheaper than handling reads that
      // straddle the seam in every parser.
      const all = new Uint8Array(size);
      all.set(head, 0);
      all.set(tail.subarray(head.length - (size - tail.length)), head.length);
      this.all = all;
    } else {
      this.all = new Uint8Array(0);
    }
    this.whole = this.all.length === size;
    this.head = this.whole ? this.all : head;
    this.tail = this.whole ? this.all : tail;
    this.tailStart = size - this.tail.length;
  }

  /** Builds a source, or `undefined` when the parts cannot belong to one file. */
  static from(parts: AudioParts): ByteSource | undefined {
    const { head, tail, size } = parts;
    if (!Number.isSafeInteger(size) || size < 0 || head.length > size || tail.length > size) {
      return undefined;
    }
    return new ByteSource(head, tail, size);
  }

  /** Bytes known from the start of the file. */
  get headLength(): number {
    return this.head.length;
  }

  /** Offset where the known tail begins. */
  get tailOffset(): number {
    return this.tailStart;
  }

  /** The known tail bytes. */
  get tailBytes(): Uint8Array {
    return this.tail;
  }

  /** The known head bytes. */
  get headBytes(): Uint8Array {
    return this.head;
  }

  /** A view of [offset, offset + length), or `undefined` when those bytes are not all known. */
  view(offset: number, length: number): Uint8Array | undefined {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      return undefined;
    }
    const end = offset + length;
    if (end > this.size) return undefined;
    if (end <= this.head.length) return this.head.subarray(offset, end);
    if (offset >= this.tailStart) return this.tail.subarray(offset - this.tailStart, end - this.tailStart);
    return undefined;
  }

  /** Whether [offset, offset + length) is known. */
  has(offset: number, length: number): boolean {
    return this.view(offset, length) !== undefined;
  }

  u8(offset: number): number | undefined {
    const v = this.view(offset, 1);
    return v === undefined ? undefined : v[0];
  }

  u16le(offset: number): number | undefined {
    const v = this.view(offset, 2);
    return v === undefined ? undefined : u16le(v, 0);
  }

  u16be(offset: number): number | undefined {
    const v = this.view(offset, 2);
    return v === undefined ? undefined : u16be(v, 0);
  }

  u32le(offset: number): number | undefined {
    const v = this.view(offset, 4);
    return v === undefined ? undefined : u32le(v, 0);
  }

  u32be(offset: number): number | undefined {
    const v = this.view(offset, 4);
    return v === undefined ? undefined : u32be(v, 0);
  }

  /** 64-bit big-endian, or `undefined` past 2^53 (no real file is that large). */
  u64be(offset: number): number | undefined {
    const hi = this.u32be(offset);
    const lo = this.u32be(offset + 4);
    if (hi === undefined || lo === undefined || hi >= 0x200000) return undefined;
    return hi * 0x100000000 + lo;
  }

  /** 64-bit little-endian, or `undefined` past 2^53. */
  u64le(offset: number): number | undefined {
    const lo = this.u32le(offset);
    const hi = this.u32le(offset + 4);
    if (hi === undefined || lo === undefined || hi >= 0x200000) return undefined;
    return hi * 0x100000000 + lo;
  }

  /** Latin-1 text of [offset, offset + length), for four-character codes and magic strings. */
  ascii(offset: number, length: number): string | undefined {
    const v = this.view(offset, length);
    return v === undefined ? undefined : asciiOf(v, 0, length);
  }
}

// Plain-array readers for hot loops that already hold a bounds-checked view; callers check lengths.

/** Little-endian 16-bit unsigned at `o` (caller ensures o + 2 <= b.length). */
export function u16le(b: Uint8Array, o: number): number {
  return (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
}

/** Big-endian 16-bit unsigned at `o`. */
export function u16be(b: Uint8Array, o: number): number {
  return ((b[o] ?? 0) << 8) | (b[o + 1] ?? 0);
}

/** Little-endian 32-bit unsigned at `o`. */
export function u32le(b: Uint8Array, o: number): number {
  return ((b[o] ?? 0) | ((b[o + 1] ?? 0) << 8) | ((b[o + 2] ?? 0) << 16)) + (b[o + 3] ?? 0) * 0x1000000;
}

/** Big-endian 32-bit unsigned at `o`. */
export function u32be(b: Uint8Array, o: number): number {
  return (b[o] ?? 0) * 0x1000000 + (((b[o + 1] ?? 0) << 16) | ((b[o + 2] ?? 0) << 8) | (b[o + 3] ?? 0));
}

/** Latin-1 text of `length` bytes at `o`, clipped to the array. */
export function asciiOf(b: Uint8Array, o: number, length: number): string {
  let s = '';
  const end = Math.min(b.length, o + length);
  for (let i = Math.max(0, o); i < end; i++) s += String.fromCharCode(b[i] ?? 0);
  return s;
}

/** Whether `b` holds the Latin-1 text `magic` at `o`. */
export function hasMagic(b: Uint8Array, o: number, magic: string): boolean {
  if (o < 0 || o + magic.length > b.length) return false;
  for (let i = 0; i < magic.length; i++) {
    if (b[o + i] !== magic.charCodeAt(i)) return false;
  }
  return true;
}
