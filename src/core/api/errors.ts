// One typed error for everything the service client can fail with, and the reading of every error
// body the real service sends (docs/service.md#error-bodies): the GeneralError object envelope, the
// SimpleError `{"error": "text"}`, and text/plain bodies (5xx, and 400 "Invalid request body").
import { isRecord } from '../../shared/jsonObject';

/** Why a request failed; callers branch on this, never on message text. */
export type ApiErrorReason =
  | 'auth'
  | 'notFound'
  | 'badRequest'
  /** Rejected by the client's own validation; nothing was sent. */
  | 'invalid'
  | 'contextTooLong'
  | 'tooLarge'
  | 'rateLimited'
  | 'timeout'
  | 'server'
  | 'network'
  | 'canceled'
  | 'modelNotCompatible'
  /** The server does not offer this operation (a self-hosted server without audio, for instance). */
  | 'unsupported'
  | 'malformedResponse';

/** What an `unsupported` error says the server lacks: an operation of the API, or an input kind the server named. */
export type MissingFeature =
  | 'chatCompletions'
  | 'embeddings'
  | 'audioTranscription'
  | 'audioTranslation'
  | 'audioReasoning'
  | 'modelListing'
  | 'modelProperties'
  | 'imageInput'
  | 'audioInput';

/** Everything an ApiError can carry besides its reason and message. */
export interface ApiErrorDetails {
  status?: number | undefined;
  code?: string | undefined;
  param?: string | undefined;
  requestId?: string | undefined;
  serverMessage?: string | undefined;
  retryAfterMs?: number | undefined;
  /** The server's `x-should-retry` header: true forces a retry, false forbids one (the official clients obey it). */
  shouldRetry?: boolean | undefined;
  /** For an `unsupported` answer: what the server does not offer, when known (the host words it in the user's language). */
  missing?: MissingFeature | undefined;
  cause?: unknown;
}

/** The one error type of the service client. Its message never contains the API key. */
export class ApiError extends Error {
  readonly reason: ApiErrorReason;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly serverMessage: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly shouldRetry: boolean | undefined;
  readonly missing: MissingFeature | undefined;

  constructor(reason: ApiErrorReason, message: string, details: ApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ApiError';
    this.reason = reason;
    this.status = details.status;
    this.code = details.code;
    this.param = details.param;
    this.requestId = details.requestId;
    this.serverMessage = details.serverMessage;
    this.retryAfterMs = details.retryAfterMs;
    this.shouldRetry = details.shouldRetry;
    this.missing = details.missing;
  }

  /** Type guard for callers (chat router, index builder): is `value` an ApiError, optionally of `reason`? */
  static is(value: unknown, reason?: ApiErrorReason): value is ApiError {
    return value instanceof ApiError && (reason === undefined || value.reason === reason);
  }
}

/** A client-side validation failure: reason `invalid`, `param` names the offending parameter. */
export class ValidationError extends ApiError {
  constructor(param: string, message: string) {
    super('invalid', message, { param });
    this.name = 'ValidationError';
  }
}

