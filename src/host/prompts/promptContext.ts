// What a prompt file's variables are filled from when it runs in the editor: the active editor's selection
// and file (else the selection or file the chat request references), the workspace folder, and
// `${input:…}` asked in an input box.
import * as vscode from 'vscode';
import type { PromptContext, PromptInputPort } from '../../core/prompts/expand';

function filePath(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

/**
 * The editor's context for a prompt. A chat request's references stand in when no editor is active (VS Code's
 * chat attaches the active editor's selection as one, and may hold it while the chat has the focus).
 */
export async function editorPromptContext(references: readonly vscode.ChatPromptReference[] = []): Promise<PromptContext> {
  const editor = vscode.window.activeTextEditor;
  let selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : undefined;
  let file = editor ? editor.document.uri : undefined;
  if (!editor) {
    for (const reference of references) {
      const value = reference.value;
      if (value instanceof vscode.Location) {
        file ??= value.uri;
        if (selection === undefined && !value.range.isEmpty) selection = (await vscode.workspace.openTextDocument(value.uri)).getText(value.range);
      } else if (value instanceof vscode.Uri) file ??= value;
    }
  }
  const folder = (file ? vscode.workspace.getWorkspaceFolder(file) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
  return {
    ...(selection !== undefined ? { selection } : {}),
    ...(file && file.scheme !== 'untitled' ? { file: filePath(file) } : {}),
    ...(folder ? { workspaceFolder: filePath(folder.uri) } : {}),
  };
}

/** Asks for `${input:name}` in an input box titled with the prompt; a dismissed box (or a cancel) answers undefined. */
export function inputBoxPort(promptName: string, token?: vscode.CancellationToken): PromptInputPort {
  return {
    ask: (name, placeholder) =>
      Promise.resolve(
        vscode.window.showInputBox(
          {
            title: `/${promptName}: ${name}`,
            prompt: placeholder ?? vscode.l10n.t('A value for {0}', name),
            ...(placeholder !== undefined ? { placeHolder: placeholder } : {}),
            ignoreFocusOut: true,
          },
          token,
        ),
      ),
  };
}
