/**
 * The composer's agent mode switch: Plan (the agent only reads and ends with a plan) or Act (it also
 * proposes changes you approve), per conversation. Two native radio buttons, so the arrow keys and screen
 * readers work as they do everywhere. In Restricted Mode it is locked on Plan and says why.
 */
import type { AgentMode } from '../shared/views';
import { el, show, uniqueId } from './dom';
import { t } from './l10n';

/** The two choices, as the switch shows them. */
const choices: readonly { readonly mode: AgentMode; readonly text: string; readonly title: string }[] = [
  { mode: 'plan', text: t('modePlan'), title: t('modePlanTitle') },
  { mode: 'act', text: t('modeAct'), title: t('modeActTitle') },
];

/** The Plan/Act switch. */
export class ModeSwitch {
  readonly element: HTMLFieldSetElement;
  /** Why it is locked, shown under the composer while it is. */
  readonly lockNote = el('p', { className: 'mode-lock' });
  private readonly inputs = new Map<AgentMode, HTMLInputElement>();
  private current: AgentMode = 'act';
  private lockedReason: string | undefined;

  constructor(private readonly onChange: (mode: AgentMode) => void) {
    const name = uniqueId('agent-mode');
    this.lockNote.id = uniqueId('mode-lock');
    this.element = el('fieldset', { className: 'mode-switch' }, el('legend', { className: 'visually-hidden', text: t('agentMode') }));
    for (const choice of choices) {
      const input = el('input', { attrs: { type: 'radio', name, value: choice.mode } });
      input.addEventListener('change', () => {
        if (!input.checked || this.lockedReason !== undefined) return;
        this.current = choice.mode;
        this.element.dataset['mode'] = choice.mode;
        this.onChange(choice.mode);
      });
      this.inputs.set(choice.mode, input);
      this.element.append(el('label', { className: 'mode-option', attrs: { title: choice.title } }, input, el('span', { text: choice.text })));
    }
    show(this.lockNote, false);
    this.set('act', undefined);
  }

  /** The mode the next answer runs in. */
  get mode(): AgentMode {
    return this.current;
  }

  /** Why the switch cannot change now, or undefined. */
  get locked(): string | undefined {
    return this.lockedReason;
  }

  /** Shows the conversation's mode, and locks the switch when `locked` says why. */
  set(mode: AgentMode, locked: string | undefined): void {
    this.current = mode;
    this.lockedReason = locked;
    this.element.dataset['mode'] = mode;
    for (const [choice, input] of this.inputs) {
      input.checked = choice === mode;
      input.disabled = locked !== undefined && choice !== mode;
    }
    this.element.title = locked ?? '';
    this.lockNote.textContent = locked ?? '';
    show(this.lockNote, locked !== undefined);
    if (locked !== undefined) this.element.setAttribute('aria-describedby', this.lockNote.id);
    else this.element.removeAttribute('aria-describedby');
  }
}
