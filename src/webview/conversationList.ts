/**
 * The header with the open conversation's title, New chat, and the conversation list (switch, rename,
 * export, copy as Markdown, delete). The panel only posts `conversation/*`; the host does the work, including asking
 * for confirmation before a delete.
 */
import type { FromWebview } from '../shared/protocol';
import type { ConversationSummary } from '../shared/views';
import { button, el, show, uniqueId } from './dom';
import { conversationTitle, formatAge } from './format';
import { t } from './l10n';

/** The header bar and the list it opens. */
export class ConversationList {
  readonly header: HTMLElement;
  readonly list: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  /** The panel's one level-one heading: a screen reader's heading keys land on the open conversation. */
  private readonly title = el('h1', { className: 'conversation-title', text: t('newChat') });
  private conversations: readonly ConversationSummary[] = [];
  private activeId = '';
  private open = false;

  constructor(private readonly post: (message: FromWebview) => void) {
    const listId = uniqueId('conversations');
    this.toggle = button({ label: t('showConversations'), icon: 'list', onClick: () => this.setOpen(!this.open) });
    this.toggle.setAttribute('aria-expanded', 'false');
    this.toggle.setAttribute('aria-controls', listId);
    const create = button({ label: t('newChat'), icon: 'plus', onClick: () => this.post({ type: 'conversation/new' }) });
    this.header = el('header', { className: 'panel-header' }, this.toggle, this.title, create);
    this.list = el('nav', { className: 'conversation-list', attrs: { id: listId, 'aria-label': t('conversations') } });
    this.list.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      this.setOpen(false);
      this.toggle.focus();
    });
    show(this.list, false);
  }

  /** Shows the saved conversations (`state/conversations`). */
  update(conversations: readonly ConversationSummary[], activeId: string): void {
    this.conversations = conversations;
    this.activeId = activeId;
    this.render();
  }

  /** Sets the open conversation's title (from `conversation/show`). */
  setTitle(title: string): void {
    this.title.textContent = conversationTitle(title);
    this.title.title = this.title.textContent;
  }

  private setOpen(open: boolean): void {
    this.open = open;
    this.toggle.setAttribute('aria-expanded', String(open));
    this.toggle.title = open ? t('hideConversations') : t('showConversations');
    this.toggle.setAttribute('aria-label', this.toggle.title);
    show(this.list, open);
    if (open) this.render();
  }

  private render(): void {
    const active = this.conversations.find((conversation) => conversation.id === this.activeId);
    if (active) this.setTitle(active.title);
    if (!this.open) return;
    if (this.conversations.length === 0) {
      this.list.replaceChildren(el('p', { className: 'empty-list', text: t('noConversations') }));
      return;
    }
    const now = Date.now();
    const items = this.conversations.map((conversation) => {
      const name = conversation.title === '' ? t('untitled') : conversationTitle(conversation.title);
      const current = conversation.id === this.activeId;
      const open = el(
        'button',
        { className: 'conversation-open', attrs: { type: 'button' } },
        el('span', { className: 'conversation-name', text: name }),
        el('span', { className: 'conversation-age', text: formatAge(conversation.updatedAt, now) }),
      );
      open.title = t('openConversation', { name });
      if (current) open.setAttribute('aria-current', 'true');
      open.addEventListener('click', () => {
        if (!current) this.post({ type: 'conversation/switch', id: conversation.id });
        this.setOpen(false);
        this.toggle.focus();
      });
      const actions = el(
        'div',
        { className: 'conversation-actions' },
        button({ label: t('renameConversation', { name }), icon: 'rename', onClick: () => this.post({ type: 'conversation/rename', id: conversation.id }) }),
        button({ label: t('exportConversation', { name }), icon: 'export', onClick: () => this.post({ type: 'conversation/export', id: conversation.id }) }),
        button({
          label: t('copyConversation', { name }),
          icon: 'copy',
          onClick: () => this.post({ type: 'conversation/copyMarkdown', id: conversation.id }),
        }),
        button({ label: t('deleteConversation', { name }), icon: 'trash', onClick: () => this.post({ type: 'conversation/delete', id: conversation.id }) }),
      );
      const item = el('li', { className: current ? 'conversation current' : 'conversation' }, open, actions);
      item.dataset['id'] = conversation.id;
      return item;
    });
    // Keep keyboard focus on the same control across the update (after a rename, say).
    const focused = document.activeElement instanceof HTMLElement && this.list.contains(document.activeElement) ? document.activeElement : undefined;
    const focusKey = focused ? `${focused.closest('li')?.dataset['id'] ?? ''}|${focused.title}` : undefined;
    this.list.replaceChildren(el('ul', {}, ...items));
    if (focusKey !== undefined) {
      const [id] = focusKey.split('|');
      const row = Array.from(this.list.querySelectorAll<HTMLElement>('li')).find((item) => item.dataset['id'] === id);
      const control = Array.from(row?.querySelectorAll('button') ?? []).find((candidate) => candidate.title === focused?.title) ?? row?.querySelector('button');
      (control ?? this.list.querySelector('button'))?.focus();
    }
  }
}
