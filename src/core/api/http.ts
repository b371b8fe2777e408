// One HTTP exchange with the service, and the retry loop around it: the key and user agent on every
// request, the connect/first-byte watchdog, cancellation that closes the socket, non-2xx answers
// turned into ApiErrors, and back-off through the per-model rate-limit gates.
import { performance } from 'node:perf_hooks';
import { type Dispatcher } from 'undici';
import { ResponseBody } from './body';
import { type Logger } from '../logger';
import { roleOfPath, type EndpointRole, type Endpoints } from './endpoints';
import { ApiError, errorFromResponse, redact } from './errors';
import {
  abortableSleep,
  backoffDelayMs,
  canceledError,
  isRetryable,
  serverRetryDelayMs,
  shouldRetryHeader,
  type RetryPolicy,
  type RateLimitGates,
} from './retry';
import { type RetryInfo } from './types';

/** What is read of an error body: enough for its JSON fields and message, never the whole of a huge one. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
/**
 * The largest non-streamed reply read (JSON, transcripts): the biggest real one, a batch of 4,096-wide
 * embeddings, is a few megabytes.
 */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** Where and how the client talks to the service; built once by InferenceClient. */
export interface HttpSettings {
  /** Where each operation goes, with its key (endpoints.ts). */
  endpoints: Endpoints;
  /** Connect + first byte (response headers). */
  timeoutMs: number;
  retry: RetryPolicy;
  gate: RateLimitGates;
  dispatcher: Dispatcher;
  logger: Logger;
  userAgent: string;
}

/** One request to send. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path below the base URL, starting with /v1. */
  path: string;
  /** Chat completions may go to the alternative host (service spec: {alt_base_url}). */
  host?: 'chat' | 'default';
  /** Send to this endpoint rather than the one the path belongs to (model listings of each server). */
  endpoint?: EndpointRole;
  body?: string | Uint8Array;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal | undefined;
  /** A 404 on a model lookup means "no such model"; on an operation it may mean "no such route". */
  kind?: 'operation' | 'modelLookup';
  /** The model a request is for: rate limits, and so back-off pauses, are per model. */
  rateLimitKey?: string | undefined;
  /** Told before each retry (the chat panel shows "retrying in N s"). */
  onRetry?: ((info: RetryInfo) => void) | undefined;
}

/** A response whose status is 2xx, with its body still unread. */
export interface OpenResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: ResponseBody;
  /** performance.now() when the attempt started (before the gate). */
  startedAt: number;
  /** performance.now() when the headers arrived. */
  headersAt: number;
  /** The key used, so later errors can be scrubbed of it. */
  secret: string | undefined;
  /** Aborts the request (and closes its socket) with `error` as the reason. */
  fail(error: ApiError): void;
  /** Aborted when the caller cancels or a watchdog fires; its reason is the ApiError to raise. */
  signal: AbortSignal;
  /** Drops the caller-signal listener; call once the body is done with. */
  release(): void;
}

/** Reads one header as a single string. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Turns whatever undici threw into an ApiError: our own abort reasons pass through, socket failures become `network`. */
export function toApiError(error: unknown, signal: AbortSignal, secret: string | undefined): ApiError {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return ApiError.is(reason) ? reason : canceledError(reason);
  }
  if (ApiError.is(error)) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
  const text = error instanceof Error ? error.message : String(error);
  return new ApiError('network', `The connection to the service failed${code === undefined ? '' : ` (${code})`}: ${redact(text, secret)}`, {
    code,
    cause: error,
  });
}

/** Sends requests for InferenceClient and the per-operation modules. */
export class HttpCore {
  constructor(private readonly settings: HttpSettings) {}

  get logger(): Logger {
    return this.settings.logger;
  }

  /** The endpoint a request goes to: explicit, the chat host, or the one its path belongs to. */
  private endpointOf(req: HttpRequest): Endpoints[EndpointRole] {
    const role = req.endpoint ?? (req.host === 'chat' ? 'chat' : roleOfPath(req.path));
    return this.settings.endpoints[role];
  }

