/**
 * Prompt files in the composer. Typing `/` at the start of the message opens a list of the prompt files there
 * are (`prompts/query` → `prompts/list`, read by the host as the files are now), each as `/name` with its
 * description and where it lives; what follows `/` filters it. Arrows move, Enter or Tab picks, Escape
 * closes, as in the `@` list. A picked prompt becomes `/name ` at the start of the text, and a line over the
 * text box says that sending runs it (marked untrusted when it comes from a workspace in Restricted Mode);
 * whatever is typed after `/name ` is the prompt's extra input. `chat/send` names the prompt; the host fills
 * it in and runs it.
 */
import type { FromWebview, PromptCandidate } from '../shared/protocol';
import { el, show, uniqueId } from './dom';
import './promptPicker.css';
import { t } from './l10n';
import { listboxKey } from './listboxKeys';

/** The `/query` at the start of the text when the caret is in it, or undefined. */
export function promptQueryAt(text: string, caret: number): string | undefined {
  const match = /^\/([A-Za-z0-9._-]{0,64})$/.exec(text.slice(0, caret));
  return match ? (match[1] ?? '') : undefined;
}

/** The prompt a message names at its start (`/name` then a space, a line or the end) and what follows it. */
export function promptInvocation(text: string, prompts: readonly PromptCandidate[]): { prompt: PromptCandidate; rest: string } | undefined {
  const match = /^\/([A-Za-z0-9._-]{1,64})(?:\s+([\s\S]*))?$/.exec(text);
  const name = match?.[1]?.toLowerCase();
  const prompt = prompts.find((candidate) => candidate.name.toLowerCase() === name);
  return prompt && match ? { prompt, rest: match[2] ?? '' } : undefined;
}

/** The prompts whose names start with the query, then those that contain it (without regard to case). */
function filtered(prompts: readonly PromptCandidate[], query: string): PromptCandidate[] {
  const lower = query.toLowerCase();
  const starts = prompts.filter((prompt) => prompt.name.toLowerCase().startsWith(lower));
  return [...starts, ...prompts.filter((prompt) => !starts.includes(prompt) && prompt.name.toLowerCase().includes(lower))];
}

/** The `/` list under the text box, and the line that says which prompt a send runs. */
export class PromptPicker {
  /** The list of prompt files; shown while the caret is in a `/query` at the start. */
  readonly menu = el('ul', { className: 'mention-menu prompt-menu', attrs: { role: 'listbox', 'aria-label': t('promptFiles') } });
  /** Over the text box while the text starts with a known `/name`: sending runs that prompt. */
  readonly badge = el('p', { className: 'prompt-badge' });
  private prompts: readonly PromptCandidate[] = [];
  private shown: PromptCandidate[] = [];
  private active = 0;
  private requestId = 0;
  private query: string | undefined;
  private input: HTMLTextAreaElement | undefined;

  constructor(private readonly post: (message: FromWebview) => void) {
    this.menu.id = uniqueId('prompt-menu');
    this.badge.id = uniqueId('prompt-badge');
    show(this.menu, false);
    show(this.badge, false);
  }

  /** Follows the text box: opens, filters and closes the list as the user types, and keeps the badge. */
  attachTo(input: HTMLTextAreaElement): void {
    this.input = input;
    // The text box controls both lists (the `@` one may already be named).
    input.setAttribute('aria-controls', [input.getAttribute('aria-controls'), this.menu.id].filter(Boolean).join(' '));
    input.addEventListener('input', () => this.follow());
    input.addEventListener('click', () => this.follow());
    input.addEventListener('blur', () =>
      window.setTimeout(() => {
        if (document.activeElement !== input) this.close();
      }, 150),
    );
    // A draft kept from before (`/review …`) needs the list to be known as a prompt.
    if (input.value.startsWith('/')) this.ask();
  }

  /** Whether the list is open (the composer's Enter picks instead of sending). */
  get isOpen(): boolean {
    return this.query !== undefined;
  }

  /** The prompt `text` runs and its extra input, when it starts with the name of a prompt file. */
  invocation(text: string): { name: string; rest: string } | undefined {
    const found = promptInvocation(text, this.prompts);
    return found && { name: found.prompt.name, rest: found.rest };
  }

