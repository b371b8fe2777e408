/**
 * The conversation: its messages in order, routing of streamed deltas to the right answer, and the
 * scroll position (kept at the bottom while an answer streams unless the user scrolled up). Following
 * the bottom is done from a ResizeObserver, after layout, so streaming never forces a layout itself.
 */
import type { ToWebview } from '../shared/protocol';
import type { ConversationView, MessageView } from '../shared/views';
import { AssistantMessage } from './assistantMessage';
import { handleCodeAction } from './codeBlocks';
import { condensedBlock } from './condensedBlock';
import { el } from './dom';
import type { BodyKind } from './markdownBody';
import type { PanelContext } from './panelContext';
import { UserMessage } from './userMessage';

type Item =
  | { readonly kind: 'assistant'; readonly view: AssistantMessage }
  | { readonly kind: 'user'; readonly view: UserMessage }
  | { readonly kind: 'other'; readonly view: { readonly element: HTMLElement; dispose(): void } };

type JsonMode = 'off' | 'object' | 'schema';

/** Within this many pixels of the bottom counts as "at the bottom". */
const stickDistance = 48;

/** The scrolling list of messages. */
export class MessageList {
  /** The scroll container. */
  // Not role="log": a log is an implicit live region, and a streaming answer would be read out
  // token by token. Finished answers are announced once by the panel's announcer instead.
  readonly element = el('div', { className: 'messages', attrs: { role: 'region', 'aria-label': 'Conversation', tabindex: '0' } });
  private readonly content = el('div', { className: 'messages-content' });
  private readonly items = new Map<string, Item>();
  private readonly welcome = el('div', { className: 'welcome' },
    el('p', { className: 'welcome-title', text: 'Ask Cadenza anything.' }),
    el('p', { text: 'Enter sends, Shift+Enter starts a new line, Escape stops an answer. Use \u201cAdd selection to chat\u201d in the editor to quote code.' }));
  private streamingId: string | undefined;
  private atBottom = true;
  private scrollSave: number | undefined;
  private savedScroll: number | undefined;

  /**
   * `onStreamingChange` runs when an answer starts or stops streaming; `onScroll` receives the
   * position to save.
   */
  constructor(
    private readonly context: PanelContext,
    private readonly onStreamingChange: (streaming: boolean) => void,
    private readonly onScroll: (scrollTop: number, atBottom: boolean) => void,
  ) {
    this.content.append(this.welcome);
    this.element.append(this.content);
    // The list or the footer can change size without a scroll (images load, the meter appears):
    // stay at the bottom if the user was there.
    const resize = new ResizeObserver(() => this.followBottom());
    resize.observe(this.content);
    resize.observe(this.element);
    this.element.addEventListener('click', (event) => handleCodeAction(event.target, (message) => this.context.post(message)));
    this.element.addEventListener('scroll', () => {
      this.atBottom = this.distanceFromBottom() <= stickDistance;
      if (this.scrollSave !== undefined) return;
      this.scrollSave = window.setTimeout(() => {
        this.scrollSave = undefined;
        // At the bottom the exact offset does not matter (following the stream moves it all the time).
        const saved = this.atBottom ? -1 : this.element.scrollTop;
        if (saved === this.savedScroll) return;
        this.savedScroll = saved;
        this.onScroll(Math.max(0, saved), this.atBottom);
      }, 250);
    }, { passive: true });
  }

  /** Whether an answer is streaming. */
  get streaming(): boolean {
    return this.streamingId !== undefined;
  }

  /** Replaces everything with a conversation (on load, switch, and after edits). */
  show(conversation: ConversationView): void {
    for (const item of this.items.values()) item.view.dispose();
    this.items.clear();
    this.content.replaceChildren(this.welcome);
    // An empty conversation (New chat) shows the welcome again; add() hides it for the first message.
    this.welcome.hidden = false;
    this.setStreaming(undefined);
    const jsonMode = conversation.options.jsonMode ?? 'off';
    for (const message of conversation.messages) this.add(message, jsonMode);
    // A condensed conversation shows its summary after the last message it covers.
    const condensed = conversation.condensed;
    if (condensed) this.items.get(condensed.throughMessageId)?.view.element.after(condensedBlock(condensed, (message) => this.context.post(message)));
    this.atBottom = true;
    this.updateLast();
    this.scrollToBottom();
  }

  /** Adds a message, or replaces the one with the same id. */
  add(message: MessageView, jsonMode: JsonMode): void {
    const item = this.create(message, jsonMode);
    const existing = this.items.get(message.id);
    if (existing) {
      existing.view.dispose();
      existing.view.element.replaceWith(item.view.element);
    } else {
      // The next step of an agent answer continues the one before it (its header is dropped).
      const previous = [...this.items.values()].at(-1);
      if (item.kind === 'assistant' && previous?.kind === 'assistant' && previous.view.isAgentStep) item.view.markAgentStep();
      this.content.append(item.view.element);
    }
    this.items.set(message.id, item);
    if (item.kind === 'user') item.view.setEditable(!this.streaming);
    this.welcome.hidden = true;
    if (message.role === 'assistant' && message.streaming === true) this.setStreaming(message.id);
    this.updateLast();
    if (message.role === 'user') this.atBottom = true;
    this.followBottom();
  }

