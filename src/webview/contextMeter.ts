/**
 * The context meter above the composer: how full the model's context is for the next request, and a
 * note when older messages were left out to fit (`context/meter`).
 */
import type { FromWebview } from '../shared/protocol';
import { button, el, show } from './dom';
import { meterText } from './format';
import { t } from './l10n';

/** A thin bar with its figures and the left-out note. */
export class ContextMeter {
  readonly element: HTMLElement;
  private readonly bar = el('div', { className: 'meter-fill' });
  private readonly track: HTMLElement;
  private readonly label = el('span', { className: 'meter-label' });
  private readonly noteText = el('span');
  private readonly note: HTMLElement;

  /** `post` sends the offer's answer (condense the conversation, with the panel's max tokens from `maxTokens`). */
  constructor(post: (message: FromWebview) => void, maxTokens: () => number | undefined = () => undefined) {
    this.track = el('div', { className: 'meter-track', attrs: { role: 'meter', 'aria-label': t('contextUsed'), 'aria-valuemin': '0' } }, this.bar);
    // When turns would be left out, condensing is offered: a summary of them is sent instead.
    const condense = button({
      text: t('condense'),
      label: t('condenseLabel'),
      className: 'text-button secondary meter-condense',
      onClick: () => {
        const max = maxTokens();
        post({ type: 'chat/condense', ...(max !== undefined ? { maxTokens: max } : {}) });
      },
    });
    this.note = el('p', { className: 'meter-note' }, this.noteText, condense);
    this.element = el('div', { className: 'context-meter' }, el('div', { className: 'meter-row' }, this.label, this.track), this.note);
    show(this.element, false);
  }

  /** Shows new figures. */
  update(usedTokens: number, limitTokens: number, droppedMessages: number): void {
    const text = meterText(usedTokens, limitTokens, droppedMessages);
    this.label.textContent = text.label;
    // Width through the CSSOM (allowed by the CSP, unlike a style attribute).
    this.bar.style.width = `${(text.fraction * 100).toFixed(1)}%`;
    this.track.setAttribute('aria-valuemax', String(Math.max(limitTokens, 0)));
    this.track.setAttribute('aria-valuenow', String(Math.max(0, Math.min(usedTokens, limitTokens > 0 ? limitTokens : usedTokens))));
    this.track.setAttribute('aria-valuetext', text.label);
    this.element.dataset['level'] = text.level;
    this.noteText.textContent = text.note ?? '';
    show(this.note, text.note !== undefined);
    show(this.element, true);
  }
}
