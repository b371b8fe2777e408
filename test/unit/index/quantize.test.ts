import * as assert from 'node:assert/strict';
import { crc32, crc32Fallback } from '../../../src/core/index/hashing';
import { cosine, dequantise, quantise } from '../../../src/core/index/quantize';
import { createKernelMemory, kernelModuleBytes } from '../../../src/core/index/store/simdKernel';
import { VectorArena } from '../../../src/core/index/store/vectorArena';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
}

describe('index/quantize', () => {
  it('keeps cosine >= 0.99 between random 4096-d vectors and their int8 form, outliers included', () => {
    const rand = random(7);
    let worst = 1;
    for (let t = 0; t < 50; t++) {
      const v = new Float32Array(4096);
      for (let i = 0; i < v.length; i++) v[i] = gaussian(rand);
      if (t % 2 === 1) v[t] = 40; // an LLM-style outlier dimension stretches the int8 scale
      worst = Math.min(worst, cosine(v, dequantise(quantise(v))));
    }
    assert.ok(worst >= 0.99, `worst cosine ${worst}`);
  });

  it('turns an int8 dot product times the factors into the dequantised cosine', () => {
    const rand = random(3);
    const a = Float32Array.from({ length: 4096 }, () => gaussian(rand));
    const b = Float32Array.from({ length: 4096 }, (_, i) => (a[i] ?? 0) * 0.7 + gaussian(rand) * 0.3);
    const qa = quantise(a);
    const qb = quantise(b);
    let dot = 0;
    for (let i = 0; i < 4096; i++) dot += (qa.values[i] ?? 0) * (qb.values[i] ?? 0);
    assert.ok(Math.abs(dot * qa.factor * qb.factor - cosine(dequantise(qa), dequantise(qb))) < 1e-6);
  });

  it('refuses all-zero and non-finite vectors (factor 0)', () => {
    assert.equal(quantise(new Float32Array(8)).factor, 0);
    assert.equal(quantise([1, NaN, 2]).factor, 0);
  });

  it('CRC-32 native and fallback agree', () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    assert.equal(crc32(data), 0x414fa339);
    assert.equal(crc32Fallback(data), 0x414fa339);
    assert.equal(crc32(data.subarray(10), crc32(data.subarray(0, 10))), 0x414fa339);
  });
});

describe('index/simdKernel', () => {
  it('assembles a valid WebAssembly module', () => {
    const wasm = (globalThis as { WebAssembly?: { validate(bytes: Uint8Array): boolean } }).WebAssembly;
    assert.equal(wasm?.validate(kernelModuleBytes()), true);
  });

  for (const simd of [true, false]) {
    it(`computes exact int dot products (${simd ? 'SIMD' : 'JavaScript'} kernel)`, () => {
      const memory = createKernelMemory(65536, simd);
      assert.equal(memory.simd, simd);
      const rand = random(11);
      const stride = 48;
      const rows = 20;
      const bytes = new Int8Array(memory.buffer());
      for (let i = 0; i < stride * (rows + 1); i++) bytes[i] = Math.floor(rand() * 256) - 128;
      memory.scan(stride, 0, stride, rows, 4096);
      const out = new Int32Array(memory.buffer(), 4096, rows);
      for (let r = 0; r < rows; r++) {
        let expected = 0;
        for (let j = 0; j < stride; j++) expected += (bytes[stride + r * stride + j] ?? 0) * (bytes[j] ?? 0);
        assert.equal(out[r], expected);
      }
    });
  }

  it('computes signed block sums (the sketch projection) identically in both kernels', () => {
    const results: number[][] = [];
    for (const simd of [true, false]) {
      const rand = random(5);
      const arena = new VectorArena(40, { preferSimd: simd });
      for (let r = 0; r < 9; r++)
        arena.setFloat(
          arena.allocate(),
          Float32Array.from({ length: 40 }, () => gaussian(rand)),
        );
      const signs = Int8Array.from({ length: arena.stride }, (_, i) => (i < 40 ? (i % 3 === 0 ? -1 : 1) : 0));
      const sums = Array.from(arena.blockSums(2, 5, signs));
      assert.equal(sums.length, 5 * (arena.stride / 16));
      let expected = 0;
      const row = arena.row(3);
      for (let j = 16; j < 32; j++) expected += (row[j] ?? 0) * (signs[j] ?? 0);
      assert.equal(sums[1 * 3 + 1], expected);
      results.push(sums);
    }
    assert.deepEqual(results[0], results[1]);
  });

  it('grows the arena without losing rows and reuses freed slots', () => {
    const arena = new VectorArena(20, { initialCapacity: 2 });
    const slots = Array.from({ length: 100 }, (_, i) => {
      const slot = arena.allocate();
      arena.setFloat(
        slot,
        Float32Array.from({ length: 20 }, (_, j) => (j === i % 20 ? 1 : 0.01)),
      );
      return slot;
    });
    assert.equal(arena.size, 100);
    assert.equal(arena.row(slots[57] ?? 0)[17], 127);
    arena.release(slots[3] ?? 0);
    assert.equal(arena.allocate(), slots[3]);
  });
});
