import type { AudioReasoningRequest, ChatMessage, ChatRequest, ContentPart, ModelInfo } from '../api/types';
import { condensedView, summaryAcknowledgement, summaryTurn } from './condense';
import { fitToContext, type BudgetResult } from './contextBudget';
import type { Conversation, StoredMessage, StoredOptions } from './conversation';
import { contextPreamble } from './context/contextProvider';
import { parseJsonObject } from '../../shared/jsonObject';

/** A per-conversation option that was out of the spec's limits and how it was corrected. */
export interface OptionProblem {
  readonly param: 'temperature' | 'topP' | 'topK' | 'maxTokens' | 'stop' | 'schema';
  readonly message: string;
}

/** Answer length reserved when neither the user nor the model says otherwise. */
export const defaultMaxTokens = 4096;

/** Context assumed for a model the listing gives no length for (self-hosted servers often don't). */
export const fallbackContextLength = 8192;

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Brings options within the spec's limits (temperature and top_p 0–1, top_k 1–100 whole, max_tokens
 * 1..the model's maximum, at most 4 non-empty stop sequences, a schema that parses) so the panel can
 * never produce an invalid request. Returns the corrected options and what was corrected.
 */
export function normaliseOptions(options: StoredOptions, model: ModelInfo | undefined): { options: StoredOptions; problems: OptionProblem[] } {
  const problems: OptionProblem[] = [];
  const result: StoredOptions = { ...options };
  const fix = <K extends 'temperature' | 'topP'>(key: K): void => {
    const value = options[key];
    if (value === undefined) return;
    const fixed = Number.isFinite(value) ? clamp(value, 0, 1) : 0;
    if (fixed !== value) problems.push({ param: key, message: `${key} must be between 0 and 1; used ${fixed}.` });
    result[key] = fixed;
  };
  fix('temperature');
  fix('topP');
  if (options.topK !== undefined) {
    const fixed = Number.isFinite(options.topK) ? clamp(Math.round(options.topK), 1, 100) : 50;
    if (fixed !== options.topK) problems.push({ param: 'topK', message: `topK must be a whole number from 1 to 100; used ${fixed}.` });
    result.topK = fixed;
  }
  if (options.maxTokens !== undefined) {
    const ceiling = model?.maxCompletionTokens ?? Number.MAX_SAFE_INTEGER;
    const fixed = Number.isFinite(options.maxTokens) ? clamp(Math.round(options.maxTokens), 1, ceiling) : Math.min(defaultMaxTokens, ceiling);
    if (fixed !== options.maxTokens) problems.push({ param: 'maxTokens', message: `maxTokens must be from 1 to ${ceiling}; used ${fixed}.` });
    result.maxTokens = fixed;
  }
  if (options.stop !== undefined) {
    const stop = options.stop.filter((sequence) => sequence !== '');
    if (stop.length > 4) problems.push({ param: 'stop', message: 'At most 4 stop sequences; the first 4 were kept.' });
    result.stop = stop.slice(0, 4);
  }
  if (options.jsonMode === 'schema') {
    if (parseJsonObject(options.schema) === undefined) {
      problems.push({ param: 'schema', message: 'The JSON schema is missing or is not a JSON object; JSON mode without a schema was used.' });
      result.jsonMode = 'object';
    }
  }
  return { options: result, problems };
}

/** A user message's text as sent: the context its mentions attached, then what the user typed. */
function sentText(message: StoredMessage): string {
  return message.context?.length ? `${contextPreamble(message.context)}${message.text}` : message.text;
}

/** Whether an agent step made tool calls (it is sent even without text: the calls and results are the history). */
function hasToolCalls(message: StoredMessage): boolean {
  return message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0;
}

/** The messages of a conversation that go to the service: not failed placeholders, not empty answers. */
function sendable(messages: readonly StoredMessage[]): StoredMessage[] {
  return messages.filter((message) => hasToolCalls(message) || !(message.role === 'assistant' && (message.error !== undefined || message.text === '')));
}

/** A message with what the context budget counts. */
type Budgeted = {
  readonly message: ChatMessage;
  readonly role: ChatMessage['role'];
  readonly text: string;
  readonly hasImage: boolean;
  readonly pinned?: boolean;
};

/** A call saved without a result (the window closed mid-call) is sent as not run, so the history stays valid. */
const interruptedResult = 'Not run: the answer was interrupted.';

/** An agent step: the assistant message with its calls, then one tool message per call, in call order. */
function agentStep(message: StoredMessage): Budgeted[] {
  const calls = message.toolCalls ?? [];
  const toolCalls = calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments }));
  const text = message.text + calls.map((call) => `${call.name}${call.arguments}`).join('');
  const out: Budgeted[] = [
    { message: { role: 'assistant', content: message.text === '' ? null : message.text, toolCalls }, role: 'assistant', text, hasImage: false },
  ];
  for (const call of calls) {
    const result = call.result ?? interruptedResult;
    out.push({ message: { role: 'tool', toolCallId: call.id, content: result }, role: 'tool', text: result, hasImage: false });
  }
  return out;
}

/**
 * Builds the chat request for a conversation: the system prompt, the history fitted into the model's
 * context minus max_tokens (and minus `reservedTokens`, what the request carries besides its messages: the
 * agent's tool schemas), and the options. Only the newest image is sent (the service takes one image per
 * request); older ones are replaced by a note.
 */
