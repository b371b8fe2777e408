import { randomUUID } from 'node:crypto';
import type { ContextPart } from './context/contextProvider';
import type { FolderRoot } from '../tools/workspacePaths';
import type { PromptTools } from '../prompts/promptRun';
import { untitledConversationTitle, type AgentMode, type ChangeView, type ToolCallStatus, type ToolFailure } from '../../shared/views';

/** The speed and cost figures kept with an answer (see api/usage for how they are measured). */
export interface StoredUsage {
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  readonly timeToFirstTokenMs?: number;
  readonly tokensPerSecond?: number;
  readonly totalTimeMs?: number;
  readonly costUsd?: number;
  /** Of the completion tokens, those the model spent thinking (where the service reports them). */
  readonly reasoningTokens?: number;
  readonly source: 'service' | 'client' | 'mixed';
}

/**
 * A tool call of an agent step and what became of it. `result` is exactly what the model was sent as
 * the `role: "tool"` message; a call saved without one (the window closed mid-call) is sent as not run.
 */
export interface StoredToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  status: ToolCallStatus;
  result?: string;
  /** Why a `failed` call failed, for its card (the model was sent `result`). */
  failure?: ToolFailure;
  /** What the user was shown before the change ran. */
  change?: ChangeView;
  /** Where a VS Code tool comes from (its extension or MCP server); absent for the agent's own functions. */
  origin?: string;
  /** Images a VS Code tool returned (data URLs; the file keeps them by content hash, as attachments), shown in its card; the model got a description in `result`. */
  images?: readonly { readonly mimeType: string; readonly dataUrl: string; readonly bytes: number }[];
}

/**
 * One message as it is saved. An agent answer is one assistant message per request to the model; a
 * step that called tools keeps them in `toolCalls`, each with its result, so the history sent again is
 * the assistant message with its calls followed by one tool message per call.
 */
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
  /** The tool calls of an agent step, in the order the model made them. */
  toolCalls?: StoredToolCall[];
  /** Why an agent answer ended early (the step limit) or was asked for without tools (a repeated call, the last step), shown under it. */
  agentStop?: string;
  /**
   * A reasoning model's thinking before its answer, and how long it thought. Shown apart; never sent back
   * to the model, never part of `text` (copy, insert, JSON checks and editor commands see only the answer).
   */
  reasoning?: { text: string; ms: number };
  /**
   * What the user's @-mentions attached to this message, as sent (cut parts with their note): a reload shows
   * the chips, and regenerate resends exactly this context.
   */
  context?: ContextPart[];
  /**
   * The prompt file this message ran (`/name` in the composer): `text` is the prompt filled in, as the model
   * got it. `untrusted`: from a workspace in Restricted Mode, run read-only.
   */
  prompt?: { readonly name: string; readonly source: string; readonly untrusted: boolean };
  /**
   * What that prompt file's run used (core/prompts/promptRun.ts): the model its front matter named (absent: the
   * conversation's) and its tools. Regenerate, retry and edit-and-resend answer the message the same way again,
   * whatever the file says by then.
   */
  promptRun?: { readonly model?: string; readonly tools: PromptTools };
  /**
   * The checkpoint of the agent turn this message closes, when the turn changed files (the texts live in
   * the checkpoint store, core/chat/checkpoints.ts); `restoredAt` once the user restored it. `folders`: the
   * workspace folders the turn ran in (absent when recorded before they were kept).
   */
  checkpoint?: {
    readonly id: string;
    readonly files: readonly { readonly path: string; readonly change: 'edited' | 'created' | 'deleted' }[];
    readonly folders?: readonly FolderRoot[];
    restoredAt?: number;
  };
  /** The agent mode the answer was made in (assistant messages since modes exist). */
  mode?: AgentMode;
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
  /** `reasoning_effort` for models that take it; unset leaves the model's default. */
  reasoningEffort?: 'low' | 'medium' | 'high';
  /** `false` turns thinking off for hybrid models that take `enable_thinking`; unset leaves it on. */
  thinking?: boolean;
  /** `false` leaves the project's instruction files (AGENTS.md, .cadenza/instructions.md…) out of this conversation. */
  useInstructions?: boolean;
}

/** A summary of a conversation's older messages, stored with it. */
export interface CondensedHistory {
  /** What is sent instead of the messages up to `throughMessageId`; the user can edit it. */
  summary: string;
  /** The last message the summary covers (inclusive). */
  readonly throughMessageId: string;
  /** Messages the summary stands for (for the panel). */
  readonly messageCount: number;
  readonly model: string;
  readonly createdAt: number;
  /** True once the user edited the summary. */
  edited?: boolean;
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
  /** A summary sent instead of the older messages (core/chat/condense.ts); the messages themselves stay. */
  condensed?: CondensedHistory;
  /** The agent's mode for its next answers (core/tools/agentMode.ts); absent in a conversation saved before modes, which is Act. */
  mode?: AgentMode;
}

/** Creates an empty conversation with a fresh id. */
export function newConversation(model?: string): Conversation {
  const now = Date.now();
  return { id: randomUUID(), title: untitledConversationTitle, createdAt: now, updatedAt: now, ...(model ? { model } : {}), options: {}, messages: [] };
}

/**
 * Settles the tool calls a saved conversation left unfinished (the window closed while a call waited for
 * approval or ran): they become `cancelled`, with a result, so the card says so and the history stays valid.
 */
export function settleInterrupted(conversation: Conversation): Conversation {
  for (const message of conversation.messages) {
    for (const call of message.toolCalls ?? []) {
      if (call.result !== undefined) continue;
      call.status = 'cancelled';
      call.result = 'Not run: the answer was interrupted.';
    }
  }
  return conversation;
}

/** A title from the first line of a message, at most 60 characters. */
export function titleFromText(text: string): string {
  const line = text.trim().split('\n', 1)[0]?.trim() ?? '';
  if (!line) return untitledConversationTitle;
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
    if (message.context?.length) lines.push(`_(context: ${message.context.map((part) => `${part.label}, ${part.tokens} tokens`).join('; ')})_`, '');
    for (const call of message.toolCalls ?? []) lines.push(`- \`${call.name}\` \`${call.arguments}\` \u2014 ${call.status}`);
    if (message.toolCalls?.length) lines.push('');
    if (message.agentStop) lines.push(`> ${message.agentStop}`, '');
    if (message.error) lines.push(`> Error: ${message.error.message}`, '');
    if (message.usage) lines.push(`<sub>${usageLine(message.usage)}</sub>`, '');
    lines.push('---', '');
  }
  return lines.join('\n');
}
