// Raw fill-in-the-middle completions: llama-server's POST /infill (on the chat endpoint's server) takes the
// text before and after the cursor and wraps them in the model's own FIM tokens, so the client never writes
// those tokens itself. Streamed, it sends `data: {"content": ..., "stop": false}` chunks (each with the token
// counts so far) and a last one with `"stop": true`; not streamed, one such object. A model without FIM
// tokens is refused with an HTTP error (400 or 501), which is what the probe below looks for.
import { performance } from 'node:perf_hooks';
import { ApiError } from './errors';
import { headerValue, MAX_ERROR_BODY_BYTES, MAX_REPLY_BYTES, type HttpCore, type HttpRequest, type OpenResponse } from './http';
import { retriedStream, type StreamEnvelope, type StreamTimeouts } from './retriedStream';
import { parseDataEvent, readSse } from './sse';
import { maxStreamChars, replyShape } from './stream';
import { type CallOptions, type InfillCounts, type InfillProbe, type InfillRequest, type InfillResult, type InfillStreamEvent } from './types';
import { isRecord } from '../../shared/jsonObject';

/** The path of the operation, below the server's address (not under /v1: it is llama.cpp's own API). */
export const INFILL_PATH = '/infill';

/** The wire body of an infill request. `cache_prompt` lets the server reuse the prompt it saw a keystroke ago. */
export function buildInfillBody(request: InfillRequest, stream: boolean): Record<string, unknown> {
  return {
    model: request.model,
    input_prefix: request.prefix,
    input_suffix: request.suffix,
    input_extra: (request.extra ?? []).map((entry) => ({ filename: entry.filename, text: entry.text })),
    n_predict: request.maxTokens,
    temperature: request.temperature ?? 0.1,
    stream,
    cache_prompt: true,
  };
}

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

/** The streamed POST /infill request to the chat endpoint's server. */
export function infillRequest(request: InfillRequest, options: CallOptions): HttpRequest {
  return {
    method: 'POST',
    path: INFILL_PATH,
    host: 'chat',
    rateLimitKey: request.model,
    body: JSON.stringify(buildInfillBody(request, true)),
    contentType: 'application/json',
    accept: 'text/event-stream',
    signal: options.signal,
    onRetry: options.onRetry,
  };
}

/** One chunk (or the whole non-streamed answer) read: its text, whether it is the last, the counts so far. */
function readInfillChunk(value: unknown): { text: string; stop: boolean; counts: InfillCounts; stopType: string | undefined } {
  if (!isRecord(value) || typeof value['content'] !== 'string') throw new ApiError('malformedResponse', 'The server answered /infill without a `content` text');
  const timings = isRecord(value['timings']) ? value['timings'] : {};
  const promptTokens = count(value['tokens_evaluated']) ?? count(timings['prompt_n']);
  const completionTokens = count(value['tokens_predicted']) ?? count(timings['predicted_n']);
  return {
    text: value['content'],
    stop: value['stop'] === true,
    counts: { ...(promptTokens !== undefined ? { promptTokens } : {}), ...(completionTokens !== undefined ? { completionTokens } : {}) },
    stopType: typeof value['stop_type'] === 'string' ? value['stop_type'] : undefined,
  };
}

/** What driveInfill needs. */
export interface InfillJob {
  readonly http: HttpCore;
  readonly request: HttpRequest;
  readonly timeouts: StreamTimeouts;
  readonly maxTokens: number;
}

/**
 * Runs a streamed infill request and yields batches of events; returns the whole answer. Like the chat
 * driver it retries (HttpCore.backOff) only while nothing has reached the caller, and the body's socket is
 * closed when the caller stops early or aborts.
 */
