import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../support/emulator/emulator';
import { chatBody, chunksOf, errorOf, json, parseSse, postJson } from './helpers';

const CHAT = '/v1/chat/completions';
const streamBody = chatBody({ stream: true });

/** Reads from a streamed body until `count` SSE events arrived; returns them and the reader. */
async function readEvents(response: Response, count: number): Promise<{ text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (text.split('\n\n').length - 1 < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return { text, reader };
}

const timeout = (ms: number): Promise<'timeout'> => new Promise((resolve) => setTimeout(() => resolve('timeout'), ms));

describe('emulator: faults', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.close());
  beforeEach(() => emu.reset());

  it('latency delays the headers, once', async () => {
    // A delay can only be longer than asked, so the first bound is exact. The second request must not wait
    // the latency again: it has to answer before a timer of the whole latency does (a hang-versus-progress
    // bound, generous on a loaded machine), not within some tight number of milliseconds.
    const latencyMs = 1500;
    emu.injectFault({ kind: 'latency', ms: latencyMs });
    const start = Date.now();
    await (await postJson(emu, CHAT, chatBody())).text();
    assert.ok(Date.now() - start >= latencyMs - 10, `the first request took ${Date.now() - start} ms`);
    const second = postJson(emu, CHAT, chatBody()).then(async (response) => response.text());
    assert.notEqual(await Promise.race([second, timeout(latencyMs)]), 'timeout', 'the second request waited the latency again');
  });

  it('stall sends N chunks then holds the socket open', async () => {
    emu.injectFault({ kind: 'stall', afterChunks: 2 });
    const response = await postJson(emu, CHAT, streamBody);
    const { text, reader } = await readEvents(response, 2);
    assert.equal(parseSse(text).length, 2);
    assert.equal(await Promise.race([reader.read(), timeout(200)]), 'timeout');
    await reader.cancel();
  });

  for (const as of ['error', 'error_event', 'dataError'] as const) {
    it(`streamError as ${as} ends the stream without [DONE]`, async () => {
      emu.injectFault({ kind: 'streamError', afterChunks: 3, as, code: 'model_error', message: 'boom' });
      const events = parseSse(await (await postJson(emu, CHAT, streamBody)).text());
      assert.equal(events.length, 4);
      const last = events[3];
      assert.equal(last?.event, as === 'dataError' ? undefined : as);
      const payload = JSON.parse(last?.data ?? '{}') as { error: Record<string, unknown>; request_id: unknown };
      assert.equal(payload.error['message'], 'boom');
      assert.equal(payload.error['code'], 'model_error');
      // Only the fields the real service is known to send (docs/service.md#errors-inside-a-stream).
      assert.deepEqual(Object.keys(payload.error).sort(), ['code', 'message', 'param', 'type']);
      assert.equal(typeof payload.request_id, 'string');
    });
  }

  it('drop without afterChunks destroys the socket before any byte', async () => {
    emu.injectFault({ kind: 'drop' });
    await assert.rejects(postJson(emu, CHAT, chatBody()));
    assert.equal((await postJson(emu, CHAT, chatBody())).status, 200);
  });

  it('drop after N chunks delivers them, then cuts the stream', async () => {
    emu.injectFault({ kind: 'drop', afterChunks: 3 });
    const response = await postJson(emu, CHAT, streamBody);
    assert.equal(response.status, 200);
    const { text, reader } = await readEvents(response, 3);
    assert.equal(chunksOf(parseSse(text)).length, 3);
    await assert.rejects(reader.read());
  });

  it('status faults use the real bodies: 408 SimpleError, 503 and 500 text/plain, or a given body', async () => {
    emu.injectFault({ kind: 'status', status: 408 });
    const timedOut = await postJson(emu, CHAT, chatBody());
    assert.equal(timedOut.status, 408);
    assert.equal(typeof (await json(timedOut))['error'], 'string');
    emu.injectFault({ kind: 'status', status: 503 });
    const down = await postJson(emu, CHAT, chatBody());
    assert.equal(down.status, 503);
    assert.match(down.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await down.text(), 'Service Temporarily Unavailable');
    emu.injectFault({ kind: 'status', status: 500, body: 'oops', headers: { 'x-should-retry': 'true' } });
    const broken = await postJson(emu, CHAT, chatBody());
    assert.equal(broken.status, 500);
    assert.equal(broken.headers.get('x-should-retry'), 'true');
    assert.equal(await broken.text(), 'oops');
  });

  it('injected faults match their path and run FIFO with times', async () => {
    emu.injectFault({ kind: 'status', status: 503 }, { path: '/v1/embeddings' });
    emu.injectFault({ kind: 'status', status: 500 }, { path: CHAT, times: 2 });
    assert.equal((await postJson(emu, CHAT, chatBody())).status, 500);
    assert.equal((await postJson(emu, CHAT, chatBody())).status, 500);
    assert.equal((await postJson(emu, CHAT, chatBody())).status, 200);
    assert.equal((await postJson(emu, '/v1/embeddings', { model: 'E5-Mistral-7B-Instruct', input: 'x' })).status, 503);
  });

  it('x-emulator-fault scripts one request', async () => {
    const response = await postJson(emu, CHAT, chatBody(), { headers: { 'x-emulator-fault': JSON.stringify({ kind: 'status', status: 503 }) } });
    assert.equal(response.status, 503);
    const bad = await postJson(emu, CHAT, chatBody(), { headers: { 'x-emulator-fault': '{"kind":"nonsense"}' } });
    assert.equal(bad.status, 400);
  });

  it('an injected rateLimit lets N requests through, then answers 429 insufficient_quota with headers', async () => {
    emu.injectFault({ kind: 'rateLimit', afterRequests: 1, reset: '4h17m', retryAfter: '2', retryAfterMs: '1500' });
    assert.equal((await postJson(emu, CHAT, chatBody())).status, 200);
    const limited = await postJson(emu, CHAT, chatBody());
    assert.equal(limited.headers.get('x-ratelimit-remaining-requests'), '0');
    assert.equal(limited.headers.get('x-ratelimit-reset-requests'), '4h17m');
    assert.equal(limited.headers.get('retry-after'), '2');
    assert.equal(limited.headers.get('retry-after-ms'), '1500');
    const { status, error, requestId } = await errorOf(limited);
    assert.equal(status, 429);
    assert.equal(error['code'], 'insufficient_quota');
    assert.equal(typeof requestId, 'string');
    assert.equal((await postJson(emu, CHAT, chatBody())).status, 200);
  });
});

