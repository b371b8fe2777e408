// The SSE path under every condition the service produces: [DONE] or a plain end of body, chunks
// with many tokens, choices null or [], float `created`, the usage chunk, errors in the middle of
// a stream in all three shapes, stalls, time-outs, cancels and dropped sockets.
import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import { type ChatRequest, type ChatResult, type ChatStreamEvent } from '../../../src/core/api/types';
import {
  CHAT_MODEL,
  clientFor,
  collect,
  expectApiError,
  makeWav,
  requestsTo,
  sseResponder,
  startTinyServer,
  textOf,
  useEmulator,
  WHISPER_MODEL,
} from './helpers';

const CHAT = '/v1/chat/completions';
const hello: ChatRequest = { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hello' }] };
const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  `data: ${JSON.stringify({ id: 'abc', object: 'chat.completion.chunk', created: 1737583288.6076705, model: CHAT_MODEL, system_fingerprint: 'fastcoe', choices: [{ index: 0, delta, logprobs: null, finish_reason: null }], ...extra })}\n\n`;

describe('api/sse: stream shapes (byte-exact loopback server)', function () {
  this.timeout(10_000);

  async function streamFrom(body: string): Promise<{ events: ChatStreamEvent[]; result: ChatResult }> {
    const server = await startTinyServer(sseResponder(body));
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k-test', timeoutMs: 2000 });
    try {
      const stream = client.streamChat(hello);
      const events = await collect(stream);
      return { events, result: await stream.result };
    } finally {
      await client.close();
      await server.close();
    }
  }

  it('ends at the end of the body when no [DONE] comes, without usage from the service', async () => {
    const { result, events } = await streamFrom(
      chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Hello there, ' }) + chunk({ content: 'friend.' }),
    );
    assert.equal(result.text, 'Hello there, friend.');
    assert.equal(result.finishReason, 'unknown');
    // Figures all the same: measured and estimated by the client.
    assert.deepEqual(result.usage.source, { timeToFirstToken: 'client', tokensPerSecond: 'client', totalTime: 'client', tokens: 'estimated' });
    assert.equal(result.usage.completionTokens, Math.ceil('Hello there, friend.'.length / 4));
    assert.equal(events.at(-1)?.type, 'usage');
  });

  it('takes a last event that lacks its blank line', async () => {
    const { result } = await streamFrom(chunk({ content: 'a' }) + chunk({ content: 'b' }).trimEnd());
    assert.equal(result.text, 'ab');
  });

  it('skips choices null and [], reads the usage chunk, stops at [DONE]', async () => {
    const usage = {
      prompt_tokens: 43,
      completion_tokens: 3,
      total_tokens: 46,
      time_to_first_token: 0.0844,
      completion_tokens_after_first_per_sec: 262.277,
      total_latency: 0.459,
    };
    const body =
      chunk({ role: 'assistant', content: '' }) +
      `data: ${JSON.stringify({ id: 'abc', created: 1.5, choices: null })}\n\n` +
      chunk({ content: 'one two three' }) +
      `data: ${JSON.stringify({ id: 'abc', created: 1.5, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n` +
      `data: ${JSON.stringify({ id: 'abc', created: 1737642515.6076705, choices: [], usage })}\n\n` +
      'data: [DONE]\n\n' +
      chunk({ content: 'never read' });
    const { result } = await streamFrom(body);
    assert.equal(result.text, 'one two three');
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.usage.completionTokens, 3);
    assert.equal(result.usage.timeToFirstTokenMs, 84.4);
    assert.equal(result.usage.tokensPerSecond, 262.277);
    assert.equal(result.usage.totalTimeMs, 459);
    assert.deepEqual(result.usage.source, { timeToFirstToken: 'service', tokensPerSecond: 'service', totalTime: 'service', tokens: 'service' });
    assert.ok(result.usage.client.totalTimeMs > 0);
  });

  it('handles CRLF line ends, comments, unknown named events and events split across reads', async () => {
    const server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const text = `: keep-alive\r\n\r\nevent: ping\r\ndata: {}\r\n\r\n${chunk({ content: 'héllo ' }).replace(/\n/g, '\r\n')}${chunk({ content: 'wörld' })}data: [DONE]\n\n`;
      const bytes = Buffer.from(text, 'utf8');
      // Cut inside a multi-byte character and inside a line.
      const cut = bytes.indexOf(Buffer.from('é')) + 1;
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 20);
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000 });
    const result = await client.streamChat(hello).result;
    assert.equal(result.text, 'héllo wörld');
    await client.close();
    await server.close();
  });

  it('takes a JSON completion from a server that ignores stream: true', async () => {
    const server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', model: CHAT_MODEL, choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }] }));
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000 });
    const events = await collect(client.streamChat(hello));
    assert.equal(textOf(events), 'whole');
    await client.close();
    await server.close();
  });

  it('starts a new tool call when a new id arrives at an index already in use', async () => {
    const call = (id: string | undefined, name: string | undefined, args: string): Record<string, unknown> => ({
      tool_calls: [{ index: 0, ...(id === undefined ? {} : { id, type: 'function' }), function: { ...(name === undefined ? {} : { name }), arguments: args } }],
    });
    const body =
      chunk(call('call_a', 'read', '{"path":')) +
      chunk(call('call_a', undefined, '"a"}')) +
      chunk(call('call_b', 'read', '{"path":')) +
      chunk(call(undefined, undefined, '"b"}')) +
      chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
    const { result, events } = await streamFrom(body);
    assert.deepEqual(
      result.toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [
        ['call_a', 'read', '{"path":"a"}'],
        ['call_b', 'read', '{"path":"b"}'],
      ],
    );
    // Events name the call they belong to, so consumers that gather by index keep the two apart.
    const indexes = events.flatMap((e) => (e.type === 'toolCall' ? [[e.index, e.argumentsDelta]] : []));
    assert.deepEqual(indexes, [
      [0, '{"path":'],
      [0, '"a"}'],
      [1, '{"path":'],
      [1, '"b"}'],
    ]);
  });

  it('judges a streamed request by its body, not its content type: an event stream sent as text/plain is parsed', async () => {
    const server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(chunk({ content: 'still ' }) + chunk({ content: 'a stream' }) + 'data: [DONE]\n\n');
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000, maxRetries: 0 });
    const stream = client.streamChat(hello);
    const events = await collect(stream);
    assert.equal(textOf(events), 'still a stream');
    assert.equal((await stream.result).text, 'still a stream');
    await client.close();
    await server.close();
  });

  it('takes {"text": ...} as the transcript when a streamed transcription comes back as JSON', async () => {
    const server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'hola mundo', usage: { input_tokens: 12, output_tokens: 3 } }));
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000, maxRetries: 0 });
    const stream = client.streamTranscription({ model: WHISPER_MODEL, audio: makeWav(1) });
    const events = await collect(stream);
    assert.equal(textOf(events as ChatStreamEvent[]), 'hola mundo');
    const result = await stream.result;
    assert.equal(result.text, 'hola mundo');
    assert.equal(result.usage.completionTokens, 3);
    await client.close();
    await server.close();
  });

  it('takes a bare text body as the transcript of a streamed transcription, but not as a chat answer', async () => {
    const server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hola mundo');
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000, maxRetries: 0 });
    assert.equal((await client.streamTranscription({ model: WHISPER_MODEL, audio: makeWav(1) }).result).text, 'hola mundo');
    await expectApiError(collect(client.streamChat(hello)), 'malformedResponse');
    await client.close();
    await server.close();
  });

  it('refuses data that is not JSON as malformedResponse', async () => {
    const server = await startTinyServer(sseResponder('data: {not json\n\n'));
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000, maxRetries: 0 });
    await expectApiError(collect(client.streamChat(hello)), 'malformedResponse');
    await client.close();
    await server.close();
  });
});

