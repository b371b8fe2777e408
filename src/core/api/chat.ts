// Chat completions on the wire: the request body (plain string content for text models, part
// arrays only for images and audio, docs/service.md#message-content), and the accumulator that turns
// streamed chunks, or one whole completion, into events and a ChatResult. Tool calls are gathered
// by `index` whether they arrive whole or in fragments, with `arguments` as a string or an object.
import { ApiError } from './errors';
import { ThinkTagSplitter } from './reasoning';
import { buildUsageReport, readServiceUsage } from './usage';
import { type ChatMessage, type ChatRequest, type ChatResult, type ChatStreamEvent, type FinishReason, type ServiceUsage, type ToolCall } from './types';
import { isRecord } from '../../shared/jsonObject';

type WirePart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } } | { type: 'audio_content'; audio_content: { content: string } };

/** A message as the service expects it. */
export type WireMessage = Record<string, unknown>;

/** Maps one message; used for chat and for the history of audio reasoning. */
export function toWireMessage(message: ChatMessage): WireMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user': {
      if (typeof message.content === 'string') return { role: 'user', content: message.content };
      // Text models may refuse content arrays (LiteLLM: "SambaNova API doesn't support content as a
      // list"), so a message of text parts alone is flattened to one string.
      if (message.content.every((p) => p.type === 'text')) {
        return { role: 'user', content: message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n') };
      }
      const parts: WirePart[] = message.content.map((p) =>
        p.type === 'text'
          ? { type: 'text', text: p.text }
          : p.type === 'image'
            ? { type: 'image_url', image_url: { url: p.dataUrl } }
            : { type: 'audio_content', audio_content: { content: p.dataUrl } },
      );
      return { role: 'user', content: parts };
    }
    case 'assistant': {
      const wire: WireMessage = { role: 'assistant', content: message.content ?? '' };
      if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
        wire['tool_calls'] = message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      }
      return wire;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/** Builds the JSON body of POST /v1/chat/completions; InferenceClient sends it as is (and re-sends it on retries). */
export function buildChatBody(request: ChatRequest, stream: boolean, server: { llamaCpp?: boolean } = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, messages: request.messages.map(toWireMessage) };
  if (request.maxTokens !== undefined) body['max_tokens'] = request.maxTokens;
  if (request.temperature !== undefined) body['temperature'] = request.temperature;
  if (request.topP !== undefined) body['top_p'] = request.topP;
  if (request.topK !== undefined) body['top_k'] = request.topK;
  if (request.stop !== undefined) body['stop'] = request.stop;
  if (request.tools !== undefined && request.tools.length > 0) {
    body['tools'] = request.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        ...(t.description === undefined ? {} : { description: t.description }),
        ...(t.parameters === undefined ? {} : { parameters: t.parameters }),
      },
    }));
  }
  const choice = request.toolChoice;
  if (choice !== undefined) body['tool_choice'] = typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
  const format = request.responseFormat;
  // `{type: "text"}` is never sent: the service rejects it (docs/service.md#json-mode).
  // llama.cpp builds after de3ff81 constrain json_object only when it carries a schema (its own
  // extension); a bare one came back as free text ("Hello!"). The service gets the spec's shape.
  if (format?.type === 'json_object')
    body['response_format'] = server.llamaCpp === true ? { type: 'json_object', schema: { type: 'object' } } : { type: 'json_object' };
  if (format?.type === 'json_schema') {
    const { name, description, schema, strict } = format.jsonSchema;
    body['response_format'] = {
      type: 'json_schema',
      json_schema: {
        name,
        ...(description === undefined ? {} : { description }),
        ...(schema === undefined ? {} : { schema }),
        ...(strict === undefined ? {} : { strict }),
      },
    };
  }
  if (request.reasoningEffort !== undefined) body['reasoning_effort'] = request.reasoningEffort;
  if (request.enableThinking !== undefined) body['chat_template_kwargs'] = { enable_thinking: request.enableThinking };
  if (stream) {
    body['stream'] = true;
    if (request.includeUsage !== false) body['stream_options'] = { include_usage: true };
  }
  return body;
}

/** Characters of the prompt, for the token estimate when the service sends no counts. */
export function promptChars(messages: readonly ChatMessage[]): number {
  let n = 0;
  for (const m of messages) {
    if (typeof m.content === 'string') n += m.content.length;
    else if (Array.isArray(m.content)) for (const p of m.content) if (p.type === 'text') n += p.text.length;
  }
  return n;
}

