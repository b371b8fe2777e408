/**
 * The composer: the text box (Enter sends, Shift+Enter adds a line), Send, which becomes Stop while an
 * answer streams, the image preview and the audio chip. The typed text is never lost: it stays (and stays
 * saved in the webview state) until the host confirms the message by adding it to the conversation.
 */
import type { AudioAttachment, ImageAttachment } from '../shared/protocol';
import type { AudioAttach } from './audioAttach';
import { contextBlock, insertBlock, insertInline } from './contextBlock';
import { button, el, show } from './dom';
import type { ImageAttach } from './imageAttach';
import type { MentionPicker } from './mentionPicker';
import { t } from './l10n';
import type { PromptPicker } from './promptPicker';

/** What the composer needs from the panel. */
export interface ComposerDeps {
  /** Validates and posts `chat/send`; returns whether it was sent. */
  readonly send: (text: string, image: ImageAttachment | undefined, audio: AudioAttachment | undefined) => boolean;
  readonly stop: () => void;
  readonly saveDraft: (text: string) => void;
}

/** If the host neither confirms nor rejects a send within this time, the composer unlocks. */
const confirmTimeoutMs = 20_000;

/** The message composer at the bottom of the panel. */
export class Composer {
  readonly element: HTMLElement;
  /** The row under the text box that the panel fills with the attach button, model and options. */
  readonly toolbar = el('div', { className: 'composer-toolbar' });
  /** The send and stop buttons, for the end of the toolbar. */
  readonly actions: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly hint = el('p', { className: 'composer-hint', attrs: { 'aria-live': 'polite' } });
  private streaming = false;
  private pending = false;
  private pendingText = '';
  private pendingTimer: number | undefined;
  private blockedReason: string | undefined;

