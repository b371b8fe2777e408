// Server-sent events from the service: data-only `data: {json}\n\n` events ending at `data: [DONE]`
// (or at the end of the body), with errors that arrive after the 200 in any of the three observed
// shapes (docs/service.md#errors-inside-a-stream): `event: error`, `event: error_event`, or a data object with a
// top-level `error`. Parsing is eventsource-parser's; this file adds JSON, errors and the watchdog.
//
// The per-chunk path is kept cheap: one JSON.parse per event (done by the consumer, lazily),
// batches handed over per network read (so the consumer awaits once per read, not once per
// event), and the watchdog touched with a single clock read.
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import { ApiError, errorFromStreamEvent } from './errors';

/**
 * Fires `onFire` once when nothing happened for `limitMs`. `touch()` is a clock read, not a timer
 * reset: the timer re-arms itself lazily for the remainder, so 100,000 chunks cost no timer work.
 */
export class Watchdog {
  private last = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private limitMs = 0;
  private makeError: () => ApiError = () => new ApiError('timeout', 'timed out');

  constructor(private readonly onFire: (error: ApiError) => void) {}

  /** (Re)starts the watch with a new limit and error; 0 or less disables it. */
  arm(limitMs: number, makeError: () => ApiError): void {
    this.stop();
    if (limitMs <= 0 || !Number.isFinite(limitMs)) return;
    this.limitMs = limitMs;
    this.makeError = makeError;
    this.last = performance.now();
    this.schedule(limitMs);
  }

  /** Records activity. */
  touch(): void {
    this.last = performance.now();
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(this.check, ms);
    // A watchdog must never keep the extension host or a test process alive by itself.
    this.timer.unref();
  }

  private readonly check = (): void => {
    const idle = performance.now() - this.last;
    if (idle >= this.limitMs - 1) {
      this.timer = undefined;
      this.onFire(this.makeError());
    } else {
      this.schedule(this.limitMs - idle);
    }
  };
}

// Slice size for the first read of a stream (see readSse).
const FIRST_SLICE = 4096;

/** What readSse needs besides the body. */
export interface SseOptions {
  /** The API key, scrubbed from any in-stream error message. */
  secret: string | undefined;
  /** Touched on every network read. */
  watchdog: Watchdog;
  /** Guard against a server that never sends a line break; default 16 MiB of buffered text. */
  maxBufferSize?: number;
}

/** A body we can read as text chunks (ResponseBody, or bytes from anywhere else). */
export type TextBody = AsyncIterable<string | Uint8Array>;

/**
 * Parses one data event's JSON; throws an ApiError for data that is not JSON or for an object with
 * a top-level `error` (the older backend's in-stream error). The stream driver calls it per event,
 * lazily, so the first token is handed over before the rest of its network read is parsed.
 */
export function parseDataEvent(data: string, secret: string | undefined): unknown {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (cause) {
    throw new ApiError('malformedResponse', `The stream carried data that is not JSON: ${data.slice(0, 80)}`, { cause });
  }
  if (typeof value === 'object' && value !== null && 'error' in value && (value as { error: unknown }).error != null) {
    throw errorFromStreamEvent(data, secret);
  }
  return value;
}

/**
 * Reads an SSE body and yields, per network read, the data of its chunk events (never an empty
 * batch; parse each with parseDataEvent). Ends after `[DONE]` or at the end of the body; throws an
 * ApiError for an `error`/`error_event` event, after yielding the events that preceded it. Used by
 * the chat, audio reasoning and transcription streams.
 */
export async function* readSse(body: TextBody, options: SseOptions): AsyncGenerator<string[], void, undefined> {
  let batch: string[] = [];
  let done = false;
  let failure: ApiError | undefined;
  const parser = createParser({
    maxBufferSize: options.maxBufferSize ?? 16 * 1024 * 1024,
    onEvent(event) {
      if (done || failure !== undefined) return;
      const data = event.data;
      if (event.event === 'error' || event.event === 'error_event') {
        failure = errorFromStreamEvent(data, options.secret);
        return;
      }
      // Other named events (pings, a future event type) are not chunks; the official SDKs skip them too.
      if (event.event !== undefined && event.event !== 'message') return;
      // Both SDKs stop at any data starting with [DONE].
      if (data.startsWith('[DONE]')) {
        done = true;
        return;
      }
      batch.push(data);
    },
    onError(error) {
      // Unknown fields are ignorable; only an endless line is fatal.
      if (error.type === 'max-buffer-size-exceeded') {
        failure = new ApiError('malformedResponse', 'The stream sent an event larger than the client accepts');
      }
    },
  });
  const decoder = new TextDecoder();
  const { watchdog } = options;
  let yielded = false;
  for await (const chunk of body) {
    watchdog.touch();
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    // Until the first events are out, feed a large read in slices: the first token should not
    // wait for the whole read (64 KiB, a few hundred events) to be split into events.
    const step = yielded ? text.length : FIRST_SLICE;
    for (let at = 0; at < text.length; at += step) {
      parser.feed(step >= text.length ? text : text.slice(at, at + step));
      if (batch.length > 0) {
        const out = batch;
        batch = [];
        yielded = true;
        yield out;
      }
      if (failure !== undefined) throw failure;
      if (done) return;
    }
  }
  // A last event without its blank line still counts (the body ended cleanly): end its line and the event.
  parser.feed('\n\n');
  if (batch.length > 0) yield batch;
  if (failure !== undefined) throw failure;
}
