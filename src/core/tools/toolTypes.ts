// The shapes the agent's tools share: what a tool is (a definition plus how it runs), what a change
// looks like before the user approves it, the per-conversation session, and the tool error.
import type { ToolDefinition } from '../api/types';
import type { ToolOutput } from './externalTools';
import type { CautionRule, ReadReasonRule, ToolFailure } from '../../shared/views';

/** Arguments of a call after they parsed and passed the schema check. */
export type ToolArgs = Readonly<Record<string, unknown>>;

/** What the user sees before a change runs. */
/**
 * What a proposed change does. `caution` (edits and new files) says why the file is not an ordinary source
 * or text file (it can make code run, or steer the tools or later conversations: core/tools/sensitivePaths.ts),
 * in English, and `cautionRule` which reason it is, for the card to say in the user's language: such a change is
 * always asked, whatever the conversation's allowance.
 */
export type ChangePreview =
  /** edit_file: the whole file before and after, a compact diff of the replaced region, and how many places change when more than one (replace_all). */
  | {
      readonly kind: 'edit';
      readonly path: string;
      readonly before: string;
      readonly after: string;
      readonly diff: string;
      readonly caution?: string;
      readonly cautionRule?: CautionRule;
      readonly replacements?: number;
    }
  /** create_file: the new file and its content. */
  | { readonly kind: 'create'; readonly path: string; readonly content: string; readonly caution?: string; readonly cautionRule?: CautionRule }
  /** run_in_terminal: the command exactly as it will run, where, and for how long at most. */
  | { readonly kind: 'terminal'; readonly command: string; readonly cwd: string | undefined; readonly timeoutSeconds: number }
  /** read_file of a git-ignored secret (`.env`, keys): asked first, since its text goes to the service. */
  | { readonly kind: 'read'; readonly path: string; readonly reason: string; readonly reasonRule?: ReadReasonRule }
  /**
   * A tool of another extension or an MCP server not marked read-only (core/tools/externalApproval.ts): its
   * name in VS Code, where it comes from, and its input as it will be sent (indented JSON). What it does is
   * its own, outside the workspace port, so no checkpoint holds it.
   */
  | { readonly kind: 'external'; readonly tool: string; readonly origin: string; readonly input: string };

/** A change ready to run once approved; `apply` re-checks that nothing moved meanwhile. */
export interface PreparedChange {
  readonly preview: ChangePreview;
  apply(signal: AbortSignal): Promise<string>;
}

/**
 * What the tools remember within one conversation: the text of each file as the model last read it
 * (keyed by workspace-relative path), so an edit of a file that changed since is refused.
 */
export class ToolSession {
  private readonly reads = new Map<string, string>();

  /** Records the full text of `path` as the model just saw it. */
  noteRead(path: string, text: string): void {
    this.reads.set(path, text);
  }

  /** The text of `path` when the model last read it, if it did in this conversation. */
  lastRead(path: string): string | undefined {
    return this.reads.get(path);
  }
}

/** What every tool gets besides its arguments. */
export interface ToolContext {
  readonly signal: AbortSignal;
  readonly session: ToolSession;
  /** Characters the answer may take (what the context leaves); a tool that can stop early does so. */
  readonly maxResultChars?: number;
}

/**
 * A function that runs at once when called, unless `confirm` names a reason to ask first: the agent's reads
 * (a secret is asked), and the VS Code tools of other extensions and MCP servers (asked unless marked read-only).
 */
export interface ReadTool {
  readonly definition: ToolDefinition;
  readonly effect: 'read';
  /** Where the function comes from when it is not the agent's own (a VS Code tool's extension or MCP server), for its card. */
  readonly origin?: string;
  /**
   * For a tool with an `origin`: whether its extension marks it read-only (core/tools/externalTools.ts
   * `isReadOnly`). Plan mode and Restricted Mode offer such a tool; one not marked may change anything.
   */
  readonly readOnly?: boolean;
  run(args: ToolArgs, context: ToolContext): Promise<string>;
  /** When present, the loop calls this instead of `run`: the result text and images for the card (a VS Code tool's result). */
  runWithImages?(args: ToolArgs, context: ToolContext): Promise<ToolOutput>;
  /** What to ask the user before this call runs (a `read` or `external` preview), or undefined to run at once. */
  confirm?(args: ToolArgs, context: ToolContext): Promise<ChangePreview | undefined>;
}

/** A function that changes the workspace: it is prepared, shown, and run only when approved. */
export interface ChangeTool {
  readonly definition: ToolDefinition;
  readonly effect: 'change';
  prepare(args: ToolArgs, context: ToolContext): Promise<PreparedChange>;
}

/** One function the model may call. */
export type Tool = ReadTool | ChangeTool;

/**
 * Why a tool failed; the message goes back to the model as the call's result, and the card says the reason in the
 * user's language (shared/views.ts ToolFailure). `declined`: the user said no in VS Code's own confirmation.
 */
export type ToolErrorReason = 'declined' | ToolFailure;

/** A tool's own failure, with a reason callers can branch on. */
export class ToolError extends Error {
  constructor(
    readonly reason: ToolErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ToolError';
  }

  /** Is `value` a ToolError, optionally of `reason`? */
  static is(value: unknown, reason?: ToolErrorReason): value is ToolError {
    return value instanceof ToolError && (reason === undefined || value.reason === reason);
  }
}
