// How the tool loop notices a call it has already answered in this answer, and what it tells the model
// then. A small model repeats the same call (the same failing edit, the same folder listing) until the step
// limit even when each result says what to do (issue #35): an identical call on an unchanged workspace can
// only get the same answer, so it is not run again; the first time the model is told to try another call or
// answer, the second time it is asked for its answer without tools.
import type { ChatMessage } from '../api/types';

/** Why a step's request offers no tools: it is the last of the budget, or a call repeated. */
export type ToolsWithheld = 'lastStep' | 'repeatedCall';

/** A call the loop has answered in this answer. */
interface Answered {
  readonly step: number;
  readonly failed: boolean;
  readonly result: string;
  /** How many changes had been applied when it was answered (an identical call after a change may differ). */
  readonly changes: number;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, entry]) => [key, canonical(entry)]));
}

/** The identity of a call: its name and its arguments, with keys in order (text that is not JSON as it is). */
function callKey(name: string, argumentsText: string): string {
  try {
    return `${name}\u0000${JSON.stringify(canonical(JSON.parse(argumentsText.trim() === '' ? '{}' : argumentsText)))}`;
  } catch {
    return `${name}\u0000${argumentsText.trim()}`;
  }
}

/** The calls of one answer, and the changes applied since each. */
export class CallMemory {
  private readonly answered = new Map<string, Answered>();
  private changes = 0;

  /** The earlier identical call when this one would repeat it on an unchanged workspace. */
  repeatOf(name: string, argumentsText: string): Answered | undefined {
    const earlier = this.answered.get(callKey(name, argumentsText));
    return earlier && earlier.changes === this.changes ? earlier : undefined;
  }

  /** Records a call's outcome; `changed` when it changed the workspace. */
  note(name: string, argumentsText: string, step: number, outcome: { readonly failed: boolean; readonly result: string; readonly changed: boolean }): void {
    if (outcome.changed) this.changes += 1;
    this.answered.set(callKey(name, argumentsText), { step, failed: outcome.failed, result: outcome.result, changes: this.changes });
  }
}

/**
 * What the model is told for a repeat that was not run. The first repeat of an answer (`retry` given) also
 * says to call something else or answer, with tools still offered: a small model shown that often makes the
 * call it needed (issue #35, bench/agent/agentTasks); at the second the loop withholds the tools.
 */
export function repeatText(earlier: Answered, retry?: { readonly readFile: boolean }): string {
  const next = retry ? ` Do not send it again: call a different function${retry.readFile ? ' (read_file reads a whole file)' : ''}, or answer now.` : '';
  if (!earlier.failed) return `Not run: this exact call was already answered at step ${earlier.step} of this answer; its result is above.${next}`;
  const first = earlier.result.split('\n')[0] ?? '';
  return `Not run: this exact call already failed at step ${earlier.step} of this answer (${first.length > 200 ? `${first.slice(0, 200)}…` : first}).${next || ' Do not send it again.'}`;
}

/** Why, in the words the model is given with the request that offers no tools. */
function why(reason: ToolsWithheld, maxSteps: number): string {
  return reason === 'lastStep' ? `the last step of ${maxSteps}` : 'the same call repeated';
}

/** A call as the model is told it in words: its name and its arguments (keys in order). */
function callText(name: string, argumentsText: string): string {
  const key = callKey(name, argumentsText);
  return `${name} ${key.slice(key.indexOf('\u0000') + 1)}`;
}

/**
 * The messages of the request that offers no tools. The calls and results of this answer (everything after
 * the user's last turn) are told in words at the end of that turn, with the instruction to answer now: a
 * small model shown its earlier calls in its template's call format wrote one more call as text instead of
 * an answer, and a turn of its own would be a second system prompt or a user turn the user never wrote,
 * which some chat templates refuse. The history the loop keeps is not changed.
 */
export function withAnswerInstruction(messages: readonly ChatMessage[], reason: ToolsWithheld, maxSteps: number): ChatMessage[] {
  const lastUser = messages.map((message) => message.role).lastIndexOf('user');
  const turn = messages[lastUser];
  if (turn === undefined || turn.role !== 'user') return [...messages];
  const results = new Map(messages.slice(lastUser + 1).flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message.content] as const] : [])));
  const told: string[] = [];
  for (const message of messages.slice(lastUser + 1)) {
    if (message.role !== 'assistant') continue;
    if (typeof message.content === 'string' && message.content.trim() !== '') told.push(`You wrote: ${message.content.trim()}`);
    for (const call of message.toolCalls ?? []) told.push(`${callText(call.name, call.arguments)} returned:\n${results.get(call.id) ?? '(no result)'}`);
  }
  const instruction = `[Cadenza: no more tool calls in this answer (${why(reason, maxSteps)}). Answer the question above now in plain text from these results.]`;
  const added = `\n\n[What your calls returned while answering this:]\n\n${told.join('\n\n')}\n\n${instruction}`;
  const content = typeof turn.content === 'string' ? `${turn.content}${added}` : [...turn.content, { type: 'text' as const, text: added.trimStart() }];
  return [...messages.slice(0, lastUser), { role: 'user', content }];
}
