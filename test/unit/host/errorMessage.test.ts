// A service error's message in the user's language (src/host/service/errorMessage.ts), with a translator that
// marks each text it translates: every reason is worded by the host, the service's own words stay verbatim, and
// with English shown the message is core's, exactly.
import * as assert from 'node:assert/strict';
import { ApiError, errorFromResponse, errorFromStreamEvent, type ApiErrorReason } from '../../../src/core/api/errors';
import { toApiError } from '../../../src/core/api/http';
import { canceledError } from '../../../src/core/api/retry';
import { errorMessage, type ErrorTexts } from '../../../src/host/service/errorMessage';

/** A "German" that marks what it translated: «summary:auth», «missing:embeddings», «wait:7», «a» — «b». */
const marked: ErrorTexts = {
  translated: true,
  summary: (reason) => `«summary:${reason}»`,
  missing: (feature) => `«missing:${feature}»`,
  wait: (seconds) => `«wait:${seconds}»`,
  withDetail: (text, detail) => `${text} — ${detail}`,
};
const english: ErrorTexts = { ...marked, translated: false };

const reasons: readonly ApiErrorReason[] = [
  'auth',
  'notFound',
  'badRequest',
  'invalid',
  'contextTooLong',
  'tooLarge',
  'rateLimited',
  'timeout',
  'server',
  'network',
  'canceled',
  'modelNotCompatible',
  'unsupported',
  'malformedResponse',
];

describe("errorMessage: a service error in the user's language", function () {
  it('words every reason with its translated summary, for an answer and for an error raised in the client', function () {
    for (const reason of reasons) {
      const answered = new ApiError(reason, `English ${reason} (HTTP 400): the server's words`, { status: 400, serverMessage: "the server's words" });
      const local = new ApiError(reason, `English words of ${reason}`);
      // A cancel says all there is to say: stopped by the user.
      const [fromAnswer, fromClient] =
        reason === 'canceled'
          ? ['«summary:canceled»', '«summary:canceled»']
          : [`«summary:${reason}» (HTTP 400) — the server's words`, `«summary:${reason}» — English words of ${reason}`];
      assert.equal(errorMessage(answered, marked), fromAnswer, reason);
      assert.equal(errorMessage(local, marked), fromClient, reason);
    }
  });

  it("keeps the service's own words verbatim after the status and code (a 401 with its envelope)", function () {
    const error = errorFromResponse(
      401,
      JSON.stringify({ error: { message: 'Invalid API key: «sk-…» is not valid.\n See https://x.example', code: 'invalid_api_key' } }),
      'application/json',
      undefined,
      'operation',
      undefined,
    );
    assert.equal(error.reason, 'auth');
    assert.equal(errorMessage(error, marked), '«summary:auth» (HTTP 401, invalid_api_key) — Invalid API key: «sk-…» is not valid.\n See https://x.example');
  });

  it('names what a server does not offer, and the wait a 429 asks for', function () {
    const unsupported = errorFromResponse(
      501,
      'This server does not support embeddings',
      'text/plain',
      undefined,
      'operation',
      undefined,
      undefined,
      '/v1/embeddings',
    );
    assert.equal(errorMessage(unsupported, marked), '«missing:embeddings» (HTTP 501) — This server does not support embeddings');
    const image = errorFromResponse(
      500,
      JSON.stringify({
        error: { code: 500, message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj', type: 'server_error' },
      }),
      'application/json',
      undefined,
      'operation',
      undefined,
      undefined,
      '/v1/chat/completions',
    );
    assert.match(errorMessage(image, marked), /^«missing:imageInput» \(HTTP 500\) — image input is not supported/);
    // Without a known feature, the reason's summary.
    const bare = errorFromResponse(405, '', undefined, undefined, 'operation', undefined, undefined, '/v1/unknown');
    assert.equal(errorMessage(bare, marked), '«summary:unsupported» (HTTP 405)');
    const limited = errorFromResponse(
      429,
      JSON.stringify({ error: { message: 'Slow down', code: 'queue_full' } }),
      'application/json',
      undefined,
      'operation',
      undefined,
      6200,
    );
    assert.equal(errorMessage(limited, marked), '«wait:7» (HTTP 429, queue_full) — Slow down');
  });

  it("words an error inside a stream by its code, with the service's words", function () {
    const error = errorFromStreamEvent(JSON.stringify({ error: { message: 'Too many requests', code: 'rate_limit_exceeded' } }), undefined);
    assert.equal(errorMessage(error, marked), '«summary:rateLimited» (rate_limit_exceeded) — Too many requests');
  });

  it("keeps the client's specifics (a connection's code, a time-out's milliseconds) as the detail", function () {
    const network = toApiError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }), new AbortController().signal, undefined);
    assert.equal(errorMessage(network, marked), '«summary:network» — The connection to the service failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9');
    const timeout = new ApiError('timeout', 'The service did not answer within 30000 ms');
    assert.equal(errorMessage(timeout, marked), '«summary:timeout» — The service did not answer within 30000 ms');
    assert.equal(errorMessage(canceledError(), marked), '«summary:canceled»');
  });

  it("is core's message unchanged when English is shown", function () {
    const errors = [
      errorFromResponse(
        401,
        JSON.stringify({ error: { message: 'Invalid API key', code: 'invalid_api_key' } }),
        'application/json',
        undefined,
        'operation',
        undefined,
      ),
      errorFromResponse(404, 'File Not Found', 'text/plain', undefined, 'operation', undefined, undefined, '/v1/audio/translations'),
      errorFromResponse(429, '', undefined, undefined, 'operation', undefined, 9000),
      errorFromStreamEvent(JSON.stringify({ error: { message: 'boom' } }), undefined),
      new ApiError('timeout', 'The stream stalled: nothing arrived for 500 ms'),
      new ApiError('canceled', 'Stopped by the user'),
    ];
    for (const error of errors) assert.equal(errorMessage(error, english), error.message);
  });
});
