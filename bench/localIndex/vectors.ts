// Generated vectors for the index benchmarks, shaped like real embeddings, and the exact float32
// reference search they are judged against. Shared by bench/localIndex/semanticIndex.ts and bench/localIndex/indexPeers.ts.
import { TopK } from '../../src/core/index/topK';

/** xorshift32: fast and deterministic, so 410 M components generate in about a second. */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296 - 0.5;
  };
}

/**
 * Clustered vectors like real embeddings: a component shared by all texts (unrelated chunks still
 * have cosine ~0.45), topic centres (chunks of one topic ~0.8), and per-chunk noise. Unit length.
 */
export class Clustered {
  private readonly common: Float32Array;
  private readonly centres: Float32Array[];

  constructor(
    clusters: number,
    readonly dim = 4096,
  ) {
    const r = prng(42);
    this.common = new Float32Array(dim);
    for (let d = 0; d < dim; d++) this.common[d] = 1.2 * r();
    this.centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dim }, () => r()));
  }

  /** Vector `i` (deterministic), unit length, written into `target` (at least `dim` long). */
  fill(i: number, target: Float32Array, extraNoise = 0): Float32Array {
    const dim = this.dim;
    const r = prng(i * 2654435761 + 1);
    const centre = this.centres[i % this.centres.length] ?? this.common;
    let sum = 0;
    for (let d = 0; d < dim; d++) {
      const v = (this.common[d] ?? 0) + (centre[d] ?? 0) + 0.8 * r() + extraNoise * r();
      target[d] = v;
      sum += v * v;
    }
    const inv = 1 / Math.sqrt(sum);
    for (let d = 0; d < dim; d++) target[d] = (target[d] ?? 0) * inv;
    return target;
  }
}

/** Exact top-k by dot product over `count` rows of `dim` floats in `data` (the reference; scalar JS). */
export function exactTopK(data: Float32Array, dim: number, count: number, q: Float32Array, k: number): number[] {
  const top = new TopK(k);
  for (let i = 0; i < count; i++) {
    const off = i * dim;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let d = 0; d < dim; d += 4) {
      s0 += (data[off + d] ?? 0) * (q[d] ?? 0);
      s1 += (data[off + d + 1] ?? 0) * (q[d + 1] ?? 0);
      s2 += (data[off + d + 2] ?? 0) * (q[d + 2] ?? 0);
      s3 += (data[off + d + 3] ?? 0) * (q[d + 3] ?? 0);
    }
    top.offer(s0 + s1 + s2 + s3, i);
  }
  return top.sorted().map((h) => h.id);
}

/** Share of the reference's ids that `got` found, for top 10. */
export function recallAt10(got: readonly number[], truth: readonly number[]): number {
  return got.filter((g) => truth.includes(g)).length / 10;
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

export function p95(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? NaN;
}

export const ms = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 2 : 1)} ms` : '-');
