// A real server's thinking, through Cadenza's client: llama-server with chat-thinking.gguf (genModels.py),
// a bigram machine behind Qwen3's chat template that writes "<think>\nThe user greets me.\n</think>\n\nHello!".
// Started with --reasoning-format deepseek, the server parses the tags itself: the thinking streams as
// `delta.reasoning_content` (the tags never reach the wire), then the answer as `delta.content`; a whole
// answer has `message.reasoning_content`. The client must keep the two apart and in that order.
import * as assert from 'node:assert/strict';
import { type ChatStreamEvent } from '../../../src/core/api/types';
import { llamaServers, useClient } from './llamaEnv';

type Event<T extends ChatStreamEvent['type']> = Extract<ChatStreamEvent, { type: T }>;

describe('llama-server compatibility: a thinking model (reasoning_content)', function () {
  const servers = llamaServers();
  const client = useClient(() => servers.thinking);
  const ask = { messages: [{ role: 'user' as const, content: 'Say hello.' }], maxTokens: 32, temperature: 0 };

  it('streams the thinking as reasoning events, then the answer as text, with no tags in either', async () => {
    const stream = client().streamChat({ model: servers.thinkingModel, ...ask });
    const events: ChatStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const kinds = events.map((e) => e.type);
    const thoughts = events.filter((e): e is Event<'reasoning'> => e.type === 'reasoning').map((e) => e.text);
    const texts = events.filter((e): e is Event<'text'> => e.type === 'text').map((e) => e.text);
    // The server sends the thinking token by token: several pieces, not one block at the end.
    assert.ok(thoughts.length >= 3, `reasoning pieces: ${JSON.stringify(thoughts)}`);
    assert.match(thoughts.join(''), /user greets me/);
    assert.equal(texts.join(''), 'Hello!');
    // All the thinking came before the first word of the answer, and the stream ended as any other.
    assert.ok(kinds.lastIndexOf('reasoning') < kinds.indexOf('text'), kinds.join(','));
    assert.deepEqual(kinds.slice(-2), ['finish', 'usage'], kinds.join(','));
    for (const piece of [...thoughts, ...texts]) assert.doesNotMatch(piece, /<\/?think>|<th|<\//, `a tag leaked: ${JSON.stringify(piece)}`);
    const result = await stream.result;
    assert.equal(result.text, 'Hello!');
    assert.equal(result.reasoning, thoughts.join(''));
    assert.equal(result.finishReason, 'stop');
    // The thinking tokens are output tokens: the server counts them with the answer's.
    assert.equal(result.usage.source.tokens, 'service');
    assert.ok((result.usage.completionTokens ?? 0) > 8, `completion tokens ${String(result.usage.completionTokens)}`);
  });

  it("reads a whole (non-streamed) answer's message.reasoning_content apart from its content", async () => {
    const result = await client().chat({ model: servers.thinkingModel, ...ask });
    assert.equal(result.text, 'Hello!');
    assert.match(result.reasoning, /user greets me/);
    assert.doesNotMatch(result.reasoning, /think>/);
    assert.equal(result.finishReason, 'stop');
  });

  it('with thinking turned off (chat_template_kwargs.enable_thinking: false) the template closes the thinking and only the answer comes', async () => {
    const stream = client().streamChat({ model: servers.thinkingModel, ...ask, enableThinking: false });
    const kinds: string[] = [];
    for await (const event of stream) kinds.push(event.type);
    assert.ok(!kinds.includes('reasoning'), kinds.join(','));
    const result = await stream.result;
    assert.equal(result.text, 'Hello!');
    assert.equal(result.reasoning, '');
  });

  it('cut off by max_tokens while still thinking: the thinking so far, no answer, finish reason length', async () => {
    const stream = client().streamChat({ model: servers.thinkingModel, ...ask, maxTokens: 5 });
    const events: ChatStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.ok(
      events.some((e) => e.type === 'reasoning'),
      events.map((e) => e.type).join(','),
    );
    assert.ok(!events.some((e) => e.type === 'text'), 'no answer text');
    const result = await stream.result;
    assert.equal(result.finishReason, 'length');
    assert.equal(result.text, '');
    assert.match(result.reasoning, /^The user/);
  });
});
