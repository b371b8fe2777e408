// What the host gives InferenceClient: where the service is, the key, time-outs, retries, transport.
import { type Logger } from '../logger';
import { type OperationEndpoint } from './endpoints';
import { type TransportOptions } from './transport';
import { type CapabilityOverrides } from './types';

/** How to reach the service; the host builds this from settings and SecretStorage. */
export interface ClientOptions {
  /** e.g. https://api.sambanova.ai (requests go to /v1/... below it). */
  baseUrl: string;
  /** Alternative host for chat completions; default baseUrl. Same as endpoints.chat.baseUrl. */
  chatBaseUrl?: string;
  /** Per-operation servers and keys (self-hosted stacks); each falls back to baseUrl and apiKey. */
  endpoints?: Partial<Record<'chat' | 'embeddings' | 'audio', OperationEndpoint>>;
  /** The key, or a function asked before every request (so a changed key applies at once). */
  apiKey: string | (() => Promise<string | undefined> | string | undefined);
  /** Connect + first byte (headers), ms; default 60,000. */
  timeoutMs?: number;
  /** From the headers of a stream to its first text or tool call, ms; default timeoutMs. */
  firstTokenTimeoutMs?: number;
  /** Longest pause between two chunks of a stream, ms; default timeoutMs. */
  idleTimeoutMs?: number;
  /** Longest a whole streamed answer may take, ms; default an hour (`DEFAULT_STREAM_TOTAL_MS`). */
  streamTotalMs?: number;
  /** Retries of time-outs, 408, 429 and 5xx; default 2. */
  maxRetries?: number;
  logger?: Logger;
  transport?: TransportOptions;
  capabilities?: CapabilityOverrides;
  userAgent?: string;
}
