// The public request and result types of the service client (camelCase; the wire's snake_case
// stays inside the per-operation modules). The chat panel, the agent and the index depend on these.
import type { Capability } from '../../shared/views';
import { type ApiError } from './errors';

/** The two audio model families of the spec, which take different fields and limits. */
export type AudioFamily = 'speechToText' | 'audioInstruct';

/** A control a reasoning model takes: `effort` is `reasoning_effort` (low/medium/high, gpt-oss style); `thinking` is `chat_template_kwargs.enable_thinking` (on/off, hybrid models). */
export type ReasoningControl = 'effort' | 'thinking';

/** How a model reasons: it thinks before answering, and which controls it takes. */
export interface ReasoningTraits {
  readonly controls: readonly ReasoningControl[];
}

/** `reasoning_effort` values. */
export type ReasoningEffort = 'low' | 'medium' | 'high';

/** One model as listed by the service, with derived capabilities. */
export interface ModelInfo {
  id: string;
  ownedBy: string | undefined;
  contextLength: number | undefined;
  maxCompletionTokens: number | undefined;
  /** USD per token; undefined when the listing gives no price. */
  pricing: { promptPerToken: number; completionPerToken: number } | undefined;
  /** USD per hour of audio (speech models, `pricing.duration_per_hour`: docs/service.md#the-model-list); absent when not listed. */
  audioPricePerHour?: number;
  capabilities: readonly Capability[];
  family: AudioFamily | undefined;
  /** Present for models that think before they answer (streamed as reasoning, apart from the answer). */
  reasoning?: ReasoningTraits;
}

/** What a model's own server declared about it (llama.cpp's /props): what it has, what it lacks, its reasoning control. */
export interface DeclaredTraits {
  readonly has: readonly Capability[];
  readonly lacks: readonly Capability[];
  readonly reasoning?: ReasoningTraits;
}

/** Host-supplied corrections (`cadenza.models.overrides`), keyed by model id. */
export type CapabilityOverrides = Readonly<
  Record<
    string,
    { capabilities?: readonly Capability[]; contextLength?: number; maxCompletionTokens?: number; family?: AudioFamily; reasoning?: ReasoningTraits | false }
  >
>;

/** A part of a multimodal user message. Images and audio are base64 data URLs. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image'; dataUrl: string } | { type: 'audio'; dataUrl: string };

/** A tool call as the model made it; `arguments` is a JSON string (stringified if the server sent an object). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of a conversation. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | readonly ContentPart[] }
  | { role: 'assistant'; content: string | null; toolCalls?: readonly ToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string };

/** A function the model may call (the spec's tool shape). */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** A JSON Schema object (`type: "object"`, `properties`, `required`). */
  parameters?: Readonly<Record<string, unknown>>;
}

/** How the model must answer: JSON mode, or JSON that matches a schema. (`text` is never sent: the service rejects it.) */
export type ResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; jsonSchema: { name: string; description?: string; schema?: Readonly<Record<string, unknown>>; strict?: boolean } };

/** A chat completion request. */
export interface ChatRequest {
  model: string;
  messages: readonly ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string | readonly string[];
  tools?: readonly ToolDefinition[];
  toolChoice?: 'auto' | 'required' | 'none' | { name: string };
  responseFormat?: ResponseFormat;
  /** Ask for the final usage chunk when streaming (default true: it carries the service's speed figures). */
  includeUsage?: boolean;
  /** `reasoning_effort`, for models that take it. */
  reasoningEffort?: ReasoningEffort;
  /** `chat_template_kwargs.enable_thinking`, for hybrid models that take it. */
  enableThinking?: boolean;
}

/** Why generation ended: the service sends stop, length or tool_calls; `unknown` when it said nothing. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'unknown' | (string & {});

/** Where each figure of a UsageReport came from. */
export interface UsageSources {
  timeToFirstToken: 'service' | 'client';
  tokensPerSecond: 'service' | 'client';
  totalTime: 'service' | 'client';
  tokens: 'service' | 'estimated';
}

/** The service's own usage fields, as sent (docs/service.md#usage-and-speed). */
export interface ServiceUsage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
  /** Seconds. */
  timeToFirstToken?: number;
  completionTokensAfterFirstPerSec?: number;
  completionTokensPerSec?: number;
  totalTokensPerSec?: number;
  /** Seconds. */
  totalLatency?: number;
  startTime?: number;
  endTime?: number;
  acceptanceRate?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
}

/** Token counts and speed of one answer; always filled, from the service where it reports, else measured or estimated. */
export interface UsageReport {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
  timeToFirstTokenMs: number;
  tokensPerSecond: number;
  totalTimeMs: number;
  source: UsageSources;
  service?: ServiceUsage;
  /** What the client measured itself, whatever the service said. */
  client: { timeToFirstTokenMs: number; tokensPerSecond: number; totalTimeMs: number };
}