/** The fields read from any of the service's error envelopes. */
export interface ErrorBodyFields {
  message: string | undefined;
  type: string | undefined;
  code: string | undefined;
  param: string | undefined;
  requestId: string | undefined;
  /** True when the body was a JSON error envelope (object or string form). */
  structured: boolean;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Reads an error body of any shape; used by the HTTP layer (status errors) and the SSE layer (in-stream errors). */
export function readErrorBody(text: string, contentType: string | undefined): ErrorBodyFields {
  const fields: ErrorBodyFields = { message: undefined, type: undefined, code: undefined, param: undefined, requestId: undefined, structured: false };
  const trimmed = text.trim();
  const looksJson = trimmed.startsWith('{') || (contentType?.includes('json') ?? false);
  if (looksJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    if (isRecord(parsed)) {
      return { ...fields, ...readErrorObject(parsed) };
    }
  }
  // text/plain (the real 500/503 and "Invalid request body: ..." 400s), or an HTML page from a proxy.
  fields.message = trimmed === '' ? undefined : trimmed.slice(0, 1000);
  return fields;
}

/** Reads an already-parsed error envelope (`{error: {...}}` or `{error: "text"}`). */
function readErrorObject(body: Record<string, unknown>): ErrorBodyFields {
  const error = body['error'];
  const requestId = str(body['request_id']);
  if (typeof error === 'string') {
    return { message: error, type: undefined, code: undefined, param: undefined, requestId, structured: true };
  }
  if (isRecord(error)) {
    return { message: str(error['message']), type: str(error['type']), code: str(error['code']), param: str(error['param']), requestId, structured: true };
  }
  // Not an envelope we know (e.g. FastAPI's {"detail": "..."}); keep a message if there is one.
  return { message: str(body['message']) ?? str(body['detail']), type: undefined, code: undefined, param: undefined, requestId, structured: false };
}

// Codes that mean "the input is too long for the model". The first is the service's documented
// code; the second is what llama.cpp-style self-hosted servers put in `type`.
const CONTEXT_CODES = new Set(['context_length_exceeded', 'exceed_context_size_error']);
const TOO_LARGE_CODES = new Set(['request_too_large', 'file_too_large', 'payload_too_large']);
// The service never documented a code for an over-long prompt from some backends (the message text
// is not documented, docs/service.md#not-known). Only when there is NO code at all do we fall back on the
// OpenAI-style wording; this is the single place the client looks at message text.
const CONTEXT_MESSAGE = /maximum context length|context length exceeded|context window/i;
// llama-server without a multimodal projector answers an image part with 500 server_error "image input
// is not supported - hint: ... mmproj" (docs/testing.md#self-hosted-servers-llama-server-differences). That is a missing
// capability, not a failing server: taken for a 5xx it would be retried and reported as a crash. The
// body has no code to go by, so, as with CONTEXT_MESSAGE, this is read from the text.
const MISSING_INPUT_MESSAGE = /\b(image|audio) input is not supported\b/i;

/** What a request to `path` does, for an `unsupported` error. */
const OPERATIONS: Readonly<Record<string, MissingFeature>> = {
  '/v1/chat/completions': 'chatCompletions',
  '/v1/embeddings': 'embeddings',
  '/v1/audio/transcriptions': 'audioTranscription',
  '/v1/audio/translations': 'audioTranslation',
  '/v1/audio/reasoning': 'audioReasoning',
  '/v1/models': 'modelListing',
  '/props': 'modelProperties',
};

/** A missing feature in words, for the (English) message of an `unsupported` error. */
const FEATURE_WORDS: Readonly<Record<MissingFeature, string>> = {
  chatCompletions: 'chat completions',
  embeddings: 'embeddings',
  audioTranscription: 'audio transcription',
  audioTranslation: 'audio translation',
  audioReasoning: 'audio reasoning',
  modelListing: 'a model listing',
  modelProperties: "the server's model properties",
  imageInput: 'image input',
  audioInput: 'audio input',
};

/** Maps an HTTP status and the body's fields to a reason; used for every non-2xx answer. */
export function reasonFor(status: number, fields: ErrorBodyFields, kind: 'operation' | 'modelLookup'): ApiErrorReason {
  const code = fields.code ?? fields.type;
  if (code !== undefined && CONTEXT_CODES.has(code)) return 'contextTooLong';
  if (fields.code === 'model_not_compatible') return 'modelNotCompatible';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status === 413 || (code !== undefined && TOO_LARGE_CODES.has(code))) return 'tooLarge';
  if (status === 429) return 'rateLimited';
  // The service's unknown-model answer: 404 (current) or 400 (older docs) with code model_not_found.
  if (fields.code === 'model_not_found' || fields.code === 'model_deprecated') return 'notFound';
  if (status === 404 || status === 410) {
    // On a model lookup a 404 is "no such model". On an operation, an unknown model always names
    // itself (code or param "model", above); a bare 404 there means the server lacks the route.
    if (kind === 'modelLookup' || fields.param === 'model' || status === 410) return 'notFound';
    return 'unsupported';
  }
  if (status === 405 || status === 501) return 'unsupported';
  if (status === 500 && fields.code === undefined && fields.message !== undefined && MISSING_INPUT_MESSAGE.test(fields.message)) return 'unsupported';
  if (status >= 500) return 'server';
  if (status === 400 || status === 422) {
    if (fields.code === undefined && fields.message !== undefined && CONTEXT_MESSAGE.test(fields.message)) return 'contextTooLong';
    return 'badRequest';
  }
  return status >= 400 ? 'badRequest' : 'malformedResponse';
}

/** Removes every occurrence of `secret` from `text`, so no message or log can carry the API key. */
export function redact(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}

const SUMMARY: Record<ApiErrorReason, string> = {
  auth: 'The service rejected the API key',
  notFound: 'The model was not found',
  badRequest: 'The service rejected the request',
  invalid: 'The request is invalid',
  contextTooLong: 'The input is too long for the model',
  tooLarge: 'The upload is too large',
  rateLimited: 'The service is rate limiting requests',
  timeout: 'The request timed out',
  server: 'The service failed',
  network: 'The connection to the service failed',
  canceled: 'The request was canceled',
  modelNotCompatible: 'The model does not support this operation',
  unsupported: 'The server does not offer this operation',
  malformedResponse: 'The service sent a response the client cannot read',
};

