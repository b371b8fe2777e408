// Chat completions against the emulator: request shapes on the wire, streamed and whole answers,
// tool calls in every form, JSON modes, and client-side validation that sends nothing.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import { type ChatRequest, type ChatStreamEvent } from '../../../src/core/api/types';
import { CHAT_MODEL, clientFor, collect, expectApiError, PNG_DATA_URL, requestsTo, textOf, useEmulator, VISION_MODEL } from './helpers';

const CHAT = '/v1/chat/completions';
const hello: ChatRequest = { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hello' }] };
const body = (record: { body: unknown } | undefined): Record<string, unknown> => record?.body as Record<string, unknown>;

describe('api/chat', function () {
  this.timeout(10_000);
  const ctx = useEmulator();

  it('sends plain string content to a text model and never response_format text', async () => {
    const client = clientFor(ctx.emu);
    await client.chat({
      model: CHAT_MODEL,
      messages: [
        { role: 'system', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'part one' },
            { type: 'text', text: 'part two' },
          ],
        },
      ],
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      maxTokens: 100,
      stop: ['\n\n', 'END'],
    });
    const sent = body(requestsTo(ctx.emu, CHAT)[0]);
    const messages = sent['messages'] as { content: unknown }[];
    assert.equal(messages[1]?.content, 'part one\npart two');
    assert.deepEqual([sent['temperature'], sent['top_p'], sent['top_k'], sent['max_tokens']], [0.5, 0.9, 40, 100]);
    assert.deepEqual(sent['stop'], ['\n\n', 'END']);
    assert.equal(sent['response_format'], undefined);
    assert.equal(sent['stream'], undefined);
    await client.close();
  });

  it('answers a whole completion with text, finish reason and usage from the service', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ content: 'Fixed answer.' });
    const result = await client.chat(hello);
    assert.equal(result.text, 'Fixed answer.');
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.model, CHAT_MODEL);
    assert.ok(result.id !== '');
    assert.equal(result.usage.source.tokens, 'service');
    assert.ok((result.usage.completionTokens ?? 0) > 0);
    await client.close();
  });

  it('streams text to [DONE] with include_usage, one usage event last', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ content: 'one two three four five six seven eight', chunkCount: 8 });
    const stream = client.streamChat(hello);
    const events = await collect(stream);
    const result = await stream.result;
    assert.equal(textOf(events), 'one two three four five six seven eight');
    assert.equal(result.text, textOf(events));
    assert.equal(events.filter((e) => e.type === 'text').length, 8);
    assert.deepEqual(
      events.slice(-2).map((e) => e.type),
      ['finish', 'usage'],
    );
    const usage = events.at(-1);
    assert.ok(usage?.type === 'usage' && usage.usage.source.timeToFirstToken === 'service');
    const sent = body(requestsTo(ctx.emu, CHAT)[0]);
    assert.equal(sent['stream'], true);
    assert.deepEqual(sent['stream_options'], { include_usage: true });
    await client.close();
  });

  it('can await result without iterating', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ content: 'just the result' });
    const result = await client.streamChat(hello).result;
    assert.equal(result.text, 'just the result');
    await client.close();
  });

  it('accumulates whole tool calls, several in a turn', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({
      toolCalls: [
        { name: 'add', arguments: '{"a":15,"b":27}', id: 'call_ea56afcd4d334edcbc' },
        { name: 'now', arguments: '{}' },
      ],
    });
    const stream = client.streamChat({ ...hello, tools: [{ name: 'add' }, { name: 'now' }], toolChoice: 'auto' });
    const events = await collect(stream);
    const result = await stream.result;
    assert.deepEqual(
      result.toolCalls.map((c) => [c.name, c.arguments]),
      [
        ['add', '{"a":15,"b":27}'],
        ['now', '{}'],
      ],
    );
    assert.equal(result.toolCalls[0]?.id, 'call_ea56afcd4d334edcbc');
    assert.equal(result.finishReason, 'tool_calls');
    assert.deepEqual([...new Set(events.filter((e) => e.type === 'toolCall').map((e) => (e as { index: number }).index))], [0, 1]);
    const sent = body(requestsTo(ctx.emu, CHAT)[0]);
    assert.deepEqual(
      (sent['tools'] as { type: string; function: { name: string } }[]).map((t) => [t.type, t.function.name]),
      [
        ['function', 'add'],
        ['function', 'now'],
      ],
    );
    assert.equal(sent['tool_choice'], 'auto');
    await client.close();
  });

  it('accumulates fragmented tool calls by index, as they form', async () => {
    const client = clientFor(ctx.emu);
    const args = JSON.stringify({ path: 'src/a.ts', query: 'a fairly long argument string to split into pieces' });
    ctx.emu.scriptChat({
      toolCalls: [
        { name: 'search', arguments: args },
        { name: 'read', arguments: '{"path":"x"}' },
      ],
      fragmented: true,
    });
    const stream = client.streamChat({ ...hello, tools: [{ name: 'search' }, { name: 'read' }], toolChoice: { name: 'search' } });
    const events = await collect(stream);
    const fragments = events.filter((e): e is Extract<ChatStreamEvent, { type: 'toolCall' }> => e.type === 'toolCall' && e.index === 0);
    assert.ok(fragments.length > 2, 'arguments arrived in pieces');
    assert.equal(fragments.map((f) => f.argumentsDelta).join(''), args);
    const result = await stream.result;
    assert.deepEqual(
      result.toolCalls.map((c) => [c.name, c.arguments]),
      [
        ['search', args],
        ['read', '{"path":"x"}'],
      ],
    );
    assert.deepEqual(body(requestsTo(ctx.emu, CHAT)[0])['tool_choice'], { type: 'function', function: { name: 'search' } });
    await client.close();
  });

  it('stringifies arguments sent as a JSON object, streamed and whole', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }], argumentsAsObject: true }, { times: 2 });
    const streamed = await client.streamChat({ ...hello, tools: [{ name: 'add' }] }).result;
    assert.deepEqual(JSON.parse(streamed.toolCalls[0]?.arguments ?? ''), { a: 1, b: 2 });
    assert.equal(typeof streamed.toolCalls[0]?.arguments, 'string');
    const whole = await client.chat({ ...hello, tools: [{ name: 'add' }] });
    assert.deepEqual(JSON.parse(whole.toolCalls[0]?.arguments ?? ''), { a: 1, b: 2 });
    await client.close();
  });

  it('passes malformed arguments through untouched (the tool loop judges them)', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.scriptChat({ toolCalls: [{ name: 'add', arguments: '{"a":1}' }], malformedArguments: true });
    const result = await client.chat({ ...hello, tools: [{ name: 'add' }] });
    assert.equal(result.toolCalls.length, 1);
    assert.throws(() => JSON.parse(result.toolCalls[0]?.arguments ?? ''));
    await client.close();
  });

  it('sends json_object and json_schema response formats and gets JSON back', async () => {
    const client = clientFor(ctx.emu);
    const asObject = await client.chat({ ...hello, messages: [{ role: 'user', content: 'Reply in JSON.' }], responseFormat: { type: 'json_object' } });
    assert.doesNotThrow(() => JSON.parse(asObject.text));
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const asSchema = await client.chat({ ...hello, responseFormat: { type: 'json_schema', jsonSchema: { name: 'User', schema, strict: true } } });
    const parsed = JSON.parse(asSchema.text) as Record<string, unknown>;
    assert.equal(typeof parsed['name'], 'string');
    const sent = requestsTo(ctx.emu, CHAT).map(body);
    assert.deepEqual(sent[0]?.['response_format'], { type: 'json_object' });
    assert.deepEqual(sent[1]?.['response_format'], { type: 'json_schema', json_schema: { name: 'User', schema, strict: true } });
    await client.close();
  });

  it('sends one image as an image_url part to a vision model', async () => {
    const client = clientFor(ctx.emu);
    await client.chat({
      model: VISION_MODEL,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', dataUrl: PNG_DATA_URL },
          ],
        },
      ],
    });
    const messages = body(requestsTo(ctx.emu, CHAT)[0])['messages'] as { content: unknown }[];
    assert.deepEqual(messages[0]?.content, [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: PNG_DATA_URL } },
    ]);
    await client.close();
  });

  it('sends the assistant tool calls and the tool result back in the history', async () => {
    const client = clientFor(ctx.emu);
    await client.chat({
      ...hello,
      messages: [
        { role: 'user', content: 'add 1 and 2' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' }] },
        { role: 'tool', toolCallId: 'call_1', content: '3' },
      ],
      tools: [{ name: 'add', description: 'adds', parameters: { type: 'object', properties: {}, required: [] } }],
    });
    const messages = body(requestsTo(ctx.emu, CHAT)[0])['messages'] as Record<string, unknown>[];
    assert.deepEqual(messages[1]?.['tool_calls'], [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }]);
    assert.deepEqual(messages[2], { role: 'tool', tool_call_id: 'call_1', content: '3' });
    await client.close();
  });
});