/** The whole answer of a chat (or audio reasoning) request. */
export interface ChatResult {
  id: string;
  model: string;
  text: string;
  /** What the model thought before (and between) its answer text; never part of `text`. Empty when it did not reason. */
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: UsageReport;
}

/** What a chat stream yields, in order: text and tool-call fragments as they form, then finish, then one usage. */
export type ChatStreamEvent =
  | { type: 'text'; text: string }
  /** Thinking, streamed before the answer (a `reasoning` delta, or `<think>` at the start of the content). */
  | { type: 'reasoning'; text: string }
  | { type: 'toolCall'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'usage'; usage: UsageReport }
  | { type: 'finish'; reason: FinishReason };

/** A streamed chat answer: iterate it for events; `result` settles with the whole answer (and rejects as the iteration does). */
export interface ChatStream extends AsyncIterable<ChatStreamEvent> {
  readonly result: Promise<ChatResult>;
}

/** What a transcription/translation stream yields. */
export type TextStreamEvent = Extract<ChatStreamEvent, { type: 'text' | 'usage' | 'finish' }>;

/** A streamed transcription or translation. */
export interface TextStream extends AsyncIterable<TextStreamEvent> {
  readonly result: Promise<TranscriptionResult>;
}

/** What a caller learns before a retry. */
export interface RetryInfo {
  /** 1 for the first retry, 2 for the second... */
  attempt: number;
  /** How long the client waits before it. */
  delayMs: number;
  /** The failure being retried. */
  error: ApiError;
}

/** Per-call options of every operation. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Told before each retry (the chat panel shows "retrying in N s"). */
  onRetry?: (info: RetryInfo) => void;
}

/** Audio analysed with an instruction (POST /v1/audio/reasoning). */
export interface AudioReasoningRequest {
  model: string;
  /** The raw file; its format is sniffed from the bytes. */
  audio: Uint8Array;
  /** The text instruction, sent as a user message after the audio. */
  instruction?: string;
  /** Earlier conversation (system prompt, previous turns), sent before the audio. */
  history?: readonly ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  includeUsage?: boolean;
}

/** A transcription or translation request (multipart upload). */
export interface TranscriptionRequest {
  model: string;
  audio: Uint8Array;
  /** File name sent with the upload; default derived from the sniffed format. */
  fileName?: string;
  /** ISO-639-1 input language for speech-to-text models; target language for audio-instruct ones. */
  language?: string;
  prompt?: string;
  responseFormat?: 'json' | 'text';
  /** Audio-instruct family only. */
  temperature?: number;
  /** Audio-instruct family only. */
  maxTokens?: number;
  includeUsage?: boolean;
}

/** The text of a transcription or translation, with timing figures. */
export interface TranscriptionResult {
  text: string;
  model: string;
  usage: UsageReport;
}

/** The vectors of one embeddings call, in input order. */
export interface EmbeddingResult {
  model: string;
  embeddings: Float32Array[];
  promptTokens: number | undefined;
  totalTokens: number | undefined;
}

/** Options of embedMany. */
export interface EmbedManyOptions {
  /** Texts per request; default 32 (SambaNova's own client's default). */
  batchSize?: number;
  /** Requests in flight; default 2. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Another file shown to a fill-in-the-middle model (llama-server's `input_extra`). */
export interface InfillExtra {
  readonly filename: string;
  readonly text: string;
}

/** A raw fill-in-the-middle request (POST /infill): the server wraps it in the model's own FIM tokens. */
export interface InfillRequest {
  model: string;
  /** Text before the cursor. */
  prefix: string;
  /** Text after the cursor. */
  suffix: string;
  /** Other files for context, sent as `input_extra`. */
  extra?: readonly InfillExtra[];
  maxTokens: number;
  temperature?: number;
}

/** Token counts a fill-in-the-middle server reports (llama-server: on every chunk, so far). */
export interface InfillCounts {
  promptTokens?: number;
  completionTokens?: number;
}

/** What an infill stream yields: text as it forms (with the counts so far), then one `done`. */
export type InfillStreamEvent = { type: 'text'; text: string; counts?: InfillCounts } | { type: 'done'; counts?: InfillCounts; stopType?: string };

/** The whole answer of an infill request. */
export interface InfillResult {
  text: string;
  counts: InfillCounts;
  /** Why the server stopped (llama-server: `eos`, `limit`, `word`), when it said. */
  stopType: string | undefined;
}

/** A streamed infill answer, like ChatStream. */
export interface InfillStream extends AsyncIterable<InfillStreamEvent> {
  readonly result: Promise<InfillResult>;
}

/** What one /infill probe found: the server fills in the middle, it does not (a definite refusal), or no answer to go by. */
export type InfillProbe = 'fim' | 'chat' | 'unknown';