/**
 * What an `unsupported` answer says the server lacks: an input kind the server named ("image input"),
 * else the operation of `path` ("audio translation"); undefined when neither is known.
 */
function missingFeature(path: string | undefined, serverMessage: string | undefined): MissingFeature | undefined {
  const input = serverMessage === undefined ? null : MISSING_INPUT_MESSAGE.exec(serverMessage);
  if (input !== null) return (input[1] ?? '').toLowerCase() === 'audio' ? 'audioInput' : 'imageInput';
  return path === undefined ? undefined : OPERATIONS[path.split('?')[0] ?? ''];
}

/**
 * Builds the ApiError for a non-2xx answer; `secret` is removed from every text it carries. `path`
 * (the request's) lets an `unsupported` error name what the server does not offer.
 */
export function errorFromResponse(
  status: number,
  bodyText: string,
  contentType: string | undefined,
  headerRequestId: string | undefined,
  kind: 'operation' | 'modelLookup',
  secret: string | undefined,
  retryAfterMs?: number,
  path?: string,
  shouldRetry?: boolean,
): ApiError {
  const fields = readErrorBody(bodyText, contentType);
  const reason = reasonFor(status, fields, kind);
  const serverMessage = fields.message === undefined ? undefined : redact(fields.message, secret);
  // A self-hosted server (llama-server, say) lacks routes the service has: say which, not just "not found".
  const missing = reason === 'unsupported' ? missingFeature(path, serverMessage) : undefined;
  const summary = missing === undefined ? SUMMARY[reason] : `This server does not offer ${FEATURE_WORDS[missing]}`;
  const message = `${summary} (HTTP ${status}${fields.code === undefined ? '' : `, ${fields.code}`}${missing !== undefined && path !== undefined ? ` from ${path}` : ''})${serverMessage === undefined ? '' : `: ${serverMessage}`}`;
  return new ApiError(reason, message, {
    status,
    code: fields.code,
    param: fields.param,
    requestId: fields.requestId ?? headerRequestId,
    serverMessage,
    retryAfterMs,
    shouldRetry,
    missing,
  });
}

// Codes and types of a mid-stream error that say more than "the server failed". The service documents
// insufficient_quota and queue_full as its 429 codes (docs/service.md#error-codes).
const RATE_LIMIT_CODES = new Set(['insufficient_quota', 'queue_full', 'rate_limit_exceeded']);
const AUTH_CODES = new Set(['invalid_api_key']);

/**
 * The reason of an error that arrived inside a 200 stream. Such an event has no HTTP status, and only
 * `message`, `type`, `code` and `param` are known to be sent (docs/service.md#errors-inside-a-stream), so the reason
 * comes from the code and type alone; anything unrecognised is a server failure.
 */
function streamErrorReason(fields: ErrorBodyFields): ApiErrorReason {
  const { code, type } = fields;
  if (code !== undefined && CONTEXT_CODES.has(code)) return 'contextTooLong';
  if (type !== undefined && CONTEXT_CODES.has(type)) return 'contextTooLong';
  if (code === 'model_not_compatible') return 'modelNotCompatible';
  if (code === 'model_not_found' || code === 'model_deprecated') return 'notFound';
  if ((code !== undefined && RATE_LIMIT_CODES.has(code)) || type === 'rate_limit_error') return 'rateLimited';
  if ((code !== undefined && AUTH_CODES.has(code)) || type === 'authentication_error') return 'auth';
  if (code !== undefined && TOO_LARGE_CODES.has(code)) return 'tooLarge';
  if (type === 'invalid_request_error') return 'badRequest';
  return 'server';
}

/** Builds the ApiError for an error event inside a 200 stream (`event: error`, `error_event`, or a data object with `error`). */
export function errorFromStreamEvent(data: string, secret: string | undefined): ApiError {
  const fields = readErrorBody(data, 'application/json');
  const reason = streamErrorReason(fields);
  const serverMessage = fields.message === undefined ? undefined : redact(fields.message, secret);
  return new ApiError(
    reason,
    `${SUMMARY[reason]} mid-stream${fields.code === undefined ? '' : ` (${fields.code})`}${serverMessage === undefined ? '' : `: ${serverMessage}`}`,
    {
      code: fields.code,
      param: fields.param,
      requestId: fields.requestId,
      serverMessage,
    },
  );
}
