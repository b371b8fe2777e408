// The functions that change the workspace. Each is prepared first (checked, and turned into what the
// user will see), then applied only after approval, re-checking that nothing moved in between.
import type { ToolDefinition } from '../api/types';
import { changeToolDefinitions } from './definitions';
import { findPathHint, lineList, linesOf, notFoundText, withPathHint } from './editHints';
import { stringArg } from './readTools';
import { compactDiff } from './resultText';
import { sensitivePathCaution } from './sensitivePaths';
import { ToolError, type ChangeTool, type PreparedChange, type ToolArgs, type ToolContext } from './toolTypes';
import type { CommandOutcome, WorkspacePort } from './workspacePort';
import type { CautionRule } from '../../shared/views';

/** Options of the changing functions. */
export interface ChangeOptions {
  /** run_in_terminal's time limit. */
  readonly terminalTimeoutSeconds: number;
}

function definition(name: string): ToolDefinition {
  const found = changeToolDefinitions.find((entry) => entry.name === name);
  if (!found) throw new Error(`no definition for ${name}`);
  return found;
}

function tool(name: string, prepare: (args: ToolArgs, context: ToolContext) => Promise<PreparedChange>): ChangeTool {
  return { definition: definition(name), effect: 'change', prepare };
}

/** Where `part` occurs: overlapping and at most 50 (to count), or each whole one left to right (to replace them all). */
function occurrences(text: string, part: string, mode: 'count' | 'replace' = 'count'): number[] {
  const found: number[] = [];
  const step = mode === 'count' ? 1 : part.length;
  for (let at = text.indexOf(part); at >= 0 && (mode === 'replace' || found.length < 50); at = text.indexOf(part, at + step)) found.push(at);
  return found;
}

/**
 * Why changing this file is always asked, whatever the allowance: judged on the path and on where it really
 * leads, by name first, then (only when the name says nothing) by what the port knows of it: ignored, or
 * inside a virtual environment. A port that cannot tell leaves the fact out.
 */