  constructor(
    private readonly deps: ComposerDeps,
    private readonly image: ImageAttach,
    private readonly audio: AudioAttach,
    private readonly mentions: MentionPicker,
    private readonly prompts: PromptPicker,
    draft: string,
  ) {
    this.input = el('textarea', {
      className: 'composer-input',
      attrs: { 'aria-label': t('messageToCadenza'), placeholder: t('composerPlaceholder'), rows: '3' },
    });
    this.input.value = draft;
    this.input.addEventListener('input', () => {
      this.deps.saveDraft(this.input.value);
      this.update();
    });
    this.input.addEventListener('keydown', (event) => {
      // While the @ list is open, its keys (arrows, Enter, Tab, Escape) pick instead of sending.
      if (this.mentions.handleKey(event) || this.prompts.handleKey(event)) return;
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.altKey) return;
      event.preventDefault();
      this.submit();
    });
    this.sendButton = button({ label: t('send'), icon: 'send', className: 'icon-button primary', onClick: () => this.submit() });
    this.stopButton = button({ text: t('stop'), label: t('stopAnswer'), icon: 'stop', className: 'text-button stop', onClick: () => this.deps.stop() });
    show(this.stopButton, false);
    this.actions = el('div', { className: 'composer-actions' }, this.sendButton, this.stopButton);
    this.hint.id = 'composer-hint';
    this.input.setAttribute('aria-describedby', this.hint.id);
    const box = el(
      'div',
      { className: 'composer-box' },
      this.image.preview,
      this.audio.chip,
      this.mentions.chips,
      this.prompts.badge,
      this.input,
      this.mentions.menu,
      this.prompts.menu,
      this.toolbar,
    );
    this.mentions.attachTo(this.input);
    this.prompts.attachTo(this.input);
    this.element = el('form', { className: 'composer', attrs: { 'aria-label': t('composeMessage') } }, box, this.hint);
    this.element.addEventListener('submit', (event) => event.preventDefault());
    this.image.attachTo(this.element, this.input);
    this.update();
  }

  /** Moves keyboard focus to the text box. */
  focus(): void {
    this.input.focus();
  }

  /** While an answer streams, Send becomes Stop (typing the next message is still possible). */
  setStreaming(streaming: boolean): void {
    this.streaming = streaming;
    show(this.sendButton, !streaming);
    show(this.stopButton, streaming);
    if (!streaming && this.stopButton.contains(document.activeElement)) this.input.focus();
    this.update();
  }

  /** Why nothing can be sent right now (no key, no model, invalid options), or undefined. */
  setBlocked(reason: string | undefined): void {
    this.blockedReason = reason;
    this.update();
  }

  /** The host added the user's message: the draft has been taken, clear it. */
  confirmSent(): void {
    if (!this.pending) return;
    this.endPending();
    this.input.value = '';
    this.deps.saveDraft('');
    this.image.clear();
    this.audio.clear();
    this.mentions.clear();
    this.prompts.refresh();
    this.update();
  }

  /** The host resent the conversation: if it holds the message being sent, the send is confirmed. */
  confirmIfShown(userTexts: readonly string[]): void {
    if (this.pending && userTexts.includes(this.pendingText)) this.confirmSent();
  }

  /** The send failed before the message was added: keep the text so it can be sent again. */
  sendFailed(): void {
    if (!this.pending) return;
    this.endPending();
    this.update();
  }

  /** Inserts a quoted context block (from "Add selection to chat") at the caret. */
  addContext(label: string, text: string, language: string): void {
    const caret = document.activeElement === this.input ? this.input.selectionStart : this.input.value.length;
    const next = insertBlock(this.input.value, caret, contextBlock(label, text, language));
    this.input.value = next.text;
    this.deps.saveDraft(next.text);
    this.input.focus();
    this.input.setSelectionRange(next.caret, next.caret);
    this.update();
  }

  /** Puts text (a transcript) into the draft in place of the selection, or at the caret. */
  insertText(text: string): void {
    const next = insertInline(this.input.value, this.input.selectionStart, this.input.selectionEnd, text);
    this.input.value = next.text;
    this.deps.saveDraft(next.text);
    this.input.focus();
    this.input.setSelectionRange(next.caret, next.caret);
    this.update();
  }

  /** Re-evaluates what Send can do (after an attachment or the model changed). */
  update(): void {
    const empty = this.isEmpty(this.input.value);
    const reason = this.pending ? t('sending') : (this.blockedReason ?? this.attachmentProblem ?? (this.streaming ? t('waitForAnswer') : undefined));
    this.sendButton.disabled = empty || reason !== undefined;
    this.sendButton.title = reason ?? (empty ? t('typeToSend') : t('send'));
    this.input.readOnly = this.pending;
    this.element.classList.toggle('pending', this.pending);
    const hint = this.pending ? t('sending') : (this.blockedReason ?? this.attachmentProblem ?? '');
    if (this.hint.textContent !== hint) this.hint.textContent = hint;
    show(this.hint, hint !== '');
  }

  /** Nothing to send: no text and nothing attached (audio alone is a question about the audio; mentions alone ask about them). */
  private isEmpty(text: string): boolean {
    return text.trim() === '' && !this.image.image && !this.audio.audio && this.mentions.tokens.length === 0;
  }

  private get attachmentProblem(): string | undefined {
    return this.image.problem ?? this.audio.problem;
  }

  private submit(): void {
    const text = this.input.value;
    if (this.pending || this.streaming || this.isEmpty(text)) return;
    if (this.blockedReason !== undefined || this.attachmentProblem !== undefined) return;
    if (!this.deps.send(text, this.image.image, this.audio.audio)) return;
    this.pending = true;
    this.pendingText = text;
    this.pendingTimer = window.setTimeout(() => this.sendFailed(), confirmTimeoutMs);
    this.update();
  }

  private endPending(): void {
    this.pending = false;
    if (this.pendingTimer !== undefined) window.clearTimeout(this.pendingTimer);
    this.pendingTimer = undefined;
  }
}
