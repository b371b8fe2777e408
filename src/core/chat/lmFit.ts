// Fitting a VS Code chat request into the model's context before it is sent. VS Code fits its prompt by
// Cadenza's counts, but a count can still fall short (an estimate, tools VS Code did not count): rather
// than let the server refuse the request, the oldest turns are left out. System messages, the latest
// user message and what follows it (the current turn's tool calls and results) always stay; a turn goes
// as a whole, so a tool call never loses its result.
import type { ChatMessage, ToolDefinition } from '../api/types';
import { chatMessageText, type LmTokenCounter, toolsText } from './lmTokenCount';

/** A request that fits: the messages to send and what was left out. */
export interface Fitted {
  readonly fits: true;
  readonly messages: ChatMessage[];
  /** Messages of older turns left out. */
  readonly droppedMessages: number;
  /** The tokens of the request as sent (messages and tools). */
  readonly tokens: number;
}

/** A request that cannot fit: its size, and the least it takes with every older turn left out. */
export interface Overflow {
  readonly fits: false;
  readonly tokens: number;
  readonly minimumTokens: number;
}

/** Where the current turn starts: the latest user message (tool results go as `tool` messages, not `user`). */
function currentTurnStart(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return 0;
}

/**
 * Leaves out the oldest turns until `fixed` (the tools) plus the messages' tokens fit `budget`. A turn is
 * a user message and everything up to the next one; system messages and the current turn are kept.
 * `tokens[i]` is the count of `messages[i]`.
 */
export function fitMessages(messages: readonly ChatMessage[], tokens: readonly number[], fixed: number, budget: number): Fitted | Overflow {
  const count = (indices: Iterable<number>): number => {
    let sum = fixed;
    for (const i of indices) sum += tokens[i] ?? 0;
    return sum;
  };
  const all = messages.map((_, i) => i);
  const total = count(all);
  if (total <= budget) return { fits: true, messages: [...messages], droppedMessages: 0, tokens: total };
  const start = currentTurnStart(messages);
  // The older turns, oldest first: each starts at a user message (what comes before the first one joins it).
  const turns: number[][] = [];
  for (let i = 0; i < start; i++) {
    const message = messages[i];
    if (message === undefined || message.role === 'system') continue;
    if (message.role === 'user' || turns.length === 0) turns.push([]);
    turns[turns.length - 1]?.push(i);
  }
  const dropped = new Set<number>();
  let size = total;
  for (const turn of turns) {
    for (const i of turn) {
      dropped.add(i);
      size -= tokens[i] ?? 0;
    }
    if (size <= budget) {
      return { fits: true, messages: messages.filter((_, i) => !dropped.has(i)), droppedMessages: dropped.size, tokens: size };
    }
  }
  return { fits: false, tokens: total, minimumTokens: size };
}

/** What a request is fitted into: the model, its context and the part of it the prompt may take. */
export interface FitLimits {
  readonly model: string;
  /** The model's context length (tokens). */
  readonly contextTokens: number;
  /** The tokens the prompt may take: the context minus the answer reserved. */
  readonly inputTokens: number;
}

/** Counts a request's messages and tools with `counter`, then fits it (see fitMessages). */
export async function fitRequest(
  counter: LmTokenCounter,
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[],
  limits: FitLimits,
  signal?: AbortSignal,
): Promise<Fitted | Overflow> {
  const tokens = await Promise.all(messages.map((message) => counter.countMessage(limits.model, chatMessageText(message), signal)));
  const fixed = await counter.countText(limits.model, toolsText(tools), signal);
  return fitMessages(messages, tokens, fixed, limits.inputTokens);
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/**
 * What VS Code's chat shows when a request cannot fit: the model, the request's size against what the
 * model takes, and what to do. One plain sentence or two: no stack, no path.
 */
export function contextOverflowMessage(limits: FitLimits, overflow: Pick<Overflow, 'tokens' | 'minimumTokens'>): string {
  const reserved = limits.contextTokens - limits.inputTokens;
  const least = overflow.minimumTokens < overflow.tokens ? ` (${formatCount(overflow.minimumTokens)} with every earlier turn left out)` : '';
  return (
    `This request is too large for ${limits.model}: about ${formatCount(overflow.tokens)} tokens${least}, but the model's context is ${formatCount(limits.contextTokens)} tokens` +
    `${reserved > 0 ? `, ${formatCount(reserved)} of them kept for the answer` : ''}. ` +
    "Pick a model with a larger context, or raise the server's context size (llama-server -c), or start a new chat with fewer tools or attachments."
  );
}
