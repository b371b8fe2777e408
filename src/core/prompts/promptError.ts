// The one error of prompt files: a file that cannot be read as a prompt, or a prompt that cannot run now.
// Callers branch on `reason`; `fault` carries what the user is told (the host words it in the user's
// language); the English `message` is for the log.

/** Why a prompt file was refused or could not run. */
export type PromptErrorReason =
  /** Larger than `maxPromptFileBytes`. */
  | 'tooLarge'
  /** Front matter that does not parse; `line` says where. */
  | 'frontMatter'
  /** The body uses `${selection}` and nothing is selected. */
  | 'noSelection'
  /** The body uses `${file}` (or its parts) and no file is open. */
  | 'noFile'
  /** The body uses `${workspaceFolder}` and no folder is open. */
  | 'noWorkspace'
  /** The user dismissed an `${input:…}` question. */
  | 'cancelled';

/** What exactly is wrong, with the names the message needs: one kind per sentence the user can be shown. */
export type PromptFault =
  /** The file is larger than `limitKb` kilobytes. */
  | { readonly kind: 'tooLarge'; readonly limitKb: number }
  /** The front matter opened on line 1 and never closes. */
  | { readonly kind: 'unclosed' }
  /** A `- item` line with no `key:` above it. */
  | { readonly kind: 'itemWithoutKey' }
  /** A value whose quote is left open (`inList`: an item of an inline list). */
  | { readonly kind: 'openQuote'; readonly inList: boolean }
  /** A line that is not `key: value` (`found`: the line, trimmed). */
  | { readonly kind: 'notAField'; readonly found: string }
  | { readonly kind: 'givenTwice'; readonly key: string }
  /** A `|` or `>` block. */
  | { readonly kind: 'multiLine'; readonly key: string }
  /** A nested map or a list that is not simple. */
  | { readonly kind: 'notPlain'; readonly key: string }
  /** A list where one value is wanted. */
  | { readonly kind: 'notOneValue'; readonly key: string }
  /** Prompt `prompt` uses `${variable}`, which has no value now (the reason says which of selection, file, folder). */
  | { readonly kind: 'noValue'; readonly prompt: string; readonly variable: string }
  /** Prompt `prompt` was not run: the user gave no value for input `input`. */
  | { readonly kind: 'noInput'; readonly prompt: string; readonly input: string };

export class PromptError extends Error {
  readonly reason: PromptErrorReason;
  readonly fault: PromptFault;
  /** The 1-based line of the file the error is about, when there is one. */
  readonly line: number | undefined;
  /** The file the error is about, as it is shown (its workspace path), when it is known. */
  readonly file: string | undefined;

  constructor(reason: PromptErrorReason, fault: PromptFault, message: string, where: { readonly line?: number; readonly file?: string } = {}) {
    super(message);
    this.name = 'PromptError';
    this.reason = reason;
    this.fault = fault;
    this.line = where.line;
    this.file = where.file;
  }

  static is(error: unknown, reason?: PromptErrorReason): error is PromptError {
    return error instanceof PromptError && (reason === undefined || error.reason === reason);
  }
}

/** Something in a prompt file that was read differently than written, or a variable sent as written: a warning, not an error. */
export type PromptNote =
  /** The front matter's `name` cannot be typed after `/`; the prompt is `/name` (from its file name). */
  | { readonly kind: 'invalidName'; readonly declared: string; readonly name: string }
  /** The `mode` (or `agent`) is not ask, edit or agent: the prompt runs in the chat's mode. */
  | { readonly kind: 'unknownMode'; readonly mode: string }
  /** Prompt `prompt` uses `${variable}`, which Cadenza does not fill in: it is sent as written. */
  | { readonly kind: 'unknownVariable'; readonly prompt: string; readonly variable: string };

/** A note in English (for the log and tests; the user reads the host's translation). */
export function promptNoteMessage(note: PromptNote): string {
  switch (note.kind) {
    case 'invalidName':
      return `The name "${note.declared}" cannot be typed after /; the prompt is /${note.name}.`;
    case 'unknownMode':
      return `The mode "${note.mode}" is not one Cadenza knows (ask, edit, agent); the prompt runs in the chat's current mode.`;
    case 'unknownVariable':
      return `/${note.prompt} uses \${${note.variable}}, which Cadenza does not fill in; it is sent as written.`;
  }
}
