// Retry policy: which failures are worth another try, how long to wait (exponential back-off with
// full jitter, or what the server asks for in its headers), an abortable sleep, and the shared
// RateLimitGate that makes one 429 pause every request of the client (embedMany's batches too).
import { ApiError, type ApiErrorReason } from './errors';

/** How the client retries; defaults follow the official SDKs (2 retries). */
export interface RetryPolicy {
  maxRetries: number;
  /** First back-off ceiling; doubles per attempt. */
  baseDelayMs: number;
  /** Largest computed back-off (server hints may ask for more, up to maxServerDelayMs). */
  maxDelayMs: number;
  /** A server asking us to wait longer than this fails at once with rateLimited and retryAfterMs. */
  maxServerDelayMs: number;
}

/** The defaults the client uses when its options say nothing. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000, maxServerDelayMs: 60_000 };

/** Statuses worth retrying (the brief's list; 409 is not one the service sends). */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Which reasons a retry can fix; network and timeout only count before any output reached the caller. */
const RETRY_REASONS = new Set<ApiErrorReason>(['rateLimited', 'server', 'network', 'timeout']);

/**
 * Called by the request loop: may `error` be retried? The server's `x-should-retry` decides when it
 * sent one, as in the official clients; otherwise never 400/401/404, and never a cancel.
 */
export function isRetryable(error: ApiError): boolean {
  // A missing capability stays missing, whatever the status (llama-server says so with a 500).
  if (error.reason === 'unsupported' || error.reason === 'canceled' || error.reason === 'invalid') return false;
  if (error.shouldRetry !== undefined) return error.shouldRetry;
  if (error.status !== undefined) return RETRY_STATUSES.has(error.status);
  return RETRY_REASONS.has(error.reason);
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };

/**
 * Parses a rate-limit duration into milliseconds: plain seconds ("2", "1.5") or a Go-style duration
 * ("4h17m", "250ms", "1m30s", "1.5s"). Used for the x-ratelimit-reset-* headers; undefined if unreadable.
 */
export function parseDurationMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/y;
  let total = 0;
  let consumed = 0;
  for (let match = re.exec(trimmed); match !== null; match = re.exec(trimmed)) {
    total += Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? Number.NaN);
    consumed = re.lastIndex;
  }
  return consumed === trimmed.length && Number.isFinite(total) ? Math.round(total) : undefined;
}

/** Minimal header access, so both undici's header records and tests' plain objects fit. */
export type HeaderLookup = (name: string) => string | undefined;

/** Reads `x-should-retry`: true or false when the server sent one of those words, else undefined. */
export function shouldRetryHeader(header: HeaderLookup): boolean | undefined {
  const value = header('x-should-retry')?.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/**
 * How long the server asks us to wait, in ms, from `retry-after-ms`, `retry-after` (seconds or an
 * HTTP date) and, on a 429, the `x-ratelimit-reset-*` headers; undefined when it says nothing.
 * Called on every failed response. The reset headers ride on every response of the service, so
 * they only count when the request was actually rate limited.
 */
export function serverRetryDelayMs(header: HeaderLookup, status: number, now: number = Date.now()): number | undefined {
  const ms = header('retry-after-ms');
  if (ms !== undefined) {
    const value = Number(ms);
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = header('retry-after');
  if (after !== undefined) {
    const seconds = Number(after);
    if (after.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return status === 429 ? rateLimitResetMs(header, now) : undefined;
}

// The service documents these buckets (docs/service.md#rate-limit-headers); "-tokens" is OpenAI's and harmless.
const BUCKETS = ['requests', 'requests-day', 'tokens', 'tokens-day'];

/**
 * Reads `x-ratelimit-reset-<bucket>` for the buckets that ran out: those whose
 * `x-ratelimit-remaining-<bucket>` is 0 or absent. A bucket with requests left is not what
 * stopped us (the day bucket's hours must not block a request whose minute bucket reopens in a
 * second). Of the exhausted buckets the longest wait wins. A bare number that looks like a Unix
 * time (the service does not document the unit) is taken as an instant.
 */
export function rateLimitResetMs(header: HeaderLookup, now: number = Date.now()): number | undefined {
  let wait: number | undefined;
  for (const bucket of BUCKETS) {
    const reset = header(`x-ratelimit-reset-${bucket}`);
    if (reset === undefined) continue;
    const remaining = header(`x-ratelimit-remaining-${bucket}`);
    if (remaining !== undefined && Number(remaining) > 0) continue;
    const value = resetValueMs(reset, now);
    if (value !== undefined) wait = Math.max(wait ?? 0, value);
  }
  return wait;
}

function resetValueMs(text: string, now: number): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const value = Number(trimmed);
    if (value > 1e12) return Math.max(0, value - now);
    if (value > 1e9) return Math.max(0, value * 1000 - now);
  }
  return parseDurationMs(trimmed);
}

/** Full-jitter exponential back-off for attempt 0, 1, 2...: a random wait in [0, min(max, base*2^attempt)]. */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** The canceled error every abort turns into, wherever it happens. */
export function canceledError(cause?: unknown): ApiError {
  return new ApiError('canceled', 'The request was canceled', cause === undefined ? {} : { cause });
}

/** Sleeps `ms`, rejecting at once with a canceled ApiError when `signal` aborts (back-off sleeps must not outlive a cancel). */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(canceledError());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(canceledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A pause shared by every request of one client: when any of them is told to back off (429, 503
 * with retry-after), the others wait too instead of hammering the service. embedMany's batches
 * rely on it.
 */
/**
 * One gate per model: the service's rate limits are per model (docs/service.md#rate-limits-and-retries), so a 429 on
 * the transcription model must not pause chat. Requests without a model share the '' gate.
 */
export class RateLimitGates {
  private readonly gates = new Map<string, RateLimitGate>();

  /** The gate of `key` (a model id), created on first use. */
  for(key: string | undefined): RateLimitGate {
    const name = key ?? '';
    let gate = this.gates.get(name);
    if (gate === undefined) {
      gate = new RateLimitGate();
      this.gates.set(name, gate);
    }
    return gate;
  }
}

export class RateLimitGate {
  private resumeAt = 0;

  /** Extends the pause to at least `ms` from now. */
  pause(ms: number, now: number = Date.now()): void {
    this.resumeAt = Math.max(this.resumeAt, now + ms);
  }

  /** Milliseconds left in the current pause (0 when open). */
  remainingMs(now: number = Date.now()): number {
    return Math.max(0, this.resumeAt - now);
  }

  /** Waits until the gate is open; every attempt of every request calls this before sending. */
  async wait(signal: AbortSignal | undefined): Promise<void> {
    // Loop: another request may extend the pause while we sleep.
    for (let left = this.remainingMs(); left > 0; left = this.remainingMs()) {
      await abortableSleep(left, signal);
    }
    if (signal?.aborted === true) throw canceledError();
  }
}
