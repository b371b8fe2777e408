// Reasoning models (docs/service.md#reasoning): thinking as a `reasoning` field or as `<think>` at the
// start of the content, kept apart from the answer, counted as output by the watchdogs (a long think
// is neither a stall nor a reason to re-send and re-bill the request), and the two controls.
import assert from 'node:assert/strict';
import { buildChatBody, ChatAccumulator } from '../../../src/core/api/chat';
import { ThinkTagSplitter } from '../../../src/core/api/reasoning';
import { type ChatStreamEvent } from '../../../src/core/api/types';
import { clientFor, collect, expectApiError, requestsTo, useEmulator } from './helpers';

const CHAT = '/v1/chat/completions';

function split(pieces: readonly string[]): { reasoning: string; text: string } {
  const splitter = new ThinkTagSplitter();
  let reasoning = '';
  let text = '';
  for (const piece of [...pieces.flatMap((p) => splitter.push(p)), ...splitter.flush()]) {
    if (piece.kind === 'reasoning') reasoning += piece.text;
    else text += piece.text;
  }
  return { reasoning, text };
}

describe('api/reasoning: <think> in content', () => {
  it('routes a leading <think> block to reasoning and the rest to the answer', () => {
    assert.deepEqual(split(['<think>Plan: add.</think>\n\nThe sum is 4.']), { reasoning: 'Plan: add.', text: 'The sum is 4.' });
  });

  it('finds tags cut anywhere across chunks, after leading whitespace', () => {
    const whole = '\n <think>a < b, and </thin is not the end</think>\n\nanswer <think> stays';
    for (let size = 1; size <= 7; size++) {
      const pieces: string[] = [];
      for (let at = 0; at < whole.length; at += size) pieces.push(whole.slice(at, at + size));
      assert.deepEqual(split(pieces), { reasoning: 'a < b, and </thin is not the end', text: 'answer <think> stays' }, `chunks of ${size}`);
    }
  });

  it('leaves an answer that does not open with <think> alone, tag or not', () => {
    assert.deepEqual(split(['Use ', '<think>', ' tags like this.']), { reasoning: '', text: 'Use <think> tags like this.' });
    assert.deepEqual(split(['<th']), { reasoning: '', text: '<th' });
  });

  it('keeps thinking that was cut off (max_tokens) as reasoning, not as answer', () => {
    assert.deepEqual(split(['<think>still thinking </thi']), { reasoning: 'still thinking </thi', text: '' });
  });
});

describe('api/reasoning: the accumulator', () => {
  it('reads delta.reasoning and delta.reasoning_content as reasoning events, never as text', () => {
    const acc = new ChatAccumulator();
    const out: ChatStreamEvent[] = [];
    acc.pushChunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '', reasoning: 'think 1. ' } }] }, out, 1);
    acc.pushChunk({ choices: [{ index: 0, delta: { reasoning_content: 'think 2.' } }] }, out, 2);
    acc.pushChunk({ choices: [{ index: 0, delta: { content: 'Answer.' }, finish_reason: 'stop' }] }, out, 3);
    assert.deepEqual(
      out.filter((e) => e.type !== 'finish'),
      [
        { type: 'reasoning', text: 'think 1. ' },
        { type: 'reasoning', text: 'think 2.' },
        { type: 'text', text: 'Answer.' },
      ],
    );
    assert.equal(acc.text(), 'Answer.');
    assert.equal(acc.reasoning(), 'think 1. think 2.');
    assert.equal(acc.firstTokenAt, 1, 'thinking is the first output');
  });

  it('reads message.reasoning of a non-streamed completion', () => {
    const acc = new ChatAccumulator();
    acc.pushCompletion({ choices: [{ index: 0, message: { role: 'assistant', content: 'Four.', reasoning: '2+2' }, finish_reason: 'stop' }] }, 1);
    assert.equal(acc.text(), 'Four.');
    assert.equal(acc.reasoning(), '2+2');
  });

  it('sends reasoning_effort and chat_template_kwargs.enable_thinking only when set', () => {
    const base = { model: 'm', messages: [{ role: 'user' as const, content: 'q' }] };
    assert.equal(buildChatBody(base, false)['reasoning_effort'], undefined);
    assert.equal(buildChatBody(base, false)['chat_template_kwargs'], undefined);
    const body = buildChatBody({ ...base, reasoningEffort: 'high', enableThinking: false }, true);
    assert.equal(body['reasoning_effort'], 'high');
    assert.deepEqual(body['chat_template_kwargs'], { enable_thinking: false });
  });
});

