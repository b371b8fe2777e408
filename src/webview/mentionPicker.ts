/**
 * @-mentions in the composer. Typing `@` (at the start or after a space) opens a list of what can be
 * attached: files and folders, symbols, the selection, problems, the terminal, git diffs, `@codebase`. The
 * host filters (its cached file list, fuzzy) for each query (`mention/query` → `mention/candidates`); arrows
 * move, Enter or Tab picks, Escape closes. A pick becomes a chip (`mention/attach` → `composer/mention`)
 * showing what it adds and its token cost, with a note when it was cut or is empty; `chat/send` names the
 * chips by their tokens.
 */
import type { FromWebview } from '../shared/protocol';
import type { MentionCandidate, MentionChip } from '../shared/mentionCandidates';
import { button, el, show, uniqueId } from './dom';
import { formatCount } from './format';
import { t } from './l10n';
import { listboxKey } from './listboxKeys';
import { mentionLabel } from './mentionText';

/** The `@query` just before the caret, or undefined when the caret is not in one. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | undefined {
  const match = /(^|\s)@([^\s@]{0,200})$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { start: caret - (match[2]?.length ?? 0) - 1, query: match[2] ?? '' };
}

const kindLabel: Record<MentionCandidate['kind'], string> = {
  file: t('mentionFile'),
  folder: t('mentionFolder'),
  symbol: t('mentionSymbol'),
  selection: t('mentionSelection'),
  problems: t('mentionProblems'),
  terminal: t('mentionTerminal'),
  git: t('mentionGit'),
  codebase: t('mentionCodebase'),
};

/** The `@` list under the text box, and the chips of what was picked. */
export class MentionPicker {
  /** The list of offers; shown while the caret is in an `@query`. */
  readonly menu = el('ul', { className: 'mention-menu', attrs: { role: 'listbox', 'aria-label': t('attachContext') } });
  /** The chips of attached mentions, above the text box. */
  readonly chips = el('div', { className: 'mention-chips', attrs: { role: 'group', 'aria-label': t('attachedContext') } });
  private readonly attached: MentionChip[] = [];
  private candidates: readonly MentionCandidate[] = [];
  private active = 0;
  private requestId = 0;
  private open: { start: number; query: string } | undefined;
  private input: HTMLTextAreaElement | undefined;

  constructor(
    private readonly post: (message: FromWebview) => void,
    private readonly onChange: () => void,
  ) {
    this.menu.id = uniqueId('mention-menu');
    show(this.menu, false);
    show(this.chips, false);
  }

  /** Follows the text box: opens, filters and closes the list as the user types and moves the caret. */
  attachTo(input: HTMLTextAreaElement): void {
    this.input = input;
    input.setAttribute('aria-controls', this.menu.id);
    input.addEventListener('input', () => this.follow());
    input.addEventListener('click', () => this.follow());
    input.addEventListener('blur', () =>
      window.setTimeout(() => {
        if (document.activeElement !== input) this.close();
      }, 150),
    );
  }

  /** The tokens of the attached mentions, for `chat/send`. */
  get tokens(): string[] {
    return this.attached.map((chip) => chip.token);
  }

  /** Tokens the attached mentions add (the meter counts them before sending). */
  get pendingTokens(): number {
    return this.attached.reduce((sum, chip) => sum + chip.tokens, 0);
  }

  /** Whether the list is open (the composer's Enter picks instead of sending). */
  get isOpen(): boolean {
    return this.open !== undefined;
  }

  /** Arrows, Enter, Tab and Escape while the list is open; returns whether the key was taken. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.open || event.isComposing) return false;
    return listboxKey(event, {
      count: this.candidates.length,
      active: this.active,
      setActive: (index) => this.setActive(index),
      pickAt: (index) => {
        const picked = this.candidates[index];
        if (picked) this.pick(picked);
        return picked !== undefined;
      },
      close: () => this.close(),
    });
  }

  /**
   * The host's offers for a query; stale answers (an older query) are ignored. The list carries the query
   * it answers (`data-query`), so what reads it (a test, a screen reader's mutation log) can tell an
   * intermediate list, typed half-way, from the one for the whole text.
   */
  showCandidates(requestId: number, query: string, candidates: readonly MentionCandidate[]): void {
    if (requestId !== this.requestId || !this.open) return;
    this.candidates = candidates;
    this.menu.dataset['query'] = query;
    this.active = 0;
    this.render();
  }