interface PendingCall {
  id: string | undefined;
  name: string | undefined;
  args: string[];
}

/**
 * Gathers one answer from chunks (or a whole completion). Text goes into an array joined once at
 * the end, so a 100,000-chunk answer costs no quadratic string building.
 */
export class ChatAccumulator {
  id = '';
  model = '';
  finishReason: FinishReason = 'unknown';
  usage: ServiceUsage | undefined;
  /** performance.now() of the first text or tool-call fragment. */
  firstTokenAt: number | undefined;
  outputChars = 0;
  private readonly texts: string[] = [];
  private readonly thoughts: string[] = [];
  private readonly calls: PendingCall[] = [];
  private readonly splitter = new ThinkTagSplitter();
  /** The wire `index` of each call to its slot in `calls`. */
  private readonly callSlots = new Map<number, number>();

  /** Reads one streamed chunk, appending the events it makes to `out`; `now` is the arrival time. */
  pushChunk(chunk: unknown, out: ChatStreamEvent[], now: number): void {
    if (!isRecord(chunk)) throw new ApiError('malformedResponse', 'The stream carried a chunk that is not an object');
    if (this.id === '' && typeof chunk['id'] === 'string') this.id = chunk['id'];
    if (this.model === '' && typeof chunk['model'] === 'string') this.model = chunk['model'];
    const usage = chunk['usage'];
    if (usage != null) this.usage = readServiceUsage(usage) ?? this.usage;
    // llama-server streams transcriptions as OpenAI's transcript events, not as chat chunks
    // (docs/testing.md#self-hosted-servers-llama-server-differences); their usage was read just above.
    const kind = chunk['type'];
    if (kind === 'transcript.text.delta' || kind === 'transcript.text.done') {
      this.pushTranscriptEvent(kind, chunk, out, now);
      return;
    }
    // `choices` may be missing, [] (the usage chunk) or null (docs/service.md#streaming).
    const choices = chunk['choices'];
    if (!Array.isArray(choices)) return;
    for (const choice of choices) {
      if (!isRecord(choice)) continue;
      // The service holds a single completion; any other index is ignored.
      if (typeof choice['index'] === 'number' && choice['index'] !== 0) continue;
      const delta = choice['delta'] ?? choice['message'];
      if (isRecord(delta)) this.pushDelta(delta, out, now);
      const finish = choice['finish_reason'];
      if (typeof finish === 'string' && finish !== '') {
        this.finishReason = finish;
        out.push({ type: 'finish', reason: finish });
      }
    }
  }

  /** Reads a non-streamed chat.completion (or a JSON body that came back for a streamed request). */
  pushCompletion(value: unknown, now: number): ChatStreamEvent[] {
    const out: ChatStreamEvent[] = [];
    // A server that does not stream transcriptions (faster-whisper-server) answers a streamed request
    // with its plain {"text": ...} body: the whole transcript at once.
    if (isRecord(value) && !('choices' in value) && typeof value['text'] === 'string') {
      this.pushTranscriptEvent('transcript.text.done', value, out, now);
      return out;
    }
    if (!isRecord(value) || !Array.isArray(value['choices'])) {
      throw new ApiError('malformedResponse', 'The service sent a completion without choices');
    }
    this.pushChunk(value, out, now);
    this.finish(out, now);
    return out;
  }

  /** A `transcript.text.delta` carries a piece of text; `transcript.text.done` the whole, used only when no piece came. */
  private pushTranscriptEvent(
    kind: 'transcript.text.delta' | 'transcript.text.done',
    chunk: Record<string, unknown>,
    out: ChatStreamEvent[],
    now: number,
  ): void {
    if (kind === 'transcript.text.delta') {
      this.pushDelta({ content: chunk['delta'] }, out, now);
      return;
    }
    if (this.texts.length === 0) this.pushDelta({ content: chunk['text'] }, out, now);
    this.finishReason = 'stop';
    out.push({ type: 'finish', reason: 'stop' });
  }

