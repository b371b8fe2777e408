/**
 * Fits a conversation into a model's context before it is sent: the context length minus the tokens
 * reserved for the answer (max_tokens). Oldest turns go first; the system prompt and the newest turn stay.
 *
 * Token counts are estimates (the service does not expose its tokenizer): about four characters a token,
 * which over-counts slightly for English and code, so a fitted request rarely hits the real limit. The
 * service's 400 `context_length_exceeded` is still handled by the caller ("trim and retry").
 */

/** What the budget needs to know about a message. */
export interface BudgetMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly text: string;
  readonly hasImage?: boolean;
  /** Kept whatever the budget, like a system message, when it leads the messages (a condensed conversation's summary turn). */
  readonly pinned?: boolean;
}

/** The outcome: the messages to send, what was left out, and whether it fits at all. */
export interface BudgetResult<T extends BudgetMessage> {
  readonly kept: readonly T[];
  readonly droppedCount: number;
  readonly usedTokens: number;
  readonly limitTokens: number;
  readonly fits: boolean;
}

/** Tokens an image is assumed to take; a conservative guess for the vision models of the spec's era. */
export const imageTokenEstimate = 1_600;

/** Role, separators and the like that chat templates add to every message. */
const perMessageOverhead = 4;

/** Estimates the tokens of a text: about four characters a token, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Estimates the tokens one message takes in a request. */
export function messageTokens(message: BudgetMessage): number {
  return perMessageOverhead + estimateTokens(message.text) + (message.hasImage ? imageTokenEstimate : 0);
}

/**
 * Keeps leading system (and pinned) messages and the newest turn (the last user message and what follows
 * it), then adds older turns newest-first while they fit. A turn is a user message with the answers and
 * tool results after it, so a tool result is never sent without the call it answers.
 */
export function fitToContext<T extends BudgetMessage>(messages: readonly T[], contextLength: number, maxTokens: number): BudgetResult<T> {
  const limitTokens = Math.max(0, contextLength - maxTokens);
  let systemCount = 0;
  const leads = (message: T | undefined): boolean => message?.role === 'system' || message?.pinned === true;
  while (systemCount < messages.length && leads(messages[systemCount])) systemCount += 1;

  // Split the rest into turns: each starts at a user message (or at the start).
  const turns: T[][] = [];
  for (const message of messages.slice(systemCount)) {
    const current = turns.at(-1);
    if (!current || message.role === 'user') turns.push([message]);
    else current.push(message);
  }

  const cost = (list: readonly T[]): number => list.reduce((sum, message) => sum + messageTokens(message), 0);
  const system = messages.slice(0, systemCount);
  const newest = turns.pop() ?? [];
  let used = cost(system) + cost(newest);
  const keptTurns: T[][] = [];
  for (let index = turns.length - 1; index >= 0; index -= 1) {
    const turn = turns[index] ?? [];
    const turnCost = cost(turn);
    if (used + turnCost > limitTokens) break;
    used += turnCost;
    keptTurns.unshift(turn);
  }
  const kept = [...system, ...keptTurns.flat(), ...newest];
  return { kept, droppedCount: messages.length - kept.length, usedTokens: used, limitTokens, fits: used <= limitTokens };
}
