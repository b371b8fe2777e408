// Code out of the panel: a code block copied, inserted, put over the selection or opened, and a cited source opened.
import * as vscode from 'vscode';
import { copyCode, insertCode, openCode, replaceSelection } from '../../chat/codeActions';
import type { Handlers } from '../router';

/** Opens a cited workspace location; the URI comes from the webview, so only files inside the workspace open. */
async function openSource(uriText: string, startLine: number): Promise<void> {
  const uri = vscode.Uri.parse(uriText, true);
  if (uri.scheme !== 'file' || vscode.workspace.getWorkspaceFolder(uri) === undefined) return;
  const line = Math.max(0, Math.floor(startLine) - 1);
  const document = await vscode.workspace.openTextDocument(uri);
  const position = new vscode.Position(Math.min(line, document.lineCount - 1), 0);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: true, viewColumn: vscode.ViewColumn.One });
}

export function codeHandlers(): Handlers<'code/copy' | 'code/insert' | 'code/replaceSelection' | 'code/open' | 'source/open'> {
  return {
    'code/copy': (message) => copyCode(message.code),
    'code/insert': async (message) => {
      await insertCode(message.code);
    },
    'code/replaceSelection': async (message) => {
      await replaceSelection(message.code);
    },
    'code/open': (message) => openCode(message.code, message.language),
    'source/open': (message) => openSource(message.uri, message.startLine),
  };
}
