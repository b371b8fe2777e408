// Pure units of the retry policy: header parsing (every form the brief names), back-off bounds,
// the abortable sleep and the shared gate.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import {
  abortableSleep,
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  isRetryable,
  parseDurationMs,
  RateLimitGate,
  rateLimitResetMs,
  serverRetryDelayMs,
} from '../../../src/core/api/retry';

const headers =
  (record: Record<string, string>) =>
  (name: string): string | undefined =>
    record[name];

describe('api/retry: durations and headers', () => {
  it('parses plain seconds and Go-style durations', () => {
    assert.equal(parseDurationMs('2'), 2000);
    assert.equal(parseDurationMs('1.5'), 1500);
    assert.equal(parseDurationMs('1s'), 1000);
    assert.equal(parseDurationMs('1.5s'), 1500);
    assert.equal(parseDurationMs('250ms'), 250);
    assert.equal(parseDurationMs('4h17m'), (4 * 3600 + 17 * 60) * 1000);
    assert.equal(parseDurationMs('1m30s'), 90_000);
    assert.equal(parseDurationMs('1h0m0.5s'), 3_600_500);
    assert.equal(parseDurationMs(' 3 '), 3000);
  });

  it('refuses what is not a duration', () => {
    for (const bad of ['', 'soon', '1x', '-1', '1s later', 'ms']) assert.equal(parseDurationMs(bad), undefined, bad);
  });

  it('prefers retry-after-ms, then retry-after, then the rate-limit reset', () => {
    assert.equal(serverRetryDelayMs(headers({ 'retry-after-ms': '120', 'retry-after': '5' }), 429), 120);
    assert.equal(serverRetryDelayMs(headers({ 'retry-after': '5', 'x-ratelimit-reset-requests': '1s' }), 429), 5000);
    assert.equal(serverRetryDelayMs(headers({ 'x-ratelimit-reset-requests': '250ms', 'x-ratelimit-remaining-requests': '0' }), 429), 250);
    assert.equal(serverRetryDelayMs(headers({}), 429), undefined);
  });

  it('reads retry-after as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    assert.equal(serverRetryDelayMs(headers({ 'retry-after': 'Sat, 21 Nov 2026 10:00:03 GMT' }), 503, now), 3000);
    assert.equal(serverRetryDelayMs(headers({ 'retry-after': 'Sat, 21 Nov 2026 09:00:00 GMT' }), 503, now), 0);
  });

  it('ignores rate-limit resets on answers that were not rate limited', () => {
    // The service puts these headers on every response; a 503 must not wait a minute for them.
    assert.equal(serverRetryDelayMs(headers({ 'x-ratelimit-reset-requests': '60', 'x-ratelimit-remaining-requests': '0' }), 503), undefined);
  });

  it('takes the reset of the bucket that ran out, not the day bucket with requests left', () => {
    const h = headers({
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '1s',
      'x-ratelimit-remaining-requests-day': '4000',
      'x-ratelimit-reset-requests-day': '4h17m',
    });
    assert.equal(rateLimitResetMs(h), 1000);
    const dayGone = headers({ 'x-ratelimit-remaining-requests-day': '0', 'x-ratelimit-reset-requests-day': '4h17m' });
    assert.equal(rateLimitResetMs(dayGone), 15_420_000);
  });

  it('reads a reset that is a Unix time as an instant', () => {
    const now = 1_800_000_000_000;
    assert.equal(rateLimitResetMs(headers({ 'x-ratelimit-reset-requests': String(now / 1000 + 2) }), now), 2000);
  });
});

describe('api/retry: policy', () => {
  it('retries 408, 429 and 5xx, never 400, 401 or 404', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) assert.ok(isRetryable(new ApiError('server', 'x', { status })), String(status));
    for (const status of [400, 401, 403, 404, 413]) assert.ok(!isRetryable(new ApiError('badRequest', 'x', { status })), String(status));
    assert.ok(isRetryable(new ApiError('network', 'reset')));
    assert.ok(isRetryable(new ApiError('timeout', 'slow')));
    assert.ok(!isRetryable(new ApiError('canceled', 'stop')));
    assert.ok(!isRetryable(new ApiError('invalid', 'bad')));
  });

  it('obeys x-should-retry over the status: true forces a retry, false forbids one', () => {
    assert.ok(isRetryable(new ApiError('badRequest', 'x', { status: 400, shouldRetry: true })));
    assert.ok(!isRetryable(new ApiError('server', 'x', { status: 503, shouldRetry: false })));
    assert.ok(!isRetryable(new ApiError('rateLimited', 'x', { status: 429, shouldRetry: false })));
    // A missing capability stays missing whatever the header says.
    assert.ok(!isRetryable(new ApiError('unsupported', 'x', { status: 404, shouldRetry: true })));
  });

  it('keeps full-jitter back-off within its doubling ceiling', () => {
    assert.equal(
      backoffDelayMs(0, DEFAULT_RETRY_POLICY, () => 0.999999),
      499,
    );
    assert.equal(
      backoffDelayMs(1, DEFAULT_RETRY_POLICY, () => 0.999999),
      999,
    );
    assert.equal(
      backoffDelayMs(10, DEFAULT_RETRY_POLICY, () => 0.999999),
      DEFAULT_RETRY_POLICY.maxDelayMs - 1,
    );
    assert.equal(
      backoffDelayMs(3, DEFAULT_RETRY_POLICY, () => 0),
      0,
    );
  });

  it('cancels a back-off sleep at once', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(10_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(sleeping, (e: unknown) => ApiError.is(e, 'canceled'));
    assert.ok(Date.now() - started < 1000);
  });

  it('makes every waiter share one pause', async () => {
    const gate = new RateLimitGate();
    gate.pause(120);
    const started = Date.now();
    await Promise.all([gate.wait(undefined), gate.wait(undefined)]);
    assert.ok(Date.now() - started >= 100, 'waited for the pause');
    assert.equal(gate.remainingMs(), 0);
    const controller = new AbortController();
    gate.pause(5000);
    const waiting = gate.wait(controller.signal);
    controller.abort();
    await assert.rejects(waiting, (e: unknown) => ApiError.is(e, 'canceled'));
  });
});
