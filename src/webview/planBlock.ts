/**
 * The plan under the last answer made in Plan mode: a box holding the answer's plan (planText.ts), which
 * the user may edit, and Act on this plan, which switches the conversation to Act and sends the box's text
 * as the next message. Locked, like the mode switch, in Restricted Mode. The user's edits are kept in the panel's
 * saved state (a reload or a hide-show puts them back) until the plan is acted on or another Plan answer's
 * plan takes the box.
 */
import { button, el, setDisabled, show, uniqueId } from './dom';
import type { PanelContext } from './panelContext';
import { planSection } from './planText';
import { t } from './l10n';

const actTitle = (): string => t('actOnPlanTitle');

/** The editable plan and its Act on this plan button. */
export class PlanBlock {
  readonly element: HTMLElement;
  private readonly box: HTMLTextAreaElement;
  private readonly act: HTMLButtonElement;
  /** The answer text the box was filled from; the box is filled again only when it changes. */
  private source: string | undefined;
  /** The plan taken from that answer: the box's text before any edit. */
  private plan = '';
  private sent = false;

  /** `messageId`: the answer this plan is under (the saved edits belong to it). */
  constructor(
    private readonly context: PanelContext,
    private readonly messageId: string,
  ) {
    const id = uniqueId('plan-box');
    this.box = el('textarea', { className: 'plan-box', attrs: { id, rows: '4', spellcheck: 'false' } });
    this.box.addEventListener('keydown', (event) => {
      // Ctrl+Enter (Cmd+Enter) acts, as the button does; Enter alone adds a line.
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing) {
        event.preventDefault();
        this.submit();
      }
    });
    this.box.addEventListener('input', () => {
      const text = this.box.value;
      this.context.savePlanDraft(text === this.plan ? undefined : { messageId: this.messageId, plan: this.plan, text });
    });
    this.act = button({ text: t('actOnPlan'), label: actTitle(), icon: 'send', className: 'text-button primary plan-act', onClick: () => this.submit() });
    const label = el('label', { className: 'plan-label', text: t('planLabel'), attrs: { for: id } });
    this.element = el(
      'section',
      { className: 'plan-block', attrs: { 'aria-label': t('planToActOn') } },
      label,
      this.box,
      el('div', { className: 'plan-actions' }, this.act),
    );
    show(this.element, false);
  }

  /** Shows the box under a finished last answer (`visible`), filled from `answer` when that changed. */
  update(visible: boolean, answer: string): void {
    show(this.element, visible);
    if (!visible) return;
    if (answer !== this.source) {
      this.source = answer;
      this.plan = planSection(answer);
      const saved = this.context.planDraft();
      const edited = saved?.messageId === this.messageId && saved.plan === this.plan;
      // A draft of another answer's plan: this plan replaced it.
      if (saved && !edited) this.context.savePlanDraft(undefined);
      this.box.value = edited ? saved.text : this.plan;
      this.box.rows = Math.min(12, Math.max(4, this.box.value.split('\n').length + Math.ceil(this.box.value.length / 60)));
    }
    const locked = this.context.modeLocked();
    setDisabled(this.act, locked !== undefined || this.sent, locked ?? t('sending'), actTitle());
    this.box.readOnly = this.sent;
  }

  private submit(): void {
    if (this.sent || this.context.modeLocked() !== undefined) return;
    const plan = this.box.value;
    if (plan.trim() === '') {
      this.box.focus();
      return;
    }
    const options = this.context.requestOptions();
    if (!options) return;
    this.sent = true;
    this.context.savePlanDraft(undefined);
    this.context.post({ type: 'agent/actOnPlan', plan, options });
    setDisabled(this.act, true, t('sending'), actTitle());
    this.box.readOnly = true;
  }
}
