// InferenceClient: the one object the chat panel, the agent and the index use to reach the
// service. It validates before sending, shapes each operation's request (chat.ts, audio.ts,
// embeddings.ts), sends through HttpCore (retries, time-outs, the shared rate-limit gate) over the
// transport (proxy, CA), and keeps the capability registry and the known model limits.
import { redactUrl } from '../net/urlSafety';
import { type Logger, silentLogger } from '../logger';
import { buildAudioReasoningBody, buildAudioUpload, readTranscriptionReply } from './audio';
import { CapabilityRegistry } from './capabilities';
import { buildChatBody, ChatAccumulator, promptChars } from './chat';
import { embedMany, embedOnce } from './embeddings';
import { listingEndpoints, mergeModelLists, resolveEndpoints, type Endpoints } from './endpoints';
import { ApiError } from './errors';
import { HttpCore, type HttpRequest } from './http';
import { driveInfill, infillRequest, probeInfill } from './infill';
import { overrideOnlyModel, readModel, readModelList } from './models';
import { DEFAULT_RETRY_POLICY, RateLimitGates } from './retry';
import { askServerProps, countTokens, isLlamaCppListing, listedIds } from './serverProps';
import { driveStream, mapStream, maxStreamChars, ResultStream } from './stream';
import { createTransport, type Transport } from './transport';
import { type ClientOptions } from './clientOptions';
import type { Capability } from '../../shared/views';
import {
  type AudioReasoningRequest,
  type CallOptions,
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
  type TextStream,
  type TextStreamEvent,
  type TranscriptionRequest,
  type TranscriptionResult,
} from './types';
import { buildUsageReport } from './usage';
import { validateAudio, validateAudioSampling, validateChatRequest } from './validation';

// The issue places costOf beside the client; it lives with the rest of the usage arithmetic.
export { costOf } from './usage';
export type { ClientOptions } from './clientOptions';

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
    return new ResultStream<InfillStreamEvent, InfillResult>(
      driveInfill({ http: this.http, request: infillRequest(request, options), timeouts: this.timeouts, maxTokens: request.maxTokens }),
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

  /** The tokens of `text` by the chat server's own tokenizer (llama-server's `/tokenize`; see serverProps.ts). */
  countTokens(text: string, options: CallOptions = {}): Promise<number> {
    return countTokens(this.http, text, options.signal);
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
    return acc.result({ startedAt: response.startedAt, firstTokenAt: response.headersAt, endedAt: response.endedAt, promptChars: prompt });
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

  private audioUpload(operation: Operation, request: TranscriptionRequest, options: CallOptions, stream: boolean): Promise<HttpRequest> {
    return buildAudioUpload(operation === 'translation', request, options, stream, this.registry.derive(request.model).family, this.maxTokensOf(request.model));
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
    const { text, service } = readTranscriptionReply(response.text, response.contentType, request.responseFormat);
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
