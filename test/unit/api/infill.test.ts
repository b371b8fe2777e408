// The client's fill-in-the-middle operation against a loopback llama-server stand-in: the /infill request
// body, the streamed and whole answers read, the probe's verdicts, and a cancel closing the socket.
import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import type { InfillStreamEvent } from '../../../src/core/api/types';
import { chunk, last, startInfillServer, type InfillServer } from './infillServer';

function clientOf(server: InfillServer, baseUrl = server.baseUrl): InferenceClient {
  return new InferenceClient({ baseUrl, apiKey: 'local', timeoutMs: 2000, maxRetries: 0, transport: { useEnvironment: false } });
}

describe('api/infill', () => {
  let server: InfillServer;
  beforeEach(async () => {
    server = await startInfillServer({ kind: 'stream', chunks: [chunk('a', 1), chunk(' + b', 3), last(3)] });
  });
  afterEach(() => server.close());

  it("sends the text around the cursor and the other files as llama-server's /infill body, on the chat endpoint's server", async () => {
    // A chat endpoint given with /v1 (as users paste it): /infill sits at the server's root, not under /v1.
    const client = new InferenceClient({
      baseUrl: 'http://127.0.0.1:9',
      endpoints: { chat: { baseUrl: `${server.baseUrl}/v1` } },
      apiKey: 'k',
      timeoutMs: 2000,
      maxRetries: 0,
      transport: { useEnvironment: false },
    });
    const stream = client.infill({
      model: 'qwen2.5-coder-1.5b',
      prefix: 'def add(a, b):\n    return ',
      suffix: '\n',
      extra: [{ filename: 'util.py', text: 'X = 1\n' }],
      maxTokens: 32,
      temperature: 0,
    });
    const events: InfillStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.deepEqual(server.requests, [
      {
        path: '/infill',
        body: {
          model: 'qwen2.5-coder-1.5b',
          input_prefix: 'def add(a, b):\n    return ',
          input_suffix: '\n',
          input_extra: [{ filename: 'util.py', text: 'X = 1\n' }],
          n_predict: 32,
          temperature: 0,
          stream: true,
          cache_prompt: true,
        },
      },
    ]);
    assert.equal(client.completionServer(), server.baseUrl);
    assert.deepEqual(events, [
      { type: 'text', text: 'a', counts: { promptTokens: 40, completionTokens: 1 } },
      { type: 'text', text: ' + b', counts: { promptTokens: 40, completionTokens: 3 } },
      { type: 'done', counts: { promptTokens: 40, completionTokens: 3 }, stopType: 'eos' },
    ]);
    await client.close();
  });

  it('reads a whole JSON answer when the server does not stream', async () => {
    server.reply({
      kind: 'json',
      body: {
        content: 'a + b\n\nprint(add(1,2))\n```\n\nIn this code',
        stop_type: 'limit',
        tokens_predicted: 16,
        tokens_evaluated: 23,
        timings: { prompt_n: 23, predicted_n: 16 },
      },
    });
    const client = clientOf(server);
    const result = await client.infill({ model: 'm', prefix: 'x', suffix: '', maxTokens: 16 }).result;
    assert.deepEqual(result, { text: 'a + b\n\nprint(add(1,2))\n```\n\nIn this code', counts: { promptTokens: 23, completionTokens: 16 }, stopType: 'limit' });
    await client.close();
  });

  it('probes with one /infill that predicts nothing: an answer is fim, a refusal is chat, no answer is unknown', async () => {
    server.reply({ kind: 'json', body: { content: '/', stop: true, tokens_predicted: 1, tokens_evaluated: 10 } });
    const client = clientOf(server);
    assert.equal(await client.probeInfill('m'), 'fim');
    assert.deepEqual(server.requests[0]?.body, {
      model: 'm',
      input_prefix: '',
      input_suffix: '',
      input_extra: [],
      n_predict: 0,
      temperature: 0,
      stream: false,
      cache_prompt: false,
    });
    for (const status of [404, 400, 501]) {
      server.reply({ kind: 'status', status });
      assert.equal(await client.probeInfill('m'), 'chat', `HTTP ${status}`);
    }
    server.reply({ kind: 'status', status: 503, body: '{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}' });
    assert.equal(await client.probeInfill('m'), 'unknown', 'a loading server says nothing about the model');
    server.reply({ kind: 'status', status: 401 });
    assert.equal(await client.probeInfill('m'), 'unknown', 'a key problem says nothing about the model either');
    // A server that answers 200 with something other than an infill answer (a catch-all page) does not fill in the middle.
    server.reply({ kind: 'json', body: { ok: true } });
    assert.equal(await client.probeInfill('m'), 'chat');
    assert.equal(server.requests.length, 7, 'one request per probe, no retries');
    await client.close();
    const nobody = clientOf(server, 'http://127.0.0.1:9');
    assert.equal(await nobody.probeInfill('m'), 'unknown', 'a network failure');
    await nobody.close();
  });

  it('closes the socket when the caller aborts mid-stream', async () => {
    server.reply({ kind: 'stream', chunks: Array.from({ length: 200 }, (_, i) => chunk(`t${i} `, i + 1)), gapMs: 10 });
    const client = clientOf(server);
    const controller = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const event of client.infill({ model: 'm', prefix: 'x', suffix: '', maxTokens: 200 }, { signal: controller.signal })) {
          if (event.type === 'text') seen.push(event.text);
          if (seen.length === 3) controller.abort();
        }
      },
      (error: unknown) => ApiError.is(error, 'canceled'),
    );
    for (let i = 0; i < 100 && server.closedSockets() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(server.closedSockets() >= 1, "the stream's socket was closed");
    assert.equal(server.requests.length, 1);
    assert.ok(server.written() < 50, `the server stopped writing early (${server.written()} chunks)`);
    await client.close();
  });
});
