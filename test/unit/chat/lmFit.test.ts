import { strict as assert } from 'node:assert';
import type { ChatMessage } from '../../../src/core/api/types';
import { contextOverflowMessage, fitMessages, fitRequest } from '../../../src/core/chat/lmFit';
import { LmTokenCounter, TokenCalibration } from '../../../src/core/chat/lmTokenCount';

const system: ChatMessage = { role: 'system', content: 'You are an agent.' };
const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const call = (id: string): ChatMessage => ({ role: 'assistant', content: null, toolCalls: [{ id, name: 'read_file', arguments: '{}' }] });
const result = (id: string): ChatMessage => ({ role: 'tool', toolCallId: id, content: `result ${id}` });

/** Each message's tool call ids answered by a later tool message in the same list. */
function assertPairsIntact(messages: readonly ChatMessage[]): void {
  const calls = new Set(messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((entry) => entry.id) : [])));
  const results = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  assert.deepEqual([...calls].sort(), [...results].sort(), 'every tool call with its result, and no result without its call');
}

describe("VS Code chat: fitting a request into the model's context", () => {
  it('sends a request that fits as it is', () => {
    const messages = [system, user('hi'), assistant('hello'), user('how are you')];
    const fitted = fitMessages(messages, [10, 10, 10, 10], 5, 45);
    assert.deepEqual(fitted, { fits: true, messages, droppedMessages: 0, tokens: 45 });
  });

  it('drops the oldest turns first, keeping the system message and the latest user message', () => {
    const messages = [system, user('first'), assistant('one'), user('second'), assistant('two'), user('third')];
    const fitted = fitMessages(messages, [10, 100, 100, 100, 100, 10], 0, 250);
    assert.equal(fitted.fits, true);
    assert.deepEqual(fitted.fits && fitted.messages, [system, user('second'), assistant('two'), user('third')]);
    assert.equal(fitted.fits && fitted.droppedMessages, 2);
    assert.equal(fitted.fits && fitted.tokens, 220);
  });

  it("never splits a tool call from its result, and keeps the current turn's calls and results", () => {
    const messages = [
      system,
      user('old question'),
      call('a'),
      result('a'),
      assistant('old answer'),
      user('middle question'),
      call('b'),
      result('b'),
      call('c'),
      result('c'),
      assistant('middle answer'),
      user('current question'),
      call('d'),
      result('d'),
      call('e'),
      result('e'),
    ];
    const tokens = messages.map(() => 50);
    // The whole is 16 × 50 = 800; without the old turn (4 messages) 600; without the middle one too 300.
    for (const budget of [700, 600, 550, 300]) {
      const fitted = fitMessages(messages, tokens, 0, budget);
      assert.ok(fitted.fits, `fits ${budget}`);
      assertPairsIntact(fitted.messages);
      assert.equal(fitted.messages[0], system);
      assert.deepEqual(fitted.messages.slice(-5), messages.slice(-5), 'the current turn whole');
      assert.ok(fitted.tokens <= budget);
    }
    const tight = fitMessages(messages, tokens, 0, 550);
    assert.deepEqual(
      tight.fits && tight.messages,
      [system, ...messages.slice(-5)],
      'a turn goes whole: the middle one too, since half of it would still not fit',
    );
    assert.deepEqual(
      fitMessages(messages, tokens, 0, 250),
      { fits: false, tokens: 800, minimumTokens: 300 },
      "the current turn's calls and results are never left out",
    );
  });

  it("reports the request's size and the least it can take when nothing makes it fit", () => {
    const messages = [system, user('old'), assistant('reply'), user('huge current question')];
    assert.deepEqual(fitMessages(messages, [100, 50, 50, 900], 300, 1000), { fits: false, tokens: 1400, minimumTokens: 1300 });
  });

  it('counts the request (messages and tools) with the counter before fitting', async () => {
    const counter = new LmTokenCounter({ tokenize: (text) => Promise.resolve(text.length), calibration: new TokenCalibration() });
    const messages = [user('x'.repeat(100)), assistant('y'.repeat(100)), user('z'.repeat(20))];
    const fitted = await fitRequest(counter, messages, [{ name: 't', description: 'd' }], { model: 'm', contextTokens: 200, inputTokens: 100 });
    // Each message is its characters plus 4; the tools' JSON is 32 characters.
    assert.deepEqual(fitted, { fits: true, messages: [user('z'.repeat(20))], droppedMessages: 2, tokens: 24 + 32 });
  });

  it('says which model, how large the request was against its context, and what to do; no stack, no path', () => {
    const text = contextOverflowMessage({ model: 'qwen2.5-coder-7b', contextTokens: 8192, inputTokens: 7192 }, { tokens: 9558, minimumTokens: 8300 });
    assert.equal(
      text,
      "This request is too large for qwen2.5-coder-7b: about 9,558 tokens (8,300 with every earlier turn left out), but the model's context is 8,192 tokens, 1,000 of them kept for the answer. " +
        "Pick a model with a larger context, or raise the server's context size (llama-server -c), or start a new chat with fewer tools or attachments.",
    );
    assert.doesNotMatch(text, /\n|\bat .*:\d+:\d+|[\\/][\w.-]+\.(js|ts)\b/);
  });
});
