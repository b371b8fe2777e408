import * as vscode from 'vscode';

/** Copies text to the clipboard (code block or whole answer). */
export async function copyCode(code: string): Promise<void> {
  await vscode.env.clipboard.writeText(code);
  void vscode.window.setStatusBarMessage(vscode.l10n.t('Cadenza: copied to the clipboard'), 2000);
}

function targetEditor(): vscode.TextEditor | undefined {
  // The chat panel has focus when its buttons are clicked, so the active editor may be undefined;
  // the visible text editor the user last worked in is the target then.
  return vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
}

/** Inserts code at the cursor of the editor, as one undoable edit. */
export async function insertCode(code: string): Promise<boolean> {
  const editor = targetEditor();
  if (!editor) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open an editor to insert the code into.'));
    return false;
  }
  return editor.edit((builder) => builder.insert(editor.selection.active, code));
}

/** Replaces the editor's selection with code, as one undoable edit. */
export async function replaceSelection(code: string): Promise<boolean> {
  const editor = targetEditor();
  if (!editor) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open an editor and select the text to replace.'));
    return false;
  }
  return editor.edit((builder) => builder.replace(editor.selection, code));
}

/** Opens code in a new untitled editor with its language. */
export async function openCode(code: string, language: string): Promise<void> {
  const known = await vscode.languages.getLanguages();
  const document = await vscode.workspace.openTextDocument({ content: code, ...(known.includes(language) ? { language } : {}) });
  await vscode.window.showTextDocument(document, { preview: false });
}
