// The three error envelopes of the real service (docs/service.md#error-bodies): GeneralError
// (OpenAI-style object plus request_id), SimpleError ({"error": "<string>"}) and plain text.
import { randomBytes } from 'node:crypto';

/** A finished error answer; handlers throw it and the server writes it unchanged. */
export class EmulatorHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly contentType: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`HTTP ${status}: ${body.slice(0, 200)}`);
    this.name = 'EmulatorHttpError';
  }
}

/** An opaque request id; the real ids vary in format (`a4fa849e`, `d79vcq57os633dverhi0`), so any hex will do. */
export function newRequestId(): string {
  return randomBytes(10).toString('hex');
}

/** A GeneralError: `{error:{message,type,param,code},request_id}`. */
export function generalError(
  status: number,
  message: string,
  type: string,
  param: string | null,
  code: string | null,
  headers: Record<string, string> = {},
): EmulatorHttpError {
  const body = JSON.stringify({ error: { message, type, param, code }, request_id: newRequestId() });
  return new EmulatorHttpError(status, body, 'application/json', headers);
}

/** The usual 400: type invalid_request_error. */
export function invalidRequest(message: string, param: string | null, code: string | null): EmulatorHttpError {
  return generalError(400, message, 'invalid_request_error', param, code);
}

/** A SimpleError, whose `error` is a string (404s, 408, "Model name is required"). */
export function simpleError(status: number, message: string): EmulatorHttpError {
  return new EmulatorHttpError(status, JSON.stringify({ error: message }), 'application/json');
}

/** A text/plain error (the real 500 and 503). */
export function plainError(status: number, text: string): EmulatorHttpError {
  return new EmulatorHttpError(status, text, 'text/plain; charset=utf-8');
}

/** 401 when no key was sent (real message, code null). */
export function missingKeyError(): EmulatorHttpError {
  return generalError(
    401,
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    'invalid_request_error',
    null,
    null,
  );
}

/** 401 for a wrong key (real body; the key is masked as the real service does). */
export function wrongKeyError(): EmulatorHttpError {
  return generalError(
    401,
    'Incorrect API key provided: *****. You can find your API key at https://cloud.sambanova.ai/apis.',
    'invalid_request_error',
    null,
    'invalid_api_key',
  );
}

/** 404 for an unknown model on an operation (real body). */
export function modelNotFound(model: string): EmulatorHttpError {
  return generalError(404, `The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model', 'model_not_found');
}

/** 400 for a model that exists but does not serve this operation (the spec's embeddings example, generalised). */
export function modelNotCompatible(model: string, operation: string): EmulatorHttpError {
  return invalidRequest(`The model \`${model}\` is not compatible with ${operation}.`, 'model', 'model_not_compatible');
}

/** The real text for a body that is not JSON. */
export function malformedJsonError(): EmulatorHttpError {
  return invalidRequest(
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. A JSON payload is expected, but what was sent was not valid JSON.)",
    null,
    null,
  );
}

/** Default answer for a `status` fault without a body, shaped as the real service shapes that status. */
export function defaultStatusError(status: number): EmulatorHttpError {
  switch (status) {
    case 400:
      return invalidRequest('Invalid request.', null, null);
    case 401:
      return wrongKeyError();
    case 404:
      return simpleError(404, 'Not found');
    case 408:
      return simpleError(408, 'Request timed out due to server load or latency');
    case 410:
      return simpleError(410, 'Model deprecated');
    case 429:
      return generalError(429, 'Rate limit exceeded. Please try again later.', 'rate_limit_exceeded', null, 'insufficient_quota');
    case 503:
      return plainError(503, 'Service Temporarily Unavailable');
    case 500:
      return plainError(500, 'Internal Server Error');
    default:
      return status >= 500 ? plainError(status, 'Server Error') : simpleError(status, `HTTP ${status}`);
  }
}
