// Streamed tool-call fragments (the client's `toolCall` events: id and name first, then argument pieces,
// keyed by index) assembled into whole calls as soon as each is complete, for providers that must hand
// over a call only once (VS Code's LanguageModelToolCallPart carries a parsed input object).
import { isRecord } from '../../shared/jsonObject';

/** One complete tool call with its input parsed. */
export interface AssembledToolCall {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  /** The parsed arguments; `{}` when they were empty or not a JSON object (see `malformed`). */
  readonly input: Readonly<Record<string, unknown>>;
  /** The raw arguments when they were not a JSON object, so the caller can log what the model sent. */
  readonly malformed?: string;
}

interface Pending {
  id: string;
  name: string;
  args: string;
}

function parseInput(text: string): { input: Record<string, unknown>; malformed?: string } {
  if (text.trim() === '') return { input: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return { input: value };
  } catch {
    // fall through: reported as malformed
  }
  return { input: {}, malformed: text };
}

/**
 * Collects fragments by index. A call is complete when a fragment of a later index arrives (the service
 * streams calls one after another) or when the stream ends (`flush`). Calls come out in index order,
 * each exactly once; a call without an id gets `call_<index>`.
 */
export class ToolCallAssembler {
  private readonly pending = new Map<number, Pending>();
  private readonly emitted = new Set<number>();

  /** Adds a fragment; returns the calls this fragment completed (those of lower indexes still open). */
  push(fragment: { readonly index: number; readonly id?: string; readonly name?: string; readonly argumentsDelta: string }): AssembledToolCall[] {
    const done = this.emitted.has(fragment.index) ? [] : this.completeBelow(fragment.index);
    if (this.emitted.has(fragment.index)) return done;
    let call = this.pending.get(fragment.index);
    if (!call) {
      call = { id: '', name: '', args: '' };
      this.pending.set(fragment.index, call);
    }
    // The first id and name win, as in the client's own accumulator (later fragments may repeat them).
    if (fragment.id && call.id === '') call.id = fragment.id;
    if (fragment.name && call.name === '') call.name = fragment.name;
    call.args += fragment.argumentsDelta;
    return done;
  }

  /** Completes every open call (the stream ended). */
  flush(): AssembledToolCall[] {
    return this.completeBelow(Number.POSITIVE_INFINITY);
  }

  private completeBelow(limit: number): AssembledToolCall[] {
    const ready = [...this.pending.keys()].filter((index) => index < limit).sort((a, b) => a - b);
    return ready.map((index) => {
      const call = this.pending.get(index) as Pending;
      this.pending.delete(index);
      this.emitted.add(index);
      const { input, malformed } = parseInput(call.args);
      return { index, id: call.id || `call_${index}`, name: call.name, input, ...(malformed !== undefined ? { malformed } : {}) };
    });
  }
}
