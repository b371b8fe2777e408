import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { PanelPort } from '../panel/panelPort';
import { codeContext, fenced } from './editorContext';

/**
 * `cadenza.explainSelection` / `cadenza.askAboutSelection`: asks about the selection (or the function
 * around the cursor) in the chat panel, streaming the answer there. Returns the answer text.
 * askAboutSelection asks for the question in an input box; no argument stands in for it.
 */
export async function askAboutCode(chat: ChatController, panel: PanelPort, mode: 'explain' | 'ask'): Promise<string | undefined> {
  const context = await codeContext();
  if (!context) return undefined;
  let question: string | undefined;
  if (mode === 'ask') {
    question = await vscode.window.showInputBox({
      title: vscode.l10n.t('Cadenza: ask about the selection'),
      prompt: vscode.l10n.t('About {0}', context.fileName),
      ignoreFocusOut: true,
    });
    if (!question?.trim()) return undefined;
  }
  const prompt =
    mode === 'explain' ? `Explain this code: what it does, how, and anything surprising.\n\n${fenced(context)}` : `${question ?? ''}\n\n${fenced(context)}`;
  await panel.reveal();
  const conversation = await chat.current();
  return chat.turns.send(prompt, conversation.options);
}
