// The response shapes shared by chat, audio reasoning and streamed transcription: the
// non-streamed `chat.completion` object, the `chat.completion.chunk` stream, and SambaNova's usage
// block (docs/service.md#streaming, docs/service.md#usage-and-speed).
import { randomBytes, randomUUID } from 'node:crypto';
import { DONE_EVENT, dataEvent, type StreamPause } from './sse';

/** A tool call as the emulator will send it. */
export interface AnswerToolCall {
  id: string;
  name: string;
  /** Already in wire form: a string (valid JSON or deliberately not) or, for the old quirk, an object. */
  arguments: string | Record<string, unknown>;
}

/** Everything decided about one answer before it is serialised. */
export interface Answer {
  /** The text, already cut by stop sequences and max_tokens. */
  content: string;
  /** The text split into streamed pieces (concatenating to `content`). */
  pieces: readonly string[];
  toolCalls: readonly AnswerToolCall[];
  fragmented: boolean;
  finishReason: 'stop' | 'length' | 'tool_calls';
  promptTokens: number;
  completionTokens: number;
  /** A reasoning model's thinking, streamed before the content; absent for models that answer at once. */
  reasoning?: Reasoning;
}

/** Thinking before the answer, and how it travels. */
export interface Reasoning {
  /** `field`: `delta.reasoning` / `message.reasoning`; `think`: `<think>…</think>` at the start of the content. */
  shape: 'field' | 'think';
  /** The pieces, streamed one by one with a pause between them. */
  pieces: readonly string[];
  /** The whole thinking time, spread over the pauses between pieces. */
  thinkMs: number;
  /** Counted in completion_tokens and in completion_tokens_details.reasoning_tokens. */
  tokens: number;
}

/** Envelope values that every chunk of one response shares. */
export interface Envelope {
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
  /** Transcription/translation chunks carry `custom_id: 0`. */
  customId: boolean;
  /** Qwen2-Audio's real usage has no acceptance_rate (docs/service.md#usage-and-speed). */
  acceptanceRate: boolean;
  /** When the request arrived (ms since epoch), for the timing fields. */
  startMs: number;
}

/** A fresh envelope: a bare-UUID id and a float `created`, as the real service sends. */
export function newEnvelope(model: string, startMs: number, includeUsage: boolean, options: { customId?: boolean; acceptanceRate?: boolean } = {}): Envelope {
  // performance.now() adds sub-millisecond digits, so `created` is a float as on the real service, never a whole number.
  return {
    id: randomUUID(),
    created: (performance.timeOrigin + performance.now()) / 1000,
    model,
    includeUsage,
    customId: options.customId ?? false,
    acceptanceRate: options.acceptanceRate ?? true,
    startMs,
  };
}

/** A tool-call id in the spec-era form: "call_" and 18 hex characters. */
export function newToolCallId(): string {
  return `call_${randomBytes(9).toString('hex')}`;
}

/** SambaNova's usage block; timings are measured from the request's arrival to now. */
export function buildUsage(
  promptTokens: number,
  completionTokens: number,
  env: Envelope,
  firstTokenMs?: number,
  reasoningTokens?: number,
): Record<string, unknown> {
  const endMs = Date.now();
  // Loopback answers take ~0 ms; a floor keeps every rate finite and positive as on the real service.
  const latency = Math.max((endMs - env.startMs) / 1000, 0.001);
  const ttft = Math.min(Math.max(((firstTokenMs ?? endMs) - env.startMs) / 1000, 0.0005), latency);
  const afterFirst = Math.max(latency - ttft, 0.0005);
  const usage: Record<string, unknown> = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    completion_tokens_after_first_per_sec: Math.max(completionTokens - 1, 0) / afterFirst,
    completion_tokens_after_first_per_sec_first_ten: Math.min(Math.max(completionTokens - 1, 0), 10) / afterFirst,
    completion_tokens_per_sec: completionTokens / latency,
    end_time: endMs / 1000,
    start_time: env.startMs / 1000,
    is_last_response: true,
    time_to_first_token: ttft,
    total_latency: latency,
    total_tokens_per_sec: (promptTokens + completionTokens) / latency,
  };
  if (env.acceptanceRate) usage['acceptance_rate'] = 4.5;
  if (reasoningTokens !== undefined) usage['completion_tokens_details'] = { reasoning_tokens: reasoningTokens };
  return usage;
}

function wireArguments(args: AnswerToolCall['arguments']): string | Record<string, unknown> {
  return args;
}

