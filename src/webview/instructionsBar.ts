/**
 * The project instructions that apply (AGENTS.md, .cadenza/instructions.md…): one chip per file with its
 * token cost (a click opens it), and a switch that leaves them out of this conversation. Hidden when the
 * workspace has none.
 */
import type { FromWebview, InstructionView } from '../shared/protocol';
import { button, el, show } from './dom';
import { formatCount } from './format';
import { t } from './l10n';

/** The bar above the composer. */
export class InstructionsBar {
  readonly element = el('div', { className: 'instructions-bar', attrs: { role: 'group', 'aria-label': t('projectInstructions') } });
  private readonly chips = el('span', { className: 'instructions-chips' });
  private readonly toggle = el('input', { attrs: { type: 'checkbox', 'aria-label': t('useInstructions') } });
  private readonly label = el('span', { className: 'instructions-label', text: t('instructions') });

  /** `onToggle(true)` when the user turns them on for this conversation, `false` when off. */
  constructor(
    private readonly post: (message: FromWebview) => void,
    onToggle: (on: boolean) => void,
  ) {
    this.toggle.addEventListener('change', () => onToggle(this.toggle.checked));
    this.element.append(el('label', { className: 'instructions-toggle' }, this.toggle, this.label), this.chips);
    show(this.element, false);
  }

  /** Shows the files that apply (`state/instructions`). */
  update(files: readonly InstructionView[], untrusted: boolean): void {
    const chips = files.map((file) => {
      const name = file.path.split('/').pop() ?? file.path;
      const count = formatCount(file.tokens);
      const cost =
        file.cut && file.tokens === 0 ? t('instructionLeftOut') : file.cut ? t('instructionTokensCut', { count }) : t('instructionTokens', { count });
      return button({
        text: `${name} \u00b7 ${cost}`,
        label: t('openInstruction', { path: file.path, cost }),
        className: `instruction-chip${file.cut ? ' cut' : ''}`,
        onClick: () => this.post({ type: 'instructions/open', path: file.path }),
      });
    });
    this.chips.replaceChildren(...chips);
    this.label.textContent = untrusted ? t('instructionsUntrusted') : t('instructions');
    this.element.title = untrusted ? t('instructionsUntrustedTitle') : t('instructionsTitle');
    show(this.element, files.length > 0);
  }

  /** Whether this conversation uses them (from its options). */
  setEnabled(enabled: boolean): void {
    this.toggle.checked = enabled;
    this.element.classList.toggle('off', !enabled);
  }
}
