// The conversation list's actions: new, open, rename, delete, and export as a Markdown document.
import * as vscode from 'vscode';
import { conversationToMarkdown } from '../../../core/chat/conversation';
import type { Handlers, PanelParts } from '../router';

export function conversationHandlers({ chat }: Pick<PanelParts, 'chat'>): Handlers<'conversation/new' | 'conversation/switch' | 'conversation/rename' | 'conversation/delete' | 'conversation/export'> {
  return {
    'conversation/new': () => chat.newConversation(),
    'conversation/switch': (message) => chat.switchTo(message.id),
    'conversation/rename': async (message) => {
      if (await chat.session.rename(message.id)) await chat.panel.conversations();
    },
    'conversation/delete': (message) => chat.delete(message.id),
    'conversation/export': async (message) => {
      const conversation = await chat.session.load(message.id);
      if (!conversation) return;
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: conversationToMarkdown(conversation) });
      await vscode.window.showTextDocument(document, { preview: false });
    },
  };
}
