/**
 * The tools menu: a button in the composer's toolbar that opens a checklist of the language model tools other
 * extensions and MCP servers register in VS Code, each with where it comes from and what its schema costs per
 * request. A tick enables the tool for the agent in this workspace (the host remembers it). In Restricted Mode
 * only tools marked read-only can be ticked, and the menu says so.
 */
import type { FromWebview } from '../shared/protocol';
import type { VscodeToolView } from '../shared/views';
import { button, el, show, uniqueId } from './dom';
import { formatCount } from './format';
import { t } from './l10n';

/** The tools menu and its toolbar button. */
export class ToolsMenu {
  readonly button: HTMLButtonElement;
  readonly element: HTMLElement;
  private readonly list = el('ul', { className: 'tools-list' });
  private readonly notes = el('div', { className: 'tools-notes' });
  private readonly summary = el('p', { className: 'tools-summary', attrs: { 'aria-live': 'polite' } });
  private tools: readonly VscodeToolView[] = [];

  constructor(private readonly post: (message: FromWebview) => void) {
    this.element = el(
      'section',
      { className: 'tools-menu', attrs: { 'aria-label': t('vscodeTools') } },
      el('p', {
        className: 'tools-intro',
        text: t('toolsIntro'),
      }),
      this.notes,
      this.list,
      this.summary,
    );
    this.element.id = uniqueId('tools-menu');
    show(this.element, false);
    this.button = button({ label: t('vscodeTools'), icon: 'tools', onClick: () => this.setOpen(this.element.hidden) });
    this.button.setAttribute('aria-controls', this.element.id);
    this.button.setAttribute('aria-expanded', 'false');
  }

  /** Opens or closes the menu; opening asks the host for the tools registered now. */
  setOpen(open: boolean): void {
    show(this.element, open);
    this.button.setAttribute('aria-expanded', String(open));
    this.button.classList.toggle('active', open);
    if (open) this.post({ type: 'tools/list' });
  }

  /** The host's list (`state/vscodeTools`). */
  update(tools: readonly VscodeToolView[], restricted: boolean, agentEnabled: boolean): void {
    this.tools = tools;
    const notes: HTMLElement[] = [];
    const blocked = tools.filter((tool) => tool.blocked).length;
    if (restricted) {
      notes.push(
        el('p', {
          className: 'tools-note',
          attrs: { role: 'note' },
          text: blocked === 0 ? t('toolsRestricted') : t(blocked === 1 ? 'toolsRestrictedHeldOne' : 'toolsRestrictedHeldMany', { count: blocked }),
        }),
      );
    }
    if (!agentEnabled) notes.push(el('p', { className: 'tools-note', attrs: { role: 'note' }, text: t('toolsAgentOff') }));
    if (tools.length === 0) notes.push(el('p', { className: 'tools-note', text: t('toolsNone') }));
    this.notes.replaceChildren(...notes);
    this.list.replaceChildren(...tools.map((tool) => this.row(tool)));
    const enabled = tools.filter((tool) => tool.enabled && !tool.blocked);
    const tokens = enabled.reduce((sum, tool) => sum + tool.tokens, 0);
    this.summary.textContent = enabled.length === 0 ? t('toolsNoneEnabled') : t('toolsEnabled', { count: enabled.length, tokens: formatCount(tokens) });
    this.button.title = enabled.length === 0 ? t('vscodeToolsNone') : t('vscodeToolsEnabled', { count: enabled.length });
    this.button.setAttribute('aria-label', this.button.title);
    this.button.classList.toggle('has-tools', enabled.length > 0);
  }

  private row(tool: VscodeToolView): HTMLElement {
    const box = el('input', { attrs: { type: 'checkbox' } });
    box.checked = tool.enabled && !tool.blocked;
    box.disabled = tool.blocked;
    box.addEventListener('change', () => this.post({ type: 'tools/enable', name: tool.name, enabled: box.checked }));
    const name = tool.wireName === tool.name ? tool.name : t('toolWireName', { name: tool.name, wireName: tool.wireName });
    const label = el(
      'label',
      { className: 'tools-item', attrs: { title: tool.description } },
      box,
      el('span', { className: 'tools-name', text: name }),
      el('span', { className: 'tools-tokens', text: t('toolTokens', { count: formatCount(tool.tokens) }) }),
    );
    // The source goes on the line below the name, where a narrow side bar still has room for it.
    const detail = el(
      'p',
      { className: 'tools-description' },
      el('span', { className: 'tools-source', text: tool.source }),
      document.createTextNode(
        ` \u00b7 ${tool.blocked ? t('toolHeldBack', { description: tool.description }) : tool.readOnly ? tool.description : t('toolAsksEachCall', { description: tool.description })}`,
      ),
    );
    return el('li', { className: `tools-row${tool.blocked ? ' blocked' : ''}` }, label, detail);
  }

  /** How many are listed (tests of the panel read it). */
  get count(): number {
    return this.tools.length;
  }
}
