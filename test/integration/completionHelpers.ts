// What the inline-completion suites share: open a file with the cursor at a place, ask VS Code for ghost
// text there, see which of the emulator's chat requests carry a file's text, and change a setting at the
// user (Global) target, resolving once the extension host has seen the change.
import * as vscode from 'vscode';
import type { RecordedRequest, RunningEmulator } from '../support/emulator/emulator';

/** The first workspace folder's path (the harness opens a copy of the fixture workspace). */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration tests run with a workspace folder');
  return folder.uri.fsPath;
}

/** The chat requests the emulator received (completions are written by a chat model). */
export function chatRequests(emulator: RunningEmulator): RecordedRequest[] {
  return emulator.requests.filter((request) => request.path === '/v1/chat/completions');
}

/** The chat requests whose body holds `marker` (a name found only in one sample file). */
export function requestsCarrying(emulator: RunningEmulator, marker: string): RecordedRequest[] {
  return chatRequests(emulator).filter((request) => JSON.stringify(request.body).includes(marker));
}

/** Opens `file` in an editor with the cursor at `line`:`character`. */
export async function openAt(file: string, line: number, character: number): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  editor.selection = new vscode.Selection(line, character, line, character);
  return editor;
}

/**
 * Opens `file` at `line`:`character` in a new editor and asks for ghost text there with VS Code's own
 * command, which settles once every inline-completion provider has answered (a request the provider made
 * has reached the emulator by then). Returns the document's uri. The editors are closed first: an editor
 * that asked once at a place does not ask its providers again there until the text changes.
 */
export async function triggerAt(file: string, line: number, character: number): Promise<string> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const editor = await openAt(file, line, character);
  await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
  return editor.document.uri.toString();
}

/**
 * Sets `section`.`key` in the user settings and resolves once the extension host has fired the change (the
 * extension's listeners, registered at activation, have run before this one). A value equal to the current
 * user value changes nothing and resolves at once.
 */
export async function setUserSetting(section: string, key: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration(section);
  if (JSON.stringify(config.inspect(key)?.globalValue) === JSON.stringify(value)) return;
  let subscription: vscode.Disposable | undefined;
  const seen = new Promise<void>((resolve) => {
    subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${section}.${key}`)) resolve();
    });
  });
  try {
    await config.update(key, value, vscode.ConfigurationTarget.Global);
    await seen;
  } finally {
    subscription?.dispose();
  }
}
