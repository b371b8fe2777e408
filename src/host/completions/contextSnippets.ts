import * as vscode from 'vscode';
import type { ContextSnippet } from '../../core/completions/prompt';
import type { CompletionGate } from './completionGate';

const MAX_EDITS = 8;
const LINES_AROUND = 8;

/**
 * A little context from elsewhere for the completion prompt: the places last edited in other files and
 * what other visible editors show. Per keystroke it only notes a line number; the text is read when a
 * request is actually sent. Files the gate refuses never contribute.
 */
export class ContextSnippets implements vscode.Disposable {
  private readonly edits: { uri: string; line: number }[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(private readonly gate: CompletionGate) {
    this.subscription = vscode.workspace.onDidChangeTextDocument((event) => {
      const change = event.contentChanges[0];
      if (!change || (event.document.uri.scheme !== 'file' && event.document.uri.scheme !== 'untitled')) return;
      const uri = event.document.uri.toString();
      const index = this.edits.findIndex((edit) => edit.uri === uri);
      if (index >= 0) this.edits.splice(index, 1);
      this.edits.unshift({ uri, line: change.range.start.line });
      this.edits.length = Math.min(this.edits.length, MAX_EDITS);
    });
  }

  /** Snippets for a completion in `current`, most relevant first: recent edits, then visible editors. */
  async collect(current: vscode.TextDocument): Promise<ContextSnippet[]> {
    const currentUri = current.uri.toString();
    const picked: { document: vscode.TextDocument; range: vscode.Range }[] = [];
    for (const edit of this.edits) {
      if (edit.uri === currentUri) continue;
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === edit.uri);
      if (!document) continue;
      const start = Math.max(0, edit.line - LINES_AROUND);
      const end = Math.min(document.lineCount - 1, edit.line + LINES_AROUND);
      picked.push({ document, range: new vscode.Range(start, 0, end, document.lineAt(end).text.length) });
      if (picked.length >= 3) break;
    }
    for (const editor of vscode.window.visibleTextEditors) {
      const uri = editor.document.uri.toString();
      if (uri === currentUri || picked.some((entry) => entry.document.uri.toString() === uri)) continue;
      const visible = editor.visibleRanges[0];
      if (visible) picked.push({ document: editor.document, range: visible });
    }
    const snippets: ContextSnippet[] = [];
    for (const { document, range } of picked) {
      if ((await this.gate.verdict(document)) !== undefined) continue;
      snippets.push({ path: vscode.workspace.asRelativePath(document.uri, false), text: document.getText(range) });
    }
    return snippets;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
