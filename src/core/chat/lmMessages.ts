// The conversion between VS Code's language-model messages (as `host/lm` reduces them, without any
// `vscode` type) and the service client's ChatMessage, plus the model limits VS Code is told about
// (token counts are lmTokenCount's).
// Pure, so the rules (one image per request, tool results as `tool` messages, orphan results as text)
// are unit-tested in plain Node.
import type { ChatMessage, ContentPart, ModelInfo, ToolCall, ToolDefinition } from '../api/types';
import { defaultMaxTokens, fallbackContextLength } from './requestBuilder';

/** One content part of a VS Code message, reduced to what the service can take. */
export type LmPart =
  | { readonly kind: 'text'; readonly text: string }
  /** A LanguageModelDataPart: an image, or text/JSON data. */
  | { readonly kind: 'data'; readonly mimeType: string; readonly data: Uint8Array }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: unknown }
  /** The result of an earlier call, its parts already reduced to text. */
  | { readonly kind: 'toolResult'; readonly callId: string; readonly text: string };

/** A VS Code message: User (1), Assistant (2) or the System role newer VS Code versions send (3). */
export interface LmMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly parts: readonly LmPart[];
}

/** The client's messages for a VS Code request, and what had to be left out on the way. */
export interface MappedMessages {
  readonly messages: ChatMessage[];
  /** Images replaced by a note: older than the newest (the spec takes one per request), or sent to a model without vision. */
  readonly droppedImages: number;
}

/** Image types the service accepts as data URLs (docs/service.md#images). */
const imageMimeTypes = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/** The note that stands in for an image the request cannot carry. */
export const olderImageNote = '[An earlier image is not resent: the service takes one image per request.]';
/** The note for an image sent to a model that does not take images. */
export const noVisionNote = '[An image was left out: this model does not take images.]';

function isImage(part: LmPart): part is Extract<LmPart, { kind: 'data' }> {
  return part.kind === 'data' && imageMimeTypes.has(part.mimeType.toLowerCase());
}

function isTextData(mimeType: string): boolean {
  const type = mimeType.toLowerCase();
  return type.startsWith('text/') || type.includes('json') || type.includes('xml');
}

