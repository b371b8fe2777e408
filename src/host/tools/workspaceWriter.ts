// The changing half of the workspace port: an approved edit as one undoable WorkspaceEdit (refused if
// the text moved since it was shown), a new file that never overwrites, and a command run with a time
// limit. Each refuses outright in Restricted Mode, whatever the caller.
import * as vscode from 'vscode';
import { spawn } from 'node:child_process';
import { ToolError } from '../../core/tools/toolTypes';
import type { CommandOutcome, FileEdit } from '../../core/tools/workspacePort';
import { resolveTarget, throwIfAborted } from './portSupport';

/** Output a command may produce before the rest is dropped (the loop cuts it again to the context). */
const maxOutputChars = 200_000;

function refuseUntrusted(trusted: boolean): void {
  if (!trusted) throw new ToolError('restricted', 'The workspace is in Restricted Mode: Cadenza does not change files or run commands here.');
}

/** Applies `edit` as one WorkspaceEdit, and saves the file unless it already had unsaved changes. */
export async function applyFileEdit(edit: FileEdit, trusted: boolean, signal: AbortSignal): Promise<void> {
  refuseUntrusted(trusted);
  throwIfAborted(signal);
  const target = await resolveTarget(edit.path);
  const document = await vscode.workspace.openTextDocument(target.uri);
  // The version check: the text the user approved must still be the document's text, byte for byte.
  if (document.getText() !== edit.expectedText) {
    throw new ToolError('changed', `${target.display} changed after the edit was proposed; it was not applied. Read it again.`);
  }
  const wasDirty = document.isDirty;
  const change = new vscode.WorkspaceEdit();
  const range = new vscode.Range(document.positionAt(edit.offset), document.positionAt(edit.offset + edit.length));
  change.replace(target.uri, range, edit.newText, { label: vscode.l10n.t('Cadenza agent edit'), needsConfirmation: false });
  if (!(await vscode.workspace.applyEdit(change))) throw new ToolError('failed', `VS Code did not apply the edit to ${target.display}.`);
  // Saved so commands and other tools see it; a file with the user's own unsaved changes is left for them to save.
  if (!wasDirty) await document.save();
}

/** Creates `path` with `content` as one WorkspaceEdit; refuses to overwrite. */
export async function createWorkspaceFile(path: string, content: string, trusted: boolean, signal: AbortSignal): Promise<void> {
  refuseUntrusted(trusted);
  throwIfAborted(signal);
  const target = await resolveTarget(path);
  if (
    await vscode.workspace.fs.stat(target.uri).then(
      () => true,
      () => false,
    )
  ) {
    throw new ToolError('exists', `${target.display} already exists; it was not overwritten.`);
  }
  const change = new vscode.WorkspaceEdit();
  change.createFile(
    target.uri,
    { overwrite: false, ignoreIfExists: false, contents: new TextEncoder().encode(content) },
    { label: vscode.l10n.t('Cadenza agent: new file'), needsConfirmation: false },
  );
  if (!(await vscode.workspace.applyEdit(change))) throw new ToolError('failed', `VS Code did not create ${target.display}.`);
}

/**
 * Runs `command` through the system shell in a workspace folder, capturing stdout and stderr as they
 * come. The time limit and the signal kill the whole process group (a shell's children too). A Node
 * child process rather than a terminal: the output must come back to the model whole and in order.
 */
export async function runCommand(
  command: string,
  options: { readonly cwd?: string; readonly timeoutMs: number; readonly signal: AbortSignal },
  trusted: boolean,
): Promise<CommandOutcome> {
  refuseUntrusted(trusted);
  throwIfAborted(options.signal);
  const cwd = await resolveTarget(options.cwd ?? '.');
  const isDirectory = await vscode.workspace.fs.stat(cwd.uri).then(
    (stat) => (stat.type & vscode.FileType.Directory) !== 0,
    () => false,
  );
  if (!isDirectory) throw new ToolError('notFound', `${cwd.display || '.'} is not a folder of the workspace.`);
  return new Promise<CommandOutcome>((resolve, reject) => {
    const windows = process.platform === 'win32';
    const child = spawn(command, {
      cwd: cwd.absolute,
      shell: true,
      detached: !windows,
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CADENZA_AGENT: '1' },
    });
    const chunks: string[] = [];
    let kept = 0;
    let dropped = 0;
    let timedOut = false;
    const take = (data: Buffer): void => {
      const text = data.toString('utf8');
      const room = maxOutputChars - kept;
      if (room > 0) {
        chunks.push(text.slice(0, room));
        kept += Math.min(room, text.length);
      }
      dropped += Math.max(0, text.length - Math.max(0, room));
    };
    const kill = (): void => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        if (windows) child.kill();
        else process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      const hard = setTimeout(() => {
        try {
          if (child.pid !== undefined && child.exitCode === null) process.kill(windows ? child.pid : -child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }, 2000);
      hard.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = (): void => kill();
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(new ToolError('failed', `The command could not start: ${error.message}`, { cause: error }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ exitCode: timedOut || options.signal.aborted ? null : code, output: chunks.join(''), timedOut, droppedChars: dropped });
    });
  });
}