describe('api/chat: validation before sending', function () {
  this.timeout(10_000);
  const ctx = useEmulator();

  const cases: [string, Partial<ChatRequest>, string][] = [
    ['temperature above 1', { temperature: 1.5 }, 'temperature'],
    ['temperature below 0', { temperature: -0.1 }, 'temperature'],
    ['top_p above 1', { topP: 1.01 }, 'top_p'],
    ['top_k of 0', { topK: 0 }, 'top_k'],
    ['top_k above 100', { topK: 101 }, 'top_k'],
    ['fractional top_k', { topK: 2.5 }, 'top_k'],
    ['five stop sequences', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    ['max_tokens of 0', { maxTokens: 0 }, 'max_tokens'],
    ['no messages', { messages: [] }, 'messages'],
    ['a forced tool that is not offered', { tools: [{ name: 'a' }], toolChoice: { name: 'b' } }, 'tool_choice'],
    [
      'two images',
      {
        model: VISION_MODEL,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', dataUrl: PNG_DATA_URL },
              { type: 'image', dataUrl: PNG_DATA_URL },
            ],
          },
        ],
      },
      'messages',
    ],
    [
      'an http image URL',
      { model: VISION_MODEL, messages: [{ role: 'user', content: [{ type: 'image', dataUrl: 'https://example.invalid/cat.png' }] }] },
      'messages[0].content[0].image_url.url',
    ],
    [
      'an image of type bmp',
      { model: VISION_MODEL, messages: [{ role: 'user', content: [{ type: 'image', dataUrl: 'data:image/bmp;base64,AAAA' }] }] },
      'messages[0].content[0].image_url.url',
    ],
    [
      'an image with broken base64',
      { model: VISION_MODEL, messages: [{ role: 'user', content: [{ type: 'image', dataUrl: 'data:image/png;base64,abc$' }] }] },
      'messages[0].content[0].image_url.url',
    ],
  ];
  for (const [name, change, param] of cases) {
    it(`refuses ${name} (param ${param}) without sending`, async () => {
      const client = clientFor(ctx.emu);
      const error = await expectApiError(client.chat({ ...hello, ...change }), 'invalid');
      assert.equal(error.param, param);
      // Streams refuse the same way, on first iteration.
      const streamError = await expectApiError(collect(client.streamChat({ ...hello, ...change })), 'invalid');
      assert.equal(streamError.param, param);
      assert.equal(ctx.emu.requests.length, 0, 'nothing reached the emulator');
      await client.close();
    });
  }

  it('refuses max_tokens beyond the model maximum once the model is known', async () => {
    const client = clientFor(ctx.emu);
    await client.listModels();
    ctx.emu.reset();
    const error = await expectApiError(client.chat({ ...hello, maxTokens: 4097 }), 'invalid');
    assert.equal(error.param, 'max_tokens');
    assert.ok(error instanceof ApiError && error.name === 'ValidationError');
    assert.equal(ctx.emu.requests.length, 0);
    await client.chat({ ...hello, maxTokens: 4096 });
    await client.close();
  });

  it('uses the overrides for the limit before any listing', async () => {
    const client = clientFor(ctx.emu, { capabilities: { [CHAT_MODEL]: { maxCompletionTokens: 10 } } });
    await expectApiError(client.chat({ ...hello, maxTokens: 11 }), 'invalid');
    assert.equal(ctx.emu.requests.length, 0);
    await client.close();
  });
});