export function buildChatRequest(
  conversation: Conversation,
  model: ModelInfo | undefined,
  options: StoredOptions,
  reservedTokens = 0,
): { request: ChatRequest; budget: BudgetResult<Budgeted> } {
  const modelId = conversation.model ?? model?.id ?? '';
  const maxTokens = options.maxTokens ?? Math.min(defaultMaxTokens, model?.maxCompletionTokens ?? defaultMaxTokens);
  // A condensed conversation sends its summary (as the first turn, see condense.ts) instead of the messages it covers.
  const condensed = condensedView(conversation);
  const history = sendable(condensed.messages);
  let newestImage = -1;
  history.forEach((message, index) => {
    if (message.imageDataUrl) newestImage = index;
  });

  const budgeted: Budgeted[] = [];
  const plain = (role: 'system' | 'user' | 'assistant', text: string): Budgeted => ({ message: { role, content: text }, role, text, hasImage: false });
  const systemParts = [options.systemPrompt?.trim() ?? ''];
  if (options.jsonMode === 'object' || options.jsonMode === 'schema') systemParts.push('Answer with a single JSON value and nothing else.');
  const system = systemParts.filter((part) => part !== '').join('\n\n');
  if (system) budgeted.push(plain('system', system));
  // Kept whatever the budget drops, like the system prompt: the turns it replaced are not sent either.
  if (condensed.summary !== undefined)
    budgeted.push({ ...plain('user', summaryTurn(condensed.summary)), pinned: true }, { ...plain('assistant', summaryAcknowledgement), pinned: true });
  history.forEach((message, index) => {
    if (message.role === 'system') {
      budgeted.push(plain('system', message.text));
    } else if (message.role === 'assistant') {
      if (hasToolCalls(message)) budgeted.push(...agentStep(message));
      else budgeted.push(plain('assistant', message.text));
    } else if (message.imageDataUrl && index === newestImage) {
      const parts: ContentPart[] = [
        { type: 'text', text: sentText(message) },
        { type: 'image', dataUrl: message.imageDataUrl },
      ];
      budgeted.push({ message: { role: 'user', content: parts }, role: 'user', text: sentText(message), hasImage: true });
    } else {
      const text = message.imageDataUrl
        ? `${sentText(message)}\n\n[An earlier image is not resent: the service takes one image per request.]`
        : sentText(message);
      budgeted.push(plain('user', text));
    }
  });

  const budget = fitToContext(budgeted, (model?.contextLength ?? fallbackContextLength) - reservedTokens, maxTokens);
  const request: ChatRequest = {
    model: modelId,
    messages: budget.kept.map((entry) => entry.message),
    maxTokens,
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.topP !== undefined ? { topP: options.topP } : {}),
    ...(options.topK !== undefined ? { topK: options.topK } : {}),
    ...(options.stop && options.stop.length > 0 ? { stop: options.stop } : {}),
    ...(options.jsonMode === 'object' ? { responseFormat: { type: 'json_object' as const } } : {}),
    ...(options.jsonMode === 'schema'
      ? { responseFormat: { type: 'json_schema' as const, jsonSchema: { name: 'answer', schema: parseJsonObject(options.schema) ?? {} } } }
      : {}),
    ...reasoningControls(model, options),
    includeUsage: true,
  };
  return { request, budget };
}

/** The reasoning controls a model takes, from the options: never sent to a model that does not take them. */
function reasoningControls(model: ModelInfo | undefined, options: StoredOptions): Pick<ChatRequest, 'reasoningEffort' | 'enableThinking'> {
  const controls = model?.reasoning?.controls ?? [];
  return {
    ...(controls.includes('effort') && options.reasoningEffort !== undefined ? { reasoningEffort: options.reasoningEffort } : {}),
    ...(controls.includes('thinking') && options.thinking !== undefined ? { enableThinking: options.thinking } : {}),
  };
}

/** The newest audio attachment of a conversation, if any: such a conversation is answered by audio reasoning. */
function newestAudio(conversation: Conversation): { readonly name: string; readonly dataUrl: string } | undefined {
  return [...conversation.messages].reverse().find((message) => message.audio !== undefined)?.audio;
}

function bytesOfDataUrl(dataUrl: string): Uint8Array {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  return Buffer.from(base64, 'base64');
}

/**
 * Builds the audio-reasoning request of a conversation with audio: the newest audio is sent again with
 * every turn (the service keeps no state), the last user message is the instruction, earlier turns are
 * the history as text.
 */
export function buildAudioReasoningRequest(conversation: Conversation, options: StoredOptions): AudioReasoningRequest | undefined {
  const audio = newestAudio(conversation);
  if (!audio || !conversation.model) return undefined;
  const history = sendable(conversation.messages);
  const last = history.at(-1);
  const earlier: ChatMessage[] = [];
  if (options.systemPrompt?.trim()) earlier.push({ role: 'system', content: options.systemPrompt.trim() });
  for (const message of history.slice(0, -1)) {
    if (message.role === 'user') earlier.push({ role: 'user', content: sentText(message) });
    else if (message.role === 'assistant') earlier.push({ role: 'assistant', content: message.text });
  }
  return {
    model: conversation.model,
    audio: bytesOfDataUrl(audio.dataUrl),
    ...(last?.role === 'user' ? { instruction: sentText(last) } : {}),
    ...(earlier.length > 0 ? { history: earlier } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    includeUsage: true,
  };
}
