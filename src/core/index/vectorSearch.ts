import { quantiseInto } from './quantize';
import { VectorArena } from './store/vectorArena';
import { TopK } from './topK';

/** A vector hit: the arena slot and the cosine between the query and the stored (quantised) vector. */
export interface VectorHit {
  readonly slot: number;
  readonly score: number;
}

/** Search tuning. */
export interface VectorSearchOptions {
  /**
   * Up to this many live vectors every query scans all rows exactly (default 20,000 with the SIMD
   * kernel, ~6 ms at 4,096-d; 2,000 with the JavaScript one; and by default vectors narrower than
   * 4,096 dimensions are always scanned exactly, see `minSketchBuckets`). Setting it forces the rule.
   */
  readonly exactBelow?: number | undefined;
  /** Candidates the sketch passes to exact re-ranking: max(this, 40 x k) (default 400). */
  readonly candidates?: number | undefined;
}

/**
 * Fewest sketch buckets (dimension / 16) that keep the true top 10 among the candidates: narrower vectors
 * are always scanned exactly (their rows are small), unless the caller sets `exactBelow`. Why:
 * docs/decisions/0010-local-index-int8-scan.md.
 */
const minSketchBuckets = 256;

/** Rows sketched per kernel call (1 MB of block sums at 4,096-d). */
const SKETCH_BATCH = 1024;

/** mulberry32: a small seeded generator (the sketch's signs; benches reuse it for their deterministic sets). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Centres and quantises `count` rows of block sums into int8 sketch rows (`target`, `stride` apart),
 * writing each sketch's factor (‖centred sketch‖ / ‖int8 row‖: dot products, not cosines, rank).
 * A small standalone function so V8 optimises it as a whole; inlined into the sync loop it ran 4x
 * slower.
 */
function sketchBatch(
  sums: Int32Array,
  rowFactors: Float64Array,
  mean: Float64Array,
  projected: Float64Array,
  target: Int8Array,
  stride: number,
  count: number,
  factors: Float64Array,
): void {
  const buckets = mean.length;
  for (let r = 0; r < count; r++) {
    const factor = rowFactors[r] ?? 0;
    const base = r * buckets;
    const out = r * stride;
    let sumSquares = 0;
    let maxAbs = 0;
    for (let b = 0; b < buckets; b++) {
      const v = (sums[base + b] ?? 0) * factor - (mean[b] ?? 0);
      projected[b] = v;
      sumSquares += v * v;
      const a = v < 0 ? -v : v;
      if (a > maxAbs) maxAbs = a;
    }
    if (factor === 0 || maxAbs === 0) {
      target.fill(0, out, out + stride);
      factors[r] = 0;
      continue;
    }
    const step = 127 / maxAbs;
    let q2 = 0;
    for (let b = 0; b < buckets; b++) {
      const q = Math.round((projected[b] ?? 0) * step);
      target[out + b] = q;
      q2 += q * q;
    }
    factors[r] = Math.sqrt(sumSquares / q2);
  }
}

/**
 * Top-k cosine search over a `VectorArena`.
 *
 * Small indexes are scanned exactly: the query is quantised to int8 too and the SIMD kernel computes
 * every int dot product. Above `exactBelow` a scan of all 4,096-d rows would approach 30 ms, so a
 * first stage scans a 256-value sketch per vector (16x less memory traffic) and the best
 * `candidates` are re-ranked exactly. The sketch is a count-sketch random projection: every
 * dimension gets a random sign (fixed seed, so deterministic) and each block of 16 consecutive
 * dimensions is summed into one bucket, which the SIMD kernel computes for 100,000 rows in tens of
 * milliseconds. Sketch dot products estimate the true ones without bias; the sketch is taken of the
 * vector minus the collection mean, which leaves the ranking unchanged (the query's dot product
 * with the mean is the same for every row) but removes the large component embedding models share
 * across all texts, which would otherwise dominate the estimate's error. Sketches are derived (kept
 * in memory, redone per row when the row's write generation changes), never stored.
 */
export class VectorSearcher {
  private arena: VectorArena | undefined;
  private sketch: VectorArena | undefined;
  private sketchGen = new Uint32Array(0);
  private signs = new Int8Array(0);
  private mean: Float64Array = new Float64Array(0);
  private meanFromSize = 0;
  private readonly minCandidates: number;

  constructor(private readonly options: VectorSearchOptions = {}) {
    this.minCandidates = options.candidates ?? 400;
  }

  /** The best `k` live slots for a float query, best first. */
  search(arena: VectorArena, query: ArrayLike<number>, k: number, isLive: (slot: number) => boolean): VectorHit[] {
    if (query.length !== arena.dimension || k <= 0 || arena.size === 0) return [];
    const q8 = new Int8Array(arena.dimension);
    const qFactor = quantiseInto(query, q8);
    if (qFactor === 0) return [];
    if (!this.sketches(arena)) return this.exact(arena, q8, qFactor, k, isLive);
    const candidates = this.firstStage(arena, query, Math.max(this.minCandidates, 40 * k), isLive);
    arena.setQuery(q8);
    const top = new TopK(k);
    for (const slot of candidates) top.offer(arena.scanOne(slot) * arena.factor(slot) * qFactor, slot);
    return top.sorted().map(({ id, score }) => ({ slot: id, score }));
  }

  /** Whether a query goes through the sketch pre-filter, or scans every row exactly. */
  private sketches(arena: VectorArena): boolean {
    const exactBelow = this.options.exactBelow;
    if (exactBelow !== undefined) return arena.liveCount > exactBelow;
    return arena.liveCount > (arena.simd ? 20_000 : 2_000) && arena.stride / 16 >= minSketchBuckets;
  }

