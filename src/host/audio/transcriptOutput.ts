import * as vscode from 'vscode';
import { formatCost } from '../../shared/cost';

/** Where transcripts go (`cadenza.audio.output`). */
export type TranscriptDestination = 'document' | 'cursor' | 'clipboard';

/** What the heading of a transcript document says. */
export interface TranscriptHeading {
  readonly fileName: string;
  readonly model: string;
  readonly language: string;
  readonly seconds: number | undefined;
  readonly mode: 'transcribe' | 'translate';
  /** USD at the model's price per audio hour; the line is left out when unknown. */
  readonly cost?: number | undefined;
}

function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined) return vscode.l10n.t('unknown');
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** The Markdown heading of a transcript: file, model, language, duration and, when the model has an audio price, cost. */
export function transcriptHeading(heading: TranscriptHeading): string {
  const title = heading.mode === 'translate' ? vscode.l10n.t('Translation: {0}', heading.fileName) : vscode.l10n.t('Transcript: {0}', heading.fileName);
  const cost = heading.cost === undefined ? [] : [`- ${vscode.l10n.t('Cost: {0}', formatCost(heading.cost))}`];
  return [
    `# ${title}`,
    '',
    `- ${vscode.l10n.t('Model: {0}', heading.model)}`,
    `- ${vscode.l10n.t('Language: {0}', heading.language || vscode.l10n.t('detected'))}`,
    `- ${vscode.l10n.t('Duration: {0}', formatDuration(heading.seconds))}`,
    ...cost,
    '',
    '',
  ].join('\n');
}

/** Receives a transcript as it streams in, then the whole of it. */
export interface TranscriptSink {
  append(text: string): void;
  finish(fullText: string): Promise<void>;
  /** A failure after the sink was opened: the document says so instead of staying half-written. */
  fail(message: string): Promise<void>;
}

/**
 * A new Markdown document per file, with the heading, into which the transcript streams as it arrives
 * (appends are coalesced to one edit every ~100 ms).
 */
export async function documentSink(heading: TranscriptHeading): Promise<TranscriptSink> {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: transcriptHeading(heading) });
  await vscode.window.showTextDocument(document, { preview: false, preserveFocus: true });
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();
  const flush = (): Promise<void> => {
    timer = undefined;
    const text = pending;
    pending = '';
    if (!text) return writing;
    writing = writing.then(async () => {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(document.uri, document.lineAt(document.lineCount - 1).range.end, text);
      await vscode.workspace.applyEdit(edit);
    });
    return writing;
  };
  return {
    append(text) {
      pending += text;
      timer ??= setTimeout(() => void flush(), 100);
    },
    async finish() {
      if (timer) clearTimeout(timer);
      await flush();
      if (!document.getText().endsWith('\n')) {
        pending = '\n';
        await flush();
      }
    },
    async fail(message) {
      if (timer) clearTimeout(timer);
      pending += `\n\n> Transcription stopped: ${message}\n`;
      await flush();
    },
  };
}

/** Inserts the finished transcript at the cursor of the active editor (one edit). */
export function cursorSink(): TranscriptSink {
  return {
    append: () => undefined,
    async finish(fullText) {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
      if (!editor) {
        await vscode.env.clipboard.writeText(fullText);
        void vscode.window.showWarningMessage(vscode.l10n.t('No editor was open, so the transcript was copied to the clipboard instead.'));
        return;
      }
      await editor.edit((builder) => builder.insert(editor.selection.active, fullText));
    },
    fail: async () => undefined,
  };
}

/** Copies the finished transcript to the clipboard. */
export function clipboardSink(): TranscriptSink {
  return {
    append: () => undefined,
    async finish(fullText) {
      await vscode.env.clipboard.writeText(fullText);
    },
    fail: async () => undefined,
  };
}