describe('api/sse: faults from the emulator', function () {
  this.timeout(10_000);
  const ctx = useEmulator();

  for (const as of ['error', 'error_event', 'dataError'] as const) {
    it(`turns a mid-stream error (${as}) into an ApiError after the text before it`, async () => {
      const client = clientFor(ctx.emu);
      ctx.emu.scriptChat({ content: 'a b c d e f g h', chunkCount: 8 });
      ctx.emu.injectFault({ kind: 'streamError', afterChunks: 4, as, code: 'internal_server_error', message: 'backend fell over' }, { path: CHAT });
      const seen: string[] = [];
      const error = await expectApiError(async () => {
        for await (const event of client.streamChat(hello)) if (event.type === 'text') seen.push(event.text);
      }, 'server');
      assert.equal(error.code, 'internal_server_error');
      assert.equal(error.serverMessage, 'backend fell over');
      assert.ok(error.requestId !== undefined);
      assert.ok(seen.length >= 1, 'text before the error reached the caller');
      // Output had reached the caller: no retry.
      assert.equal(requestsTo(ctx.emu, CHAT).length, 1);
      await client.close();
    });
  }

  it('maps a mid-stream error by its code (queue_full → rateLimited)', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ content: 'a b c d', chunkCount: 4 });
    ctx.emu.injectFault({ kind: 'streamError', afterChunks: 2, as: 'error', type: 'rate_limit_error', code: 'queue_full' }, { path: CHAT });
    const error = await expectApiError(collect(client.streamChat(hello)), 'rateLimited');
    assert.equal(error.code, 'queue_full');
    await client.close();
  });

  it('ends a stalled stream with an idle time-out, quickly', async () => {
    const client = clientFor(ctx.emu, { idleTimeoutMs: 300 });
    ctx.emu.scriptChat({ content: 'a b c d e f', chunkCount: 6 });
    ctx.emu.injectFault({ kind: 'stall', afterChunks: 3 }, { path: CHAT });
    const started = Date.now();
    const error = await expectApiError(collect(client.streamChat(hello)), 'timeout');
    const took = Date.now() - started;
    assert.ok(took >= 280 && took < 1500, `took ${took} ms`);
    assert.match(error.message, /stalled/);
    assert.equal(requestsTo(ctx.emu, CHAT).length, 1);
    await client.close();
  });

  it('ends a stream that sends no token with the first-token time-out', async () => {
    const client = clientFor(ctx.emu, { firstTokenTimeoutMs: 300, idleTimeoutMs: 5000, maxRetries: 0 });
    // One chunk (the role chunk, no text), then silence.
    ctx.emu.injectFault({ kind: 'stall', afterChunks: 1 }, { path: CHAT });
    const started = Date.now();
    await expectApiError(collect(client.streamChat(hello)), 'timeout');
    assert.ok(Date.now() - started < 1500);
    await client.close();
  });

  it('times out waiting for the first byte and retries into success', async () => {
    const client = clientFor(ctx.emu, { timeoutMs: 250, maxRetries: 1 });
    ctx.emu.injectFault({ kind: 'latency', ms: 1500 }, { path: CHAT });
    const result = await client.chat(hello);
    assert.ok(result.text.length > 0);
    assert.equal(requestsTo(ctx.emu, CHAT).length, 2);
    await client.close();
  });

  it('fails with timeout when every attempt is too slow', async () => {
    const client = clientFor(ctx.emu, { timeoutMs: 200, maxRetries: 0 });
    ctx.emu.injectFault({ kind: 'latency', ms: 1500 }, { path: CHAT });
    const started = Date.now();
    await expectApiError(collect(client.streamChat(hello)), 'timeout');
    assert.ok(Date.now() - started < 1000);
    await client.close();
  });

  it('retries a socket dropped before any output, and succeeds', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'drop' }, { path: CHAT });
    const result = await client.streamChat(hello).result;
    assert.ok(result.text.length > 0);
    assert.equal(requestsTo(ctx.emu, CHAT).length, 2);
    await client.close();
  });

  it('does not retry a socket dropped after output reached the caller', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ content: 'a b c d e f', chunkCount: 6 });
    ctx.emu.injectFault({ kind: 'drop', afterChunks: 3 }, { path: CHAT });
    const error = await expectApiError(collect(client.streamChat(hello)), 'network');
    assert.ok(!error.message.includes(ctx.emu.key));
    assert.equal(requestsTo(ctx.emu, CHAT).length, 1);
    await client.close();
  });

  it('cancels mid-stream at once with reason canceled', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.setChunkDelay(50);
    ctx.emu.scriptChat({ content: 'a b c d e f g h i j k l m n o p', chunkCount: 16 });
    const controller = new AbortController();
    const seen: string[] = [];
    let abortedAt = 0;
    const error = await expectApiError(async () => {
      for await (const event of client.streamChat(hello, { signal: controller.signal })) {
        if (event.type === 'text') seen.push(event.text);
        if (seen.length === 2) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    }, 'canceled');
    assert.ok(Date.now() - abortedAt < 200, 'the cancel was immediate');
    assert.ok(error instanceof Error);
    ctx.emu.setChunkDelay(0);
    await client.close();
  });

  it('cancels during a back-off sleep', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'status', status: 503, headers: { 'retry-after': '30' } }, { path: CHAT });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expectApiError(client.chat(hello, { signal: controller.signal }), 'canceled');
    assert.ok(Date.now() - started < 1000);
    await client.close();
  });

  it('stopping the iteration early cancels the request and rejects result', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ content: 'a b c d e f g h', chunkCount: 8 });
    const stream = client.streamChat(hello);
    for await (const event of stream) if (event.type === 'text') break;
    await expectApiError(stream.result, 'canceled');
    await client.close();
  });
});

describe('api/sse: cancel closes the socket', function () {
  this.timeout(10_000);

  it('closes the connection within a moment of the abort', async () => {
    // A server that streams slowly for ever, so only the client can end the socket.
    const server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(chunk({ content: 'tick ' })), 20);
      res.on('close', () => clearInterval(timer));
    });
    const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 2000 });
    const controller = new AbortController();
    let abortedAt = 0;
    let count = 0;
    await expectApiError(async () => {
      for await (const event of client.streamChat(hello, { signal: controller.signal })) {
        if (event.type === 'text' && ++count === 3) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    }, 'canceled');
    // The socket that carried the stream must close (undici may open a fresh idle one; that is not it).
    const port = server.hits[0]?.port ?? -1;
    for (let i = 0; i < 50 && !server.socketCloses.has(port); i++) await new Promise((r) => setTimeout(r, 10));
    const closedAt = server.socketCloses.get(port);
    assert.ok(closedAt !== undefined, 'the server saw the stream socket close');
    assert.ok(closedAt - abortedAt < 300, `closed ${closedAt - abortedAt} ms after the abort`);
    await client.close();
    await server.close();
  });
});