  private exact(arena: VectorArena, q8: Int8Array, qFactor: number, k: number, isLive: (slot: number) => boolean): VectorHit[] {
    arena.setQuery(q8);
    const dots = arena.scanAll();
    const top = new TopK(k);
    for (let slot = 0; slot < dots.length; slot++) {
      if (!isLive(slot)) continue;
      top.offer((dots[slot] ?? 0) * arena.factor(slot) * qFactor, slot);
    }
    return top.sorted().map(({ id, score }) => ({ slot: id, score }));
  }

  private firstStage(arena: VectorArena, query: ArrayLike<number>, count: number, isLive: (slot: number) => boolean): number[] {
    const sketch = this.syncSketch(arena);
    const buckets = sketch.dimension;
    const projected = new Float64Array(buckets);
    for (let i = 0; i < query.length; i++) {
      const b = i >> 4;
      projected[b] = (projected[b] ?? 0) + (this.signs[i] ?? 0) * (query[i] ?? 0);
    }
    const s8 = new Int8Array(buckets);
    const sFactor = quantiseInto(projected, s8);
    sketch.setQuery(s8);
    const dots = sketch.scanAll();
    const top = new TopK(count);
    for (let slot = 0; slot < dots.length; slot++) {
      if (!isLive(slot)) continue;
      top.offer((dots[slot] ?? 0) * sketch.factor(slot) * sFactor, slot);
    }
    return top.sorted().map((h) => h.id);
  }

  /**
   * Builds the sketch ahead of the first query, a slice at a time, yielding to the event loop
   * between slices (about 1 s of work at 100,000 vectors on a busy core would otherwise land on the
   * user's first search). Searching meanwhile is fine: it finishes the rest synchronously.
   */
  async warm(arena: VectorArena, signal?: AbortSignal): Promise<void> {
    if (!this.sketches(arena)) return;
    while (!signal?.aborted && !this.sketchStale(arena, this.prepareSketch(arena), 4 * SKETCH_BATCH)) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Brings the sketch up to date with the arena: new rows, rewritten rows, a new mean when the data doubled. */
  private syncSketch(arena: VectorArena): VectorArena {
    const sketch = this.prepareSketch(arena);
    this.sketchStale(arena, sketch, Infinity);
    return sketch;
  }

  private prepareSketch(arena: VectorArena): VectorArena {
    const buckets = arena.stride / 16;
    if (this.arena !== arena || !this.sketch || arena.size >= 2 * this.meanFromSize) {
      this.arena = arena;
      this.sketch = new VectorArena(buckets, { preferSimd: arena.simd, initialCapacity: arena.size });
      this.sketchGen = new Uint32Array(0);
      const random = mulberry32(0x5eed);
      this.signs = new Int8Array(arena.stride);
      for (let i = 0; i < arena.dimension; i++) this.signs[i] = random() < 0.5 ? -1 : 1;
      this.mean = this.estimateMean(arena, buckets);
      this.meanFromSize = Math.max(1, arena.size);
    }
    const sketch = this.sketch;
    if (this.sketchGen.length < arena.size) {
      const grown = new Uint32Array(Math.max(arena.size, this.sketchGen.length * 2));
      grown.set(this.sketchGen);
      this.sketchGen = grown;
    }
    sketch.reserveAdditional(Math.max(0, arena.size - sketch.size));
    while (sketch.size < arena.size) sketch.allocate();
    return sketch;
  }

  /** Re-sketches up to `budget` rows whose generation changed; true when none are left. */
  private sketchStale(arena: VectorArena, sketch: VectorArena, budget: number): boolean {
    const projected = new Float64Array(sketch.dimension);
    const rowFactors = new Float64Array(SKETCH_BATCH);
    const sketchFactors = new Float64Array(SKETCH_BATCH);
    let done = 0;
    let slot = 0;
    while (slot < arena.size) {
      if (this.sketchGen[slot] === arena.generation(slot)) {
        slot++;
        continue;
      }
      if (done >= budget) return false;
      let end = slot + 1;
      while (end < arena.size && end - slot < SKETCH_BATCH && this.sketchGen[end] !== arena.generation(end)) end++;
      const count = end - slot;
      for (let i = 0; i < count; i++) rowFactors[i] = arena.factor(slot + i);
      sketchBatch(arena.blockSums(slot, count, this.signs), rowFactors, this.mean, projected, sketch.rows(slot, count), sketch.stride, count, sketchFactors);
      for (let i = 0; i < count; i++) {
        this.sketchGen[slot + i] = arena.generation(slot + i);
        sketch.setFactor(slot + i, sketchFactors[i] ?? 0);
      }
      done += count;
      slot = end;
    }
    return true;
  }

  /** The projected mean of up to 2,000 evenly spread rows. */
  private estimateMean(arena: VectorArena, buckets: number): Float64Array {
    const mean = new Float64Array(buckets);
    const step = Math.max(1, Math.floor(arena.size / 2000));
    let n = 0;
    for (let slot = 0; slot < arena.size; slot += step) {
      const factor = arena.factor(slot);
      if (factor === 0) continue;
      const sums = arena.blockSums(slot, 1, this.signs);
      for (let b = 0; b < buckets; b++) mean[b] = (mean[b] ?? 0) + (sums[b] ?? 0) * factor;
      n++;
    }
    if (n > 0) for (let b = 0; b < buckets; b++) mean[b] = (mean[b] ?? 0) / n;
    return mean;
  }
}
