import * as vscode from 'vscode';
import { indexQueryFor } from '../../core/completions/indexQuery';
import type { ContextSnippet } from '../../core/completions/prompt';
import type { SearchHit } from '../index/indexService';
import type { CompletionGate } from './completionGate';

const MAX_EDITS = 8;
const LINES_AROUND = 8;
const INDEX_HITS = 3;

/** The local index as completions use it: a keyword search (no request, no cost) and the text of a hit. */
export interface SnippetIndex {
  keywordSearch(query: string, k: number): Promise<SearchHit[]>;
  chunkText(hit: SearchHit): Promise<string | undefined>;
}

/**
 * A little context from elsewhere for the completion prompt: the places last edited in other files, the
 * local index's chunks that match the identifiers around the cursor (when an index exists), and what other
 * visible editors show. Per keystroke it only notes a line number; the text is read when a request is
 * actually sent. Files the gate refuses never contribute, whatever the index holds.
 */
export class ContextSnippets implements vscode.Disposable {
  private readonly edits: { uri: string; line: number }[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly gate: CompletionGate,
    private readonly index?: SnippetIndex,
  ) {
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

  /** Snippets for a completion in `current` at `cursor`, most relevant first: recent edits, index matches, visible editors. */
  async collect(current: vscode.TextDocument, cursor: { prefix: string; suffix: string }): Promise<ContextSnippet[]> {
    const currentUri = current.uri.toString();
    const edited: { document: vscode.TextDocument; range: vscode.Range }[] = [];
    for (const edit of this.edits) {
      if (edit.uri === currentUri) continue;
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === edit.uri);
      if (!document) continue;
      const start = Math.max(0, edit.line - LINES_AROUND);
      const end = Math.min(document.lineCount - 1, edit.line + LINES_AROUND);
      edited.push({ document, range: new vscode.Range(start, 0, end, document.lineAt(end).text.length) });
      if (edited.length >= 3) break;
    }
    const visible: typeof edited = [];
    for (const editor of vscode.window.visibleTextEditors) {
      const uri = editor.document.uri.toString();
      if (uri === currentUri || [...edited, ...visible].some((entry) => entry.document.uri.toString() === uri)) continue;
      const range = editor.visibleRanges[0];
      if (range) visible.push({ document: editor.document, range });
    }
    const read = async (entries: typeof edited, source: 'edit' | 'editor'): Promise<ContextSnippet[]> => {
      const snippets: ContextSnippet[] = [];
      for (const { document, range } of entries) {
        if ((await this.gate.verdict(document)) !== undefined) continue;
        snippets.push({ path: vscode.workspace.asRelativePath(document.uri, false), text: document.getText(range), source });
      }
      return snippets;
    };
    return [...(await read(edited, 'edit')), ...(await this.fromIndex(current, cursor)), ...(await read(visible, 'editor'))];
  }

  /** The index's chunks for the identifiers around the cursor, outside the current file and allowed by the gate. */
  private async fromIndex(current: vscode.TextDocument, cursor: { prefix: string; suffix: string }): Promise<ContextSnippet[]> {
    const query = this.index ? indexQueryFor(cursor.prefix, cursor.suffix) : '';
    if (!this.index || query === '') return [];
    let hits: SearchHit[];
    try {
      hits = await this.index.keywordSearch(query, INDEX_HITS * 2);
    } catch {
      return [];
    }
    const snippets: ContextSnippet[] = [];
    for (const hit of hits) {
      if (snippets.length >= INDEX_HITS || hit.uri === '' || hit.uri === current.uri.toString()) continue;
      if ((await this.gate.verdictForPath(vscode.Uri.parse(hit.uri))) !== undefined) continue;
      const text = await this.index.chunkText(hit);
      if (text === undefined || text.includes('\u0000') || text.trim() === '') continue;
      snippets.push({ path: hit.path, text, source: 'index' });
    }
    return snippets;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
