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
import { progressEveryMs, progressText, wordCount } from './panelKeys';
import { UserMessage } from './userMessage';
import { t } from './l10n';

type Item =
  | { readonly kind: 'assistant'; readonly view: AssistantMessage }
  | { readonly kind: 'user'; readonly view: UserMessage }
  | { readonly kind: 'other'; readonly view: { readonly element: HTMLElement; dispose(): void } };

type JsonMode = 'off' | 'object' | 'schema';

/** Within this many pixels of the bottom counts as "at the bottom". */
const stickDistance = 48;

/**
 * A conversation longer than this opens with only its last `eagerTail` messages built; the older ones
 * are built in the background, `fillSlice` at a time, newest first, above what is on screen. Once done
 * the whole conversation is in the DOM, so find-in-page, copy and keyboard navigation see all of it;
 * the CSS (`content-visibility: auto`) keeps layout and paint to what is on screen.
 */
const lazyAbove = 60;
const eagerTail = 40;
const fillSlice = 20;

/** The scrolling list of messages. */
export class MessageList {
  /** The scroll container. */
  // Not role="log": a log is an implicit live region, and a streaming answer would be read out
  // token by token. Finished answers are announced once by the panel's announcer instead.
  readonly element = el('div', { className: 'messages', attrs: { role: 'region', 'aria-label': t('conversation'), tabindex: '0' } });
  private readonly content = el('div', { className: 'messages-content' });
  private items = new Map<string, Item>();
  /** Bumped by every `show`, so a background fill of an older conversation stops. */
  private generation = 0;
  private readonly welcome = el(
    'div',
    { className: 'welcome' },
    el('p', { className: 'welcome-title', text: t('welcomeTitle') }),
    el('p', { text: t('welcomeText') }),
  );
  private streamingId: string | undefined;
  /** A scroll position to restore once the background fill is done (it is measured on the whole list). */
  private restoreWhenFilled: { scrollTop: number; atBottom: boolean } | undefined;
  private atBottom = true;
  private scrollSave: number | undefined;
  private savedScroll: number | undefined;
  /** Says how a streaming answer is going, with progress announcements on. */
  private progressTimer: number | undefined;

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
    this.element.addEventListener(
      'scroll',
      () => {
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
      },
      { passive: true },
    );
  }

  /** Whether an answer is streaming. */
  get streaming(): boolean {
    return this.streamingId !== undefined;
  }

  /** Replaces everything with a conversation (on load, switch, and after edits). */
  show(conversation: ConversationView): void {
    for (const item of this.items.values()) item.view.dispose();
    this.items.clear();
    const generation = ++this.generation;
    this.restoreWhenFilled = undefined;
    delete this.element.dataset['pending'];
    this.content.replaceChildren(this.welcome);
    // An empty conversation (New chat) shows the welcome again; building a message hides it.
    this.welcome.hidden = conversation.messages.length > 0;
    this.setStreaming(undefined);
    const jsonMode = conversation.options.jsonMode ?? 'off';
    const messages = conversation.messages;
    let split = messages.length > lazyAbove ? messages.length - eagerTail : 0;
    // The summary of a condensed conversation goes after the last message it covers: build that one now.
    const through = conversation.condensed ? messages.findIndex((message) => message.id === conversation.condensed?.throughMessageId) : -1;
    if (through >= 0 && through < split) split = through;
    // Built off the document and appended once: appending one by one and following the bottom after
    // each forced a layout of the growing list per message (quadratic; 1,000 messages took seconds).
    const built = this.build(messages.slice(split), jsonMode);
    this.content.append(...built.map(([, item]) => item.view.element));
    for (const [id, item] of built) this.items.set(id, item);
    const streaming = messages.at(-1);
    if (streaming?.role === 'assistant' && streaming.streaming === true) this.setStreaming(streaming.id);
    this.refreshEditable();
    // A condensed conversation shows its summary after the last message it covers (built eagerly above).
    const condensed = conversation.condensed;
    if (condensed) this.items.get(condensed.throughMessageId)?.view.element.after(condensedBlock(condensed, (message) => this.context.post(message)));
    this.atBottom = true;
    this.updateLast();
    this.scrollToBottom();
    if (split > 0) this.fillOlder(messages.slice(0, split), jsonMode, generation);
  }

  /** Builds `messages`' items in order, continuing agent steps within them. */
  private build(messages: readonly MessageView[], jsonMode: JsonMode): [string, Item][] {
    const out: [string, Item][] = [];
    for (const message of messages) {
      const item = this.create(message, jsonMode);
      const previous = out.at(-1)?.[1];
      if (item.kind === 'assistant' && previous?.kind === 'assistant' && previous.view.isAgentStep) item.view.markAgentStep();
      out.push([message.id, item]);
    }
    return out;
  }

  /** Builds the older messages above the newer ones, a slice per task, newest first. */
  private fillOlder(older: readonly MessageView[], jsonMode: JsonMode, generation: number): void {
    this.element.dataset['pending'] = 'true';
    let end = older.length;
    const step = (): void => {
      if (generation !== this.generation) return;
      const start = Math.max(0, end - fillSlice);
      const built = this.build(older.slice(start, end), jsonMode);
      end = start;
      const firstItem = [...this.items.values()][0];
      const last = built.at(-1)?.[1];
      if (firstItem?.kind === 'assistant' && last?.kind === 'assistant' && last.view.isAgentStep) firstItem.view.markAgentStep();
      // One group per slice: the browser then tracks 25 boxes on and off screen, not 1,000.
      const group = el('div', { className: 'message-group' });
      group.append(...built.map(([, item]) => item.view.element));
      this.welcome.after(group);
      this.items = new Map([...built, ...this.items]);
      this.refreshEditable();
      this.updateLast();
      if (end > 0) {
        window.setTimeout(step, 0);
        return;
      }
      delete this.element.dataset['pending'];
      const restore = this.restoreWhenFilled;
      this.restoreWhenFilled = undefined;
      if (restore) this.restoreScroll(restore.scrollTop, restore.atBottom);
    };
    window.setTimeout(step, 0);
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

  /** The outcome of Save again under answer `messageId`. */
  saveResult(message: Extract<ToWebview, { type: 'chat/saveResult' }>): void {
    const item = this.items.get(message.messageId);
    if (item?.kind === 'assistant') item.view.saveResult(message.error);
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
        this.context.announce(t('waitingToRetry', { seconds: message.seconds }));
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
          ...(message.saveError !== undefined ? { saveError: message.saveError } : {}),
        });
        if (this.streamingId === message.messageId) this.setStreaming(undefined);
        this.updateLast();
        return;
    }
  }

  /** Puts the scroll position back after a reload (the host has just resent the conversation). */
  restoreScroll(scrollTop: number, atBottom: boolean): void {
    if (!atBottom && this.element.dataset['pending'] === 'true') {
      this.restoreWhenFilled = { scrollTop, atBottom };
      return;
    }
    this.atBottom = atBottom;
    if (atBottom) this.scrollToBottom();
    else this.element.scrollTop = scrollTop;
  }

  private create(message: MessageView, jsonMode: JsonMode): Item {
    switch (message.role) {
      case 'user':
        return { kind: 'user', view: new UserMessage(message, this.context, () => !this.streaming) };
      case 'assistant': {
        const view = new AssistantMessage(message.id, this.context, kindOf(message, jsonMode), jsonMode === 'schema', message.model, message.mode);
        if (message.streaming === true && message.text === '') view.startStreaming();
        else view.showFinished(message, kindOf(message, jsonMode));
        return { kind: 'assistant', view };
      }
      case 'system':
      case 'note': {
        const element = el('div', { className: `message ${message.role}`, attrs: { role: 'note' } });
        if (message.role === 'system') element.append(el('span', { className: 'message-role', text: t('systemPrompt') }));
        element.append(el('p', { text: message.text }));
        return { kind: 'other', view: { element, dispose: () => undefined } };
      }
    }
  }

  private setStreaming(id: string | undefined): void {
    const was = this.streaming;
    this.streamingId = id;
    if (was === this.streaming) return;
    this.onStreamingChange(this.streaming);
    this.refreshEditable();
    this.announceProgress();
  }

  /**
   * With `cadenza.chat.accessibility.announceProgress` on, says that Cadenza is answering, then how it is
   * going every `progressEveryMs`; off (the default), a streaming answer says nothing until it is done.
   */
  private announceProgress(): void {
    window.clearInterval(this.progressTimer);
    this.progressTimer = undefined;
    if (!this.streaming || !progressAnnouncementsOn()) return;
    const started = Date.now();
    this.context.announce(progressText(0, 0));
    this.progressTimer = window.setInterval(() => {
      const item = this.streamingId === undefined ? undefined : this.items.get(this.streamingId);
      this.context.announce(progressText(Date.now() - started, item?.kind === 'assistant' ? wordCount(item.view.text) : 0));
    }, progressEveryMs);
  }

  private refreshEditable(): void {
    for (const item of this.items.values()) if (item.kind === 'user') item.view.setEditable(!this.streaming);
  }

  /** Only the last answer offers Regenerate and its error's action. */
  /** Shows or hides the editable plan of the last Plan answer again (the mode's lock changed). */
  refreshPlans(): void {
    for (const item of this.items.values()) if (item.kind === 'assistant') item.view.refreshPlan();
  }

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

/**
 * Whether the progress announcements setting is on. The host writes it into the panel's page when it builds
 * it (src/host/views/webviewHtml.ts), so a change applies the next time the panel is created.
 */
function progressAnnouncementsOn(): boolean {
  return document.getElementById('app')?.dataset['announceProgress'] === 'true';
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