  private pushDelta(delta: Record<string, unknown>, out: ChatStreamEvent[], now: number): void {
    // Reasoning as its own field: `reasoning` (the service, gpt-oss) or `reasoning_content` (DeepSeek's
    // own API and llama-server). It counts as output for the watchdogs and the speed figures.
    const reasoning = typeof delta['reasoning'] === 'string' ? delta['reasoning'] : delta['reasoning_content'];
    if (typeof reasoning === 'string' && reasoning !== '') this.pushReasoning(reasoning, out, now);
    const content = delta['content'];
    if (typeof content === 'string' && content !== '') {
      for (const piece of this.splitter.push(content)) {
        if (piece.kind === 'reasoning') this.pushReasoning(piece.text, out, now);
        else this.pushText(piece.text, out, now);
      }
    }
    const toolCalls = delta['tool_calls'];
    if (!Array.isArray(toolCalls)) return;
    toolCalls.forEach((raw, position) => {
      if (!isRecord(raw)) return;
      // Whole calls of non-streamed answers carry index null; then the position is the index.
      const wireIndex = typeof raw['index'] === 'number' ? raw['index'] : position;
      const id = typeof raw['id'] === 'string' && raw['id'] !== '' ? raw['id'] : undefined;
      let index = this.callSlots.get(wireIndex);
      let call = index === undefined ? undefined : this.calls[index];
      // A new id at an index already in use is a new call, not more of the old one (servers that
      // number every call 0); fragments without an id continue the latest call at that index.
      if (index === undefined || call === undefined || (id !== undefined && call.id !== undefined && call.id !== id)) {
        index = this.calls.length;
        call = { id: undefined, name: undefined, args: [] };
        this.calls.push(call);
        this.callSlots.set(wireIndex, index);
      }
      // Events carry the call's own slot, so consumers that gather by index keep the calls apart.
      const event: Extract<ChatStreamEvent, { type: 'toolCall' }> = { type: 'toolCall', index, argumentsDelta: '' };
      if (id !== undefined) {
        call.id ??= id;
        event.id = id;
      }
      const fn = raw['function'];
      if (isRecord(fn)) {
        if (typeof fn['name'] === 'string' && fn['name'] !== '') {
          call.name ??= fn['name'];
          event.name = fn['name'];
        }
        const args = fn['arguments'];
        // An older backend sent arguments as a JSON object (docs/service.md#tool-calls); stringify it.
        const text = typeof args === 'string' ? args : isRecord(args) || Array.isArray(args) ? JSON.stringify(args) : '';
        if (text !== '') {
          call.args.push(text);
          this.outputChars += text.length;
          event.argumentsDelta = text;
        }
      }
      this.firstTokenAt ??= now;
      out.push(event);
    });
  }

  private pushText(text: string, out: ChatStreamEvent[], now: number): void {
    this.firstTokenAt ??= now;
    this.texts.push(text);
    this.outputChars += text.length;
    out.push({ type: 'text', text });
  }

  private pushReasoning(text: string, out: ChatStreamEvent[], now: number): void {
    this.firstTokenAt ??= now;
    this.thoughts.push(text);
    this.outputChars += text.length;
    out.push({ type: 'reasoning', text });
  }

  /** At the end of the stream: what the `<think>` splitter still held (a tag cut short is text after all). */
  finish(out: ChatStreamEvent[], now: number): void {
    for (const piece of this.splitter.flush()) {
      if (piece.kind === 'reasoning') this.pushReasoning(piece.text, out, now);
      else this.pushText(piece.text, out, now);
    }
  }

  /** True once any text, reasoning or tool-call fragment arrived (output that can reach the caller). */
  get hasOutput(): boolean {
    return this.firstTokenAt !== undefined;
  }

  /** The answer's text, joined once (never the reasoning). */
  text(): string {
    return this.texts.join('');
  }

  /** The reasoning, joined once. */
  reasoning(): string {
    return this.thoughts.join('');
  }

  /** The finished tool calls; a call without a name is a malformedResponse. */
  toolCalls(): ToolCall[] {
    const calls: ToolCall[] = [];
    this.calls.forEach((call, index) => {
      if (call.name === undefined) throw new ApiError('malformedResponse', `Tool call ${index} has no function name`);
      calls.push({ id: call.id ?? `call_${index}`, name: call.name, arguments: call.args.join('') });
    });
    return calls;
  }

  /** The whole answer, with its usage report from the service's counts and the client's timings. */
  result(timing: { startedAt: number; firstTokenAt: number | undefined; endedAt: number; promptChars: number }): ChatResult {
    return {
      id: this.id,
      model: this.model,
      text: this.text(),
      reasoning: this.reasoning(),
      toolCalls: this.toolCalls(),
      finishReason: this.finishReason,
      usage: buildUsageReport(this.usage, { ...timing, outputChars: this.outputChars }),
    };
  }
}
