// Stored messages as the panel shows them (`MessageView`), tool-call cards included.
import type { Conversation, StoredMessage, StoredToolCall } from '../../core/chat/conversation';
import type { ConversationView, MessageView, ToolCallView } from '../../shared/views';

/** A stored tool call as its card shows it. */
export function toolCallView(call: StoredToolCall, index: number): ToolCallView {
  return {
    index,
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    status: call.status,
    ...(call.result !== undefined ? { result: call.result } : {}),
    ...(call.change ? { change: call.change } : {}),
    ...(call.origin !== undefined ? { origin: call.origin } : {}),
    ...(call.images?.length ? { images: call.images } : {}),
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
    ...(message.context?.length ? { context: message.context.map((part) => ({ kind: part.kind, label: part.label, tokens: part.tokens, ...(part.note !== undefined ? { note: part.note } : {}) })) } : {}),
    ...(message.checkpoint ? { checkpoint: message.checkpoint } : {}),
  };
}

/** A stored conversation as the panel shows it, with its summary when it was condensed. */
export function conversationView(conversation: Conversation): ConversationView {
  const condensed = conversation.condensed;
  return {
    id: conversation.id,
    title: conversation.title,
    ...(conversation.model ? { model: conversation.model } : {}),
    options: conversation.options,
    messages: conversation.messages.map(toView),
    ...(condensed ? { condensed: { summary: condensed.summary, throughMessageId: condensed.throughMessageId, messageCount: condensed.messageCount, model: condensed.model, ...(condensed.edited ? { edited: true } : {}) } } : {}),
  };
}
