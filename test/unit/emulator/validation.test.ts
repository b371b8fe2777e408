import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../support/emulator/emulator';
import { AUDIO_MODEL, chatBody, EMBED_MODEL, errorOf, postJson, STT_MODEL, VISION_MODEL } from './helpers';

const PNG_URL = `data:image/png;base64,${Buffer.from('\x89PNG\r\n\x1a\nfake').toString('base64')}`;
const imageMessage = (url: string): Record<string, unknown> => ({
  role: 'user',
  content: [
    { type: 'text', text: 'What is in this picture?' },
    { type: 'image_url', image_url: { url } },
  ],
});

describe('emulator: chat validation errors', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.close());

  const expect400 = async (body: unknown, param: string | null, code: string | null, message?: RegExp | string): Promise<void> => {
    const { status, error, requestId } = await errorOf(await postJson(emu, '/v1/chat/completions', body));
    assert.equal(status, 400, JSON.stringify(error));
    assert.equal(error['type'], 'invalid_request_error');
    assert.equal(error['param'], param);
    assert.equal(error['code'], code);
    assert.equal(typeof requestId, 'string');
    if (typeof message === 'string') assert.equal(error['message'], message);
    else if (message !== undefined) assert.match(String(error['message']), message);
  };

  it('malformed JSON', () => expect400('{"model": ', null, null, /^We could not parse the JSON body of your request\./));
  it('missing model', () => expect400({ messages: [{ role: 'user', content: 'hi' }] }, null, null, 'you must provide a model parameter'));
  it('empty messages', () => expect400(chatBody({ messages: [] }), 'messages', 'empty_array', /empty array/));
  it('bad role', () =>
    expect400(
      chatBody({ messages: [{ role: 'developerrr', content: 'x' }] }),
      'messages[0].role',
      'invalid_value',
      "Invalid value: 'developerrr'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
    ));
  it('null content', () =>
    expect400(
      chatBody({ messages: [{ role: 'user', content: null }] }),
      'messages.[0].content',
      null,
      "Invalid value for 'content': expected a string, got null.",
    ));
  it('temperature above 1', () =>
    expect400(
      chatBody({ temperature: 100 }),
      'temperature',
      'decimal_above_max_value',
      'Decimal above maximum value. Expected a value between 0 and 1, but got 100 instead.',
    ));
  it('top_p below 0', () => expect400(chatBody({ top_p: -0.5 }), 'top_p', 'decimal_below_min_value', /Decimal below minimum value/));
  it('top_k above 100 and below 1', async () => {
    await expect400(chatBody({ top_k: 500 }), 'top_k', 'integer_above_max_value', /between 1 and 100, but got 500/);
    await expect400(chatBody({ top_k: 0 }), 'top_k', 'integer_below_min_value');
  });
  it('more than 4 stop sequences', () => expect400(chatBody({ stop: ['a', 'b', 'c', 'd', 'e'] }), 'stop', 'array_above_max_length'));
  it('response_format text is refused', () =>
    expect400(chatBody({ response_format: { type: 'text' } }), 'response_format', 'invalid_value', /not supported yet/));
  it('max_tokens above the model maximum', () =>
    expect400(chatBody({ max_tokens: 5000 }), 'max_tokens', 'integer_above_max_value', /at most 4096 completion tokens/));
  it('prompt plus max_tokens beyond the context', async () => {
    const long = 'word '.repeat(14000);
    await expect400(
      chatBody({ messages: [{ role: 'user', content: long }], max_tokens: 4000 }),
      'messages',
      'context_length_exceeded',
      /^This model's maximum context length is 16384 tokens\. However, you requested 18004 tokens \(14004 in the messages, 4000 in the completion\)/,
    );
    await expect400(chatBody({ messages: [{ role: 'user', content: 'word '.repeat(17000) }] }), 'messages', 'context_length_exceeded');
  });
  it('an image to a non-vision model', () => expect400(chatBody({ messages: [imageMessage(PNG_URL)] }), 'model', 'model_not_compatible'));
  it('an image that is not a data URL, or bad base64', async () => {
    await expect400(
      chatBody({ model: VISION_MODEL, messages: [imageMessage('https://example.com/cat.png')] }),
      'messages[0].content[1].image_url.url',
      'invalid_value',
    );
    await expect400(
      chatBody({ model: VISION_MODEL, messages: [imageMessage('data:image/png;base64,@@not base64@@')] }),
      'messages[0].content[1].image_url.url',
      'invalid_value',
    );
  });
  it('more than one image', async () => {
    const two = {
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: PNG_URL } },
        { type: 'image_url', image_url: { url: PNG_URL } },
      ],
    };
    await expect400(chatBody({ model: VISION_MODEL, messages: [two] }), 'messages', null, /one image per request/);
  });
  it('accepts one valid image on the vision model', async () => {
    const response = await postJson(emu, '/v1/chat/completions', chatBody({ model: VISION_MODEL, messages: [imageMessage(PNG_URL)] }));
    assert.equal(response.status, 200);
  });
  it('chat on an embeddings or speech-to-text model is model_not_compatible', async () => {
    await expect400(chatBody({ model: EMBED_MODEL }), 'model', 'model_not_compatible');
    await expect400(chatBody({ model: STT_MODEL }), 'model', 'model_not_compatible');
  });
  it('audio reasoning on a chat model is model_not_compatible', async () => {
    const { status, error } = await errorOf(await postJson(emu, '/v1/audio/reasoning', chatBody()));
    assert.equal(status, 400);
    assert.equal(error['code'], 'model_not_compatible');
    assert.equal((await postJson(emu, '/v1/audio/reasoning', chatBody({ model: AUDIO_MODEL }))).status, 200);
  });
  it('embeddings on a chat model is model_not_compatible with param model', async () => {
    const { status, error } = await errorOf(await postJson(emu, '/v1/embeddings', { model: 'Meta-Llama-3.3-70B-Instruct', input: 'x' }));
    assert.equal(status, 400);
    assert.equal(error['param'], 'model');
    assert.equal(error['code'], 'model_not_compatible');
  });
});
