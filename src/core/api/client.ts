// InferenceClient: the one object the chat panel, the agent and the index use to reach the
// service. It validates before sending, shapes each operation's request (chat.ts, audio.ts,
// embeddings.ts), sends through HttpCore (retries, time-outs, the shared rate-limit gate) over the
// transport (proxy, CA), and keeps the capability registry and the known model limits.
import { redactUrl } from '../net/urlSafety';
import { type Logger, silentLogger } from '../logger';
import { buildAudioReasoningBody, buildTranscriptionForm } from './audio';
import { CapabilityRegistry } from './capabilities';
import { buildChatBody, ChatAccumulator, promptChars } from './chat';
import { embedMany, embedOnce } from './embeddings';
import { listingEndpoints, mergeModelLists, resolveEndpoints, type Endpoints, type OperationEndpoint } from './endpoints';
import { ApiError } from './errors';
import { HttpCore, type HttpRequest } from './http';
import { buildInfillBody, driveInfill, INFILL_PATH, probeInfill } from './infill';
import { overrideOnlyModel, readModel, readModelList } from './models';
import { DEFAULT_RETRY_POLICY, RateLimitGates } from './retry';
import { askServerProps, isLlamaCppListing, listedIds } from './serverProps';
import { driveStream, mapStream, maxStreamChars, ResultStream } from './stream';
import { createTransport, type Transport, type TransportOptions } from './transport';
import type { Capability } from '../../shared/views';
import {
  type AudioReasoningRequest,
  type CallOptions,
  type CapabilityOverrides,
  type ChatRequest,
  type ChatResult,
  type ChatStream,
  type ChatStreamEvent,
  type EmbeddingResult,
  type EmbedManyOptions,
  type InfillProbe,
  type InfillRequest,
  type InfillResult,
  type InfillStream,
  type InfillStreamEvent,
  type ModelInfo,
  type ServiceUsage,
  type TextStream,
  type TextStreamEvent,
  type TranscriptionRequest,
  type TranscriptionResult,
} from './types';
import { buildUsageReport, readServiceUsage } from './usage';
import { validateAudio, validateAudioSampling, validateChatRequest } from './validation';

// The issue places costOf beside the client; it lives with the rest of the usage arithmetic.
export { costOf } from './usage';

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

type Operation = 'chat' | 'audioReasoning' | 'transcription' | 'translation';

/** The service client. One per configuration; close() releases its connections. */
export class InferenceClient {
  private readonly http: HttpCore;
  private readonly transport: Transport;
  private readonly registry: CapabilityRegistry;
  private readonly known = new Map<string, ModelInfo>();
  private readonly timeouts: { firstTokenMs: number; idleMs: number; totalMs?: number };
  private readonly endpoints: Endpoints;
  private readonly logger: Logger;
  /** Set once the server refused the text transcription format (see audioText). */
  private textFormatRefused = false;

