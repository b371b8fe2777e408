// What the chat panel was told, folded from the messages the host posted to it (ToWebview) the way the
// webview folds them (src/webview/app.ts, messageList.ts): the open conversation with its streamed answers,
// cards and checkpoints, the list of conversations, the model picker, the meter and the notices. The
// suites read the panel from here instead of asking the chat controller what it holds.
import type { ToWebview } from '../../src/shared/protocol';
import type { ConversationSummary, ConversationView, MessageView, ModelView } from '../../src/shared/views';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Done = Extract<ToWebview, { type: 'chat/done' }>;

/** One message as the panel shows it: as added (or shown), with its streamed text and thinking, its cards and how it ended. */
export type ShownMessage = Mutable<MessageView> & {
  /** What `chat/done` said besides what a stored message keeps (the JSON check, a failed save). */
  ended?: Pick<Done, 'jsonCheck' | 'saveError'>;
};

/** The open conversation as the panel shows it. */
export interface ShownConversation extends Omit<ConversationView, 'messages'> {
  /** The title in the conversation list when it has one (renames and first questions reach the panel there). */
  readonly title: string;
  readonly messages: readonly ShownMessage[];
}

/** The model picker as last posted. */
interface ShownModels {
  readonly models: readonly ModelView[];
  readonly selected: string | undefined;
  readonly loading: boolean;
}

/** Folds ToWebview messages into what the panel shows. */
export class PanelState {
  private shown: { view: Omit<ConversationView, 'messages'>; messages: ShownMessage[] } | undefined;
  private list: { conversations: readonly ConversationSummary[]; activeId: string } | undefined;
  private picker: ShownModels | undefined;

  /** The open conversation, or undefined before the panel was shown one (since this state was attached). */
  get conversation(): ShownConversation | undefined {
    if (!this.shown) return undefined;
    const listed = this.list?.conversations.find((entry) => entry.id === this.shown?.view.id);
    return { ...this.shown.view, title: listed?.title ?? this.shown.view.title, messages: this.shown.messages };
  }

  /** The model picker, as last posted. */
  get models(): ShownModels | undefined {
    return this.picker;
  }

  apply(message: ToWebview): void {
    switch (message.type) {
      case 'conversation/show': {
        const { messages, ...view } = structuredClone(message.conversation);
        this.shown = { view, messages: messages.map((entry) => ({ ...entry })) };
        return;
      }
      case 'message/add': {
        if (!this.shown) return;
        const messages = this.shown.messages;
        const added: ShownMessage = { ...structuredClone(message.message) };
        const index = messages.findIndex((entry) => entry.id === added.id);
        if (index >= 0) messages[index] = added;
        else messages.push(added);
        return;
      }
      case 'chat/delta': {
        const target = this.message(message.messageId);
        if (target) target.text += message.text;
        return;
      }
      case 'chat/reasoning': {
        const target = this.message(message.messageId);
        if (target) target.reasoning = { text: (target.reasoning?.text ?? '') + message.text, ms: target.reasoning?.ms ?? 0 };
        return;
      }
      case 'chat/done':
        this.done(message);
        return;
      case 'tool/call': {
        const target = this.message(message.messageId);
        if (!target) return;
        const calls = [...(target.toolCalls ?? [])];
        calls[message.call.index] = message.call;
        target.toolCalls = calls;
        return;
      }
      case 'checkpoint/update': {
        const target = this.message(message.messageId);
        if (target) target.checkpoint = message.checkpoint;
        return;
      }
      case 'state/conversations':
        this.list = { conversations: message.conversations, activeId: message.activeId };
        return;
      case 'state/models':
        this.picker = { models: message.models, selected: message.selected, loading: message.loading };
        return;
      case 'agent/mode': {
        // The composer's switch: as the webview does, only for the conversation it shows.
        if (this.shown?.view.id !== message.conversationId) return;
        const { modeLocked: _locked, ...view } = this.shown.view;
        this.shown.view = { ...view, mode: message.mode, ...(message.locked !== undefined ? { modeLocked: message.locked } : {}) };
        return;
      }
      default:
        // The rest (connection, meter, notices, composer, menus) is read from the recorded messages.
        return;
    }
  }

  private done(message: Done): void {
    const target = this.message(message.messageId);
    if (!target) return;
    target.streaming = false;
    if (message.stopped) target.stopped = true;
    if (message.usage) target.usage = message.usage;
    if (message.error) target.error = message.error;
    if (message.sources) target.sources = message.sources;
    if (message.agentStop) target.agentStop = message.agentStop;
    if (message.reasoningMs !== undefined && target.reasoning) target.reasoning = { text: target.reasoning.text, ms: message.reasoningMs };
    target.ended = {
      ...(message.jsonCheck ? { jsonCheck: message.jsonCheck } : {}),
      ...(message.saveError !== undefined ? { saveError: message.saveError } : {}),
    };
  }

  private message(id: string): ShownMessage | undefined {
    return this.shown?.messages.find((entry) => entry.id === id);
  }
}
