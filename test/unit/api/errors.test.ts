// Errors: every body shape the service sends, read over real loopback HTTP from the emulator, the
// reason each maps to, what is retried and what is not, and that no message carries the key.
import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import { ApiError, errorFromStreamEvent, readErrorBody, reasonFor } from '../../../src/core/api/errors';
import { CHAT_MODEL, clientFor, EMBED_MODEL, expectApiError, requestsTo, useEmulator } from './helpers';

const hello = { model: CHAT_MODEL, messages: [{ role: 'user' as const, content: 'hello' }] };
const CHAT = '/v1/chat/completions';

describe('api/errors: body shapes', () => {
  it('reads the object envelope, the string envelope and plain text', () => {
    const general = readErrorBody(
      '{"error":{"message":"m","type":"invalid_request_error","param":"top_p","code":"decimal_above_max_value"},"request_id":"a4fa849e"}',
      'application/json',
    );
    assert.deepEqual(
      [general.message, general.code, general.param, general.requestId, general.structured],
      ['m', 'decimal_above_max_value', 'top_p', 'a4fa849e', true],
    );
    const simple = readErrorBody('{"error":"Not found"}', 'application/json');
    assert.deepEqual([simple.message, simple.code, simple.structured], ['Not found', undefined, true]);
    const plain = readErrorBody('Service Temporarily Unavailable', 'text/plain');
    assert.deepEqual([plain.message, plain.structured], ['Service Temporarily Unavailable', false]);
    const invalidBody = readErrorBody("Invalid request body:  - missing property 'model'\"", 'text/plain');
    assert.equal(reasonFor(400, invalidBody, 'operation'), 'badRequest');
  });

  it('maps statuses and codes to reasons', () => {
    const f = (code?: string, param?: string, structured = true) => ({ message: 'x', type: undefined, code, param, requestId: undefined, structured });
    assert.equal(reasonFor(400, f('context_length_exceeded'), 'operation'), 'contextTooLong');
    assert.equal(reasonFor(400, f('model_not_compatible', 'model'), 'operation'), 'modelNotCompatible');
    assert.equal(reasonFor(404, f('model_not_found', 'model'), 'operation'), 'notFound');
    assert.equal(reasonFor(400, f('model_not_found', 'model'), 'operation'), 'notFound');
    assert.equal(reasonFor(404, f(undefined, undefined), 'modelLookup'), 'notFound');
    assert.equal(reasonFor(404, f(undefined, undefined, false), 'operation'), 'unsupported');
    assert.equal(reasonFor(405, f(), 'operation'), 'unsupported');
    assert.equal(reasonFor(413, f(), 'operation'), 'tooLarge');
    assert.equal(reasonFor(400, f('file_too_large', 'file'), 'operation'), 'tooLarge');
    assert.equal(reasonFor(408, f(), 'operation'), 'timeout');
    assert.equal(reasonFor(429, f('insufficient_quota'), 'operation'), 'rateLimited');
    assert.equal(reasonFor(503, f(undefined, undefined, false), 'operation'), 'server');
    // The one text fallback: an over-long prompt from a server that sends no code at all.
    assert.equal(reasonFor(400, { ...f(undefined), message: "This model's maximum context length is 8192 tokens" }, 'operation'), 'contextTooLong');
  });
});

describe('api/errors: mid-stream error events', () => {
  const event = (error: Record<string, unknown>): string => JSON.stringify({ error: { param: null, ...error }, request_id: 'r-1' });

  it('judges by code and type alone: a status inside the event is not something the service sends', () => {
    // An invented status must not turn a server failure into a bad request (or the reverse).
    const server = errorFromStreamEvent(event({ message: 'm', type: 'server_error', code: 'internal_server_error', status: 400 }), undefined);
    assert.equal(server.reason, 'server');
    assert.equal(server.status, undefined);
    assert.equal(server.requestId, 'r-1');
    assert.equal(errorFromStreamEvent(event({ message: 'm', type: 'invalid_request_error', code: null, status: 500 }), undefined).reason, 'badRequest');
  });

  it('maps the documented codes and types', () => {
    const reason = (error: Record<string, unknown>): string => errorFromStreamEvent(event({ message: 'm', ...error }), undefined).reason;
    assert.equal(reason({ code: 'queue_full' }), 'rateLimited');
    assert.equal(reason({ code: 'insufficient_quota' }), 'rateLimited');
    assert.equal(reason({ type: 'rate_limit_error' }), 'rateLimited');
    assert.equal(reason({ code: 'context_length_exceeded', type: 'invalid_request_error' }), 'contextTooLong');
    assert.equal(reason({ code: 'model_not_found' }), 'notFound');
    assert.equal(reason({ code: 'invalid_api_key' }), 'auth');
    assert.equal(reason({}), 'server');
    assert.equal(errorFromStreamEvent('{"error":"backend down"}', undefined).reason, 'server');
  });
});