  constructor(options: ClientOptions) {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const logger = options.logger ?? silentLogger;
    this.logger = logger;
    this.transport = createTransport(options.transport, Math.min(timeoutMs, 30_000));
    this.registry = new CapabilityRegistry(options.capabilities);
    const chatEndpoint = options.endpoints?.chat ?? (options.chatBaseUrl === undefined ? undefined : { baseUrl: options.chatBaseUrl });
    this.endpoints = resolveEndpoints(
      { baseUrl: options.baseUrl, apiKey: options.apiKey },
      { ...options.endpoints, ...(chatEndpoint ? { chat: chatEndpoint } : {}) },
    );
    const baseUrl = this.endpoints.default.baseUrl;
    const chatBase = this.endpoints.chat.baseUrl;
    this.http = new HttpCore({
      endpoints: this.endpoints,
      timeoutMs,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: Math.max(0, options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries) },
      gate: new RateLimitGates(),
      dispatcher: this.transport.dispatcher,
      logger,
      userAgent: options.userAgent ?? `Cadenza (node ${process.version})`,
    });
    this.timeouts = {
      firstTokenMs: options.firstTokenTimeoutMs ?? timeoutMs,
      idleMs: options.idleTimeoutMs ?? timeoutMs,
      ...(options.streamTotalMs !== undefined ? { totalMs: options.streamTotalMs } : {}),
    };
    logger.debug(`service client for ${redactUrl(baseUrl)}${chatBase === baseUrl ? '' : ` (chat: ${redactUrl(chatBase)})`} via ${this.transport.description}`);
  }

  /**
   * Lists the models with derived capabilities; remembers their limits for validation. Called by the
   * model picker. With per-operation endpoints every distinct server is asked and the lists merged; a
   * server other than the default that lists nothing (a whisper server has no /v1/models) is passed
   * over, and models only `cadenza.models.overrides` names are added.
   */
  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const servers = listingEndpoints(this.endpoints);
    const lists = await Promise.all(
      servers.map(async (endpoint, index) => {
        try {
          const { value } = await this.http.fetchJson({ method: 'GET', path: '/v1/models', signal, kind: 'modelLookup', endpoint: endpoint.role });
          if (isLlamaCppListing(value))
            await askServerProps({ http: this.http, role: endpoint.role, ids: listedIds(value), signal, registry: this.registry, logger: this.logger });
          return readModelList(value, this.registry);
        } catch (error) {
          if (index === 0 || ApiError.is(error, 'canceled')) throw error;
          return [];
        }
      }),
    );
    const unlisted = servers.length > 1 ? this.registry.overriddenIds().map((id) => overrideOnlyModel(id, this.registry)) : [];
    const models = mergeModelLists(lists, unlisted);
    for (const model of models) this.known.set(model.id, model);
    return models;
  }

  /** One model; rejects with reason notFound for an unknown id. */
  async getModel(id: string, signal?: AbortSignal): Promise<ModelInfo> {
    const { value } = await this.http.fetchJson({ method: 'GET', path: `/v1/models/${encodeURIComponent(id)}`, signal, kind: 'modelLookup' });
    const model = readModel(value, this.registry);
    this.known.set(model.id, model);
    return model;
  }

  /** What the client currently believes `id` can do (table, heuristics, overrides, refusals). */
  capabilitiesOf(id: string): readonly Capability[] {
    return this.registry.derive(id).capabilities;
  }

  /** What kind of server lists `model` (llama.cpp's takes a few requests in its own dialect). */
  private serverOf(model: string): { llamaCpp: boolean } {
    return { llamaCpp: this.known.get(model)?.ownedBy === 'llamacpp' };
  }

  /** A non-streamed chat completion; validated before sending. */
  async chat(request: ChatRequest, options: CallOptions = {}): Promise<ChatResult> {
    validateChatRequest(request, this.maxTokensOf(request.model));
    const req = this.jsonRequest('/v1/chat/completions', buildChatBody(request, false, this.serverOf(request.model)), options, 'chat');
    return this.completion(req, request.model, promptChars(request.messages), this.capabilityOfChat(request));
  }

  /** A streamed chat completion: events as they form, then `result`. Validation failures surface on first iteration (or `result`). */
  streamChat(request: ChatRequest, options: CallOptions = {}): ChatStream {
    return new ResultStream<ChatStreamEvent, ChatResult>(
      this.stream(
        () => {
          validateChatRequest(request, this.maxTokensOf(request.model));
          return this.jsonRequest('/v1/chat/completions', buildChatBody(request, true, this.serverOf(request.model)), options, 'chat');
        },
        request.model,
        promptChars(request.messages),
        this.capabilityOfChat(request),
        maxStreamChars(request.maxTokens ?? this.maxTokensOf(request.model)),
      ),
      options.signal,
    );
  }

  /**
   * A raw fill-in-the-middle completion, streamed: llama-server's POST /infill on the chat endpoint's server
   * (infill.ts). Only for a model whose server fills in the middle (see `probeInfill`).
   */
  infill(request: InfillRequest, options: CallOptions = {}): InfillStream {
    const body = JSON.stringify(buildInfillBody(request, true));
    const http: HttpRequest = {
      method: 'POST',
      path: INFILL_PATH,
      host: 'chat',
      rateLimitKey: request.model,
      body,
      contentType: 'application/json',
      accept: 'text/event-stream',
      signal: options.signal,
      onRetry: options.onRetry,
    };
    return new ResultStream<InfillStreamEvent, InfillResult>(
      driveInfill({ http: this.http, request: http, timeouts: this.timeouts, maxTokens: request.maxTokens }),
      options.signal,
    );
  }

  /** Asks the chat endpoint's server once whether it fills in the middle for `model` (an /infill that predicts nothing). */
  probeInfill(model: string, signal?: AbortSignal): Promise<InfillProbe> {
    return probeInfill(this.http, model, signal);
  }

  /** The address completions go to: the chat endpoint's server. */
  completionServer(): string {
    return this.endpoints.chat.baseUrl;
  }

  /** What `cadenza.models.overrides` says of `capability` for `id`; undefined when it lists no capabilities for it. */
  statedCapability(id: string, capability: Capability): boolean | undefined {
    return this.registry.stated(id, capability);
  }

  /**
   * The tokens of `text` by the chat server's own tokenizer: llama-server's `POST /tokenize`
   * (`{"content"}` → `{"tokens": [...]}`). The hosted service has no such route: it rejects (404, reason
   * `unsupported`), and a reply without a token list is a malformedResponse.
   */
  async countTokens(text: string, options: CallOptions = {}): Promise<number> {
    const { value } = await this.http.fetchJson({
      method: 'POST',
      path: '/tokenize',
      host: 'chat',
      body: JSON.stringify({ content: text }),
      contentType: 'application/json',
      signal: options.signal,
    });
    const tokens = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['tokens'] : undefined;
    if (!Array.isArray(tokens)) throw new ApiError('malformedResponse', "The tokenizer's reply has no token list");
    return tokens.length;
  }

  /** Audio analysed with an instruction (POST /v1/audio/reasoning), non-streamed. */
  async audioReasoning(request: AudioReasoningRequest, options: CallOptions = {}): Promise<ChatResult> {
    const body = this.audioReasoningBody(request, false);
    const req = this.jsonRequest('/v1/audio/reasoning', body, options, 'default');
    return this.completion(req, request.model, (request.instruction ?? '').length, 'audioReasoning');
  }

  /** Audio reasoning, streamed; bounded like a chat stream by its `max_tokens` (see `maxStreamChars`) and time. */
  streamAudioReasoning(request: AudioReasoningRequest, options: CallOptions = {}): ChatStream {
    return new ResultStream<ChatStreamEvent, ChatResult>(
      this.stream(
        () => this.jsonRequest('/v1/audio/reasoning', this.audioReasoningBody(request, true), options, 'default'),
        request.model,
        (request.instruction ?? '').length,
        'audioReasoning',
        maxStreamChars(request.maxTokens ?? this.maxTokensOf(request.model)),
      ),
      options.signal,
    );
  }

  /** Speech to text in the spoken language. */
  transcribe(request: TranscriptionRequest, options: CallOptions = {}): Promise<TranscriptionResult> {
    return this.audioText('transcription', request, options);
  }

  /** Speech to text in the target language. */
  translate(request: TranscriptionRequest, options: CallOptions = {}): Promise<TranscriptionResult> {
    return this.audioText('translation', request, options);
  }

  /** Transcription streamed as text fragments. */
  streamTranscription(request: TranscriptionRequest, options: CallOptions = {}): TextStream {
    return this.audioTextStream('transcription', request, options);
  }

  /** Translation streamed as text fragments. */
  streamTranslation(request: TranscriptionRequest, options: CallOptions = {}): TextStream {
    return this.audioTextStream('translation', request, options);
  }

  /** Embeds one text or a few (one request); vectors in input order. */
  async embed(input: string | string[], model: string, options: CallOptions = {}): Promise<EmbeddingResult> {
    const texts = typeof input === 'string' ? [input] : input;
    return this.remember(model, 'embeddings', embedOnce(this.http, texts, model, options.signal));
  }

  /** Embeds many texts in batches with bounded concurrency and shared rate-limit back-off; vectors in input order. */
  embedMany(texts: readonly string[], model: string, options: EmbedManyOptions = {}): Promise<Float32Array[]> {
    return this.remember(model, 'embeddings', embedMany(this.http, texts, model, options));
  }

  /** Closes the client's connections; in-flight requests fail. */
  close(): Promise<void> {
    return this.transport.close();
  }

  private maxTokensOf(model: string): number | undefined {
    return this.registry.derive(model).maxCompletionTokens ?? this.known.get(model)?.maxCompletionTokens;
  }

  private capabilityOfChat(request: ChatRequest): Capability {
    const hasImage = request.messages.some((m) => m.role === 'user' && typeof m.content !== 'string' && m.content.some((p) => p.type === 'image'));
    if (hasImage) return 'vision';
    if (request.tools !== undefined && request.tools.length > 0) return 'tools';
    if (request.responseFormat !== undefined) return 'json';
    return 'chat';
  }

  /** Forgets a capability the service refused with 400 model_not_compatible. */
  private noteError(model: string, capability: Capability, error: unknown): void {
    if (ApiError.is(error, 'modelNotCompatible')) {
      this.registry.markIncompatible(model, capability);
      const known = this.known.get(model);
      if (known !== undefined) this.known.set(model, { ...known, capabilities: this.registry.derive(model).capabilities });
    }
  }

  private async remember<T>(model: string, capability: Capability, work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      this.noteError(model, capability, error);
      throw error;
    }
  }

  private jsonRequest(path: string, body: Record<string, unknown>, options: CallOptions, host: 'chat' | 'default'): HttpRequest {
    const model = typeof body['model'] === 'string' ? body['model'] : undefined;
    return {
      method: 'POST',
      path,
      host,
      rateLimitKey: model,
      body: JSON.stringify(body),
      contentType: 'application/json',
      signal: options.signal,
      onRetry: options.onRetry,
    };
  }

  private audioReasoningBody(request: AudioReasoningRequest, stream: boolean): Record<string, unknown> {
    const sniffed = validateAudio(request.audio, this.registry.derive(request.model).family ?? 'audioInstruct', 'audio');
    validateAudioSampling(request.temperature, request.maxTokens, this.maxTokensOf(request.model));
    return buildAudioReasoningBody(request, sniffed, stream);
  }

  private async completion(req: HttpRequest, model: string, prompt: number, capability: Capability): Promise<ChatResult> {
    const response = await this.remember(model, capability, this.http.fetchJson(req));
    const acc = new ChatAccumulator();
    acc.pushCompletion(response.value, response.headersAt);
    return {
      id: acc.id,
      model: acc.model,
      text: acc.text(),
      reasoning: acc.reasoning(),
      toolCalls: acc.toolCalls(),
      finishReason: acc.finishReason,
      usage: buildUsageReport(acc.usage, {
        startedAt: response.startedAt,
        firstTokenAt: response.headersAt,
        endedAt: response.endedAt,
        outputChars: acc.outputChars,
        promptChars: prompt,
      }),
    };
  }

  /** Builds the request lazily, inside the stream, so validation errors reach the caller through the stream. */
  private async *stream(
    build: () => HttpRequest | Promise<HttpRequest>,
    model: string,
    prompt: number,
    capability: Capability,
    maxChars?: number,
  ): AsyncGenerator<ChatStreamEvent[], ChatResult, undefined> {
    const request = await build();
    return yield* driveStream({
      http: this.http,
      request,
      timeouts: this.timeouts,
      promptChars: prompt,
      ...(maxChars !== undefined ? { maxChars } : {}),
      onError: (error) => this.noteError(model, capability, error),
      answer: capability === 'transcription' ? 'transcript' : 'chat',
    });
  }

  private async audioUpload(operation: Operation, request: TranscriptionRequest, options: CallOptions, stream: boolean): Promise<HttpRequest> {
    const family = this.registry.derive(request.model).family;
    const sniffed = validateAudio(request.audio, family, 'file');
    if (family !== 'speechToText') validateAudioSampling(request.temperature, request.maxTokens, this.maxTokensOf(request.model));
    const form = await buildTranscriptionForm(request, sniffed, family, stream);
    const path = operation === 'translation' ? '/v1/audio/translations' : '/v1/audio/transcriptions';
    return {
      method: 'POST',
      path,
      rateLimitKey: request.model,
      body: form.bytes,
      contentType: form.contentType,
      signal: options.signal,
      onRetry: options.onRetry,
      accept: stream ? 'text/event-stream' : request.responseFormat === 'text' ? 'text/plain' : 'application/json',
    };
  }

  private async audioText(operation: Operation, request: TranscriptionRequest, options: CallOptions): Promise<TranscriptionResult> {
    // The text format changes only the wire shape: the caller gets plain text either way. A server that
    // refused it once (llama-server accepts only json) is asked for json from then on.
    if (request.responseFormat === 'text' && this.textFormatRefused) return this.audioText(operation, { ...request, responseFormat: 'json' }, options);
    let response: Awaited<ReturnType<HttpCore['fetchText']>>;
    try {
      const req = await this.audioUpload(operation, request, options, false);
      response = await this.remember(request.model, 'transcription', this.http.fetchText(req));
    } catch (error) {
      if (request.responseFormat !== 'text' || !ApiError.is(error, 'badRequest')) throw error;
      // llama-server: 400 "Only 'json' response_format is supported for transcription". Ask again for
      // json; when that fails too, the first refusal is the error to report.
      const result = await this.audioText(operation, { ...request, responseFormat: 'json' }, options).catch(() => {
        throw error;
      });
      this.textFormatRefused = true;
      return result;
    }
    let text = response.text;
    let service: ServiceUsage | undefined;
    // The json format is {"text": ...}; the text format is the bare text. Trust the body over the request.
    if ((response.contentType ?? '').includes('json') || (request.responseFormat !== 'text' && text.trimStart().startsWith('{'))) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (cause) {
        throw new ApiError('malformedResponse', 'The transcription reply is not JSON', { cause });
      }
      // llama-server's reply is {"type":"transcript.text.done","text":...,"usage":{"input_tokens":...}}:
      // the text field is the same, and its usage is read too.
      const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
      const field = record['text'];
      if (typeof field !== 'string') throw new ApiError('malformedResponse', 'The transcription reply has no text');
      text = field;
      service = readServiceUsage(record['usage']);
    }
    const usage = buildUsageReport(service, {
      startedAt: response.startedAt,
      firstTokenAt: response.headersAt,
      endedAt: response.endedAt,
      outputChars: text.length,
      promptChars: (request.prompt ?? '').length,
    });
    return { text, model: request.model, usage };
  }

  private audioTextStream(operation: Operation, request: TranscriptionRequest, options: CallOptions): TextStream {
    const source = this.stream(() => this.audioUpload(operation, request, options, true), request.model, (request.prompt ?? '').length, 'transcription');
    return new ResultStream<TextStreamEvent, TranscriptionResult>(
      mapStream(
        source,
        (event): TextStreamEvent | undefined => (event.type === 'toolCall' || event.type === 'reasoning' ? undefined : event),
        (result): TranscriptionResult => ({ text: result.text, model: result.model === '' ? request.model : result.model, usage: result.usage }),
      ),
      options.signal,
    );
  }
}
