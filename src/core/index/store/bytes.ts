/** Thrown by `ByteReader` when a table runs past its section: the file is corrupt, not our bug. */
export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormatError';
  }
}

/** A growable little-endian byte buffer for building metadata sections and journal records. */
export class ByteWriter {
  private bytes = Buffer.alloc(1024);
  private length = 0;

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = Buffer.alloc(Math.max(this.bytes.length * 2, this.length + n));
    this.bytes.copy(next, 0, 0, this.length);
    this.bytes = next;
  }

  get size(): number {
    return this.length;
  }

  u8(v: number): this {
    this.room(1);
    this.bytes.writeUInt8(v, this.length);
    this.length += 1;
    return this;
  }

  u16(v: number): this {
    this.room(2);
    this.bytes.writeUInt16LE(v, this.length);
    this.length += 2;
    return this;
  }

  u32(v: number): this {
    this.room(4);
    this.bytes.writeUInt32LE(v >>> 0, this.length);
    this.length += 4;
    return this;
  }

  f32(v: number): this {
    this.room(4);
    this.bytes.writeFloatLE(v, this.length);
    this.length += 4;
    return this;
  }

  f64(v: number): this {
    this.room(8);
    this.bytes.writeDoubleLE(v, this.length);
    this.length += 8;
    return this;
  }

  raw(data: Uint8Array): this {
    this.room(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
    return this;
  }

  /** A string as u16 byte length + UTF-8; paths longer than 65,535 bytes are not indexable anyway. */
  str16(s: string): this {
    const data = Buffer.from(s, 'utf8');
    if (data.length > 0xffff) throw new RangeError('string too long for the index');
    return this.u16(data.length).raw(data);
  }

  /** The bytes written so far (a view, not a copy). */
  finish(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/** A bounds-checked little-endian reader; every overrun is a `FormatError`. */
export class ByteReader {
  private offset = 0;

  constructor(private readonly bytes: Buffer) {}

  get position(): number {
    return this.offset;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private need(n: number): number {
    if (this.offset + n > this.bytes.length) throw new FormatError(`section ends ${this.offset + n - this.bytes.length} bytes early`);
    const at = this.offset;
    this.offset += n;
    return at;
  }

  u8(): number {
    return this.bytes.readUInt8(this.need(1));
  }

  u16(): number {
    return this.bytes.readUInt16LE(this.need(2));
  }

  u32(): number {
    return this.bytes.readUInt32LE(this.need(4));
  }

  f32(): number {
    return this.bytes.readFloatLE(this.need(4));
  }

  f64(): number {
    return this.bytes.readDoubleLE(this.need(8));
  }

  raw(n: number): Buffer {
    const at = this.need(n);
    return this.bytes.subarray(at, at + n);
  }

  str16(): string {
    return this.raw(this.u16()).toString('utf8');
  }
}
