// Condensing the open conversation (with the panel's max tokens, else the conversation's), and the user's edit of its summary.
import type { Handlers, PanelParts } from '../router';

export function condenseHandlers({ chat }: Pick<PanelParts, 'chat'>): Handlers<'chat/condense' | 'condense/edit'> {
  return {
    'chat/condense': async (message) => {
      const conversation = await chat.session.current();
      await chat.condenser.condense(conversation, undefined, message.maxTokens ?? conversation.options.maxTokens);
    },
    'condense/edit': async (message) => chat.condenser.editSummary(await chat.session.current(), message.summary),
  };
}
