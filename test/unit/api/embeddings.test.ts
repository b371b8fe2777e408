// Embeddings: one call, and embedMany's batches in input order with bounded concurrency, a 429 in
// the middle that pauses every batch, progress, cancel, and replies with the wrong count or dimension.
import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import { clientFor, EMBED_MODEL, expectApiError, requestsTo, startTinyServer, useEmulator } from './helpers';

const EMB = '/v1/embeddings';
const texts = (n: number): string[] => Array.from({ length: n }, (_, i) => `chunk number ${i} about retry and upload ${i % 7}`);

describe('api/embeddings (emulator)', function () {
  this.timeout(15_000);
  const ctx = useEmulator();

  it('embeds one text and several, as Float32Array of the model dimension', async () => {
    const client = clientFor(ctx.emu);
    const one = await client.embed('hello', EMBED_MODEL);
    assert.equal(one.embeddings.length, 1);
    assert.ok(one.embeddings[0] instanceof Float32Array);
    assert.equal(one.embeddings[0]?.length, 4096);
    assert.ok((one.promptTokens ?? 0) > 0);
    const many = await client.embed(['a b', 'c d', 'e f'], EMBED_MODEL);
    assert.equal(many.embeddings.length, 3);
    assert.deepEqual(record(requestsTo(ctx.emu, EMB)[1]), { model: EMBED_MODEL, input: ['a b', 'c d', 'e f'] });
    await client.close();
  });

  it('embedMany keeps input order across batches, with progress, through a 429 in the middle', async () => {
    const client = clientFor(ctx.emu);
    const input = texts(70);
    const reference = (await client.embed(input.slice(0, 5), EMBED_MODEL)).embeddings;
    ctx.emu.reset();
    ctx.emu.injectFault({ kind: 'rateLimit', afterRequests: 3, reset: '200ms' }, { path: EMB });
    const progress: number[] = [];
    const started = Date.now();
    const vectors = await client.embedMany(input, EMBED_MODEL, { batchSize: 8, concurrency: 3, onProgress: (done, total) => progress.push(done / total) });
    assert.ok(Date.now() - started >= 180, 'the 429 made the batches wait');
    assert.equal(vectors.length, 70);
    for (let i = 0; i < 5; i++) assert.deepEqual(vectors[i], reference[i], `vector ${i} is in input order`);
    // Batch k's first text must map to its own vector: compare with a single call.
    const check = (await client.embed(input[41] ?? '', EMBED_MODEL)).embeddings[0];
    assert.deepEqual(vectors[41], check);
    // 9 batches and one refused attempt.
    assert.equal(requestsTo(ctx.emu, EMB).length, 9 + 1 + 1);
    assert.equal(progress.at(-1), 1);
    assert.ok(progress.every((p, i) => i === 0 || p > (progress[i - 1] ?? 0)));
    const sizes = requestsTo(ctx.emu, EMB)
      .slice(0, -1)
      .map((r) => (record(r)['input'] as string[]).length);
    assert.ok(
      sizes.every((n) => n === 8 || n === 6),
      `batch sizes ${sizes.join(',')}`,
    );
    await client.close();
  });

  it('refuses an empty text before sending any batch', async () => {
    const client = clientFor(ctx.emu);
    const input = [...texts(40), ''];
    const error = await expectApiError(client.embedMany(input, EMBED_MODEL), 'invalid');
    assert.equal(error.param, 'input[40]');
    assert.equal(ctx.emu.requests.length, 0);
    await client.close();
  });

  it('fails embedMany with the first error and remembers model_not_compatible', async () => {
    const client = clientFor(ctx.emu);
    await expectApiError(client.embedMany(texts(10), 'Meta-Llama-3.1-8B-Instruct'), 'modelNotCompatible');
    assert.ok(!client.capabilitiesOf('Meta-Llama-3.1-8B-Instruct').includes('embeddings'));
    await client.close();
  });

  it('cancels embedMany', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.setLatency(100);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    await expectApiError(client.embedMany(texts(200), EMBED_MODEL, { batchSize: 4, signal: controller.signal }), 'canceled');
    ctx.emu.setLatency(0);
    await client.close();
  });
});

function record(r: { body: unknown } | undefined): Record<string, unknown> {
  return r?.body as Record<string, unknown>;
}

describe('api/embeddings (loopback server)', function () {
  this.timeout(10_000);

  it('one 429 pauses every batch, not only the one that got it', async () => {
    const arrivals: number[] = [];
    let refusedAt = 0;
    const server = await startTinyServer((req, res) => {
      const n = arrivals.push(Date.now());
      if (n === 3) {
        refusedAt = Date.now();
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '400' });
        res.end(JSON.stringify({ error: { message: 'Rate limit exceeded', type: 'rate_limit_exceeded', code: 'insufficient_quota', param: null } }));
        return;
      }
      // Reply after a moment, so the other worker is mid-request when the 429 lands.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            model: 'm',
            data: [0, 1].map((index) => ({ object: 'embedding', index, embedding: [index, 1, 2] })),
            usage: { prompt_tokens: 2, total_tokens: 2 },
          }),
        );
      }, 30);
      void req;
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000 });
    const vectors = await client.embedMany(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], 'm', { batchSize: 2, concurrency: 2 });
    assert.equal(vectors.length, 10);
    // Nothing may start between shortly after the 429 and the end of its 400 ms pause.
    const during = arrivals.filter((t) => t > refusedAt + 50 && t < refusedAt + 380);
    assert.deepEqual(during, [], `requests started during the pause: ${during.map((t) => t - refusedAt).join(', ')} ms`);
    await client.close();
    await server.close();
  });

  it('refuses a reply with the wrong count or dimension as malformedResponse', async () => {
    let mode: 'count' | 'dimension' | 'index' = 'count';
    const server = await startTinyServer((_req, res) => {
      const data =
        mode === 'count'
          ? [{ index: 0, embedding: [1, 2] }]
          : mode === 'dimension'
            ? [
                { index: 0, embedding: [1, 2] },
                { index: 1, embedding: [1, 2, 3] },
              ]
            : [
                { index: 0, embedding: [1, 2] },
                { index: 0, embedding: [3, 4] },
              ];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model: 'm', data }));
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000 });
    await expectApiError(client.embed(['a', 'b'], 'm'), 'malformedResponse');
    mode = 'dimension';
    await expectApiError(client.embed(['a', 'b'], 'm'), 'malformedResponse');
    mode = 'index';
    await expectApiError(client.embed(['a', 'b'], 'm'), 'malformedResponse');
    await client.close();
    await server.close();
  });

  it('puts vectors in input order by index even when the reply is shuffled', async () => {
    const server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: 'm',
          data: [
            { index: 2, embedding: [2] },
            { index: 0, embedding: [0] },
            { index: 1, embedding: [1] },
          ],
        }),
      );
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000 });
    const result = await client.embed(['a', 'b', 'c'], 'm');
    assert.deepEqual(
      result.embeddings.map((v) => v[0]),
      [0, 1, 2],
    );
    await client.close();
    await server.close();
  });
});