describe('api/errors: against the emulator', function () {
  this.timeout(10_000);
  const ctx = useEmulator();

  it('honours x-should-retry: true retries a 400, false stops a 503 at once', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'status', status: 400, headers: { 'x-should-retry': 'true' } }, { path: CHAT });
    const answered = await client.chat(hello);
    assert.ok(answered.text.length > 0);
    assert.equal(requestsTo(ctx.emu, CHAT).length, 2);
    ctx.emu.reset();
    ctx.emu.injectFault({ kind: 'status', status: 503, headers: { 'x-should-retry': 'false' } }, { path: CHAT, times: 3 });
    await expectApiError(client.chat(hello), 'server');
    assert.equal(requestsTo(ctx.emu, CHAT).length, 1);
    await client.close();
  });

  it('401 for a wrong key, with no trace of the key anywhere in the error', async () => {
    const key = 'sk-very-secret-wrong-key-1234567890';
    const client = new InferenceClient({ baseUrl: ctx.emu.baseUrl, apiKey: key, timeoutMs: 2000 });
    const error = await expectApiError(client.chat(hello), 'auth');
    assert.equal(error.status, 401);
    assert.equal(error.code, 'invalid_api_key');
    assert.ok(error.requestId !== undefined && error.requestId !== '');
    assert.ok(!JSON.stringify({ m: error.message, s: error.serverMessage, st: error.stack }).includes(key));
    // Never retried.
    assert.equal(requestsTo(ctx.emu, CHAT).length, 1);
    await client.close();
  });

  it('401 for a missing key (the key function answers nothing)', async () => {
    const client = new InferenceClient({ baseUrl: ctx.emu.baseUrl, apiKey: () => undefined, timeoutMs: 2000 });
    const error = await expectApiError(client.chat(hello), 'auth');
    assert.equal(error.status, 401);
    assert.equal(ctx.emu.requests[0]?.headers['authorization'], undefined);
    await client.close();
  });

  it('scrubs the key from a server message that echoes it', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'status', status: 400, contentType: 'text/plain', body: `Invalid request body: bad header Bearer ${ctx.emu.key}` });
    const error = await expectApiError(client.chat(hello), 'badRequest');
    assert.ok(!error.message.includes(ctx.emu.key) && !(error.serverMessage ?? '').includes(ctx.emu.key));
    assert.ok(error.serverMessage?.includes('[redacted]'));
    await client.close();
  });

  it('404 for an unknown model on an operation and on getModel, never retried', async () => {
    const client = clientFor(ctx.emu);
    const error = await expectApiError(client.chat({ ...hello, model: 'No-Such-Model' }), 'notFound');
    assert.equal(error.status, 404);
    assert.equal(error.code, 'model_not_found');
    assert.equal(error.param, 'model');
    await expectApiError(client.getModel('No-Such-Model'), 'notFound');
    assert.equal(ctx.emu.requests.length, 2);
    await client.close();
  });

  it('400 from the server names the parameter and is not retried', async () => {
    // A fresh client does not know the model's limit yet, so the server is the one to refuse.
    const client = clientFor(ctx.emu);
    const error = await expectApiError(client.chat({ ...hello, maxTokens: 999_999 }), 'badRequest');
    assert.equal(error.status, 400);
    assert.equal(error.param, 'max_tokens');
    assert.equal(error.code, 'integer_above_max_value');
    assert.equal(requestsTo(ctx.emu, CHAT).length, 1);
    await client.close();
  });

  it('400 context_length_exceeded becomes contextTooLong', async () => {
    const client = clientFor(ctx.emu);
    const long = 'word '.repeat(20_000);
    const error = await expectApiError(client.chat({ model: CHAT_MODEL, messages: [{ role: 'user', content: long }] }), 'contextTooLong');
    assert.equal(error.code, 'context_length_exceeded');
    await client.close();
  });

  it('400 model_not_compatible is remembered: the capability is gone for this client', async () => {
    const client = clientFor(ctx.emu);
    assert.ok(client.capabilitiesOf(CHAT_MODEL).includes('chat'));
    await expectApiError(client.embed('text', CHAT_MODEL), 'modelNotCompatible');
    // The table never gave it embeddings; a chat model refused for chat loses chat.
    await expectApiError(client.chat({ ...hello, model: EMBED_MODEL }), 'modelNotCompatible');
    assert.ok(!client.capabilitiesOf(EMBED_MODEL).includes('chat'));
    assert.ok(client.capabilitiesOf(EMBED_MODEL).includes('embeddings'));
    await client.close();
  });

  for (const status of [408, 429, 503, 500, 502, 504]) {
    it(`retries a ${status} and then succeeds`, async () => {
      const client = clientFor(ctx.emu);
      const retries: number[] = [];
      ctx.emu.injectFault({ kind: 'status', status, headers: { 'retry-after-ms': '30' } }, { path: CHAT });
      const result = await client.chat(hello, { onRetry: (info) => retries.push(info.delayMs) });
      assert.ok(result.text.length > 0);
      assert.equal(requestsTo(ctx.emu, CHAT).length, 2);
      assert.deepEqual(retries, [30]);
      await client.close();
    });
  }

  it('reads the text/plain 503 body and gives up after maxRetries', async () => {
    const client = clientFor(ctx.emu, { maxRetries: 1 });
    ctx.emu.injectFault({ kind: 'status', status: 503, headers: { 'retry-after': '0' } }, { path: CHAT, times: 5 });
    const error = await expectApiError(client.chat(hello), 'server');
    assert.equal(error.status, 503);
    assert.equal(error.serverMessage, 'Service Temporarily Unavailable');
    assert.equal(requestsTo(ctx.emu, CHAT).length, 2);
    await client.close();
  });

  it('honours retry-after in seconds', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'status', status: 503, headers: { 'retry-after': '1' } }, { path: CHAT });
    const started = Date.now();
    await client.chat(hello);
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
    await client.close();
  });

  it('honours x-ratelimit-reset "250ms" on a 429 and pauses through the gate', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'rateLimit', afterRequests: 0, reset: '250ms' }, { path: CHAT });
    const started = Date.now();
    await client.chat(hello);
    const waited = Date.now() - started;
    assert.ok(waited >= 230, `waited ${waited} ms`);
    assert.equal(requestsTo(ctx.emu, CHAT).length, 2);
    await client.close();
  });

  it('a 429 pauses only the model it was for: another model is not held back', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'rateLimit', afterRequests: 0, retryAfter: '2' }, { path: CHAT });
    const started = Date.now();
    const limited = client.chat(hello);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The chat model's gate is paused for 2 s; embeddings (another model) go through at once.
    await client.embed('not held back', 'E5-Mistral-7B-Instruct');
    assert.ok(Date.now() - started < 1500, `embeddings waited ${Date.now() - started} ms`);
    await limited;
    assert.ok(Date.now() - started >= 1900, 'the chat request itself did wait');
    await client.close();
  });

  it('honours retry-after-ms on a 429', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'rateLimit', afterRequests: 0, retryAfterMs: '150', reset: '1s' }, { path: CHAT });
    const started = Date.now();
    await client.chat(hello);
    const waited = Date.now() - started;
    assert.ok(waited >= 140 && waited < 900, `waited ${waited} ms`);
    await client.close();
  });

  it('fails at once with rateLimited and retryAfterMs when the wait is beyond the cap ("4h17m")', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'rateLimit', afterRequests: 0, reset: '4h17m' }, { path: CHAT });
    const started = Date.now();
    const error = await expectApiError(client.chat(hello), 'rateLimited');
    assert.equal(error.retryAfterMs, (4 * 3600 + 17 * 60) * 1000);
    assert.equal(error.status, 429);
    assert.ok(Date.now() - started < 1000);
    assert.equal(requestsTo(ctx.emu, CHAT).length, 1);
    await client.close();
  });

  it('never retries 400, 401 or 404', async () => {
    const client = clientFor(ctx.emu);
    for (const status of [400, 401, 404]) {
      ctx.emu.reset();
      ctx.emu.injectFault({ kind: 'status', status }, { path: CHAT, times: 3 });
      await assert.rejects(client.chat(hello), (e: unknown) => ApiError.is(e));
      assert.equal(requestsTo(ctx.emu, CHAT).length, 1, `HTTP ${status} was retried`);
    }
    await client.close();
  });

  it('a bare 404 on an operation means the server lacks it (unsupported)', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.injectFault({ kind: 'status', status: 404, contentType: 'text/html', body: '<html>Cannot POST</html>' }, { path: CHAT });
    await expectApiError(client.chat(hello), 'unsupported');
    await client.close();
  });
});