  /** The host resolved a pick: its chip appears. */
  accept(chip: MentionChip): void {
    this.attached.push(chip);
    this.renderChips();
    this.onChange();
  }

  /** Removes every chip (after sending). */
  clear(): void {
    if (this.attached.length === 0) return;
    this.attached.splice(0);
    this.renderChips();
    this.onChange();
  }

  private follow(): void {
    const input = this.input;
    if (!input) return;
    const found = input.selectionStart === input.selectionEnd ? mentionQueryAt(input.value, input.selectionStart) : undefined;
    if (!found) {
      this.close();
      return;
    }
    if (this.open?.query === found.query && this.open.start === found.start) return;
    this.open = found;
    this.requestId += 1;
    this.post({ type: 'mention/query', requestId: this.requestId, query: found.query });
  }

  private pick(candidate: MentionCandidate): void {
    const input = this.input;
    const open = this.open;
    this.close();
    if (!input || !open) return;
    // The typed `@query` gives way to the chip; `@codebase` stays in the text, the question follows it.
    const replacement = candidate.kind === 'codebase' ? '@codebase ' : '';
    const end = open.start + 1 + open.query.length;
    input.value = `${input.value.slice(0, open.start)}${replacement}${input.value.slice(end)}`;
    const caret = open.start + replacement.length;
    input.setSelectionRange(caret, caret);
    input.dispatchEvent(new Event('input'));
    this.post({ type: 'mention/attach', candidate });
  }

  private close(): void {
    if (!this.open) return;
    this.open = undefined;
    this.requestId += 1;
    this.candidates = [];
    this.input?.removeAttribute('aria-activedescendant');
    show(this.menu, false);
  }

  private setActive(index: number): void {
    this.active = index;
    const items = [...this.menu.children] as HTMLElement[];
    items.forEach((item, at) => item.setAttribute('aria-selected', String(at === index)));
    const current = items[index];
    if (current) {
      this.input?.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    }
  }

  private render(): void {
    const items = this.candidates.map((candidate, index) => {
      const item = el(
        'li',
        { className: 'mention-item', attrs: { role: 'option', id: `${this.menu.id}-${index}`, 'data-kind': candidate.kind } },
        el('span', { className: 'mention-kind', text: kindLabel[candidate.kind] }),
        el('span', { className: 'mention-label', text: mentionLabel(candidate) }),
        ...(candidate.detail ? [el('span', { className: 'mention-detail', text: candidate.detail })] : []),
      );
      // mousedown, not click: a click would blur the text box first and close the list.
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.pick(candidate);
      });
      return item;
    });
    if (items.length === 0) items.push(el('li', { className: 'mention-empty', text: t('nothingMatches') }));
    this.menu.replaceChildren(...items);
    show(this.menu, true);
    // A text area may not carry aria-expanded: the active option (aria-activedescendant) says the list is in use.
    this.setActive(0);
  }

  private renderChips(): void {
    show(this.chips, this.attached.length > 0);
    this.chips.replaceChildren(
      ...this.attached.map((chip, index) => {
        const facts = t('tokenCount', { count: formatCount(chip.tokens) });
        const title = chip.note
          ? t('chipTitleNote', { label: chip.label, count: formatCount(chip.tokens), note: chip.note })
          : t('chipTitle', { label: chip.label, count: formatCount(chip.tokens) });
        const remove = button({
          label: t('removeMention', { label: chip.label }),
          icon: 'close',
          onClick: () => {
            this.attached.splice(index, 1);
            this.renderChips();
            this.onChange();
            this.input?.focus();
          },
        });
        return el(
          'span',
          { className: `mention-chip${chip.note ? ' has-note' : ''}`, attrs: { title, 'data-kind': chip.kind } },
          el('span', { className: 'mention-chip-label', text: `@${chip.label}` }),
          el('span', { className: 'mention-chip-tokens', text: chip.kind === 'codebase' ? t('searchedWhenSent') : facts }),
          remove,
        );
      }),
    );
  }
}
