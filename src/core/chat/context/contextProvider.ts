// Context providers: the one shape every kind of context a chat turn can carry takes (mentions, project
// instructions, workspace search). A provider is given the turn and returns parts, each with its token cost
// and a note when it was cut; the host's adapters read VS Code, this module decides budgets and placement.
// A new context kind is a new provider; the controller that runs them does not change.
import { estimateTokens } from '../contextBudget';

/** What kind of context a part is (the chip's icon, the log). */
export type ContextKind = 'file' | 'folder' | 'symbol' | 'selection' | 'problems' | 'terminal' | 'git' | 'codebase' | 'instructions' | 'workspace';

/**
 * Where a part goes: `beforePrompt` ahead of the user's own system prompt (project instructions),
 * `afterPrompt` after it (workspace search), `message` with the user's message (mentions: stored with it, so
 * a reload shows them and regenerate resends the same context).
 */
export type ContextPlacement = 'beforePrompt' | 'afterPrompt' | 'message';

/** One piece of context, as sent and as the panel's chip shows it. */
export interface ContextPart {
  readonly kind: ContextKind;
  /** Short: a workspace-relative path, `selection (app.ts:3-9)`, `git diff (staged)`. */
  readonly label: string;
  readonly text: string;
  readonly tokens: number;
  /** Set when the part was cut or is empty: what was left out and why. */
  readonly note?: string;
  /** Workspace locations cited (the answer links them). */
  readonly sources?: readonly { readonly label: string; readonly uri: string; readonly startLine: number; readonly endLine: number }[];
}

/** The turn as providers see it. */
export interface ContextTurn {
  /** The user's newest message text (the question a search uses). */
  readonly question: string;
  /** What the model's context leaves besides the answer; each provider takes its share of it. */
  readonly roomTokens: number;
  readonly signal: AbortSignal;
}

/** A source of context for a chat turn. */
export interface ContextProvider {
  readonly placement: ContextPlacement;
  /** The parts for this turn; an empty list when the provider has nothing (turned off, nothing found). */
  provide(turn: ContextTurn): Promise<readonly ContextPart[]>;
}

/** A part with its token cost measured. */
export function contextPart(kind: ContextKind, label: string, text: string, note?: string): ContextPart {
  return { kind, label, text, tokens: estimateTokens(text), ...(note !== undefined ? { note } : {}) };
}

/** Cuts `text` to about `maxTokens` tokens at a line end where one is near, so a cut file keeps whole lines. */
export function cutToTokens(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  let end = Math.max(0, Math.floor(maxTokens * 4));
  while (end > 0 && estimateTokens(text.slice(0, end)) > maxTokens) end = Math.floor(end * 0.9);
  const lineEnd = text.lastIndexOf('\n', end);
  return text.slice(0, lineEnd > end * 0.8 ? lineEnd : end);
}

/**
 * Fits parts into `budgetTokens`, in order: earlier parts keep their room, the part that crosses the budget
 * is cut (its note says how much of it is sent), and parts after it are kept empty with a note, so the
 * panel says what was left out. Nothing is cut silently.
 */
export function fitParts(parts: readonly ContextPart[], budgetTokens: number): ContextPart[] {
  let left = Math.max(0, Math.floor(budgetTokens));
  return parts.map((part) => {
    if (part.tokens <= left) {
      left -= part.tokens;
      return part;
    }
    if (left < 32) {
      return { ...part, text: '', tokens: 0, note: `Left out: it needs about ${part.tokens} tokens and the context budget for mentions is used up.` };
    }
    const text = cutToTokens(part.text, left);
    const tokens = estimateTokens(text);
    left = 0;
    return { ...part, text, tokens, note: `Cut to about ${tokens} of ${part.tokens} tokens to fit the context budget.` };
  });
}

/** The shares of the room providers take: mentions up to half, workspace search a third (the history keeps the rest). */
export const contextShares = { message: 1 / 2, afterPrompt: 1 / 3 } as const;

/** A provider's budget from the turn's room and its share (never below 256 tokens). */
export function shareOf(roomTokens: number, share: number): number {
  return Math.max(256, Math.floor(roomTokens * share));
}

/**
 * The text a message's attached context adds in front of it: one fenced section per part, labelled, with
 * the note of a cut part, so the model knows what it is looking at and that something is missing.
 */
export function contextPreamble(parts: readonly ContextPart[]): string {
  const sections = parts
    .filter((part) => part.text !== '' || part.note !== undefined)
    .map((part) => {
      const note = part.note !== undefined ? `\n(${part.note})` : '';
      const fence = part.text.includes('```') ? '````' : '```';
      return part.text === '' ? `Context: ${part.label}${note}` : `Context: ${part.label}${note}\n${fence}\n${part.text}\n${fence}`;
    });
  return sections.length === 0 ? '' : `${sections.join('\n\n')}\n\n`;
}

/** Joins system-prompt sections, skipping empty ones. */
export function joinSections(sections: readonly (string | undefined)[]): string {
  return sections
    .map((section) => section?.trim() ?? '')
    .filter((section) => section !== '')
    .join('\n\n');
}
