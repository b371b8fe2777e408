// Shared pieces of the service-client tests: the emulator with a client pointed at it, a tiny
// loopback HTTP server for byte-exact streams the emulator does not produce, and small WAV files.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';
import { InferenceClient, type ClientOptions } from '../../../src/core/api/client';
import { ApiError, type ApiErrorReason } from '../../../src/core/api/errors';
import { type ChatStreamEvent } from '../../../src/core/api/types';
import { startEmulator, type RunningEmulator } from '../../support/emulator/emulator';
import { toneWav } from '../../support/fixtures/wav';

/** A text model every chat test can use. */
export const CHAT_MODEL = 'Meta-Llama-3.1-8B-Instruct';
export const VISION_MODEL = 'Llama-4-Maverick-17B-128E-Instruct';
export const AUDIO_MODEL = 'Qwen2-Audio-7B-Instruct';
export const WHISPER_MODEL = 'Whisper-Large-v3';
export const EMBED_MODEL = 'E5-Mistral-7B-Instruct';

/**
 * A client with short time-outs, so fault tests stay fast. It ignores the machine's proxy
 * variables (a CI host with HTTPS_PROXY set must not route loopback through it) unless a test
 * passes its own transport options.
 */
export function clientFor(emu: RunningEmulator, overrides: Partial<ClientOptions> = {}): InferenceClient {
  return new InferenceClient({ baseUrl: emu.baseUrl, apiKey: emu.key, timeoutMs: 2000, maxRetries: 2, transport: { useEnvironment: false }, ...overrides });
}

/** Starts one emulator for a describe block and resets it before each test. */
export function useEmulator(): { readonly emu: RunningEmulator } {
  const holder: { emu: RunningEmulator | undefined } = { emu: undefined };
  before(async () => {
    holder.emu = await startEmulator({});
  });
  beforeEach(() => holder.emu?.reset());
  after(async () => {
    await holder.emu?.close();
  });
  return {
    get emu(): RunningEmulator {
      if (holder.emu === undefined) throw new Error('emulator not started');
      return holder.emu;
    },
  };
}

/** Awaits `work` and asserts it failed with an ApiError of `reason`; returns the error for more checks. */
export async function expectApiError(work: Promise<unknown> | (() => Promise<unknown>), reason: ApiErrorReason): Promise<ApiError> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    assert.ok(ApiError.is(error), `expected an ApiError, got ${String(error)}`);
    assert.equal(error.reason, reason, `expected reason ${reason}, got ${error.reason}: ${error.message}`);
    return error;
  }
  assert.fail(`expected an ApiError with reason ${reason}, but the call succeeded`);
}

/** Collects a stream's events. */
export async function collect<E>(stream: AsyncIterable<E>): Promise<E[]> {
  const events: E[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The text of a list of chat events. */
export function textOf(events: readonly ChatStreamEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('');
}

/** A loopback server answering every request with `handler`; records requests and socket closes. */
export interface TinyServer {
  readonly baseUrl: string;
  readonly hits: { method: string; url: string; headers: IncomingMessage['headers']; port: number }[];
  /** Date.now() when each client socket closed, keyed by the client's port. */
  readonly socketCloses: Map<number, number>;
  close(): Promise<void>;
}

/** Starts a TinyServer on 127.0.0.1 with a free port. */
export async function startTinyServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TinyServer> {
  const hits: TinyServer['hits'] = [];
  const socketCloses = new Map<number, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, port: req.socket.remotePort ?? 0 });
    // Drain the body first, so handlers can answer at once.
    req.resume();
    req.on('end', () => handler(req, res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    const port = socket.remotePort ?? 0;
    socket.on('close', () => {
      sockets.delete(socket);
      socketCloses.set(port, Date.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    hits,
    socketCloses,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers with an SSE body written as given (byte-exact), then ends. */
export function sseResponder(body: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  };
}

/** A mono 16-bit PCM WAV of `seconds` of a quiet tone at `rate` Hz. */
export function makeWav(seconds: number, rate = 8000): Uint8Array {
  return toneWav(seconds, rate, 1000);
}

/** A well-formed 1x1 PNG as a data URL. */
export const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Requests the emulator recorded for one path. */
export function requestsTo(emu: RunningEmulator, path: string): RunningEmulator['requests'] {
  return emu.requests.filter((r) => r.path === path);
}
