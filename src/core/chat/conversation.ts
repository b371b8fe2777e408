import { randomUUID } from 'node:crypto';

/** The speed and cost figures kept with an answer (see api/usage for how they are measured). */
export interface StoredUsage {
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  readonly timeToFirstTokenMs?: number;
  readonly tokensPerSecond?: number;
  readonly totalTimeMs?: number;
  readonly costUsd?: number;
  readonly source: 'service' | 'client' | 'mixed';
}

/** One message as it is saved. Tool calls and results come with the agent. */
export interface StoredMessage {
  readonly id: string;
  readonly role: 'user' | 'assistant' | 'system';
  text: string;
  readonly createdAt: number;
  imageDataUrl?: string;
  /** An audio file attached for audio reasoning, as a `data:audio/...;base64,` URL. */
  audio?: { readonly name: string; readonly dataUrl: string };
  model?: string;
  stopped?: boolean;
  usage?: StoredUsage;
  /** Workspace locations put into the prompt for this answer (the workspace toggle). */
  sources?: { readonly label: string; readonly uri: string; readonly startLine: number; readonly endLine: number }[];
  error?: { readonly message: string; readonly reason: string };
}

/** Per-conversation request options (the panel's settings), validated before each request. */
export interface StoredOptions {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxTokens?: number;
  stop?: string[];
  systemPrompt?: string;
  jsonMode?: 'off' | 'object' | 'schema';
  schema?: string;
  useWorkspace?: boolean;
}

/** A saved conversation: its model, options and messages. */
export interface Conversation {
  readonly id: string;
  title: string;
  /** True once the user renamed it: the title is no longer derived from the first message. */
  titleSetByUser?: boolean;
  readonly createdAt: number;
  updatedAt: number;
  model?: string;
  options: StoredOptions;
  messages: StoredMessage[];
}

/** Creates an empty conversation with a fresh id. */
export function newConversation(model?: string): Conversation {
  const now = Date.now();
  return { id: randomUUID(), title: 'New chat', createdAt: now, updatedAt: now, ...(model ? { model } : {}), options: {}, messages: [] };
}

/** A title from the first line of a message, at most 60 characters. */
export function titleFromText(text: string): string {
  const line = text.trim().split('\n', 1)[0]?.trim() ?? '';
  if (!line) return 'New chat';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function usageLine(usage: StoredUsage): string {
  const parts: string[] = [];
  if (usage.promptTokens !== undefined || usage.completionTokens !== undefined) {
    parts.push(`${usage.promptTokens ?? '?'} in, ${usage.completionTokens ?? '?'} out`);
  }
  if (usage.timeToFirstTokenMs !== undefined) parts.push(`first token ${Math.round(usage.timeToFirstTokenMs)} ms`);
  if (usage.tokensPerSecond !== undefined) parts.push(`${usage.tokensPerSecond.toFixed(1)} tokens/s`);
  if (usage.totalTimeMs !== undefined) parts.push(`${(usage.totalTimeMs / 1000).toFixed(2)} s`);
  if (usage.costUsd !== undefined) parts.push(`$${usage.costUsd.toFixed(6)}`);
  return parts.join(' · ');
}

/** The whole conversation as Markdown, for "Export conversation". */
export function conversationToMarkdown(conversation: Conversation): string {
  const lines = [`# ${conversation.title}`, ''];
  if (conversation.model) lines.push(`Model: ${conversation.model}`, '');
  for (const message of conversation.messages) {
    const who = message.role === 'user' ? 'You' : message.role === 'system' ? 'System' : (message.model ?? 'Assistant');
    lines.push(`**${who}**${message.stopped ? ' (stopped)' : ''}`, '', message.text, '');
    if (message.imageDataUrl) lines.push('_(an image was attached)_', '');
    if (message.audio) lines.push(`_(audio attached: ${message.audio.name})_`, '');
    if (message.error) lines.push(`> Error: ${message.error.message}`, '');
    if (message.usage) lines.push(`<sub>${usageLine(message.usage)}</sub>`, '');
    lines.push('---', '');
  }
  return lines.join('\n');
}
