/**
 * Things the panel says outside the conversation: the "No API key is set" banner, notices from the
 * host (`notice`), and the polite live region that announces finished answers once.
 */
import type { ConnectionState, FromWebview } from '../shared/protocol';
import { button, el, show } from './dom';
import { t } from './l10n';

/** The banner shown while no API key is stored. */
export class KeyBanner {
  readonly element: HTMLElement;
  private readonly text = el('p', { className: 'banner-text' });

  constructor(post: (message: FromWebview) => void) {
    const set = button({
      text: t('setApiKey'),
      label: t('setApiKey'),
      className: 'text-button',
      onClick: () => post({ type: 'action/run', action: 'setApiKey' }),
    });
    this.element = el(
      'div',
      { className: 'banner', attrs: { role: 'region', 'aria-label': t('apiKey') } },
      el('p', { className: 'banner-title', text: t('noApiKey') }),
      this.text,
      set,
    );
    show(this.element, false);
  }

  /** Shows or hides the banner for a connection state. */
  update(state: ConnectionState): void {
    this.text.textContent = t('apiKeyNeeded', { baseUrl: state.baseUrl });
    show(this.element, !state.hasKey);
  }
}

/** Shown while "allow edits for this conversation" holds, with a way to end it. */
export class AllowanceBar {
  readonly element: HTMLElement;

  constructor(post: (message: FromWebview) => void) {
    const end = button({
      text: t('askAgain'),
      label: t('askAgainLabel'),
      className: 'text-button secondary',
      onClick: () => post({ type: 'agent/endAllowance' }),
    });
    this.element = el(
      'div',
      { className: 'notice allowance', attrs: { role: 'status', 'aria-label': t('editAllowance') } },
      el('p', { text: t('editAllowanceText') }),
      end,
    );
    show(this.element, false);
  }

  /** Shows the bar while an allowance holds. */
  update(conversationId: string | undefined): void {
    show(this.element, conversationId !== undefined);
  }
}

const infoLifetimeMs = 8000;

/** Notices from the host (and the panel's own warnings), newest last, each dismissible. */
export class Notices {
  readonly element = el('div', { className: 'notices' });

  /**
   * Shows a notice; info notices go away by themselves, warnings and errors stay until dismissed. A notice
   * with a `key` replaces the earlier one of that key ("Condensing…" gives way to its outcome).
   */
  add(level: 'info' | 'warning' | 'error', text: string, key?: string): void {
    const notice = el('div', { className: `notice ${level}`, attrs: { role: level === 'error' ? 'alert' : 'status', ...(key ? { 'data-key': key } : {}) } });
    const dismiss = button({ label: t('dismiss'), icon: 'close', onClick: () => notice.remove() });
    notice.append(el('p', { text }), dismiss);
    for (const old of Array.from(this.element.children))
      if (old.textContent === text || (key !== undefined && (old as HTMLElement).dataset['key'] === key)) old.remove();
    this.element.append(notice);
    if (level === 'info') window.setTimeout(() => notice.remove(), infoLifetimeMs);
  }
}

/** A visually hidden polite live region: each call is read out once. */
export class Announcer {
  readonly element = el('div', { className: 'visually-hidden', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' } });

  /** Reads `text` out (replacing what was pending). */
  say(text: string): void {
    // Clearing first makes a repeated text count as a change.
    this.element.textContent = '';
    window.setTimeout(() => {
      this.element.textContent = text;
    }, 50);
  }
}
