/**
 * The project instructions that apply (AGENTS.md, .cadenza/instructions.md…): one chip per file with its
 * token cost (a click opens it), and a switch that leaves them out of this conversation. Hidden when the
 * workspace has none.
 */
import type { FromWebview, InstructionView } from '../shared/protocol';
import { button, el, show } from './dom';
import { formatCount } from './format';

/** The bar above the composer. */
export class InstructionsBar {
  readonly element = el('div', { className: 'instructions-bar', attrs: { role: 'group', 'aria-label': 'Project instructions' } });
  private readonly chips = el('span', { className: 'instructions-chips' });
  private readonly toggle = el('input', { attrs: { type: 'checkbox', 'aria-label': 'Use the project instructions in this conversation' } });
  private readonly label = el('span', { className: 'instructions-label', text: 'Instructions' });

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
      const cost = file.cut && file.tokens === 0 ? 'left out' : `${formatCount(file.tokens)} tok${file.cut ? ', cut' : ''}`;
      return button({
        text: `${name} \u00b7 ${cost}`,
        label: `Open ${file.path} (${cost})`,
        className: `instruction-chip${file.cut ? ' cut' : ''}`,
        onClick: () => this.post({ type: 'instructions/open', path: file.path }),
      });
    });
    this.chips.replaceChildren(...chips);
    this.label.textContent = untrusted ? 'Instructions (untrusted workspace)' : 'Instructions';
    this.element.title = untrusted
      ? 'From a workspace you have not trusted: sent as information only; they cannot enable any tool.'
      : 'Files this project keeps for AI assistants, added to every request.';
    show(this.element, files.length > 0);
  }

  /** Whether this conversation uses them (from its options). */
  setEnabled(enabled: boolean): void {
    this.toggle.checked = enabled;
    this.element.classList.toggle('off', !enabled);
  }
}
