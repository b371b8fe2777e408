// The conversation list's actions: new, open, rename, delete, export as a Markdown document, copy as Markdown.
import * as vscode from 'vscode';
import { conversationToMarkdown } from '../../../core/chat/conversation';
import type { Handlers, PanelParts } from '../router';

export function conversationHandlers({
  chat,
  channel,
}: Pick<PanelParts, 'chat' | 'channel'>): Handlers<
  'conversation/new' | 'conversation/switch' | 'conversation/rename' | 'conversation/delete' | 'conversation/export' | 'conversation/copyMarkdown'
> {
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
    'conversation/copyMarkdown': async (message) => {
      const conversation = await chat.session.load(message.id);
      if (!conversation) return;
      await vscode.env.clipboard.writeText(conversationToMarkdown(conversation));
      channel.post({ type: 'notice', level: 'info', text: vscode.l10n.t('Conversation copied as Markdown.') });
    },
  };
}