  /** One attempt: waits for the gate, sends, and resolves with a 2xx response or rejects with an ApiError. */
  async open(req: HttpRequest): Promise<OpenResponse> {
    const { settings } = this;
    const startedAt = performance.now();
    await settings.gate.for(req.rateLimitKey).wait(req.signal);
    const endpoint = this.endpointOf(req);
    // Resolved anew per request, so a key set or cleared in the host applies at once.
    const secret = await endpoint.key();
    const controller = new AbortController();
    const onCallerAbort = (): void => controller.abort(canceledError());
    if (req.signal?.aborted === true) throw canceledError();
    req.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const release = (): void => req.signal?.removeEventListener('abort', onCallerAbort);
    const fail = (error: ApiError): void => {
      if (!controller.signal.aborted) controller.abort(error);
    };
    const firstByte = setTimeout(() => fail(new ApiError('timeout', `The service did not answer within ${settings.timeoutMs} ms`)), settings.timeoutMs);
    const base = endpoint.baseUrl;
    const headers: Record<string, string> = { 'user-agent': settings.userAgent, accept: req.accept ?? 'application/json' };
    if (secret !== undefined) headers['authorization'] = `Bearer ${secret}`;
    if (req.contentType !== undefined) headers['content-type'] = req.contentType;
    const url = new URL(base + req.path);
    const body = new ResponseBody();
    try {
      const response = await new Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
        let dispatchController: Dispatcher.DispatchController | undefined;
        // An abort (caller, watchdog) reaches the exchange through its controller, which closes the socket.
        const onAbort = (): void => {
          const reason = controller.signal.reason instanceof Error ? controller.signal.reason : canceledError();
          if (dispatchController !== undefined) dispatchController.abort(reason);
          else reject(reason);
          body.fail(reason);
        };
        controller.signal.addEventListener('abort', onAbort, { once: true });
        settings.dispatcher.dispatch(
          { origin: url.origin, path: url.pathname + url.search, method: req.method, headers, body: req.body ?? null },
          {
            onRequestStart(ctl) {
              dispatchController = ctl;
              if (controller.signal.aborted) ctl.abort(controller.signal.reason instanceof Error ? controller.signal.reason : canceledError());
            },
            onResponseStart(ctl, statusCode, responseHeaders) {
              body.attach(ctl);
              resolve({ statusCode, headers: responseHeaders });
            },
            onResponseData(_ctl, chunk) {
              body.push(chunk);
            },
            onResponseEnd() {
              controller.signal.removeEventListener('abort', onAbort);
              body.end();
            },
            onResponseError(_ctl, error) {
              controller.signal.removeEventListener('abort', onAbort);
              body.fail(error);
              reject(error);
            },
          },
        );
      });
      const headersAt = performance.now();
      if (response.statusCode >= 200 && response.statusCode < 300) {
        clearTimeout(firstByte);
        settings.logger.debug(`${req.method} ${req.path} -> ${response.statusCode} in ${Math.round(headersAt - startedAt)} ms`);
        return { status: response.statusCode, headers: response.headers, body, startedAt, headersAt, secret, fail, signal: controller.signal, release };
      }
      // The watchdog stays armed while the error body is read; only its head matters (the message keeps
      // a thousand characters), so a huge or endless one is cut and its connection closed.
      const { text } = await body.textUpTo(MAX_ERROR_BODY_BYTES);
      clearTimeout(firstByte);
      release();
      const lookup = (name: string): string | undefined => headerValue(response.headers, name);
      const error = errorFromResponse(
        response.statusCode,
        text,
        lookup('content-type'),
        lookup('x-request-id'),
        req.kind ?? 'operation',
        secret,
        serverRetryDelayMs(lookup, response.statusCode),
        req.path,
        shouldRetryHeader(lookup),
      );
      settings.logger.debug(`${req.method} ${req.path} -> ${response.statusCode} ${error.code ?? ''} in ${Math.round(headersAt - startedAt)} ms`);
      throw error;
    } catch (error) {
      clearTimeout(firstByte);
      release();
      throw toApiError(error, controller.signal, secret);
    }
  }

  /**
   * Decides what to do after attempt `attempt` (0-based) failed with `error`: resolves after the
   * back-off when it should be retried, or rethrows. A server wait beyond the cap fails at once
   * with `retryAfterMs` set; a 429's wait pauses every request for the same model through its gate.
   */
  async backOff(error: ApiError, attempt: number, req: HttpRequest): Promise<void> {
    const { retry, gate, logger } = this.settings;
    if (!isRetryable(error)) throw error;
    const hinted = error.retryAfterMs;
    if (hinted !== undefined && hinted > retry.maxServerDelayMs) {
      throw new ApiError('rateLimited', `The service asks to wait ${Math.ceil(hinted / 1000)} s before retrying`, {
        status: error.status,
        code: error.code,
        requestId: error.requestId,
        serverMessage: error.serverMessage,
        retryAfterMs: hinted,
        cause: error,
      });
    }
    if (attempt >= retry.maxRetries) throw error;
    const delay = hinted ?? backoffDelayMs(attempt, retry);
    if (error.reason === 'rateLimited' || hinted !== undefined) gate.for(req.rateLimitKey).pause(delay);
    req.onRetry?.({ attempt: attempt + 1, delayMs: delay, error });
    logger.debug(
      `retrying after ${error.reason}${error.status === undefined ? '' : ` (HTTP ${error.status})`} in ${delay} ms (attempt ${attempt + 2} of ${retry.maxRetries + 1})`,
    );
    // With the gate paused the wait happens in open(); otherwise sleep here.
    if (error.reason !== 'rateLimited' && hinted === undefined) await abortableSleep(delay, req.signal);
  }

  /** Sends with retries and reads the whole body as text; used by every non-streamed operation. */
  async fetchText(
    req: HttpRequest,
  ): Promise<{ text: string; contentType: string | undefined; startedAt: number; headersAt: number; endedAt: number; secret: string | undefined }> {
    let firstStart: number | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.open(req);
        firstStart ??= response.startedAt;
        // A 2xx body that stops arriving would otherwise hang for ever (undici's bodyTimeout is off).
        const bodyWatchdog = setTimeout(
          () => response.fail(new ApiError('timeout', `The service stopped sending the answer for ${this.settings.timeoutMs} ms`)),
          this.settings.timeoutMs,
        );
        try {
          const { text, cut } = await response.body.textUpTo(MAX_REPLY_BYTES);
          if (cut)
            throw new ApiError(
              'malformedResponse',
              `The service's answer is larger than ${MAX_REPLY_BYTES / 1048576} MB, more than any reply of this API; it was not read.`,
            );
          return {
            text,
            contentType: headerValue(response.headers, 'content-type'),
            startedAt: firstStart,
            headersAt: response.headersAt,
            endedAt: performance.now(),
            secret: response.secret,
          };
        } catch (error) {
          throw toApiError(error, response.signal, response.secret);
        } finally {
          clearTimeout(bodyWatchdog);
          response.release();
        }
      } catch (error) {
        const apiError = ApiError.is(error) ? error : toApiError(error, new AbortController().signal, undefined);
        await this.backOff(apiError, attempt, req);
      }
    }
  }

  /** Like fetchText, then parses JSON; a body that is not JSON is a malformedResponse. */
  async fetchJson(req: HttpRequest): Promise<{ value: unknown; startedAt: number; headersAt: number; endedAt: number; secret: string | undefined }> {
    const result = await this.fetchText(req);
    try {
      return {
        value: JSON.parse(result.text) as unknown,
        startedAt: result.startedAt,
        headersAt: result.headersAt,
        endedAt: result.endedAt,
        secret: result.secret,
      };
    } catch (cause) {
      throw new ApiError('malformedResponse', `The service sent a body that is not JSON for ${req.path}`, { cause });
    }
  }
}
