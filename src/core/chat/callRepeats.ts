// How the tool loop notices a call it has already answered in this answer, and what it tells the model
// then. A small model repeats the same call (the same failing edit, the same folder listing) until the step
// limit even when each result says what to do (issue #35): an identical call on an unchanged workspace can
// only get the same answer, so it is not run again and the model is asked for its answer without tools.
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
export function callKey(name: string, argumentsText: string): string {
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

/** What the model is told for a repeat that was not run. */
export function repeatText(earlier: Answered): string {
  if (!earlier.failed) return `Not run: this exact call was already answered at step ${earlier.step} of this answer; its result is above.`;
  const first = earlier.result.split('\n')[0] ?? '';
  return `Not run: this exact call already failed at step ${earlier.step} of this answer (${first.length > 200 ? `${first.slice(0, 200)}…` : first}). Do not send it again.`;
}

/** Why, in the words the model is given with the request that offers no tools. */
function why(reason: ToolsWithheld, maxSteps: number): string {
  return reason === 'lastStep' ? `the last step of ${maxSteps}` : 'the same call repeated';
}

/**
 * The request's messages with the instruction to answer now added to the last tool result: a message of its
 * own would be a second system prompt or a user turn the user never wrote, which some chat templates refuse.
 * The history the loop keeps is not changed.
 */
export function withAnswerInstruction(messages: readonly ChatMessage[], reason: ToolsWithheld, maxSteps: number): ChatMessage[] {
  const out = [...messages];
  const last = out.at(-1);
  if (last?.role !== 'tool') return out;
  out[out.length - 1] = { ...last, content: `${last.content}\n\n[Cadenza: no more tool calls in this answer (${why(reason, maxSteps)}). Answer the user now in plain text from the results above.]` };
  return out;
}
