// The one error of prompt files: a file that cannot be read as a prompt, or a prompt that cannot run now.
// Callers branch on `reason`; the message is for the user and says what fixes it.

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

export class PromptError extends Error {
  readonly reason: PromptErrorReason;
  /** The 1-based line of the file the error is about, when there is one. */
  readonly line: number | undefined;

  constructor(reason: PromptErrorReason, message: string, line?: number) {
    super(message);
    this.name = 'PromptError';
    this.reason = reason;
    this.line = line;
  }

  static is(error: unknown, reason?: PromptErrorReason): error is PromptError {
    return error instanceof PromptError && (reason === undefined || error.reason === reason);
  }
}