/** The non-streamed `chat.completion` object. */
export function completionBody(answer: Answer, env: Envelope): Record<string, unknown> {
  const thinking = answer.reasoning?.pieces.join('') ?? '';
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: answer.reasoning?.shape === 'think' ? `<think>${thinking}</think>\n\n${answer.content}` : answer.content,
  };
  if (answer.reasoning?.shape === 'field') message['reasoning'] = thinking;
  if (answer.toolCalls.length > 0) {
    message['tool_calls'] = answer.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: wireArguments(call.arguments) },
      // Present as null in non-streamed responses (a real capture; docs/service.md#tool-calls).
      index: null,
    }));
  }
  return {
    id: env.id,
    object: 'chat.completion',
    created: env.created,
    model: env.model,
    system_fingerprint: 'fastcoe',
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    usage: buildUsage(answer.promptTokens, answer.completionTokens, env, undefined, answer.reasoning?.tokens),
  };
}

/**
 * The streamed answer as SSE events. Content chunks are built from a pre-serialised prefix and
 * suffix so that 100,000 chunks cost one JSON.stringify of the piece each, nothing more.
 */
export function* completionStream(answer: Answer, env: Envelope): Generator<string | StreamPause, void, undefined> {
  const head =
    `{"id":${JSON.stringify(env.id)},"object":"chat.completion.chunk","created":${env.created},` +
    `"model":${JSON.stringify(env.model)},"system_fingerprint":"fastcoe",${env.customId ? '"custom_id":0,' : ''}"choices":[{"index":0,"delta":`;
  const usageNull = env.includeUsage ? ',"usage":null' : '';
  const open = (finish: string | null): string => `,"logprobs":null,"finish_reason":${finish === null ? 'null' : JSON.stringify(finish)}}]${usageNull}}`;
  const tail = open(null);
  const chunk = (delta: string, finish: string | null = null): string => dataEvent(head + delta + (finish === null ? tail : open(finish)));

  // Transcription chunks have no role chunk in the real samples; chat streams start with one.
  if (!env.customId) yield chunk('{"role":"assistant","content":""}');
  let firstTokenMs: number | undefined;
  const reasoning = answer.reasoning;
  if (reasoning !== undefined && reasoning.pieces.length > 0) {
    // Thinking streams live: a piece, then a pause, so a long think is steady output, never silence.
    const pauseMs = reasoning.thinkMs / reasoning.pieces.length;
    for (const [i, piece] of reasoning.pieces.entries()) {
      firstTokenMs ??= Date.now();
      if (reasoning.shape === 'field') yield chunk(`{"reasoning":${JSON.stringify(piece)}}`);
      else yield chunk(`{"content":${JSON.stringify(i === 0 ? `<think>${piece}` : piece)}}`);
      if (pauseMs > 0) yield { pauseMs };
    }
    if (reasoning.shape === 'think') yield chunk('{"content":"</think>\\n\\n"}');
  }
  for (const piece of answer.pieces) {
    firstTokenMs ??= Date.now();
    yield chunk(`{"content":${JSON.stringify(piece)}}`);
  }
  if (answer.toolCalls.length > 0) {
    firstTokenMs ??= Date.now();
    yield* toolCallChunks(answer, chunk);
  }
  yield chunk('{"content":""}', answer.finishReason);
  if (env.includeUsage) {
    const usage = buildUsage(answer.promptTokens, answer.completionTokens, env, firstTokenMs, reasoning?.tokens);
    const final: Record<string, unknown> = {
      id: env.id,
      object: 'chat.completion.chunk',
      created: env.created,
      model: env.model,
      system_fingerprint: 'fastcoe',
    };
    if (env.customId) final['custom_id'] = 0;
    final['choices'] = [];
    final['usage'] = usage;
    yield dataEvent(JSON.stringify(final));
  }
  yield DONE_EVENT;
}

function* toolCallChunks(answer: Answer, chunk: (delta: string) => string): Generator<string, void, undefined> {
  if (!answer.fragmented) {
    // Spec-era models sent every call whole in a single delta (docs/service.md#tool-calls).
    const calls = answer.toolCalls.map((call, index) => ({
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: wireArguments(call.arguments) },
    }));
    yield chunk(JSON.stringify({ tool_calls: calls }));
    return;
  }
  for (const [index, call] of answer.toolCalls.entries()) {
    if (typeof call.arguments !== 'string') {
      // An arguments object cannot be cut into string fragments; send that call whole.
      yield chunk(JSON.stringify({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] }));
      continue;
    }
    yield chunk(JSON.stringify({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    const args = call.arguments;
    for (let at = 0; at < args.length; at += 7) {
      yield chunk(JSON.stringify({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 7) } }] }));
    }
  }
}