describe('api/reasoning: reasoning models of the emulator', function () {
  this.timeout(20_000);
  const ctx = useEmulator();

  for (const [model, shape] of [
    ['DeepSeek-R1', '<think> in content'],
    ['gpt-oss-120b', 'a reasoning field'],
  ] as const) {
    it(`${model} (${shape}): thinking longer than every time-out finishes in one request, apart from the answer`, async () => {
      // 2.4 s of thinking in pieces every ~240 ms, against a 700 ms first-token and idle time-out.
      const client = clientFor(ctx.emu, { timeoutMs: 700, firstTokenTimeoutMs: 700, idleTimeoutMs: 700, maxRetries: 2 });
      ctx.emu.scriptChat({ content: 'The answer is 42.', reasoning: 'Six times seven. Check: 6*7 = 42. Done.', thinkMs: 2400 });
      try {
        const stream = client.streamChat({ model, messages: [{ role: 'user', content: 'What is six times seven?' }] });
        const events = await collect(stream);
        const result = await stream.result;
        assert.equal(result.text, 'The answer is 42.');
        assert.equal(result.reasoning, 'Six times seven. Check: 6*7 = 42. Done.');
        const kinds = events.filter((e) => e.type === 'reasoning' || e.type === 'text').map((e) => e.type);
        assert.ok(kinds.indexOf('text') > kinds.lastIndexOf('reasoning'), 'all thinking comes before the answer');
        assert.ok(kinds.filter((k) => k === 'reasoning').length >= 5, 'thinking streams live, in pieces');
        assert.equal(requestsTo(ctx.emu, CHAT).length, 1, 'one request: nothing was retried or re-billed');
        assert.ok((result.usage.service?.reasoningTokens ?? 0) > 0, 'reasoning tokens are reported');
      } finally {
        await client.close();
      }
    });
  }

  it('real silence during thinking is still a stall', async () => {
    const client = clientFor(ctx.emu, { timeoutMs: 600, firstTokenTimeoutMs: 600, idleTimeoutMs: 600, maxRetries: 0 });
    ctx.emu.scriptChat({ content: 'never', reasoning: 'one two three four five six', thinkMs: 1200 });
    ctx.emu.injectFault({ kind: 'stall', afterChunks: 3 }, { path: CHAT });
    try {
      const stream = client.streamChat({ model: 'gpt-oss-120b', messages: [{ role: 'user', content: 'q' }] });
      await expectApiError(collect(stream), 'timeout');
    } finally {
      await client.close();
    }
  });

  it('Qwen3 stops thinking with enable_thinking false; gpt-oss takes reasoning_effort', async () => {
    const client = clientFor(ctx.emu);
    try {
      const plain = await client.chat({ model: 'Qwen3-32B', messages: [{ role: 'user', content: 'q' }], enableThinking: false });
      assert.equal(plain.reasoning, '');
      const thought = await client.chat({ model: 'Qwen3-32B', messages: [{ role: 'user', content: 'q' }] });
      assert.notEqual(thought.reasoning, '');
      await client.chat({ model: 'gpt-oss-120b', messages: [{ role: 'user', content: 'q' }], reasoningEffort: 'low' });
      const sent = requestsTo(ctx.emu, CHAT).map((r) => r.body as Record<string, unknown>);
      assert.deepEqual(sent[0]?.['chat_template_kwargs'], { enable_thinking: false });
      assert.equal(sent[2]?.['reasoning_effort'], 'low');
    } finally {
      await client.close();
    }
  });

  it('lists the reasoning models with their controls', async () => {
    const client = clientFor(ctx.emu);
    try {
      const byId = new Map((await client.listModels()).map((m) => [m.id, m]));
      assert.deepEqual(byId.get('DeepSeek-R1')?.reasoning, { controls: [] });
      assert.deepEqual(byId.get('gpt-oss-120b')?.reasoning, { controls: ['effort'] });
      assert.deepEqual(byId.get('Qwen3-32B')?.reasoning, { controls: ['thinking'] });
      assert.equal(byId.get('Meta-Llama-3.3-70B-Instruct')?.reasoning, undefined);
    } finally {
      await client.close();
    }
  });
});
