// Streamed answers: the driver that reads a streamed request through the SSE layer into a ChatAccumulator
// (opened, timed and retried by retriedStream.ts, as /infill is); and ResultStream, the
// AsyncIterable-with-a-result that the chat panel consumes. Chat, audio reasoning and the
// transcription streams all run through here.
import { performance } from 'node:perf_hooks';
import { ChatAccumulator } from './chat';
import { ApiError, errorFromStreamEvent } from './errors';
import { headerValue, MAX_REPLY_BYTES, type HttpCore, type HttpRequest } from './http';
import { retriedStream, type StreamEnvelope, type StreamTimeouts } from './retriedStream';
import { canceledError } from './retry';
import { parseDataEvent, readSse } from './sse';
import { type ChatResult, type ChatStreamEvent } from './types';
import { isRecord } from '../../shared/jsonObject';

/**
 * The most event data one streamed answer may carry for `maxTokens` output tokens: each token's SSE
 * chunk is a few hundred bytes of JSON, so a kilobyte per token plus 4 MB is far above any real answer,
 * and a server that keeps sending past `max_tokens` is cut there.
 */
export function maxStreamChars(maxTokens: number | undefined): number {
  return (maxTokens ?? 131_072) * 1024 + 4 * 1048576;
}

/** Everything the driver needs for one streamed operation. */
export interface StreamJob {
  http: HttpCore;
  request: HttpRequest;
  timeouts: StreamTimeouts;
  /** Prompt size for the token estimate. */
  promptChars: number;
  /** Called with every error before it reaches the caller (capability bookkeeping). */
  onError?: (error: ApiError) => void;
  /** What was asked for: a chat answer (default) or a transcript, which may also come back as `{"text": ...}` or bare text. */
  answer?: 'chat' | 'transcript';
  /** The most event data the answer may carry (see `maxStreamChars`); unbounded when absent. */
  maxChars?: number;
}

/** What a streamed request's reply is, from its first text: an event stream, one JSON body, or something else. */
export function replyShape(start: string, contentType: string): 'sse' | 'json' | 'other' {
  const head = start.trimStart();
  if (head.startsWith('{')) return 'json';
  // Every line of an event stream is a field (data, event, id, retry) or a comment.
  if (/^(?:data|event|id|retry)(?::|\r?\n|$)|^:/.test(head)) return 'sse';
  // An empty body carries no events; it is an empty stream only when it says it is one.
  if (head === '' && contentType.includes('text/event-stream')) return 'sse';
  return 'other';
}

/** Reads a streamed request's reply that came back whole; returns its events (already pushed into `acc`). */
function readWholeReply(
  acc: ChatAccumulator,
  text: string,
  shape: 'json' | 'other',
  answer: 'chat' | 'transcript',
  contentType: string,
  secret: string | undefined,
): ChatStreamEvent[] {
  const now = performance.now();
  const events: ChatStreamEvent[] = [];
  if (shape === 'other') {
    // A transcription server that ignores `stream` may send the bare text (response_format text).
    if (answer === 'transcript') {
      acc.pushChunk({ type: 'transcript.text.done', text }, events, now);
      return events;
    }
    throw new ApiError('malformedResponse', `Expected an event stream, got ${contentType || 'no content type'}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ApiError('malformedResponse', `Expected an event stream, got ${contentType || 'no content type'} that is not JSON either`, { cause });
  }
  if (isRecord(value) && value['error'] != null) throw errorFromStreamEvent(text, secret);
  // A transcript's JSON reply is {"text": ...} (llama-server adds type and usage); a chat reply has choices.
  if (answer === 'transcript' && isRecord(value) && typeof value['text'] === 'string' && !Array.isArray(value['choices'])) {
    acc.pushChunk({ type: 'transcript.text.done', text: value['text'], usage: value['usage'] }, events, now);
    return events;
  }
  return acc.pushCompletion(value, now);
}

/**
 * Runs a streamed request and yields batches of events; returns the ChatResult. Retries (via
 * HttpCore.backOff) only while no text or tool call has been handed to the caller: once output has
 * reached the caller a failure is final. Ends with one `usage` event.
 */
export async function* driveStream(job: StreamJob): AsyncGenerator<ChatStreamEvent[], ChatResult, undefined> {
  let startedAt: number | undefined;
  const envelope: StreamEnvelope = {
    http: job.http,
    request: job.request,
    timeouts: job.timeouts,
    tooLong: (totalMs) =>
      `The answer was still streaming after ${totalMs >= 60_000 ? `${Math.round(totalMs / 60_000)} min` : `${Math.round(totalMs / 1000)} s`}; it was stopped there`,
    noOutput: `The service sent no output within ${job.timeouts.firstTokenMs} ms of answering`,
    ...(job.onError ? { onError: job.onError } : {}),
  };
  return yield* retriedStream(envelope, async function* (attempt): AsyncGenerator<ChatStreamEvent[], ChatResult, undefined> {
    const { open } = attempt;
    const acc = new ChatAccumulator();
    startedAt ??= open.startedAt;
    // Judged by what was asked (a stream) and by the body, not by the content type, as the official
    // clients do (docs/service.md#streaming): a server may ignore `stream: true` and answer with one
    // JSON body, or label a real event stream with the wrong type.
    const contentType = headerValue(open.headers, 'content-type') ?? '';
    const shape = replyShape(await open.body.peek(), contentType);
    if (shape === 'sse') {
      let received = 0;
      let started = false;
      const maxChars = job.maxChars ?? Number.POSITIVE_INFINITY;
      for await (const batch of readSse(open.body, { secret: open.secret, watchdog: attempt.idle })) {
        const now = performance.now();
        let events: ChatStreamEvent[] = [];
        for (const data of batch) {
          received += data.length;
          if (received > maxChars)
            throw new ApiError('malformedResponse', 'The service kept sending far more than max_tokens allows; the answer was stopped there');
          acc.pushChunk(parseDataEvent(data, open.secret), events, now);
          if (!started && acc.hasOutput) {
            // The first token goes to the caller before the rest of its network read is parsed.
            started = true;
            attempt.firstOutput();
            attempt.delivered();
            yield events;
            events = [];
          }
        }
        if (events.length > 0) yield events;
      }
      const rest: ChatStreamEvent[] = [];
      acc.finish(rest, performance.now());
      if (rest.length > 0) {
        attempt.delivered();
        yield rest;
      }
    } else {
      // A whole reply is read up to a cap: a runaway body must not take the extension host's memory.
      const { text, cut } = await open.body.textUpTo(MAX_REPLY_BYTES);
      if (cut) throw new ApiError('malformedResponse', `The service's answer is larger than ${MAX_REPLY_BYTES / 1048576} MB; it was not read.`);
      const events = readWholeReply(acc, text, shape, job.answer ?? 'chat', contentType, open.secret);
      if (events.length > 0) {
        attempt.delivered();
        yield events;
      }
    }
    const endedAt = performance.now();
    const result = acc.result({ startedAt, firstTokenAt: acc.firstTokenAt, endedAt, promptChars: job.promptChars });
    yield [{ type: 'usage', usage: result.usage }];
    return result;
  });
}