  /** Routes a tool call's card to its agent step. */
  toolCall(message: Extract<ToWebview, { type: 'tool/call' }>): void {
    const item = this.items.get(message.messageId);
    if (item?.kind !== 'assistant') return;
    item.view.toolCall(message.call, true);
    this.followBottom();
  }

  /** Routes a turn's checkpoint to the step it closes. */
  checkpoint(message: Extract<ToWebview, { type: 'checkpoint/update' }>): void {
    const item = this.items.get(message.messageId);
    if (item?.kind !== 'assistant') return;
    item.view.setCheckpoint(message.checkpoint);
    this.followBottom();
  }

  /** Routes a streaming event to its answer. */
  stream(message: Extract<ToWebview, { type: 'chat/delta' | 'chat/reasoning' | 'chat/retrying' | 'chat/done' }>): void {
    const item = this.items.get(message.messageId);
    if (item?.kind !== 'assistant') return;
    switch (message.type) {
      case 'chat/delta':
        item.view.append(message.text);
        return;
      case 'chat/reasoning':
        item.view.appendReasoning(message.text);
        return;
      case 'chat/retrying':
        item.view.retrying(message.seconds, message.attempt, message.reason);
        this.context.announce(`Waiting ${message.seconds} seconds before retrying.`);
        return;
      case 'chat/done':
        item.view.finish({
          stopped: message.stopped,
          ...(message.reasoningMs !== undefined ? { reasoningMs: message.reasoningMs } : {}),
          ...(message.usage ? { usage: message.usage } : {}),
          ...(message.error ? { error: message.error } : {}),
          ...(message.jsonCheck ? { jsonCheck: message.jsonCheck } : {}),
          ...(message.sources ? { sources: message.sources } : {}),
          ...(message.agentStop ? { agentStop: message.agentStop } : {}),
        });
        if (this.streamingId === message.messageId) this.setStreaming(undefined);
        this.updateLast();
        return;
    }
  }

  /** Puts the scroll position back after a reload (the host has just resent the conversation). */
  restoreScroll(scrollTop: number, atBottom: boolean): void {
    this.atBottom = atBottom;
    if (atBottom) this.scrollToBottom();
    else this.element.scrollTop = scrollTop;
  }

  private create(message: MessageView, jsonMode: JsonMode): Item {
    switch (message.role) {
      case 'user':
        return { kind: 'user', view: new UserMessage(message, this.context, () => !this.streaming) };
      case 'assistant': {
        const view = new AssistantMessage(message.id, this.context, kindOf(message, jsonMode), jsonMode === 'schema', message.model);
        if (message.streaming === true && message.text === '') view.startStreaming();
        else view.showFinished(message, kindOf(message, jsonMode));
        return { kind: 'assistant', view };
      }
      case 'system':
      case 'note': {
        const element = el('div', { className: `message ${message.role}`, attrs: { role: 'note' } });
        if (message.role === 'system') element.append(el('span', { className: 'message-role', text: 'System prompt' }));
        element.append(el('p', { text: message.text }));
        return { kind: 'other', view: { element, dispose: () => undefined } };
      }
    }
  }

  private setStreaming(id: string | undefined): void {
    const was = this.streaming;
    this.streamingId = id;
    if (was !== this.streaming) this.onStreamingChange(this.streaming);
    for (const item of this.items.values()) if (item.kind === 'user') item.view.setEditable(!this.streaming);
  }

  /** Only the last answer offers Regenerate and its error's action. */
  private updateLast(): void {
    let last: AssistantMessage | undefined;
    for (const item of this.items.values()) if (item.kind === 'assistant') last = item.view;
    for (const item of this.items.values()) if (item.kind === 'assistant') item.view.setLast(item.view === last);
  }

  private distanceFromBottom(): number {
    return this.element.scrollHeight - this.element.scrollTop - this.element.clientHeight;
  }

  private followBottom(): void {
    if (this.atBottom) this.scrollToBottom();
  }

  private scrollToBottom(): void {
    const bottom = this.element.scrollHeight - this.element.clientHeight;
    if (this.element.scrollTop < bottom - 1) this.element.scrollTop = bottom;
  }
}

/** JSON mode answers show as one JSON block; others as Markdown. */
function kindOf(message: MessageView, jsonMode: JsonMode): BodyKind {
  if (jsonMode === 'off') return 'markdown';
  if (message.streaming === true) return 'json';
  try {
    const parsed: unknown = JSON.parse(message.text);
    return typeof parsed === 'object' && parsed !== null ? 'json' : 'markdown';
  } catch {
    return 'markdown';
  }
}