async function cautionFor(
  port: WorkspacePort,
  path: string,
  realPath: string | undefined,
  signal: AbortSignal,
): Promise<{ caution?: string; cautionRule?: CautionRule }> {
  const paths = realPath === undefined ? [path] : [path, realPath];
  let caution = paths.map((candidate) => sensitivePathCaution(candidate)).find((reason) => reason !== undefined);
  for (const candidate of paths) {
    if (caution !== undefined) break;
    const facts = { ignored: (await port.isIgnored?.(candidate, signal)) ?? false, inVirtualEnv: (await port.isInVirtualEnv?.(candidate, signal)) ?? false };
    caution = sensitivePathCaution(candidate, facts);
  }
  return caution === undefined ? {} : { caution: caution.text, cautionRule: caution.rule };
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

/**
 * edit_file: one exact, unique replacement, or every occurrence with replace_all. Refused when the file
 * changed since the model read it in this conversation (its answer would be based on text that is gone), and
 * again at apply time if the file changed while the user was deciding. Every replacement of replace_all goes
 * to the port as one edit (from the first to the end of the last), so it is one undo and one approval.
 */
async function prepareEdit(port: WorkspacePort, args: ToolArgs, context: ToolContext): Promise<PreparedChange> {
  const { path, text, realPath } = await withPathHint(
    port.readFile(stringArg(args, 'path'), context.signal),
    `${findPathHint.slice(0, -1)}; to make a new file use create_file.`,
  );
  const seen = context.session.lastRead(path);
  if (seen !== undefined && seen !== text) throw new ToolError('changed', `${path} changed since you read it. Read it again, then edit.`);
  let oldText = stringArg(args, 'old_text');
  let newText = stringArg(args, 'new_text');
  if (oldText === '') throw new ToolError('invalid', 'old_text is empty. To write a new file use create_file.');
  // Models write \n; a file with Windows line endings still matches.
  if (text.includes('\r\n') && !oldText.includes('\r\n')) {
    oldText = oldText.replace(/\n/g, '\r\n');
    newText = newText.replace(/\r?\n/g, '\r\n');
  }
  const found = args['replace_all'] === true ? occurrences(text, oldText, 'replace') : occurrences(text, oldText);
  if (found.length === 0) throw new ToolError('notFound', notFoundText(path, text, oldText));
  if (found.length > 1 && args['replace_all'] !== true) {
    throw new ToolError(
      'invalid',
      `old_text occurs ${found.length} times in ${path} (lines ${lineList(linesOf(text, found))}). Set replace_all to true to replace every one, or include more surrounding lines so that it occurs once.`,
    );
  }
  const offset = found[0] ?? 0;
  const end = (found.at(-1) ?? 0) + oldText.length;
  let after = text.slice(0, offset);
  found.forEach((at, index) => {
    after += newText + text.slice(at + oldText.length, found[index + 1] ?? text.length);
  });
  const replaced = after.slice(offset, after.length - (text.length - end));
  const lines = linesOf(text, found);
  const caution = await cautionFor(port, path, realPath, context.signal);
  return {
    preview: {
      kind: 'edit',
      path,
      before: text,
      after,
      diff: compactDiff(text, after),
      ...caution,
      ...(found.length > 1 ? { replacements: found.length } : {}),
    },
    async apply(signal) {
      await port.editFile({ path, expectedText: text, offset, length: end - offset, newText: replaced }, signal);
      context.session.noteRead(path, after);
      if (found.length > 1) return `Edited ${path}: replaced all ${found.length} occurrences (lines ${lineList(lines)}).`;
      return `Edited ${path} at line ${lines[0] ?? 1}: replaced ${lineCount(oldText)} line(s) with ${lineCount(newText)} line(s).`;
    },
  };
}

async function prepareCreate(port: WorkspacePort, args: ToolArgs, context: ToolContext): Promise<PreparedChange> {
  const asked = stringArg(args, 'path').trim();
  // A small model sends "." or a folder for the file it means (issue #35).
  if (/^\.?[\\/]*$/.test(asked) || /[\\/]$/.test(asked)) throw new ToolError('invalid', 'path must name a file, e.g. src/new.ts.');
  const { path, exists, realPath } = await port.exists(asked, context.signal);
  if (
    exists &&
    (await port.listDirectory(path, context.signal).then(
      () => true,
      () => false,
    ))
  ) {
    throw new ToolError('invalid', `${path} is a folder; path must name a file, e.g. ${path}/new.ts.`);
  }
  if (exists) throw new ToolError('exists', `${path} already exists; create_file never overwrites. Use edit_file to change it.`);
  const content = stringArg(args, 'content');
  const caution = await cautionFor(port, path, realPath, context.signal);
  return {
    preview: { kind: 'create', path, content, ...caution },
    async apply(signal) {
      await port.createFile(path, content, signal);
      context.session.noteRead(path, content);
      return `Created ${path} (${lineCount(content)} lines).`;
    },
  };
}

/** The answer of run_in_terminal: how it ended, then the output. */
export function commandReport(command: string, outcome: CommandOutcome, timeoutSeconds: number): string {
  const ending = outcome.timedOut
    ? `Stopped after ${timeoutSeconds} s (the time limit).`
    : outcome.exitCode === null
      ? 'Killed before it finished.'
      : `Exit code ${outcome.exitCode}.`;
  const dropped = outcome.droppedChars > 0 ? `\n[${outcome.droppedChars.toLocaleString('en-US')} more characters of output were not kept.]` : '';
  const output = outcome.output.trimEnd();
  return `$ ${command}\n${ending}${output === '' ? ' No output.' : `\n${output}`}${dropped}`;
}

/** The changing functions over `port`; only offered in a trusted workspace. */
export function changeTools(port: WorkspacePort, options: ChangeOptions): ChangeTool[] {
  return [
    tool('edit_file', (args, context) => prepareEdit(port, args, context)),
    tool('create_file', (args, context) => prepareCreate(port, args, context)),
    tool('run_in_terminal', async (args) => {
      const command = stringArg(args, 'command');
      if (command.trim() === '') throw new ToolError('invalid', 'command is empty.');
      const cwd = stringArg(args, 'cwd') || undefined;
      const timeoutSeconds = options.terminalTimeoutSeconds;
      return {
        preview: { kind: 'terminal', command, cwd, timeoutSeconds },
        async apply(signal) {
          const outcome = await port.runInTerminal(command, { ...(cwd ? { cwd } : {}), timeoutMs: timeoutSeconds * 1000, signal });
          return commandReport(command, outcome, timeoutSeconds);
        },
      };
    }),
  ];
}
