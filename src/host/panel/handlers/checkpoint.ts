// Checkpoints of agent turns: what a turn changed as one diff, and putting its files back (the checkpoint
// service asks first, and refuses in Restricted Mode and for another window's turn); a restored turn is
// marked so in the conversation.
import { checkpointView } from '../../chat/messageView';
import type { Handlers, PanelParts } from '../router';

export function checkpointHandlers({
  chat,
  agent,
  channel,
}: Pick<PanelParts, 'chat' | 'agent' | 'channel'>): Handlers<'checkpoint/showChanges' | 'checkpoint/restore'> {
  return {
    'checkpoint/showChanges': async (message) => {
      await agent.checkpoints.showChanges(message.id);
    },
    'checkpoint/restore': async ({ id }) => {
      if ((await agent.checkpoints.restore(id)) !== 'restored') return;
      const conversation = await chat.session.current();
      const message = conversation.messages.find((entry) => entry.checkpoint?.id === id);
      if (!message?.checkpoint) return;
      message.checkpoint.restoredAt = Date.now();
      await chat.session.save(conversation);
      channel.post({ type: 'checkpoint/update', messageId: message.id, checkpoint: checkpointView(message.checkpoint) });
    },
  };
}
