// The envelope every streamed request shares (chat, audio reasoning, transcription streams, /infill): open the
// request, stop it when no output comes in time, when it stalls once output flows, or when the whole answer takes
// too long, and retry it (HttpCore.backOff) only while nothing has reached the caller: once output has, a failure
// is final. Whatever ends an attempt, its timers stop and an unfinished body's socket is closed, so no half-read
// body stays in the keep-alive pool. What an attempt reads is the caller's.
import { ApiError } from './errors';
import { toApiError, type HttpCore, type HttpRequest, type OpenResponse } from './http';
import { Watchdog } from './sse';

/** Watchdog limits of one streamed request, in ms. */
export interface StreamTimeouts {
  /** From the response headers to the first output: text, reasoning or a tool-call fragment (thinking is output, not a stall). */
  firstTokenMs: number;
  /** Longest silence between two network reads once output flows. */
  idleMs: number;
  /** Longest a whole answer may stream (a server trickling tokens for ever is cut here). */
  totalMs?: number;
}

/** The default of `StreamTimeouts.totalMs`: an hour, longer than any real answer takes. */
export const DEFAULT_STREAM_TOTAL_MS = 60 * 60 * 1000;

/** A streamed request and what its time-outs say. */
export interface StreamEnvelope {
  readonly http: HttpCore;
  readonly request: HttpRequest;
  readonly timeouts: StreamTimeouts;
  /** The error's words when the answer is still streaming after `totalMs`. */
  readonly tooLong: (totalMs: number) => string;
  /** The error's words when no output came within `firstTokenMs` of the headers. */
  readonly noOutput: string;
  /** Told of each attempt's failure, retried or not. */
  readonly onError?: (error: ApiError) => void;
}

/** One attempt, as its reader sees it. */
export interface StreamAttempt {
  readonly open: OpenResponse;
  /** Watches the silence between network reads (armed by `firstOutput`). */
  readonly idle: Watchdog;
  /** Output came: the first-token timer stops and the stall timer starts (once; later calls do nothing). */
  firstOutput(): void;
  /** Something reached the caller: a failure from now on is final. */
  delivered(): void;
}

/** Runs `attempt` on the opened request, again after a failure while nothing reached the caller; yields what it yields. */
export async function* retriedStream<E, R>(
  envelope: StreamEnvelope,
  attempt: (attempt: StreamAttempt) => AsyncGenerator<E, R, undefined>,
): AsyncGenerator<E, R, undefined> {
  const { http, request, timeouts } = envelope;
  for (let count = 0; ; count++) {
    let delivered = false;
    let response: OpenResponse | undefined;
    const idle = new Watchdog((error) => response?.fail(error));
    let firstToken: NodeJS.Timeout | undefined;
    let whole: NodeJS.Timeout | undefined;
    try {
      response = await http.open(request);
      const open = response;
      const totalMs = timeouts.totalMs ?? DEFAULT_STREAM_TOTAL_MS;
      whole = setTimeout(() => open.fail(new ApiError('timeout', envelope.tooLong(totalMs))), totalMs);
      firstToken = setTimeout(() => open.fail(new ApiError('timeout', envelope.noOutput)), timeouts.firstTokenMs);
      return yield* attempt({
        open,
        idle,
        firstOutput: () => {
          if (firstToken === undefined) return;
          clearTimeout(firstToken);
          firstToken = undefined;
          idle.arm(timeouts.idleMs, () => new ApiError('timeout', `The stream stalled: nothing arrived for ${timeouts.idleMs} ms`));
        },
        delivered: () => {
          delivered = true;
        },
      });
    } catch (error) {
      const apiError =
        response === undefined ? toApiError(error, new AbortController().signal, undefined) : toApiError(error, response.signal, response.secret);
      envelope.onError?.(apiError);
      if (delivered) throw apiError;
      await http.backOff(apiError, count, request);
    } finally {
      clearTimeout(firstToken);
      clearTimeout(whole);
      idle.stop();
      if (response !== undefined) {
        response.release();
        if (!response.body.ended) response.body.destroy();
      }
    }
  }
}
