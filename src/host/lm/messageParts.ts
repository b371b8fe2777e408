import * as vscode from 'vscode';
import { dataPartText, promptTsxText, type LmMessage, type LmPart } from '../../core/chat/lmMessages';

/** VS Code's System role: proposed API in 1.104 (absent from its types), sent by newer versions' agents. */
const systemRole = 3;

/**
 * A LanguageModelDataPart (image or text data). The class is not in the 1.104 API types but VS Code
 * sends instances of it, so it is recognised by shape: a mime type and bytes.
 */
function asDataPart(part: unknown): { mimeType: string; data: Uint8Array } | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  const record = part as { mimeType?: unknown; data?: unknown };
  return typeof record.mimeType === 'string' && record.data instanceof Uint8Array ? { mimeType: record.mimeType, data: record.data } : undefined;
}

/** The text of a tool result's parts: text parts, text data parts, prompt-tsx trees; other parts are skipped. */
export function toolResultText(content: readonly unknown[]): string {
  const texts: string[] = [];
  for (const part of content) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
    else if (part instanceof vscode.LanguageModelPromptTsxPart) texts.push(promptTsxText(part.value));
    else {
      const data = asDataPart(part);
      const text = data ? dataPartText(data) : undefined;
      if (text !== undefined) texts.push(text);
    }
  }
  return texts.join('\n');
}

/** One VS Code content part reduced for the mapping; thinking parts and unknown future parts are dropped. */
export function toLmPart(part: unknown): LmPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return { kind: 'toolResult', callId: part.callId, text: toolResultText(part.content) };
  const data = asDataPart(part);
  return data ? { kind: 'data', mimeType: data.mimeType, data: data.data } : undefined;
}

/** A message as VS Code hands it to a provider (or a caller builds it), reduced for the mapping. */
export function toLmMessage(message: vscode.LanguageModelChatRequestMessage | vscode.LanguageModelChatMessage): LmMessage {
  const role = message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : (message.role as number) === systemRole ? 'system' : 'user';
  const parts: LmPart[] = [];
  for (const part of message.content) {
    const reduced = toLmPart(part);
    if (reduced) parts.push(reduced);
  }
  return { role, parts };
}
