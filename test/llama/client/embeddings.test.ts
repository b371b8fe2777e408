// llama-server compatibility: /v1/embeddings on a server started with --embeddings (a MiniLM-shaped
// BERT with the real WordPiece vocabulary and random weights). Random weights make similarity
// meaningless, so the tests check what the index relies on: dimension, input order across batches,
// determinism, usage, and progress.
import * as assert from 'node:assert/strict';
import { llamaServers, useClient } from './llamaEnv';

/** Largest absolute difference between two vectors of the same length. */
function maxDifference(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return worst;
}

describe('llama-server compatibility: embeddings', function () {
  this.timeout(120_000);
  const servers = llamaServers();
  const client = useClient(() => servers.embed);

  it('embeds a few texts in one request: one 384-dimension vector per input, with token usage', async () => {
    const result = await client().embed(['hello world', 'goodbye world', 'function add(a, b) { return a + b; }'], servers.embedModel);
    assert.equal(result.embeddings.length, 3);
    for (const vector of result.embeddings) assert.equal(vector.length, 384);
    assert.ok((result.promptTokens ?? 0) >= 8, `prompt tokens ${String(result.promptTokens)}`);
    assert.ok(
      maxDifference(result.embeddings[0] ?? new Float32Array(384), result.embeddings[1] ?? new Float32Array(384)) > 1e-3,
      'different texts, different vectors',
    );
  });

  it('embeds many texts in bulk (batches in parallel): input order kept, identical texts give identical vectors', async () => {
    // 150 texts with repeats at distant positions, so a mix-up between batches would show.
    const texts = Array.from({ length: 150 }, (_, i) => `chunk ${i % 50}: export function handler${i % 50}(input: string) { return input.trim(); }`);
    const progress: number[] = [];
    const vectors = await client().embedMany(texts, servers.embedModel, { batchSize: 16, concurrency: 2, onProgress: (done) => progress.push(done) });
    assert.equal(vectors.length, 150);
    for (const vector of vectors) assert.equal(vector.length, 384);
    for (let i = 0; i < 50; i++) {
      const [a, b, c] = [vectors[i], vectors[i + 50], vectors[i + 100]];
      assert.ok(a && b && c);
      // Batch composition may change float rounding a little, never the vector.
      assert.ok(maxDifference(a, b) < 1e-3 && maxDifference(a, c) < 1e-3, `text ${i} embedded differently in another batch`);
      assert.ok(maxDifference(a, vectors[(i + 1) % 50] ?? a) > 1e-3 || i === 49, `texts ${i} and ${i + 1} gave the same vector`);
    }
    assert.equal(progress.at(-1), 150);
    const single = await client().embed(texts[7] ?? '', servers.embedModel);
    assert.ok(
      maxDifference(single.embeddings[0] ?? new Float32Array(384), vectors[7] ?? new Float32Array(384)) < 1e-3,
      'a single request agrees with the bulk one',
    );
  });
});