describe('emulator: run-wide faults and close()', () => {
  it('a run-wide rateLimit counts down, bites, and reopens after reset', async () => {
    const emu = await startEmulator({ runFaults: [{ kind: 'rateLimit', afterRequests: 2, reset: '300ms', path: CHAT }] });
    try {
      const first = await postJson(emu, CHAT, chatBody());
      assert.equal(first.headers.get('x-ratelimit-limit-requests'), '2');
      assert.equal(first.headers.get('x-ratelimit-remaining-requests'), '1');
      assert.equal((await postJson(emu, CHAT, chatBody())).status, 200);
      assert.equal((await postJson(emu, CHAT, chatBody())).status, 429);
      assert.equal((await fetch(`${emu.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${emu.key}` } })).status, 200, 'other paths are not limited');
      await new Promise((resolve) => setTimeout(resolve, 350));
      assert.equal((await postJson(emu, CHAT, chatBody())).status, 200);
    } finally {
      await emu.close();
    }
  });

  it('close() ends a stalled stream and resolves', async () => {
    const emu = await startEmulator({ runFaults: [{ kind: 'stall', afterChunks: 1 }] });
    const response = await postJson(emu, CHAT, streamBody);
    const { reader } = await readEvents(response, 1);
    const pending = reader.read();
    const start = Date.now();
    await emu.close();
    assert.ok(Date.now() - start < 1000);
    await assert.rejects(pending);
  });

  it('chunkDelayMs spaces the chunks', async () => {
    const emu = await startEmulator({ chunkDelayMs: 20 });
    try {
      const start = Date.now();
      const events = parseSse(await (await postJson(emu, CHAT, streamBody)).text());
      assert.ok(Date.now() - start >= 20 * (events.length - 2));
    } finally {
      await emu.close();
    }
  });
});
