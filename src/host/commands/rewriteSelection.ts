import * as vscode from 'vscode';
import { deferredStream } from '../../core/api/deferredStream';
import { ApiError } from '../../core/api/errors';
import { runTurn } from '../../core/chat/runTurn';
import type { ChatController } from '../chat/chatController';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';
import { codeContext, fenced } from './editorContext';

export const proposalScheme = 'cadenza-proposal';

/** Serves the texts of rewrite proposals to the diff editor, and updates them while they stream. */
export class ProposalProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}

/** Models often wrap the whole answer in one code fence even when asked not to; take what is inside. */
export function unwrapFence(text: string): string {
  const match = /^\s*(```|~~~~)[\w+-]*\n([\s\S]*?)\n\1\s*$/.exec(text);
  return match?.[2] ?? text;
}

/**
 * `cadenza.rewriteSelection`: asks for an instruction, streams the rewritten code into a diff against
 * the selection, and applies it as one undoable edit when accepted — unless the document changed
 * meanwhile. Returns the proposed text (applied or not), or undefined when nothing was proposed. It takes
 * no arguments: the instruction and the decision are the user's, through the input box and the prompt
 * (test/ui/editorCommands.ui.mjs drives both).
 */
export async function rewriteSelection(connection: ServiceConnection, chat: ChatController, proposals: ProposalProvider): Promise<string | undefined> {
  const context = await codeContext();
  if (!context) return undefined;
  const instruction = await vscode.window.showInputBox({
    title: vscode.l10n.t('Cadenza: rewrite the selection'),
    prompt: vscode.l10n.t('How should the code change?'),
    ignoreFocusOut: true,
  });
  if (!instruction?.trim()) return undefined;
  const conversation = await chat.current();
  const controller = new AbortController();
  // The turn's model is the one a chat message would use: chosen, set, last used or the service's default (waiting for the list).
  const turn = runTurn(
    {
      model: async () => {
        const id = await chat.resolveModel(conversation);
        return id === undefined ? undefined : { id, info: connection.model(id) };
      },
      context: (model) =>
        Promise.resolve({
          request: {
            model: model.id,
            messages: [
              { role: 'system', content: 'You rewrite code. Answer with the rewritten code only: no explanation, no Markdown fence.' },
              { role: 'user', content: `Instruction: ${instruction}\n\n${fenced(context)}` },
            ],
            maxTokens: Math.min(4096, model.info?.maxCompletionTokens ?? 4096),
            includeUsage: true,
          },
        }),
      stream: (request, options) => deferredStream(async () => (await connection.client()).streamChat(request, options)),
    },
    controller.signal,
  );
  const chosen = await turn.next();
  if (chosen.done || chosen.value.type !== 'model') {
    if (!chosen.done && chosen.value.type === 'error') throw chosen.value.error;
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t('No model can be chosen yet: the service listed none. Check the key and the address, or pick a model.'),
        vscode.l10n.t('Select Model'),
      )
      .then((choice) => choice && vscode.commands.executeCommand('cadenza.selectModel'));
    return undefined;
  }
  const document = context.editor.document;
  const version = document.version;
  const id = `${Date.now()}`;
  const original = vscode.Uri.from({ scheme: proposalScheme, path: `/${id}/original/${context.fileName}` });
  const proposed = vscode.Uri.from({ scheme: proposalScheme, path: `/${id}/proposed/${context.fileName}` });
  proposals.set(original, context.text);
  proposals.set(proposed, '');
  // Beside the editor, so the user's own editor stays open and editable while the proposal streams in.
  await vscode.commands.executeCommand('vscode.diff', original, proposed, vscode.l10n.t('Cadenza rewrite: {0}', context.fileName), {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
    preserveFocus: true,
  });

  let text = '';
  try {
    text = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Cadenza is rewriting the selection'), cancellable: true },
      async (_progress, token) => {
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          const parts: string[] = [];
          let last = 0;
          for await (const event of turn) {
            if (event.type === 'error') throw event.error;
            if (event.type === 'done' && event.outcome === 'stopped') throw new ApiError('canceled', 'Stopped by the user');
            if (event.type !== 'text') continue;
            parts.push(event.text);
            // Update the diff at most every 100 ms: re-diffing on every token is wasted work.
            if (Date.now() - last > 100) {
              last = Date.now();
              proposals.set(proposed, unwrapFence(parts.join('')));
            }
          }
          return unwrapFence(parts.join(''));
        } finally {
          subscription.dispose();
        }
      },
    );
  } catch (error) {
    proposals.delete(original);
    proposals.delete(proposed);
    if (!ApiError.is(error, 'canceled')) void vscode.window.showErrorMessage(vscode.l10n.t('Rewrite failed: {0}', errorView(error).message));
    return undefined;
  }
  proposals.set(proposed, text);

  const accept = vscode.l10n.t('Accept');
  const accepted =
    (await vscode.window.showInformationMessage(vscode.l10n.t('Apply the rewrite to the selection?'), accept, vscode.l10n.t('Reject'))) === accept;
  proposals.delete(original);
  if (!accepted) return text;
  if (document.version !== version) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('{0} changed while the rewrite was being written; it was not applied. The proposal is still open in the diff.', context.fileName),
    );
    return text;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, context.range, text);
  const applied = await vscode.workspace.applyEdit(edit);
  proposals.delete(proposed);
  if (!applied) void vscode.window.showWarningMessage(vscode.l10n.t('The rewrite could not be applied.'));
  return text;
}
