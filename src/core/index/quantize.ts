/**
 * Int8 quantisation of embedding vectors.
 *
 * Each vector is L2-normalised, scaled so its largest component maps to ±127 and rounded. We keep one
 * float per vector, `factor`, chosen so that `dot(int8Row, unitQuery) * factor` is exactly the cosine
 * between the query and the *dequantised* vector: factor = 1 / ‖int8Row‖. That folds the per-vector
 * scale and the norm correction into one number, so search needs no division and no norm table.
 */

/** A quantised vector: int8 components and the factor that turns an int8 dot product into a cosine. */
export interface QuantisedVector {
  readonly values: Int8Array;
  readonly factor: number;
}

/**
 * Quantises `vector` into `target` (same length) and returns its factor; 0 when the vector is all
 * zeros or not finite, which callers treat as "reject".
 */
export function quantiseInto(vector: ArrayLike<number>, target: Int8Array): number {
  let maxAbs = 0;
  let finite = true;
  for (let i = 0; i < vector.length; i++) {
    const a = Math.abs(vector[i] ?? NaN);
    if (!Number.isFinite(a)) finite = false;
    else if (a > maxAbs) maxAbs = a;
  }
  if (!finite || !(maxAbs > 0)) {
    target.fill(0);
    return 0;
  }
  const step = 127 / maxAbs;
  let sumSquares = 0;
  for (let i = 0; i < vector.length; i++) {
    const q = Math.round((vector[i] ?? 0) * step);
    target[i] = q;
    sumSquares += q * q;
  }
  return 1 / Math.sqrt(sumSquares);
}

/** Quantises a float vector into a new `QuantisedVector`. */
export function quantise(vector: ArrayLike<number>): QuantisedVector {
  const values = new Int8Array(vector.length);
  const factor = quantiseInto(vector, values);
  return { values, factor };
}

/** The unit-length float vector a quantised vector stands for. */
export function dequantise(q: QuantisedVector): Float32Array {
  const out = new Float32Array(q.values.length);
  for (let i = 0; i < out.length; i++) out[i] = (q.values[i] ?? 0) * q.factor;
  return out;
}

/** Cosine similarity of two float vectors (0 when either is all zeros). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
