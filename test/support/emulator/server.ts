// The HTTP server: reads and records each request, applies faults, latency, auth and rate-limit
// headers, routes to a handler and writes its reply. Tracks sockets so close() can end everything,
// including stalled streams and idle keep-alive connections.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { type AddressInfo, type Socket } from 'node:net';
import { type HandlerContext, type Reply } from './context';
import { defaultStatusError, EmulatorHttpError, generalError, invalidRequest, missingKeyError, plainError, simpleError, wrongKeyError } from './errors';
import { FaultBook, parseFault, type RequestFaults } from './faults';
import { type EmulatorOptions, type Fault, type RecordedRequest, type RunningEmulator, type ScriptedChat } from './emulator';
import { defaultCatalogue, type EmulatorModel } from './models';
import { describeForm, multipartBoundary, parseMultipart, type MultipartForm } from './multipart';
import { RateCounter } from './rateLimit';
import { matchRoute } from './routes';
import { writeEventStream } from './sse';

// Above the 25 MB audio limit plus base64 growth; beyond this the socket is cut rather than buffered.
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Queued<T> {
  value: T;
  remaining: number;
}

function shift<T>(queue: Queued<T>[]): T | undefined {
  const head = queue[0];
  if (head === undefined) return undefined;
  head.remaining--;
  if (head.remaining <= 0) queue.shift();
  return head.value;
}

/** The emulator behind RunningEmulator. */
export class EmulatorServer implements RunningEmulator {
  readonly requests: RecordedRequest[] = [];
  models: EmulatorModel[];
  private readonly faults: FaultBook;
  private readonly rate = new RateCounter();
  private scripts: Queued<ScriptedChat>[] = [];
  private transcripts: Queued<string>[] = [];
  private readonly sockets = new Set<Socket>();
  private latencyMs: number;
  /** Bumped by reset(): a request still waiting out a latency from before it belongs to a finished test. */
  private epoch = 0;
  private chunkDelayMs: number;
  private readonly initialLatencyMs: number;
  private readonly initialChunkDelayMs: number;
  private readonly thinkMs: number;
  private closing: Promise<void> | undefined;
  readonly key: string;
  port = 0;
  baseUrl = '';

  private constructor(
    private readonly server: Server,
    options: EmulatorOptions,
  ) {
    this.key = options.key ?? `emu-${randomBytes(16).toString('hex')}`;
    this.latencyMs = this.initialLatencyMs = options.latencyMs ?? 0;
    this.chunkDelayMs = this.initialChunkDelayMs = options.chunkDelayMs ?? 0;
    this.thinkMs = options.thinkMs ?? 400;
    this.models = options.models ?? defaultCatalogue();
    this.faults = new FaultBook(options.runFaults ?? []);
  }