  /** Arrows, Enter, Tab and Escape while the list is open; returns whether the key was taken. */
  handleKey(event: KeyboardEvent): boolean {
    if (this.query === undefined || event.isComposing) return false;
    return listboxKey(event, {
      count: this.shown.length,
      active: this.active,
      setActive: (index) => this.setActive(index),
      pickAt: (index) => {
        const picked = this.shown[index];
        if (picked) this.pick(picked);
        return picked !== undefined;
      },
      close: () => this.close(),
    });
  }

  /** The host's prompt files; an answer to an older question is ignored. */
  showPrompts(requestId: number, prompts: readonly PromptCandidate[]): void {
    if (requestId !== this.requestId) return;
    this.prompts = prompts;
    if (this.query !== undefined) this.render();
    this.updateBadge();
  }

  /** The text was changed without typing (cleared after a send): the line over it follows. */
  refresh(): void {
    this.updateBadge();
  }

  private ask(): void {
    this.requestId += 1;
    this.post({ type: 'prompts/query', requestId: this.requestId });
  }

  private follow(): void {
    const input = this.input;
    if (!input) return;
    this.updateBadge();
    const query = input.selectionStart === input.selectionEnd ? promptQueryAt(input.value, input.selectionStart) : undefined;
    if (query === undefined) {
      this.close();
      return;
    }
    const opening = this.query === undefined;
    this.query = query;
    // Read again each time the list opens: a file added since shows; filtering is done here.
    if (opening) this.ask();
    this.render();
  }

  private pick(prompt: PromptCandidate): void {
    const input = this.input;
    this.close();
    if (!input) return;
    const rest = input.value.replace(/^\/[A-Za-z0-9._-]*\s*/, '');
    input.value = `/${prompt.name} ${rest}`;
    const caret = input.value.length;
    input.setSelectionRange(caret, caret);
    input.dispatchEvent(new Event('input'));
    input.focus();
  }

  private close(): void {
    if (this.query === undefined) return;
    this.query = undefined;
    this.shown = [];
    this.input?.removeAttribute('aria-activedescendant');
    show(this.menu, false);
  }

  private updateBadge(): void {
    const found = this.input ? promptInvocation(this.input.value, this.prompts) : undefined;
    if (!found) {
      show(this.badge, false);
      this.input?.removeAttribute('data-prompt');
      return;
    }
    const { prompt } = found;
    this.badge.replaceChildren(
      el('span', { className: 'prompt-chip', text: `/${prompt.name}` }),
      el('span', { className: 'prompt-badge-text', text: t('promptSendingRuns', { source: prompt.source }) }),
      ...(prompt.untrusted ? [el('span', { className: 'prompt-untrusted', text: t('promptUntrustedReadOnly') })] : []),
    );
    this.badge.title = prompt.untrusted ? t('promptUntrustedRuns') : prompt.description || `/${prompt.name}`;
    this.input?.setAttribute('data-prompt', prompt.name);
    show(this.badge, true);
  }

  private setActive(index: number): void {
    this.active = index;
    const items = [...this.menu.children] as HTMLElement[];
    items.forEach((item, at) => item.setAttribute('aria-selected', String(at === index)));
    const current = items[index];
    if (current?.id) {
      this.input?.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    }
  }

  private render(): void {
    this.shown = filtered(this.prompts, this.query ?? '');
    const items = this.shown.map((prompt, index) => {
      const item = el(
        'li',
        { className: 'mention-item prompt-item', attrs: { role: 'option', id: `${this.menu.id}-${index}`, 'data-name': prompt.name } },
        el('span', { className: 'mention-label prompt-name', text: `/${prompt.name}` }),
        el('span', { className: 'prompt-detail', text: prompt.description || prompt.source }),
        ...(prompt.untrusted ? [el('span', { className: 'prompt-untrusted', text: t('promptUntrusted') })] : []),
      );
      item.title = `${prompt.source}${prompt.argumentHint ? `: ${prompt.argumentHint}` : ''}`;
      // mousedown, not click: a click would blur the text box first and close the list.
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.pick(prompt);
      });
      return item;
    });
    if (items.length === 0)
      items.push(
        el('li', {
          className: 'mention-empty',
          text: this.prompts.length === 0 ? t('noPromptFiles') : t('noPromptMatches'),
        }),
      );
    this.menu.replaceChildren(...items);
    this.menu.dataset['query'] = this.query ?? '';
    // A text area may not carry aria-expanded: the active option (aria-activedescendant) says the list is in use.
    show(this.menu, true);
    this.setActive(0);
  }
}
