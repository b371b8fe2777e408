/**
 * The tools menu: a button in the composer's toolbar that opens a checklist of the language model tools other
 * extensions and MCP servers register in VS Code, each with where it comes from and what its schema costs per
 * request. A tick enables the tool for the agent in this workspace (the host remembers it). In Restricted Mode
 * only tools marked read-only can be ticked, and the menu says so.
 */
import type { FromWebview } from '../shared/protocol';
import type { VscodeToolView } from '../shared/views';
import { button, el, show, uniqueId } from './dom';

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
      { className: 'tools-menu', attrs: { 'aria-label': 'VS Code tools the agent may use' } },
      el('p', {
        className: 'tools-intro',
        text: 'Tools from other extensions and MCP servers that the agent may call in this workspace. Each one you enable adds its schema to every agent request (tokens you pay for). Cadenza asks before each call of a tool not marked read-only, whatever edits you allowed; VS Code may ask too.',
      }),
      this.notes,
      this.list,
      this.summary,
    );
    this.element.id = uniqueId('tools-menu');
    show(this.element, false);
    this.button = button({ label: 'VS Code tools the agent may use', icon: 'tools', onClick: () => this.setOpen(this.element.hidden) });
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
          text: `Restricted Mode: only tools marked read-only are offered${blocked > 0 ? `; ${blocked} other${blocked === 1 ? ' is' : 's are'} held back` : ''} until you trust this workspace.`,
        }),
      );
    }
    if (!agentEnabled)
      notes.push(el('p', { className: 'tools-note', attrs: { role: 'note' }, text: 'The agent is off (cadenza.agent.enabled), so no tool is used.' }));
    if (tools.length === 0) notes.push(el('p', { className: 'tools-note', text: 'No other extension or MCP server registers tools in VS Code.' }));
    this.notes.replaceChildren(...notes);
    this.list.replaceChildren(...tools.map((tool) => this.row(tool)));
    const enabled = tools.filter((tool) => tool.enabled && !tool.blocked);
    const tokens = enabled.reduce((sum, tool) => sum + tool.tokens, 0);
    this.summary.textContent =
      enabled.length === 0
        ? 'None enabled: the agent uses only its own workspace functions.'
        : `${enabled.length} enabled, about ${tokens.toLocaleString('en-US')} tokens per agent request.`;
    this.button.title = enabled.length === 0 ? 'VS Code tools the agent may use (none enabled)' : `VS Code tools the agent may use (${enabled.length} enabled)`;
    this.button.setAttribute('aria-label', this.button.title);
    this.button.classList.toggle('has-tools', enabled.length > 0);
  }

  private row(tool: VscodeToolView): HTMLElement {
    const box = el('input', { attrs: { type: 'checkbox' } });
    box.checked = tool.enabled && !tool.blocked;
    box.disabled = tool.blocked;
    box.addEventListener('change', () => this.post({ type: 'tools/enable', name: tool.name, enabled: box.checked }));
    const name = tool.wireName === tool.name ? tool.name : `${tool.name} (as ${tool.wireName})`;
    const label = el(
      'label',
      { className: 'tools-item', attrs: { title: tool.description } },
      box,
      el('span', { className: 'tools-name', text: name }),
      el('span', { className: 'tools-tokens', text: `~${tool.tokens.toLocaleString('en-US')} tokens` }),
    );
    // The source goes on the line below the name, where a narrow side bar still has room for it.
    const detail = el(
      'p',
      { className: 'tools-description' },
      el('span', { className: 'tools-source', text: tool.source }),
      document.createTextNode(
        ` \u00b7 ${tool.blocked ? 'Held back in Restricted Mode (not marked read-only). ' : tool.readOnly ? '' : 'Asks before each call (not marked read-only). '}${tool.description}`,
      ),
    );
    return el('li', { className: `tools-row${tool.blocked ? ' blocked' : ''}` }, label, detail);
  }

  /** How many are listed (tests of the panel read it). */
  get count(): number {
    return this.tools.length;
  }
}
