// POST /v1/chat/completions and POST /v1/audio/reasoning: decide the answer (scripted, tool call,
// JSON mode or the default reply), cut it by stop and max_tokens, and shape it as JSON or SSE.
import { type Answer, type AnswerToolCall, completionBody, completionStream, newEnvelope, newToolCallId, type Reasoning } from './completion';
import { type ChatRequest, parseChatRequest } from './chatRequest';
import { type HandlerContext, type Reply } from './context';
import { type ScriptedChat } from './emulator';
import { applyStop, argumentsForTool, defaultReply, padToTokens, splitPieces, valueForSchema } from './replies';
import { countTokens, truncateTokens } from './tokens';

/** Handles chat completions (operation 'chat') and audio reasoning (operation 'audioReasoning'). */
export function handleChat(ctx: HandlerContext, operation: 'chat' | 'audioReasoning'): Reply {
  const request = parseChatRequest(ctx.json, ctx.models, operation);
  const answer = decideAnswer(request, ctx.nextScript(), ctx.thinkMs);
  // Qwen2-Audio's real usage has no acceptance_rate (no speculative decoding for it).
  const env = newEnvelope(request.model.id, ctx.startMs, request.includeUsage, { acceptanceRate: request.model.kind !== 'audioInstruct' });
  if (request.stream) return { kind: 'sse', events: completionStream(answer, env) };
  if (request.plainText) return { kind: 'text', body: answer.content };
  return { kind: 'json', body: completionBody(answer, env) };
}

/** Builds the answer for a validated request and an optional script. */
export function decideAnswer(request: ChatRequest, script: ScriptedChat | undefined, thinkMs = 0): Answer {
  const toolCalls = decideToolCalls(request, script);
  let content = script?.content ?? (toolCalls.length > 0 ? '' : generatedContent(request));
  if (script?.chunkCount !== undefined && script.content === undefined && toolCalls.length === 0) {
    // Benchmarks ask for 100,000 chunks; make sure there is text enough for each to carry a token.
    content = padToTokens(content, script.chunkCount);
  }
  let finishReason: Answer['finishReason'] = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const stopped = applyStop(content, request.stop);
  content = stopped.text;
  if (request.maxTokens !== undefined) {
    const cut = truncateTokens(content, request.maxTokens);
    content = cut.text;
    if (cut.truncated) finishReason = 'length';
  }
  if (script?.finishReason !== undefined) finishReason = script.finishReason;
  const reasoning = decideReasoning(request, script, thinkMs);
  const completionTokens =
    (reasoning?.tokens ?? 0) +
    countTokens(content) +
    toolCalls.reduce(
      (sum, call) => sum + countTokens(call.name) + countTokens(typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)),
      0,
    );
  return {
    ...(reasoning ? { reasoning } : {}),
    content,
    pieces: splitPieces(content, script?.chunkCount),
    toolCalls,
    fragmented: script?.fragmented ?? false,
    finishReason,
    promptTokens: request.promptTokens,
    completionTokens,
  };
}

/**
 * A reasoning model thinks first (unless `enable_thinking: false` turned it off): the script's thinking or a
 * generated paragraph, cut into pieces spread over the thinking time; low effort thinks a third as long.
 */
function decideReasoning(request: ChatRequest, script: ScriptedChat | undefined, defaultThinkMs: number): Reasoning | undefined {
  const shape = request.model.reasoning;
  if (shape === undefined) return undefined;
  if (request.enableThinking === false && request.model.reasoningControls?.includes('thinking') === true) return undefined;
  const text =
    script?.reasoning ??
    `Let me think about "${request.lastUserText.slice(0, 80)}". First I consider what is being asked, then what I know about it, then how to say it briefly.`;
  let thinkMs = script?.thinkMs ?? defaultThinkMs;
  if (request.reasoningEffort === 'low' && script?.thinkMs === undefined) thinkMs /= 3;
  // One piece per ~250 ms of thinking (at least one per sentence-sized run of words), never empty.
  const count = Math.max(1, Math.min(text.length, Math.ceil(thinkMs / 250), 400));
  return { shape, pieces: splitPieces(text, count), thinkMs, tokens: countTokens(text) };
}

function generatedContent(request: ChatRequest): string {
  const format = request.responseFormat;
  if (format?.type === 'json_schema') return JSON.stringify(valueForSchema(format.schema, 'answer'));
  const clip = request.audio[0];
  const prompt =
    clip === undefined
      ? request.lastUserText
      : `${request.lastUserText} (about ${clip.format} audio of ${clip.bytes} bytes${clip.seconds === undefined ? '' : `, ${clip.seconds.toFixed(1)} s`})`;
  const text = defaultReply(prompt);
  return format?.type === 'json_object' ? JSON.stringify({ answer: text }) : text;
}

function decideToolCalls(request: ChatRequest, script: ScriptedChat | undefined): AnswerToolCall[] {
  const asObject = script?.argumentsAsObject ?? false;
  const malformed = script?.malformedArguments ?? false;
  const wire = (args: string | Record<string, unknown>): AnswerToolCall['arguments'] => {
    if (malformed) {
      // Cut mid-value: plausible model output that no JSON parser accepts.
      const text = typeof args === 'string' ? args : JSON.stringify(args);
      return `${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}, "unterminated`;
    }
    if (asObject) return typeof args === 'string' ? parseObject(args) : args;
    return typeof args === 'string' ? args : JSON.stringify(args);
  };
  if (script?.toolCalls !== undefined && script.toolCalls.length > 0) {
    return script.toolCalls.map((call) => ({ id: call.id ?? newToolCallId(), name: call.name, arguments: wire(call.arguments) }));
  }
  if (request.forcedTool === undefined) return [];
  const tool = request.forcedTool === 'required' ? request.tools[0] : request.tools.find((t) => t.name === request.forcedTool);
  if (tool === undefined) return [];
  return [{ id: newToolCallId(), name: tool.name, arguments: wire(argumentsForTool(tool.parameters)) }];
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Scripted text that is not JSON stays visible to the test as a single field.
  }
  return { value: text };
}