export async function* driveInfill(job: InfillJob): AsyncGenerator<InfillStreamEvent[], InfillResult, undefined> {
  const envelope: StreamEnvelope = {
    http: job.http,
    request: job.request,
    timeouts: job.timeouts,
    tooLong: (totalMs) => `The completion was still streaming after ${Math.round(totalMs / 1000)} s; it was stopped there`,
    noOutput: `The server sent no output within ${job.timeouts.firstTokenMs} ms of answering`,
  };
  return yield* retriedStream(envelope, async function* (attempt): AsyncGenerator<InfillStreamEvent[], InfillResult, undefined> {
    const { open } = attempt;
    let text = '';
    let counts: InfillCounts = {};
    let stopType: string | undefined;
    const contentType = headerValue(open.headers, 'content-type') ?? '';
    const shape = replyShape(await open.body.peek(), contentType);
    if (shape === 'sse') {
      let received = 0;
      const maxChars = maxStreamChars(job.maxTokens);
      for await (const batch of readSse(open.body, { secret: open.secret, watchdog: attempt.idle })) {
        const events: InfillStreamEvent[] = [];
        for (const data of batch) {
          received += data.length;
          if (received > maxChars)
            throw new ApiError('malformedResponse', 'The server kept sending far more than n_predict allows; the completion was stopped there');
          const chunk = readInfillChunk(parseDataEvent(data, open.secret));
          counts = { ...counts, ...chunk.counts };
          if (chunk.text !== '') {
            text += chunk.text;
            events.push({ type: 'text', text: chunk.text, counts });
          }
          if (chunk.stop) stopType = chunk.stopType ?? 'stop';
        }
        if (text !== '') attempt.firstOutput();
        if (events.length > 0) {
          attempt.delivered();
          yield events;
        }
        if (stopType !== undefined) break;
      }
    } else if (shape === 'json') {
      const { text: body, cut } = await open.body.textUpTo(MAX_REPLY_BYTES);
      if (cut) throw new ApiError('malformedResponse', 'The /infill answer is too large; it was not read.');
      const chunk = readInfillChunk(parseDataEvent(body, open.secret));
      text = chunk.text;
      counts = chunk.counts;
      stopType = chunk.stopType;
      if (text !== '') {
        attempt.delivered();
        yield [{ type: 'text', text, counts }];
      }
    } else {
      throw new ApiError('malformedResponse', `Expected an event stream from /infill, got ${contentType || 'no content type'}`);
    }
    attempt.delivered();
    yield [{ type: 'done', counts, ...(stopType !== undefined ? { stopType } : {}) }];
    return { text, counts, stopType };
  });
}

/**
 * True for an HTTP status that says the server does not fill in the middle: 404 (no such route), 400 or 501
 * (the model has no FIM tokens), any other 4xx but those about the key (401, 403) or the moment (408, 429).
 */
export function refusesInfill(status: number | undefined): boolean {
  return status !== undefined && ((status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)) || status === 501);
}

/**
 * Asks the server once whether it fills in the middle for `model`: an /infill request that predicts nothing.
 * One attempt, no retries. A 2xx answer with a `content` text is `fim`; a refusal (`refusesInfill`) is `chat`;
 * a network failure, a time-out, a key problem (401, 403), a busy or loading server (408, 429, 5xx other than
 * 501) or a cancel is `unknown`, which the caller treats as chat
 * for now without remembering it.
 */
export async function probeInfill(http: HttpCore, model: string, signal?: AbortSignal): Promise<InfillProbe> {
  const body = { model, input_prefix: '', input_suffix: '', input_extra: [], n_predict: 0, temperature: 0, stream: false, cache_prompt: false };
  const started = performance.now();
  let response: OpenResponse | undefined;
  try {
    response = await http.open({
      method: 'POST',
      path: INFILL_PATH,
      host: 'chat',
      rateLimitKey: model,
      body: JSON.stringify(body),
      contentType: 'application/json',
      signal,
    });
    const { text } = await response.body.textUpTo(MAX_ERROR_BODY_BYTES);
    readInfillChunk(JSON.parse(text) as unknown);
    http.logger.debug(`/infill probe for ${model}: fills in the middle (${Math.round(performance.now() - started)} ms)`);
    return 'fim';
  } catch (error) {
    const status = ApiError.is(error) ? error.status : undefined;
    const definite = refusesInfill(status);
    // A 2xx that is not an infill answer is a server that does not know the operation (a catch-all page).
    const notInfill = status === undefined && (error instanceof SyntaxError || ApiError.is(error, 'malformedResponse'));
    http.logger.debug(
      `/infill probe for ${model}: ${definite || notInfill ? 'refused' : 'no answer'} (${error instanceof Error ? error.message : String(error)})`,
    );
    return definite || notInfill ? 'chat' : 'unknown';
  } finally {
    if (response !== undefined) {
      response.release();
      if (!response.body.ended) response.body.destroy();
    }
  }
}
