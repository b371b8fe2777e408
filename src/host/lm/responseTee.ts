import * as vscode from 'vscode';

/** One part a participant pushed to a chat response, in a form that can be compared and logged. */
export type RecordedPart =
  | { readonly kind: 'markdown'; readonly value: string }
  | { readonly kind: 'anchor'; readonly uri: string; readonly startLine?: number; readonly endLine?: number; readonly title?: string }
  | { readonly kind: 'button'; readonly command: string; readonly title: string }
  | { readonly kind: 'progress'; readonly value: string }
  | { readonly kind: 'reference'; readonly uri: string }
  | { readonly kind: 'other' };

function target(value: vscode.Uri | vscode.Location): { uri: string; startLine?: number; endLine?: number } {
  if (value instanceof vscode.Uri) return { uri: value.toString() };
  return { uri: value.uri.toString(), startLine: value.range.start.line + 1, endLine: value.range.end.line + 1 };
}

function markdownText(value: string | vscode.MarkdownString): string {
  return typeof value === 'string' ? value : value.value;
}

/**
 * A ChatResponseStream that records every part and passes it on to `forward` (VS Code's own stream)
 * when given. The @cadenza participant reports what it answered through it, and tests use it without
 * `forward` as the response stream of a handler they call directly.
 */
export function recordingStream(forward?: vscode.ChatResponseStream): { readonly stream: vscode.ChatResponseStream; readonly parts: RecordedPart[] } {
  const parts: RecordedPart[] = [];
  const stream: vscode.ChatResponseStream = {
    markdown(value) {
      parts.push({ kind: 'markdown', value: markdownText(value) });
      forward?.markdown(value);
    },
    anchor(value, title) {
      parts.push({ kind: 'anchor', ...target(value), ...(title !== undefined ? { title } : {}) });
      forward?.anchor(value, title);
    },
    button(command) {
      parts.push({ kind: 'button', command: command.command, title: command.title });
      forward?.button(command);
    },
    filetree(value, baseUri) {
      parts.push({ kind: 'other' });
      forward?.filetree(value, baseUri);
    },
    progress(value) {
      parts.push({ kind: 'progress', value });
      forward?.progress(value);
    },
    reference(value, iconPath) {
      parts.push({ kind: 'reference', uri: target(value).uri });
      forward?.reference(value, iconPath);
    },
    push(part) {
      if (part instanceof vscode.ChatResponseMarkdownPart) parts.push({ kind: 'markdown', value: part.value.value });
      else parts.push({ kind: 'other' });
      forward?.push(part);
    },
  };
  return { stream, parts };
}

/** The text a recorded response shows: its Markdown and link titles, in order. */
export function recordedText(parts: readonly RecordedPart[]): string {
  return parts.map((part) => (part.kind === 'markdown' ? part.value : part.kind === 'anchor' ? (part.title ?? part.uri) : '')).join('');
}
