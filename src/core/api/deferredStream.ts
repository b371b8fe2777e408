// Chat streams made of what is not one yet, for callers that must hand over a stream at once (a
// StreamChat): one whose request can only be made once something is awaited (the client, loaded on first
// use), and a whole answer asked for without streaming (condensing's summary). A failure surfaces where a
// stream's own would: on reading it, and in `result`.
import type { ChatResult, ChatStream, ChatStreamEvent } from './types';

/** A whole answer, asked for by `ask` when first read, as a stream: its thinking and its text as one event each, then finish and usage. */
export function answerAsStream(ask: () => Promise<ChatResult>): ChatStream {
  return deferredStream(async () => {
    const result = await ask();
    async function* events(): AsyncGenerator<ChatStreamEvent, void, undefined> {
      if (result.reasoning !== '') yield { type: 'reasoning', text: result.reasoning };
      if (result.text !== '') yield { type: 'text', text: result.text };
      yield { type: 'finish', reason: result.finishReason };
      yield { type: 'usage', usage: result.usage };
    }
    return { [Symbol.asyncIterator]: () => events(), result: Promise.resolve(result) };
  });
}

/** A stream opened by `open` when it is first read; `result` settles as the opened stream's does. */
export function deferredStream(open: () => Promise<ChatStream>): ChatStream {
  let resolveResult: (value: ChatResult) => void = () => undefined;
  let rejectResult: (error: unknown) => void = () => undefined;
  const result = new Promise<ChatResult>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // Read through the iteration, as the client's result is: unread, its rejection is not unhandled.
  result.catch(() => undefined);
  async function* events(): AsyncGenerator<ChatStreamEvent, void, undefined> {
    let inner: ChatStream;
    try {
      inner = await open();
    } catch (error) {
      rejectResult(error);
      throw error;
    }
    // Iteration starts before `result` is read: a client stream read for its result first drains itself.
    const iterator = inner[Symbol.asyncIterator]();
    inner.result.then(resolveResult, rejectResult);
    yield* { [Symbol.asyncIterator]: () => iterator };
  }
  let started = false;
  return {
    [Symbol.asyncIterator]: () => {
      if (started) throw new Error('A stream can be iterated only once');
      started = true;
      return events();
    },
    result,
  };
}