  /** Creates, listens and resolves once the port is known. */
  static async start(options: EmulatorOptions): Promise<EmulatorServer> {
    const server = createServer();
    const emulator = new EmulatorServer(server, options);
    server.on('connection', (socket) => {
      emulator.sockets.add(socket);
      socket.once('close', () => emulator.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      emulator.handle(req, res).catch((error: unknown) => emulator.fail(res, error));
    });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    emulator.port = (server.address() as AddressInfo).port;
    emulator.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${emulator.port}`;
    return emulator;
  }

  setModels(models: EmulatorModel[]): void {
    this.models = models;
  }

  injectFault(fault: Fault, options: { path?: string; times?: number } = {}): void {
    this.faults.inject(fault, options.path, options.times ?? 1);
  }

  scriptChat(reply: ScriptedChat, options: { times?: number } = {}): void {
    this.scripts.push({ value: reply, remaining: options.times ?? 1 });
  }

  scriptTranscript(text: string, options: { times?: number } = {}): void {
    this.transcripts.push({ value: text, remaining: options.times ?? 1 });
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  setChunkDelay(ms: number): void {
    this.chunkDelayMs = ms;
  }

  reset(): void {
    this.epoch++;
    this.scripts = [];
    this.transcripts = [];
    this.requests.length = 0;
    this.faults.reset();
    this.rate.reset();
    // Timing set at run time goes back to the start options, so one test's setLatency cannot slow the next.
    this.latencyMs = this.initialLatencyMs;
    this.chunkDelayMs = this.initialChunkDelayMs;
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
      this.server.closeAllConnections();
    });
    return this.closing;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startMs = Date.now();
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://emulator').pathname;
    const raw = await readBody(req);
    if (raw === undefined) {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ error: 'Request entity too large' }));
      req.socket.destroy();
      return;
    }
    const { json, form, recorded } = parseBody(raw, req.headers['content-type']);
    const record: RecordedRequest = { method, path, headers: recordHeaders(req), body: recorded };
    this.requests.push(record);
    res.once('close', () => {
      if (!res.writableFinished && this.closing === undefined) record.clientClosedEarly = true;
    });

    const headerFault = parseJsonHeader(req.headers['x-emulator-fault'], 'x-emulator-fault', parseFault);
    const headerScript = parseJsonHeader(req.headers['x-emulator-script'], 'x-emulator-script', parseScript);
    const faults = this.faults.take(path, headerFault);
    this.rate.count();
    this.setRateHeaders(res, faults);

    const delay = this.latencyMs + faults.latencyMs;
    if (delay > 0) {
      const epoch = this.epoch;
      await sleep(delay);
      // A client that gave up during the wait (a time-out, then its retry) gets nothing, as servers that
      // stop generating on a closed connection do; and a request from before reset() must not take the
      // next test's scripted answer.
      if (epoch !== this.epoch || req.socket.destroyed) {
        req.socket.destroy();
        return;
      }
    }
    if (faults.dropNow) {
      req.socket.destroy();
      return;
    }
    if (faults.status !== undefined) throw statusFaultError(faults.status);

    const route = matchRoute(method, path);
    if (route === undefined) throw simpleError(404, 'Not found');
    this.checkAuth(req.headers.authorization);
    if (faults.rateLimited !== undefined) throw rateLimitError(faults.rateLimited);

    const ctx: HandlerContext = {
      method,
      path,
      headers: req.headers,
      json,
      form,
      models: this.models,
      startMs,
      thinkMs: this.thinkMs,
      nextScript: () => headerScript ?? shift(this.scripts),
      nextTranscript: () => shift(this.transcripts),
    };
    await this.writeReply(res, route.handle(ctx), faults);
  }

  private checkAuth(header: string | undefined): void {
    if (header === undefined || header.trim() === '') throw missingKeyError();
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match?.[1] !== this.key) throw wrongKeyError();
  }

  private setRateHeaders(res: ServerResponse, faults: RequestFaults): void {
    const window = this.rate.snapshot();
    // A 429 status fault is a rate limit too, so its headers say the bucket is empty.
    const limited = faults.rateLimited !== undefined || faults.status?.status === 429;
    res.setHeader('x-ratelimit-limit-requests', String(faults.quota?.limit ?? window.limit));
    res.setHeader('x-ratelimit-remaining-requests', String(limited ? 0 : (faults.quota?.remaining ?? window.remaining)));
    res.setHeader('x-ratelimit-reset-requests', limited ? (faults.rateLimited?.reset ?? '60') : (faults.quota?.reset ?? String(window.resetSeconds)));
    res.setHeader('x-ratelimit-limit-requests-day', String(window.dayLimit));
    res.setHeader('x-ratelimit-remaining-requests-day', String(window.dayRemaining));
    res.setHeader('x-ratelimit-reset-requests-day', String(window.dayResetSeconds));
  }

  private async writeReply(res: ServerResponse, reply: Reply, faults: RequestFaults): Promise<void> {
    if (reply.kind === 'sse') {
      res.statusCode = 200;
      res.setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      await writeEventStream(res, reply.events, { chunkDelayMs: this.chunkDelayMs, faults: faults.stream });
      return;
    }
    const body = reply.kind === 'json' ? JSON.stringify(reply.body) : reply.body;
    const type = reply.kind === 'json' ? 'application/json' : 'text/plain; charset=utf-8';
    res.writeHead(reply.status ?? 200, { 'content-type': type });
    // A non-streamed body is one "chunk": a stall withholds it, a drop cuts it in half.
    const stall = faults.stream.find((f) => f.kind === 'stall');
    const drop = faults.stream.find((f) => f.kind === 'drop');
    if (stall !== undefined) {
      res.flushHeaders();
      return;
    }
    if (drop !== undefined) {
      await new Promise<void>((resolve) => res.write(body.slice(0, Math.floor(body.length / 2)), () => resolve()));
      res.socket?.destroy();
      return;
    }
    res.end(body);
  }

  private fail(res: ServerResponse, error: unknown): void {
    const http =
      error instanceof EmulatorHttpError ? error : plainError(500, `Internal Server Error: ${error instanceof Error ? error.message : String(error)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(http.headers)) res.setHeader(name, value);
    res.writeHead(http.status, { 'content-type': http.contentType }).end(http.body);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}

function parseBody(raw: Buffer, contentType: string | undefined): { json: unknown; form: MultipartForm | undefined; recorded: unknown } {
  const boundary = multipartBoundary(contentType);
  if (boundary !== undefined) {
    const form = parseMultipart(raw, boundary);
    return { json: undefined, form, recorded: form === undefined ? raw.toString('utf8') : describeForm(form) };
  }
  if (raw.length === 0) return { json: undefined, form: undefined, recorded: undefined };
  const text = raw.toString('utf8');
  try {
    const json: unknown = JSON.parse(text);
    return { json, form: undefined, recorded: json };
  } catch {
    // Handlers see `undefined` and answer with the real "could not parse the JSON body" error.
    return { json: undefined, form: undefined, recorded: text };
  }
}

function recordHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    // Keys must never end up in logs or test output.
    out[name] = name === 'authorization' || name === 'x-api-key' ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJsonHeader<T>(value: string | string[] | undefined, name: string, narrow: (v: unknown) => T | string): T | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest(`Emulator: the ${name} header is not valid JSON.`, name, 'emulator_invalid_header');
  }
  const result = narrow(parsed);
  if (typeof result === 'string') throw invalidRequest(`Emulator: invalid ${name} header: ${result}.`, name, 'emulator_invalid_header');
  return result;
}

function parseScript(value: unknown): ScriptedChat | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a script must be a JSON object';
  const calls: unknown = (value as { toolCalls?: unknown }).toolCalls;
  if (calls !== undefined && !Array.isArray(calls)) return 'toolCalls must be an array';
  // Field types beyond this are the caller's responsibility; the header is a test-only channel.
  return value as ScriptedChat;
}

function statusFaultError(fault: Extract<Fault, { kind: 'status' }>): EmulatorHttpError {
  const base = defaultStatusError(fault.status);
  const body = fault.body ?? base.body;
  const type =
    fault.contentType ?? (fault.body === undefined ? base.contentType : body.trimStart().startsWith('{') ? 'application/json' : 'text/plain; charset=utf-8');
  return new EmulatorHttpError(fault.status, body, type, fault.headers ?? {});
}

function rateLimitError(fault: Extract<Fault, { kind: 'rateLimit' }>): EmulatorHttpError {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
  if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = fault.retryAfterMs;
  // The real 429 message is not documented; the code insufficient_quota is the documented one.
  return generalError(
    429,
    'Rate limit exceeded: too many requests. Please retry after the limit resets.',
    'rate_limit_exceeded',
    null,
    'insufficient_quota',
    headers,
  );
}
