// Stored messages as the panel shows them (`MessageView`), tool-call cards included.
import { checkpointPlace } from '../../core/chat/checkpointPlace';
import type { Conversation, StoredMessage } from '../../core/chat/conversation';
import { toolCallView } from '../../core/chat/answer/storedCall';
import type { CheckpointView, ConversationView, MessageView } from '../../shared/views';
import { folderRoots } from '../tools/portSupport';
import { modeState } from './modeState';

/**
 * A turn's checkpoint as this window's panel shows it: with the folders it was recorded in when they are not
 * this window's (conversations are shared by every window). One recorded before folders were kept is
 * offered, and the restore asks first (checkpointService.ts).
 */
export function checkpointView(checkpoint: NonNullable<StoredMessage['checkpoint']>): CheckpointView {
  const place = checkpointPlace(checkpoint.folders, folderRoots());
  return {
    id: checkpoint.id,
    files: checkpoint.files,
    ...(checkpoint.restoredAt !== undefined ? { restoredAt: checkpoint.restoredAt } : {}),
    ...(place.kind === 'elsewhere' ? { recordedIn: place.folders.map((folder) => folder.fsPath) } : {}),
  };
}

/** A stored message as the panel shows it. */
export function toView(message: StoredMessage): MessageView {
  return {
    id: message.id,
    role: message.role,
    text: message.text,
    ...(message.imageDataUrl ? { imageDataUrl: message.imageDataUrl } : {}),
    ...(message.audio ? { audioName: message.audio.name } : {}),
    ...(message.model ? { model: message.model } : {}),
    ...(message.stopped ? { stopped: true } : {}),
    ...(message.usage ? { usage: message.usage } : {}),
    ...(message.error ? { error: { message: message.error.message, reason: message.error.reason } } : {}),
    ...(message.sources ? { sources: message.sources } : {}),
    ...(message.toolCalls ? { toolCalls: message.toolCalls.map(toolCallView) } : {}),
    ...(message.agentStop ? { agentStop: message.agentStop } : {}),
    ...(message.reasoning ? { reasoning: message.reasoning } : {}),
    ...(message.context?.length
      ? {
          context: message.context.map((part) => ({
            kind: part.kind,
            label: part.label,
            tokens: part.tokens,
            ...(part.note !== undefined ? { note: part.note } : {}),
          })),
        }
      : {}),
    ...(message.checkpoint ? { checkpoint: checkpointView(message.checkpoint) } : {}),
    ...(message.prompt ? { prompt: message.prompt } : {}),
    ...(message.mode ? { mode: message.mode } : {}),
  };
}

/** A stored conversation as the panel shows it, with its summary when it was condensed, and its mode in a workspace `trusted` or not. */
export function conversationView(conversation: Conversation, trusted: boolean): ConversationView {
  const condensed = conversation.condensed;
  const { mode, locked } = modeState(conversation, trusted);
  return {
    id: conversation.id,
    mode,
    ...(locked !== undefined ? { modeLocked: locked } : {}),
    title: conversation.title,
    ...(conversation.model ? { model: conversation.model } : {}),
    options: conversation.options,
    messages: conversation.messages.map(toView),
    ...(condensed
      ? {
          condensed: {
            summary: condensed.summary,
            throughMessageId: condensed.throughMessageId,
            messageCount: condensed.messageCount,
            model: condensed.model,
            ...(condensed.edited ? { edited: true } : {}),
          },
        }
      : {}),
  };
}
