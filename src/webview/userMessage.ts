/**
 * A message the user sent: its text (as Markdown, so quoted code reads well), its image or the name of
 * its audio file (the audio itself stays in the host), and Edit,
 * which turns it into an inline editor whose "Save and resend" posts `chat/editResend`.
 */
import type { MessageView } from '../shared/views';
import { button, el, show } from './dom';
import { icon } from './icons';
import { MarkdownBody } from './markdownBody';
import type { PanelContext } from './panelContext';
import { formatCount } from './format';
import { t } from './l10n';

/** A user message in the conversation. */
export class UserMessage {
  readonly element: HTMLElement;
  private readonly body: MarkdownBody;
  private readonly actions: HTMLElement;
  private editor: HTMLElement | undefined;
  private text: string;

  constructor(
    message: MessageView,
    private readonly context: PanelContext,
    private readonly canEdit: () => boolean,
  ) {
    this.text = message.text;
    this.body = new MarkdownBody('markdown');
    this.body.setText(message.text);
    this.element = el('article', { className: 'message user', attrs: { 'aria-label': t('yourMessage') } });
    this.element.dataset['id'] = message.id;
    const header = el('div', { className: 'message-header' }, el('span', { className: 'message-role', text: t('you') }));
    const edit = button({ label: t('editMessage'), icon: 'edit', onClick: () => this.startEdit() });
    this.actions = el('div', { className: 'message-actions', attrs: { role: 'toolbar', 'aria-label': t('messageActions') } }, edit);
    header.append(this.actions);
    this.element.append(header);
    if (message.imageDataUrl) {
      const image = el('img', { className: 'message-image', attrs: { alt: t('attachedImage') } });
      image.src = message.imageDataUrl;
      this.element.append(image);
    }
    if (message.audioName) {
      const label = t('attachedAudioNamed', { name: message.audioName });
      this.element.append(
        el(
          'p',
          { className: 'message-audio', attrs: { role: 'img', 'aria-label': label, title: label } },
          icon('audio'),
          el('span', { className: 'message-audio-name', text: message.audioName }),
        ),
      );
    }
    if (message.context?.length) {
      this.element.append(
        el(
          'div',
          { className: 'message-context', attrs: { role: 'group', 'aria-label': t('attachedContext') } },
          ...message.context.map((part) => {
            const title = part.note
              ? t('chipTitleNote', { label: part.label, count: formatCount(part.tokens), note: part.note })
              : t('chipTitle', { label: part.label, count: formatCount(part.tokens) });
            return el(
              'span',
              { className: `mention-chip${part.note ? ' has-note' : ''}`, attrs: { title, 'data-kind': part.kind } },
              el('span', { className: 'mention-chip-label', text: `@${part.label}` }),
              el('span', { className: 'mention-chip-tokens', text: t('tokenCount', { count: formatCount(part.tokens) }) }),
            );
          }),
        ),
      );
    }
    if (message.prompt) {
      const { name, source, untrusted } = message.prompt;
      this.element.append(
        el(
          'p',
          {
            className: 'message-prompt',
            attrs: { 'data-prompt': name, title: untrusted ? t('promptRanUntrustedTitle') : source },
          },
          el('span', { className: 'prompt-chip', text: `/${name}` }),
          el('span', { className: 'prompt-badge-text', text: t('promptFilledIn', { source }) }),
          ...(untrusted ? [el('span', { className: 'prompt-untrusted', text: t('promptRanUntrusted') })] : []),
        ),
      );
    }
    this.element.append(this.body.element);
  }

  /** The message's id. */
  get id(): string {
    return this.element.dataset['id'] ?? '';
  }

  /** Whether Edit is offered (not while an answer streams). */
  setEditable(editable: boolean): void {
    show(this.actions, editable && !this.editor);
  }

  /** Stops pending work. */
  dispose(): void {
    this.body.dispose();
  }

  private startEdit(): void {
    if (this.editor || !this.canEdit()) return;
    const input = el('textarea', { className: 'edit-input', attrs: { 'aria-label': t('editYourMessage'), rows: '4' } });
    input.value = this.text;
    const save = button({ text: t('saveAndResend'), label: t('saveAndResend'), className: 'text-button', onClick: () => this.submit(input.value) });
    const cancel = button({ text: t('cancel'), label: t('cancelEditing'), className: 'text-button secondary', onClick: () => this.endEdit() });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.endEdit();
      } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit(input.value);
      }
    });
    this.editor = el('div', { className: 'message-editor' }, input, el('div', { className: 'editor-buttons' }, save, cancel));
    show(this.body.element, false);
    show(this.actions, false);
    this.element.append(this.editor);
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }

  private submit(text: string): void {
    if (text.trim() === '' || !this.canEdit()) return;
    const options = this.context.requestOptions();
    if (!options) return;
    this.context.post({ type: 'chat/editResend', messageId: this.id, text, options });
    // The host answers with the edited conversation; show the new text until then.
    this.text = text;
    this.body.setText(text);
    this.endEdit();
  }

  private endEdit(): void {
    this.editor?.remove();
    this.editor = undefined;
    show(this.body.element, true);
    show(this.actions, true);
    this.actions.querySelector('button')?.focus();
  }
}
