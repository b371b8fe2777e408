// Compatibility with a real server none of us wrote: llama.cpp's llama-server (from node-llama-cpp's
// bundled source, built by test/llama/setup.sh). Model listing, chat streamed and whole, stop
// sequences, usage with include_usage, and max_tokens. The model is chat-scripted.gguf, a hand-wired
// "bigram machine" with a real Qwen2 tokenizer and chat template, which answers "Hello!" (genModels.py).
import * as assert from 'node:assert/strict';
import { type ChatStreamEvent } from '../../../src/core/api/types';
import { llamaServers, useClient } from './llamaEnv';

describe('llama-server compatibility: models and chat', function () {
  const servers = llamaServers();
  const client = useClient(() => servers.chat);

  it('lists the served model under its alias, owned by llamacpp, as a chat model', async () => {
    const models = await client().listModels();
    const model = models.find((m) => m.id === servers.chatModel);
    assert.ok(model, `listed: ${models.map((m) => m.id).join(', ')}`);
    assert.equal(model.ownedBy, 'llamacpp');
    assert.ok(model.capabilities.includes('chat'));
    // llama-server lists no price; the client must not invent one.
    assert.equal(model.pricing, undefined);
    // -c 8192 shared by -np 2 slots: each request gets 4096 tokens (the listing's meta.n_ctx).
    assert.equal(model.contextLength, 4096);
  });

  it("answers a whole (non-streamed) chat with text, finish reason and the server's token counts", async () => {
    const result = await client().chat({ model: servers.chatModel, messages: [{ role: 'user', content: 'Say hello.' }], maxTokens: 16, temperature: 0 });
    assert.equal(result.text, 'Hello!');
    assert.equal(result.finishReason, 'stop');
    assert.deepEqual(result.toolCalls, []);
    assert.ok(result.id.startsWith('chatcmpl-'), result.id);
    assert.equal(result.usage.source.tokens, 'service');
    assert.ok((result.usage.promptTokens ?? 0) > 5, `prompt tokens ${String(result.usage.promptTokens)}`);
    // "Hello" "!" and the end-of-turn token.
    assert.ok((result.usage.completionTokens ?? 0) >= 2);
  });

  it('streams a chat as text events, then finish, then usage (include_usage), and the result agrees', async () => {
    const stream = client().streamChat({
      model: servers.chatModel,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Count to ten.' },
      ],
      maxTokens: 32,
      temperature: 0,
    });
    const events: ChatStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const texts = events.filter((e): e is Extract<ChatStreamEvent, { type: 'text' }> => e.type === 'text').map((e) => e.text);
    // llama-server sends one SSE chunk per token: "Hello", "!".
    assert.deepEqual(texts, ['Hello', '!']);
    const kinds = events.map((e) => e.type);
    assert.deepEqual(kinds.slice(-2), ['finish', 'usage'], kinds.join(','));
    const usage = events.at(-1);
    assert.ok(usage?.type === 'usage');
    assert.equal(usage.usage.source.tokens, 'service', "the include_usage chunk carries the server's counts");
    assert.ok((usage.usage.completionTokens ?? 0) >= 2);
    assert.ok(usage.usage.timeToFirstTokenMs >= 0 && usage.usage.totalTimeMs >= usage.usage.timeToFirstTokenMs);
    const result = await stream.result;
    assert.equal(result.text, 'Hello!');
    assert.equal(result.finishReason, 'stop');
    assert.ok(result.id.startsWith('chatcmpl-'));
  });

  it('without include_usage the server sends no usage chunk, and the client still reports measured figures', async () => {
    const stream = client().streamChat({
      model: servers.chatModel,
      messages: [{ role: 'user', content: 'Hi' }],
      maxTokens: 16,
      temperature: 0,
      includeUsage: false,
    });
    const kinds: string[] = [];
    for await (const event of stream) kinds.push(event.type);
    const result = await stream.result;
    // The client always ends with one usage event, built from its own measurements here.
    assert.equal(kinds.at(-1), 'usage');
    assert.equal(result.text, 'Hello!');
    assert.equal(result.usage.source.tokens, 'estimated');
    assert.ok(result.usage.client.totalTimeMs > 0);
  });

  it('honours a stop sequence, streamed and whole: the text ends before it, finish reason stop', async () => {
    const request = { model: servers.chatModel, messages: [{ role: 'user' as const, content: 'Say hello.' }], maxTokens: 16, temperature: 0, stop: ['!'] };
    const whole = await client().chat(request);
    assert.equal(whole.text, 'Hello');
    assert.equal(whole.finishReason, 'stop');
    const streamed = await client().streamChat(request).result;
    assert.equal(streamed.text, 'Hello');
    assert.equal(streamed.finishReason, 'stop');
  });

  it('stops at max_tokens with finish reason length', async () => {
    const result = await client().streamChat({ model: servers.chatModel, messages: [{ role: 'user', content: 'Say hello.' }], maxTokens: 1, temperature: 0 })
      .result;
    assert.equal(result.text, 'Hello');
    assert.equal(result.finishReason, 'length');
    assert.equal(result.usage.completionTokens, 1);
  });

  it('two identical requests at temperature 0 give the same answer (the model is deterministic)', async () => {
    const request = { model: servers.chatModel, messages: [{ role: 'user' as const, content: 'Again?' }], maxTokens: 8, temperature: 0 };
    const [a, b] = await Promise.all([client().chat(request), client().chat(request)]);
    assert.equal(a.text, b.text);
  });
});
