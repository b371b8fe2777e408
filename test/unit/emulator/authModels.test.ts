import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../support/emulator/emulator';
import { CHAT_MODEL, chatBody, EMBED_MODEL, errorOf, json, postJson } from './helpers';

describe('emulator: auth, model listing, routing', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ key: 'test-key' });
  });
  after(() => emu.close());
  beforeEach(() => emu.reset());

  it('exposes baseUrl without /v1, the key and the port', () => {
    assert.match(emu.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(emu.key, 'test-key');
    assert.equal(emu.baseUrl, `http://127.0.0.1:${emu.port}`);
  });

  it('answers a missing key with the real 401 body (code null, request_id)', async () => {
    const { status, error, requestId } = await errorOf(await postJson(emu, '/v1/chat/completions', chatBody(), { key: null }));
    assert.equal(status, 401);
    assert.match(String(error['message']), /^You didn't provide an API key\./);
    assert.equal(error['type'], 'invalid_request_error');
    assert.equal(error['code'], null);
    assert.equal(typeof requestId, 'string');
  });

  it('answers a wrong key with invalid_api_key and a masked key', async () => {
    const { status, error } = await errorOf(await postJson(emu, '/v1/embeddings', { model: EMBED_MODEL, input: 'x' }, { key: 'nope' }));
    assert.equal(status, 401);
    assert.equal(error['code'], 'invalid_api_key');
    assert.equal(error['message'], 'Incorrect API key provided: *****. You can find your API key at https://cloud.sambanova.ai/apis.');
    assert.equal(error['param'], null);
  });

  it('lists models only with the key, in the real shape', async () => {
    // The service applies bearer authentication to every operation, /v1/models included (docs/service.md#addresses-and-authentication).
    const without = await fetch(`${emu.baseUrl}/v1/models`);
    assert.equal(without.status, 401);
    assert.equal((await fetch(`${emu.baseUrl}/v1/models/DeepSeek-R1`)).status, 401);
    const response = await fetch(`${emu.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${emu.key}` } });
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.equal(body['object'], 'list');
    const data = body['data'] as Record<string, unknown>[];
    const ids = data.map((m) => m['id']);
    for (const id of [
      CHAT_MODEL,
      'Meta-Llama-3.3-70B-Instruct',
      'DeepSeek-R1',
      'Llama-4-Maverick-17B-128E-Instruct',
      'Qwen2-Audio-7B-Instruct',
      'Whisper-Large-v3',
      EMBED_MODEL,
    ]) {
      assert.ok(ids.includes(id), id);
    }
    assert.deepEqual(data[0], {
      id: CHAT_MODEL,
      object: 'model',
      owned_by: 'no-reply@sambanova.ai',
      context_length: 16384,
      max_completion_tokens: 4096,
      pricing: { prompt: '0.0000001', completion: '0.0000002' },
    });
    const wrong = await fetch(`${emu.baseUrl}/v1/models`, { headers: { authorization: 'Bearer wrong' } });
    assert.equal(wrong.status, 401);
  });

  it('gets one model, and 404s an unknown one with a SimpleError', async () => {
    const auth = { headers: { authorization: `Bearer ${emu.key}` } };
    const one = await json(await fetch(`${emu.baseUrl}/v1/models/DeepSeek-R1`, auth));
    assert.equal(one['id'], 'DeepSeek-R1');
    assert.equal(one['max_completion_tokens'], 16384);
    const missing = await fetch(`${emu.baseUrl}/v1/models/nope`, auth);
    assert.equal(missing.status, 404);
    assert.equal(typeof (await json(missing))['error'], 'string');
  });

  it('404s an unknown path with {"error":"Not found"}', async () => {
    const response = await fetch(`${emu.baseUrl}/v1/nothing`, { headers: { authorization: `Bearer ${emu.key}` } });
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { error: 'Not found' });
  });

  it('answers an unknown model with 404 model_not_found', async () => {
    const { status, error } = await errorOf(await postJson(emu, '/v1/chat/completions', chatBody({ model: 'abc' })));
    assert.equal(status, 404);
    assert.deepEqual(error, {
      message: 'The model `abc` does not exist or you do not have access to it.',
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_found',
    });
  });

  it('retires and adds models at run time', async () => {
    const index = emu.models.findIndex((m) => m.id === CHAT_MODEL);
    const [retired] = emu.models.splice(index, 1);
    try {
      assert.equal((await postJson(emu, '/v1/chat/completions', chatBody())).status, 404);
      emu.models.push({
        id: 'Brand-New-1B',
        kind: 'chat',
        contextLength: 2048,
        maxCompletionTokens: 512,
        pricing: { prompt: '0.0000001', completion: '0.0000001' },
      });
      assert.equal((await postJson(emu, '/v1/chat/completions', chatBody({ model: 'Brand-New-1B' }))).status, 200);
    } finally {
      emu.models.splice(index, 0, ...(retired === undefined ? [] : [retired]));
      emu.models.splice(
        emu.models.findIndex((m) => m.id === 'Brand-New-1B'),
        1,
      );
    }
  });

  it('puts rate-limit headers on every response, errors included', async () => {
    for (const response of [await postJson(emu, '/v1/chat/completions', chatBody()), await fetch(`${emu.baseUrl}/v1/models/nope`)]) {
      for (const name of [
        'x-ratelimit-limit-requests',
        'x-ratelimit-remaining-requests',
        'x-ratelimit-reset-requests',
        'x-ratelimit-limit-requests-day',
        'x-ratelimit-remaining-requests-day',
        'x-ratelimit-reset-requests-day',
      ]) {
        assert.match(response.headers.get(name) ?? '', /^\d+$/, name);
      }
    }
  });

  it('records requests with the authorization value redacted', async () => {
    await postJson(emu, '/v1/chat/completions', chatBody());
    const recorded = emu.requests[0];
    assert.equal(recorded?.method, 'POST');
    assert.equal(recorded?.path, '/v1/chat/completions');
    assert.equal(recorded?.headers['authorization'], '[redacted]');
    assert.equal((recorded?.body as Record<string, unknown>)['model'], CHAT_MODEL);
    assert.ok(!JSON.stringify(emu.requests).includes('test-key'));
  });
});