/** `data:<mime>;base64,<bytes>`, as the service takes an image. */
export function imageDataUrl(mimeType: string, data: Uint8Array): string {
  return `data:${mimeType.toLowerCase()};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

/** A data part that is text (text/*, JSON, XML) decoded; undefined for binary data. */
export function dataPartText(part: { readonly mimeType: string; readonly data: Uint8Array }): string | undefined {
  return isTextData(part.mimeType) ? new TextDecoder().decode(part.data) : undefined;
}

/** A tool call's input as the JSON string the wire carries. */
function argumentsOf(input: unknown): string {
  return JSON.stringify(input ?? {});
}

/**
 * Maps VS Code messages to the client's: user text and images into user messages (only the newest image
 * of the request is kept, older ones and any image for a model without vision become a note), assistant
 * text and tool calls into assistant messages, tool results into `tool` messages with the call's id
 * placed before the user's text of the same message. A result whose call is not in the history (VS Code
 * trimmed it) is sent as user text, since the service refuses a `tool` message without its call.
 */
export function toChatMessages(input: readonly LmMessage[], options: { readonly imageInput: boolean }): MappedMessages {
  let newest: { message: number; part: number } | undefined;
  input.forEach((message, m) =>
    message.parts.forEach((part, p) => {
      if (message.role === 'user' && isImage(part)) newest = { message: m, part: p };
    }),
  );
  const calls = new Set<string>();
  const messages: ChatMessage[] = [];
  let droppedImages = 0;
  input.forEach((message, m) => {
    const texts: string[] = [];
    const content: ContentPart[] = [];
    const toolCalls: ToolCall[] = [];
    const addText = (text: string): void => {
      if (text === '') return;
      texts.push(text);
      content.push({ type: 'text', text });
    };
    message.parts.forEach((part, p) => {
      switch (part.kind) {
        case 'text':
          addText(part.text);
          break;
        case 'data':
          if (!isImage(part)) {
            addText(dataPartText(part) ?? '');
          } else if (message.role === 'user' && options.imageInput && newest?.message === m && newest.part === p) {
            content.push({ type: 'image', dataUrl: imageDataUrl(part.mimeType, part.data) });
          } else {
            droppedImages += 1;
            addText(options.imageInput ? olderImageNote : noVisionNote);
          }
          break;
        case 'toolCall':
          if (message.role === 'assistant') {
            calls.add(part.callId);
            toolCalls.push({ id: part.callId, name: part.name, arguments: argumentsOf(part.input) });
          } else {
            addText(`[Tool call ${part.name} ${argumentsOf(part.input)}]`);
          }
          break;
        case 'toolResult':
          if (calls.has(part.callId)) messages.push({ role: 'tool', toolCallId: part.callId, content: part.text });
          else addText(`Result of tool call ${part.callId}:\n${part.text}`);
          break;
      }
    });
    const text = texts.join('\n\n');
    if (message.role === 'assistant') {
      if (text !== '' || toolCalls.length > 0)
        messages.push({ role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
    } else if (message.role === 'system') {
      if (text !== '') messages.push({ role: 'system', content: text });
    } else if (content.some((part) => part.type === 'image')) {
      messages.push({ role: 'user', content });
    } else if (text !== '') {
      messages.push({ role: 'user', content: text });
    }
  });
  return { messages, droppedImages };
}

/** A tool VS Code offers the model, as the client sends it; a missing schema becomes an empty object schema. */
export function toToolDefinition(tool: { readonly name: string; readonly description: string; readonly inputSchema?: object | undefined }): ToolDefinition {
  const schema =
    tool.inputSchema && Object.keys(tool.inputSchema).length > 0 ? (tool.inputSchema as Readonly<Record<string, unknown>>) : { type: 'object', properties: {} };
  return { name: tool.name, description: tool.description, parameters: schema };
}

/** The limits VS Code is told about a model, and the answer length asked for by default. */
export interface LmModelLimits {
  /** The prompt may take the context minus the answer reserved by default. */
  readonly maxInputTokens: number;
  /** The model's own output limit (max_completion_tokens). */
  readonly maxOutputTokens: number;
  /** max_tokens sent when the caller does not ask for a length. */
  readonly defaultMaxTokens: number;
}

/**
 * The limits of a listed model: the output limit as listed; the input limit is the context length minus
 * the answer reserved by default (4096 or the model's smaller limit), so a prompt VS Code fits to it
 * always leaves room for that answer. Without a listed context, 8192 is assumed (as the panel does).
 */
export function modelLimits(model: Pick<ModelInfo, 'contextLength' | 'maxCompletionTokens'>): LmModelLimits {
  const context = model.contextLength ?? fallbackContextLength;
  const output = model.maxCompletionTokens ?? Math.min(defaultMaxTokens, Math.floor(context / 2));
  const reserved = Math.max(1, Math.min(defaultMaxTokens, output, Math.floor(context / 2)));
  return { maxInputTokens: context - reserved, maxOutputTokens: output, defaultMaxTokens: reserved };
}

/** Sampling options a caller may pass through `modelOptions`, read leniently (wrong types are ignored). */
export interface LmSampling {
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly maxTokens?: number;
  readonly stop?: readonly string[];
}

/** Reads temperature, top_p/topP, top_k/topK, max_tokens/maxTokens and stop from `modelOptions`. */
export function readSampling(options: Readonly<Record<string, unknown>> | undefined): LmSampling {
  if (!options) return {};
  const number = (...keys: string[]): number | undefined => {
    for (const key of keys) {
      const value = options[key];
      if (typeof value === 'number' && Number.isFinite(value)) return value;
    }
    return undefined;
  };
  const temperature = number('temperature');
  const topP = number('top_p', 'topP');
  const topK = number('top_k', 'topK');
  const maxTokens = number('max_tokens', 'maxTokens');
  const rawStop = options['stop'];
  const stop =
    typeof rawStop === 'string'
      ? [rawStop]
      : Array.isArray(rawStop)
        ? rawStop.filter((entry): entry is string => typeof entry === 'string' && entry !== '')
        : undefined;
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(topK !== undefined ? { topK: Math.round(topK) } : {}),
    ...(maxTokens !== undefined ? { maxTokens: Math.round(maxTokens) } : {}),
    ...(stop && stop.length > 0 ? { stop } : {}),
  };
}

/**
 * The text of a prompt-tsx tool result (`@vscode/prompt-tsx` renderElementJSON): its text nodes in order.
 * Other tools' results reach a Cadenza model in this form; the service only takes text.
 */
export function promptTsxText(value: unknown): string {
  const out: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > 64 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const child of node) walk(child, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    if (typeof record['text'] === 'string') out.push(`${record['lineBreakBefore'] === true ? '\n' : ''}${record['text']}`);
    for (const key of ['node', 'children']) walk(record[key], depth + 1);
  };
  walk(value, 0);
  return out.join('');
}
