/**
 * The words of a tool-call card, kept free of the DOM so they are unit-tested in plain Node: the status
 * labels, the one-line summary of a call, what a change is called, and how a diff line is coloured.
 */
import { parseJsonObject } from '../shared/jsonObject';
import type { ChangeView, ToolCallStatusView, ToolCallView } from '../shared/views';
import { formatCount } from './format';

/** What each status reads as on a card. */
export const statusText: Readonly<Record<ToolCallStatusView, string>> = {
  forming: 'Preparing\u2026',
  queued: 'Queued',
  awaitingApproval: 'Waiting for your approval',
  running: 'Running\u2026',
  done: 'Done',
  failed: 'Failed',
  denied: 'Denied',
  invalid: 'Invalid call',
  cancelled: 'Cancelled',
  skipped: 'Not run',
};

/** The argument a reader recognises the call by: the path, the glob, the query or the command. */
export function callSummary(view: ToolCallView): string {
  // The arguments may still be forming: then they do not parse yet.
  const args = parseJsonObject(view.arguments);
  if (!args) return '';
  for (const key of ['path', 'glob', 'query', 'command']) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') return value.length > 80 ? `${value.slice(0, 79)}\u2026` : value;
  }
  return '';
}

/** The arguments indented for reading; as they are while they do not parse yet. */
export function prettyArguments(text: string): string {
  const args = parseJsonObject(text);
  return args ? JSON.stringify(args, null, 2) : text;
}

/** What the change is, in words: "Edit src/a.ts", "Create notes.md", "Run a command (time limit 60 s)", "Run deploy from acme.tools". */
export function changeTitle(change: ChangeView): string {
  switch (change.kind) {
    case 'edit':
      return change.replacements ? `Edit ${change.path}: replace all ${change.replacements} occurrences` : `Edit ${change.path}`;
    case 'create':
      return `Create ${change.path}`;
    case 'read':
      return `Read ${change.path}`;
    case 'terminal':
      return `Run a command${change.cwd ? ` in ${change.cwd}` : ''} (time limit ${change.timeoutSeconds} s)`;
    case 'external':
      return `Run ${change.tool} from ${change.origin}`;
  }
}

/** What an external tool's card says under its arguments: Cadenza's checkpoints cannot undo what it does. */
export const externalToolNote = 'Changes made by this tool are not in checkpoints: restoring this turn cannot undo them.';

/** The class of a line of a compact diff. */
export function diffLineKind(line: string): 'diff-add' | 'diff-del' | 'diff-hunk' | 'diff-context' {
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return 'diff-context';
}

/** What a card says under a new file it shows only the head of (the diff view shows it all). */
export function omittedText(omitted: { readonly lines: number; readonly characters: number }): string {
  const lines = omitted.lines === 1 ? '1 more line' : `${formatCount(omitted.lines)} more lines`;
  return `\u2026 ${lines} (${formatCount(omitted.characters)} characters) not shown`;
}
