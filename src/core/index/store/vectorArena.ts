import { quantiseInto } from '../quantize';
import { createKernelMemory, type KernelMemory } from './simdKernel';

/**
 * Quantised vectors in one growable linear memory, row `slot` at a fixed stride, with one cosine
 * factor per row (see quantize.ts). Slots are reused through a free list; each write bumps a
 * per-slot generation so derived structures (the search sketch) can tell which rows changed.
 *
 * Memory layout: [query: stride bytes][rows: capacity x stride][scores: capacity x int32].
 */
export class VectorArena {
  /** Row width in bytes: the dimension rounded up to 16 for the SIMD kernel (padding stays zero). */
  readonly stride: number;
  private readonly memory: KernelMemory;
  private capacity = 0;
  private used = 0;
  private factors = new Float32Array(0);
  private generations = new Uint32Array(0);
  private readonly free: number[] = [];
  private clock = 0;

  constructor(
    readonly dimension: number,
    options: { preferSimd?: boolean; initialCapacity?: number } = {},
  ) {
    if (!Number.isInteger(dimension) || dimension <= 0) throw new RangeError(`bad dimension ${dimension}`);
    this.stride = Math.ceil(dimension / 16) * 16;
    this.memory = createKernelMemory(this.stride, options.preferSimd ?? true);
    this.reserve(options.initialCapacity ?? 64);
  }

  /** Whether the WebAssembly SIMD kernel is in use. */
  get simd(): boolean {
    return this.memory.simd;
  }

  /** One past the highest slot ever handed out; scans cover [0, size). */
  get size(): number {
    return this.used;
  }

  /** Slots currently holding a vector. */
  get liveCount(): number {
    return this.used - this.free.length;
  }

  private get rowsOffset(): number {
    return this.stride;
  }

  private reserve(minCapacity: number): void {
    if (minCapacity <= this.capacity) return;
    const next = Math.max(minCapacity, Math.ceil(this.capacity * 1.5), 64);
    this.memory.ensure(this.rowsOffset + next * this.stride + next * 4);
    const factors = new Float32Array(next);
    factors.set(this.factors);
    this.factors = factors;
    const generations = new Uint32Array(next);
    generations.set(this.generations);
    this.generations = generations;
    this.capacity = next;
  }

  /** Makes room for `count` more rows up front (a load knows its size). */
  reserveAdditional(count: number): void {
    this.reserve(this.used + count);
  }

  /** A free slot (reused or new); its row is zero until written. */
  allocate(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    this.reserve(this.used + 1);
    return this.used++;
  }

  /** Returns a slot to the free list and zeroes it so a stray scan scores it 0. */
  release(slot: number): void {
    this.row(slot).fill(0);
    this.factors[slot] = 0;
    this.generations[slot] = ++this.clock;
    this.free.push(slot);
  }

  /** A view of the row (only valid until the next allocation grows the memory). */
  row(slot: number): Int8Array {
    return new Int8Array(this.memory.buffer(), this.rowsOffset + slot * this.stride, this.dimension);
  }

  /** A view of rows [from, from + count), `stride` bytes each (valid until the next allocation). */
  rows(from: number, count: number): Int8Array {
    return new Int8Array(this.memory.buffer(), this.rowsOffset + from * this.stride, count * this.stride);
  }

  /** Sets a slot's factor after its row was written in place through `rows`. */
  setFactor(slot: number, factor: number): void {
    this.factors[slot] = factor;
    this.generations[slot] = ++this.clock;
  }

  /** The cosine factor of a slot (0 for an empty slot). */
  factor(slot: number): number {
    return this.factors[slot] ?? 0;
  }

  /** The write generation of a slot; changes whenever the slot is written or released. */
  generation(slot: number): number {
    return this.generations[slot] ?? 0;
  }

  /** Stores already-quantised values. */
  set(slot: number, values: Int8Array, factor: number): void {
    this.row(slot).set(values.subarray(0, this.dimension));
    this.factors[slot] = factor;
    this.generations[slot] = ++this.clock;
  }

  /** Quantises and stores a float vector; returns the factor, 0 meaning the vector was unusable. */
  setFloat(slot: number, vector: ArrayLike<number>): number {
    const factor = quantiseInto(vector, this.row(slot));
    this.factors[slot] = factor;
    this.generations[slot] = ++this.clock;
    return factor;
  }

  /** Copies the query (int8, `dimension` long) into the query area for the scans that follow. */
  setQuery(query: Int8Array): void {
    const area = new Int8Array(this.memory.buffer(), 0, this.stride);
    area.fill(0);
    area.set(query.subarray(0, this.dimension));
  }

  /** Int dot products of the query with every row in [0, size); a view valid until the next write. */
  scanAll(): Int32Array {
    const out = this.rowsOffset + this.capacity * this.stride;
    this.memory.scan(this.rowsOffset, 0, this.stride, this.used, out);
    return new Int32Array(this.memory.buffer(), out, this.used);
  }

  /**
   * For rows [from, from + count): the dot product of every 16-value block with the same block of
   * `signs` (length `stride`), i.e. `stride / 16` int32 per row. Overwrites the query area. A view
   * valid until the next write.
   */
  blockSums(from: number, count: number, signs: Int8Array): Int32Array {
    new Int8Array(this.memory.buffer(), 0, this.stride).set(signs.subarray(0, this.stride));
    const out = this.rowsOffset + this.capacity * this.stride;
    this.memory.ensure(out + Math.max(this.capacity * 4, (count * this.stride) / 4));
    this.memory.blocks(this.rowsOffset + from * this.stride, 0, this.stride, count, out);
    return new Int32Array(this.memory.buffer(), out, (count * this.stride) / 16);
  }

  /** Int dot product of the query with one row. */
  scanOne(slot: number): number {
    const out = this.rowsOffset + this.capacity * this.stride;
    this.memory.scan(this.rowsOffset + slot * this.stride, 0, this.stride, 1, out);
    return new Int32Array(this.memory.buffer(), out, 1)[0] ?? 0;
  }
}
