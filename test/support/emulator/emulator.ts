// The public face of the service emulator: the types other code (the API client's tests, the
// harness, scripts/emulator.mjs) depends on, and `startEmulator`. Everything else in this folder is
// an implementation detail behind these names.
import { type EmulatorModel } from './models';
import { EmulatorServer } from './server';

export { type EmulatorModel } from './models';

/** How to start an emulator; every field is optional. */
export interface EmulatorOptions {
  /** TCP port; 0 or absent picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1 (loopback only, never exposed). */
  host?: string;
  /** The API key clients must send as `Authorization: Bearer <key>`; default a generated one. */
  key?: string;
  /** Delay before every response's headers. */
  latencyMs?: number;
  /** Delay between two streamed chunks; 0 (default) streams at full speed with batched writes. */
  chunkDelayMs?: number;
  /** How long reasoning models think before answering, unless a script says otherwise; default 400 ms. */
  thinkMs?: number;
  /** Faults applied to every matching request for the whole run. */
  runFaults?: RunFault[];
  /** The model catalogue to start with; default the spec-era catalogue (`defaultCatalogue()`). */
  models?: EmulatorModel[];
}

/**
 * A way for the emulator to misbehave, as the real service sometimes does. For stream faults a
 * "chunk" is one SSE event, the role chunk included; a fault placed beyond the stream's end acts
 * just before `data: [DONE]`. On a non-streamed answer, stall withholds the body after the headers
 * and drop-after-chunks cuts the body in half; streamError does nothing there.
 */
export type Fault =
  /** Delay before the response headers. */
  | { kind: 'latency'; ms: number }
  /** Streaming: stop sending after N chunks and keep the socket open (a hung stream). */
  | { kind: 'stall'; afterChunks: number }
  /**
   * Streaming: after N chunks send an error as `event: error`, `event: error_event` or a data object with a
   * top-level "error", carrying only message/type/code/param (+ request_id): no invented status.
   */
  | { kind: 'streamError'; afterChunks: number; as?: 'error' | 'error_event' | 'dataError'; type?: string; code?: string; message?: string }
  /**
   * Streaming: after N chunks never finish: keep sending content chunks ("la ") every `intervalMs` (0: as fast
   * as the client reads), past any max_tokens, until the client closes the connection (a runaway model).
   */
  | { kind: 'endless'; afterChunks: number; intervalMs?: number }
  /** Destroy the socket: before any byte when afterChunks is undefined, else after N streamed chunks. */
  | { kind: 'drop'; afterChunks?: number }
  /** Answer with this status instead (default bodies follow the real service: 408 SimpleError, 500/503 text/plain, ...). */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string; contentType?: string }
  /** 429 insufficient_quota once N requests have succeeded in the current window, with x-ratelimit-* headers. */
  | { kind: 'rateLimit'; afterRequests: number; reset?: string; retryAfter?: string; retryAfterMs?: string };

/** A run-wide fault, optionally limited to one path (e.g. "/v1/chat/completions"); without a path it matches every /v1 request. */
export type RunFault = Fault & { path?: string };

/** What the next chat (or audio reasoning) answer should be. */
export interface ScriptedChat {
  /** The assistant text (default: a deterministic reply derived from the prompt). */
  content?: string;
  /** Tool calls to make; several are allowed in one turn. */
  toolCalls?: { name: string; arguments: string | Record<string, unknown>; id?: string }[];
  /** Stream tool calls OpenAI-style in fragments (first delta id/type/name, then argument pieces) instead of whole. */
  fragmented?: boolean;
  /** Send function.arguments as a JSON object, not a string (an older-backend quirk). */
  argumentsAsObject?: boolean;
  /** Send arguments that are not valid JSON. */
  malformedArguments?: boolean;
  /** Split the content into exactly this many streamed chunks (benchmarks use 100000). */
  chunkCount?: number;
  /** Override the finish reason. */
  finishReason?: 'stop' | 'length' | 'tool_calls';
  /** A reasoning model's thinking (default: a generated paragraph about the question). Ignored by models that do not reason. */
  reasoning?: string;
  /** How long a reasoning model thinks, streaming its thinking in pieces across that time (default: the emulator's thinkMs). */
  thinkMs?: number;
}

/** One request as the emulator received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names; the authorization value is replaced by "[redacted]". */
  headers: Record<string, string>;
  /** Parsed JSON; for multipart an object of fields with file fields as {filename, contentType, size}; raw text when unparseable. */
  body: unknown;
  /** Set when the connection closed before the response was complete: the client cancelled (or a `drop` fault cut it). */
  clientClosedEarly?: boolean;
}

/** A started emulator. */
export interface RunningEmulator {
  /** "http://127.0.0.1:PORT", without /v1. */
  readonly baseUrl: string;
  readonly key: string;
  readonly port: number;
  /** Every request received since start or the last reset(), oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** The live catalogue: push, splice or edit entries to add and retire models at run time. */
  readonly models: EmulatorModel[];
  /** Replace the catalogue. */
  setModels(models: EmulatorModel[]): void;
  /** Apply a fault to the next matching requests (FIFO); `times` defaults to 1. */
  injectFault(fault: Fault, options?: { path?: string; times?: number }): void;
  /** Script the next chat / audio-reasoning answers (FIFO). */
  scriptChat(reply: ScriptedChat, options?: { times?: number }): void;
  /** Script the next transcription / translation texts (FIFO). */
  scriptTranscript(text: string, options?: { times?: number }): void;
  /** Change the delay before every response's headers. */
  setLatency(ms: number): void;
  /** Change the delay between streamed chunks. */
  setChunkDelay(ms: number): void;
  /** Clear queues, injected faults, recorded requests and counters; latency and chunk delay return to the start options (run faults and the catalogue stay). */
  reset(): void;
  /** Close the server and every open socket, including stalled streams. */
  close(): Promise<void>;
}

/** Starts an emulator of the inference service on loopback; resolves once it is listening. */
export function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return EmulatorServer.start(options);
}
