import * as vscode from 'vscode';

/** The code a command is about: the selection, or the function around the cursor when nothing is selected. */
export interface CodeContext {
  readonly editor: vscode.TextEditor;
  readonly range: vscode.Range;
  readonly text: string;
  readonly fileName: string;
  readonly language: string;
}

function innermostContaining(symbols: readonly vscode.DocumentSymbol[], position: vscode.Position): vscode.DocumentSymbol | undefined {
  const callable = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor, vscode.SymbolKind.Class]);
  for (const symbol of symbols) {
    if (!symbol.range.contains(position)) continue;
    const inner = innermostContaining(symbol.children, position);
    if (inner) return inner;
    if (callable.has(symbol.kind)) return symbol;
  }
  return undefined;
}

/** Reads the selection, else the enclosing function (from the language's symbols), else the current line. */
export async function codeContext(): Promise<CodeContext | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a file and select some code first.'));
    return undefined;
  }
  const document = editor.document;
  let range: vscode.Range = editor.selection;
  if (editor.selection.isEmpty) {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', document.uri).then(
      (result) => result ?? [],
      () => [],
    );
    const around = innermostContaining(
      symbols.filter((symbol): symbol is vscode.DocumentSymbol => 'children' in symbol),
      editor.selection.active,
    );
    range = around?.range ?? document.lineAt(editor.selection.active.line).range;
  }
  return { editor, range, text: document.getText(range), fileName: vscode.workspace.asRelativePath(document.uri), language: document.languageId };
}

/** 1-based first and last line; a selection that ends at column 0 of a line does not include that line. */
export function lineRange(context: CodeContext): string {
  const { start, end } = context.range;
  const last = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
  return `${start.line + 1}-${last}`;
}

/** The code as a fenced block with its file name, for prompts and context blocks. */
export function fenced(context: CodeContext): string {
  const fence = context.text.includes('```') ? '~~~~' : '```';
  const lines = lineRange(context);
  return `${context.fileName} (lines ${lines}, ${context.language}):\n${fence}${context.language}\n${context.text}\n${fence}`;
}
