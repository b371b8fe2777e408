// Streams scripted in memory, for the turn's unit tests: each call of the StreamChat takes the next
// answer, records the request it was given, and yields the answer's events as the client would (text,
// thinking and tool-call fragments, then finish and one usage); `error` rejects after the events, and
// `hang` waits for the signal before it ends the stream as the client does on a stop. Like the client's,
// a stream is iterated once, and reading `result` before iterating drains it.
import { ApiError } from '../../../src/core/api/errors';
import type { CallOptions, ChatRequest, ChatResult, ChatStream, ChatStreamEvent, ToolCall, UsageReport } from '../../../src/core/api/types';
import type { StreamChat } from '../../../src/core/chat/toolLoop';

/** One scripted answer. */
export interface ScriptedAnswer {
  readonly text?: readonly string[];
  readonly thinking?: readonly string[];
  readonly toolCalls?: readonly ToolCall[];
  /** Rejects the stream with this after the events above. */
  readonly error?: unknown;
  /** Waits for the request's signal after the events above, then rejects as the client does when stopped. */
  readonly hang?: boolean;
  readonly promptTokens?: number;
}

/** A usage report as the client builds one. */
export function usage(promptTokens = 10): UsageReport {
  return {
    promptTokens,
    completionTokens: 5,
    timeToFirstTokenMs: 100,
    tokensPerSecond: 50,
    totalTimeMs: 200,
    source: { timeToFirstToken: 'service', tokensPerSecond: 'service', totalTime: 'service', tokens: 'service' },
    client: { timeToFirstTokenMs: 100, tokensPerSecond: 50, totalTimeMs: 200 },
  };
}

/** What a stream call was given. */
export interface StreamCall {
  readonly request: ChatRequest;
  readonly options: CallOptions;
}

/** A StreamChat that plays `answers` in order and records each request. */
export function scriptedStreams(answers: readonly ScriptedAnswer[]): { readonly stream: StreamChat; readonly calls: StreamCall[] } {
  const calls: StreamCall[] = [];
  const stream: StreamChat = (request, options) => {
    const answer = answers[calls.length];
    // A snapshot: the caller may go on changing its arrays after the call.
    calls.push({ request: { ...request, messages: [...request.messages] }, options });
    if (!answer) throw new Error(`no scripted answer for request ${calls.length}`);
    return playedStream(request.model, answer, options.signal);
  };
  return { stream, calls };
}

/** One scripted answer as a ChatStream. */
export function playedStream(model: string, answer: ScriptedAnswer, signal?: AbortSignal): ChatStream {
  let settle: { resolve: (result: ChatResult) => void; reject: (error: unknown) => void } | undefined;
  const result = new Promise<ChatResult>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Rejections are read through the iteration; an unread result must not count as unhandled.
  result.catch(() => undefined);
  async function* events(): AsyncGenerator<ChatStreamEvent> {
    try {
      for (const text of answer.thinking ?? []) yield { type: 'reasoning', text };
      for (const text of answer.text ?? []) yield { type: 'text', text };
      for (const [index, call] of (answer.toolCalls ?? []).entries()) {
        yield { type: 'toolCall', index, id: call.id, name: call.name, argumentsDelta: call.arguments.slice(0, 3) };
        yield { type: 'toolCall', index, argumentsDelta: call.arguments.slice(3) };
      }
      if (answer.hang) {
        await new Promise<void>((resolve) => {
          if (signal?.aborted) resolve();
          signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        throw new ApiError('canceled', 'Stopped by the user');
      }
      if (answer.error !== undefined) throw answer.error;
      yield { type: 'finish', reason: (answer.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop' };
      const report = usage(answer.promptTokens);
      yield { type: 'usage', usage: report };
      settle?.resolve({
        id: 'answer',
        model,
        text: (answer.text ?? []).join(''),
        reasoning: (answer.thinking ?? []).join(''),
        toolCalls: [...(answer.toolCalls ?? [])],
        finishReason: (answer.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop',
        usage: report,
      });
    } catch (error) {
      settle?.reject(error);
      throw error;
    }
  }
  // As the client's: one iteration only, and `result` read before it drains the stream.
  let started = false;
  const stream: ChatStream = {
    [Symbol.asyncIterator]: () => {
      if (started) throw new Error('A stream can be iterated only once');
      started = true;
      return events();
    },
    get result(): Promise<ChatResult> {
      if (!started) {
        void (async (): Promise<void> => {
          try {
            for await (const event of stream) void event;
          } catch {
            // Delivered through `result`.
          }
        })();
      }
      return result;
    },
  };
  return stream;
}
