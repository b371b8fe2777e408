/**
 * A reasoning model's thinking, shown apart from its answer: a "Thinking" section that streams live,
 * collapses with its duration when the answer starts, and can be opened again later. Its text is never
 * part of the answer (Copy, Insert and the JSON check see only the answer).
 */
import { el } from './dom';
import { formatDuration } from './format';
import { t } from './l10n';

/** The collapsible thinking section of one answer. */
export class ThinkingSection {
  readonly element: HTMLDetailsElement;
  private readonly label = el('span', { className: 'thinking-label', text: t('thinking') });
  private readonly text = document.createTextNode('');
  private readonly startedAt = performance.now();
  private settled = false;

  /** `live` while the answer streams (open, counting); otherwise a finished section, closed. */
  constructor(live: boolean) {
    this.element = el('details', { className: 'thinking' }) as HTMLDetailsElement;
    const body = el('div', { className: 'thinking-body', attrs: { 'aria-label': t('modelThinking') } });
    body.append(this.text);
    this.element.append(el('summary', { className: 'thinking-summary' }, this.label), body);
    this.element.open = live;
    this.element.classList.toggle('live', live);
  }

  /** Appends thinking (a text node append: no parsing, no layout of the answer). */
  append(text: string): void {
    this.text.appendData(text);
  }

  /** The thinking so far. */
  get content(): string {
    return this.text.data;
  }

  /** The answer started (or ended): collapse once, and say how long the model thought. */
  settle(ms?: number): void {
    if (this.settled) return;
    this.settled = true;
    const took = ms ?? performance.now() - this.startedAt;
    this.label.textContent = t('thoughtFor', { duration: formatDuration(took) });
    this.element.open = false;
    this.element.classList.remove('live');
  }
}