/**
 * An AsyncIterable of events with a `result` promise. Iterate it for events as they form, or
 * just await `result` (which then drains the stream itself). Stopping the iteration early cancels
 * the request and rejects `result` with a canceled ApiError.
 */
export class ResultStream<E, R> implements AsyncIterable<E> {
  private started = false;
  private readonly settled: Promise<R>;
  private resolve!: (value: R) => void;
  private reject!: (error: unknown) => void;

  /** `signal`: the caller's; once it aborts, events already read from the network are no longer handed out. */
  constructor(
    private readonly source: AsyncGenerator<E[], R, undefined>,
    private readonly signal?: AbortSignal,
  ) {
    this.settled = new Promise<R>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // The caller may only iterate and never look at `result`; its rejection is then not "unhandled".
    this.settled.catch(() => undefined);
  }

  /** The whole answer; settles when the stream ends. Awaiting it without iterating drains the stream. */
  get result(): Promise<R> {
    if (!this.started) void this.drain();
    return this.settled;
  }

  private async drain(): Promise<void> {
    try {
      for await (const _ of this) {
        // Only the result is wanted.
      }
    } catch {
      // Already delivered through `settled`.
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    if (this.started) throw new Error('A stream can be iterated only once');
    this.started = true;
    const { source } = this;
    let buffer: E[] = [];
    let index = 0;
    let finished = false;
    const pull = async (): Promise<IteratorResult<E>> => {
      for (;;) {
        let step: IteratorResult<E[], R>;
        try {
          step = await source.next();
        } catch (error) {
          finished = true;
          this.reject(error);
          throw error;
        }
        if (step.done === true) {
          finished = true;
          this.resolve(step.value);
          return { done: true, value: undefined };
        }
        if (step.value.length > 0) {
          buffer = step.value;
          index = 1;
          return { done: false, value: step.value[0] as E };
        }
      }
    };
    return {
      // Events of a batch are handed out without touching the source: one await per network read.
      next: (): Promise<IteratorResult<E>> => {
        // A network read can bring several chunks at once; after a cancel none of them may reach the
        // caller (the chat panel would append text after Stop). Found against llama-server, which
        // often has two tokens in one read.
        if (!finished && this.signal?.aborted === true) {
          finished = true;
          const error = canceledError();
          this.reject(error);
          return source.return(undefined as never).then(
            () => Promise.reject(error),
            () => Promise.reject(error),
          );
        }
        if (index < buffer.length) return Promise.resolve({ done: false, value: buffer[index++] as E });
        if (finished) return Promise.resolve({ done: true, value: undefined });
        return pull();
      },
      return: async (): Promise<IteratorResult<E>> => {
        if (!finished) {
          finished = true;
          this.reject(canceledError());
          await source.return(undefined as never);
        }
        return { done: true, value: undefined };
      },
    };
  }
}

/** Maps a stream's events and result (transcription streams reuse the chat machinery). */
export async function* mapStream<E, R, F, S>(
  source: AsyncGenerator<E[], R, undefined>,
  event: (e: E) => F | undefined,
  result: (r: R) => S,
): AsyncGenerator<F[], S, undefined> {
  let done = false;
  try {
    for (;;) {
      const step = await source.next();
      if (step.done === true) {
        done = true;
        return result(step.value);
      }
      const out: F[] = [];
      for (const e of step.value) {
        const mapped = event(e);
        if (mapped !== undefined) out.push(mapped);
      }
      if (out.length > 0) yield out;
    }
  } finally {
    // A consumer that stops early must end the underlying request too.
    if (!done) await source.return(undefined as never);
  }
}
