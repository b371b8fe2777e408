// One completion over a streamed chat answer: cleaned as it arrives, stopped once whole, usage counted.
import assert from 'node:assert/strict';
import type { CallOptions, ChatRequest, ChatResult, ChatStream, ChatStreamEvent, UsageReport } from '../../../src/core/api/types';
import { fetchCompletion, type StreamChatPort } from '../../../src/core/completions/fetchCompletion';
import { buildCompletionPrompt } from '../../../src/core/completions/prompt';

/** A port that streams the given pieces, noting whether the caller aborted before the end. */
class ScriptedPort implements StreamChatPort {
  request: ChatRequest | undefined;
  delivered = 0;
  aborted = false;
  constructor(
    private readonly pieces: readonly string[],
    private readonly usage?: Partial<UsageReport>,
  ) {}
  streamChat(request: ChatRequest, options: CallOptions = {}): ChatStream {
    this.request = request;
    const pieces = this.pieces;
    const usage = this.usage;
    const markAborted = (): void => {
      this.aborted = true;
    };
    const countDelivered = (): void => {
      this.delivered += 1;
    };
    const signal = options.signal;
    async function* events(): AsyncGenerator<ChatStreamEvent> {
      for (const text of pieces) {
        await Promise.resolve();
        if (signal?.aborted) {
          markAborted();
          throw new DOMException('aborted', 'AbortError');
        }
        countDelivered();
        yield { type: 'text', text };
      }
      yield { type: 'finish', reason: 'stop' };
      if (usage)
        yield {
          type: 'usage',
          usage: {
            timeToFirstTokenMs: 1,
            tokensPerSecond: 1,
            totalTimeMs: 1,
            source: { timeToFirstToken: 'service', tokensPerSecond: 'service', totalTime: 'service', tokens: 'service' },
            client: { timeToFirstTokenMs: 1, tokensPerSecond: 1, totalTimeMs: 1 },
            ...usage,
          },
        };
    }
    const iterator = events();
    let started = false;
    // Like the client's ResultStream: one iteration only, and reading `result` starts one.
    const iterate = (): AsyncIterator<ChatStreamEvent> => {
      if (started) throw new Error('A stream can be iterated only once');
      started = true;
      signal?.addEventListener('abort', markAborted);
      return iterator;
    };
    const stream: ChatStream = {
      [Symbol.asyncIterator]: iterate,
      get result(): Promise<ChatResult> {
        iterate();
        return new Promise<ChatResult>(() => undefined);
      },
    };
    return stream;
  }
}

describe('completions/fetchCompletion', () => {
  it('stops the stream as soon as the line is whole and returns it cleaned', async () => {
    const prompt = buildCompletionPrompt({ path: 'a.ts', languageId: 'typescript', prefix: 'const name = user.', suffix: ';\n' });
    const port = new ScriptedPort(['first', 'Name;', '\n', 'const other = 1;', '\n', 'more']);
    const partials: string[] = [];
    const answer = await fetchCompletion({ port, model: 'small-1B', prompt, signal: new AbortController().signal, onPartial: (text) => partials.push(text) });
    assert.equal(answer.text, 'firstName');
    assert.equal(answer.end, 'stopped');
    assert.equal(port.delivered, 3, 'nothing read after the newline');
    assert.equal(port.aborted, true, 'the request was closed');
    assert.equal(answer.usage.estimated, true);
    assert.ok(answer.usage.promptTokens > 0 && answer.usage.completionTokens > 0);
    assert.equal(port.request?.model, 'small-1B');
    assert.equal(port.request?.maxTokens, prompt.maxTokens);
    assert.ok(partials.length >= 2);
  });

  it("reads to the end and takes the service's usage when the answer never overruns", async () => {
    const prompt = buildCompletionPrompt({ path: 'a.py', languageId: 'python', prefix: 'def square(x):\n    ', suffix: '' });
    const port = new ScriptedPort(['return ', 'x * x'], { promptTokens: 120, completionTokens: 4 });
    const answer = await fetchCompletion({ port, model: 'm', prompt, signal: new AbortController().signal });
    assert.deepEqual(
      { text: answer.text, end: answer.end, usage: answer.usage },
      { text: 'return x * x', end: 'finished', usage: { promptTokens: 120, completionTokens: 4, estimated: false } },
    );
  });

  it("shows nothing when a small model copies the prompt's worked example instead of completing", async () => {
    // Gemma 3 270M answered a JavaScript span with the example's Python line (bench/completions/completionsQuality).
    const prompt = buildCompletionPrompt({ path: 'lib/x.js', languageId: 'javascript', prefix: 'function check(version) {\n  ', suffix: '\n}\n' });
    const example = prompt.messages[2]?.content;
    assert.equal(typeof example, 'string');
    const copied = await fetchCompletion({ port: new ScriptedPort([` ${String(example)}`]), model: 'm', prompt, signal: new AbortController().signal });
    assert.equal(copied.text, '');
    const real = await fetchCompletion({ port: new ScriptedPort([" return 'Hello, ' + version"]), model: 'm', prompt, signal: new AbortController().signal });
    assert.equal(real.text, "return 'Hello, ' + version", 'an answer like the example but about this code stays');
  });

  it('rejects when the caller aborts', async () => {
    const prompt = buildCompletionPrompt({ path: 'a.py', languageId: 'python', prefix: 'x = ', suffix: '' });
    const port = new ScriptedPort(['1', '2', '3']);
    const controller = new AbortController();
    const pending = fetchCompletion({ port, model: 'm', prompt, signal: controller.signal, onPartial: () => controller.abort() });
    await assert.rejects(pending);
    assert.equal(port.aborted, true);
  });
});
