/**
 * The panel's own keys (the map is `panelKeys.ts`): Up/Down/Home/End move between the conversation's
 * messages, Ctrl+Up goes from the message box to the last message and Ctrl+Down back, and Alt+F1 opens a
 * short help of the keys (a non-modal dialog; Escape or Close puts focus back where it was). Installed once
 * on the panel's root after the panel is built; it finds the conversation and the message box by their
 * classes, so the parts that draw them need not know about it.
 */
import { button, el, show } from './dom';
import { isListKey, keyboardHelp, listTarget } from './panelKeys';
import { t } from './l10n';

/** The help of the keys, opened with Alt+F1. */
export class KeyboardHelp {
  readonly element: HTMLElement;
  private returnTo: HTMLElement | undefined;

  constructor() {
    const list = el('dl', { className: 'keyboard-help-list' });
    for (const entry of keyboardHelp) list.append(el('dt', { text: entry.keys }), el('dd', { text: entry.does }));
    const close = button({ label: t('closeKeyboardHelp'), icon: 'close', onClick: () => this.close() });
    this.element = el(
      'div',
      { className: 'keyboard-help', attrs: { role: 'dialog', 'aria-labelledby': 'keyboard-help-title', tabindex: '-1' } },
      el(
        'div',
        { className: 'keyboard-help-header' },
        el('h2', { className: 'keyboard-help-title', text: t('keyboard'), attrs: { id: 'keyboard-help-title' } }),
        close,
      ),
      list,
      el('p', {
        className: 'keyboard-help-note',
        text: t('announceHelp'),
      }),
    );
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      // Before the panel's own Escape (stop the answer): closing the help is all this Escape does.
      event.preventDefault();
      event.stopPropagation();
      this.close();
    });
    show(this.element, false);
  }

  /** Whether the help is shown. */
  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Shows the help and moves focus to it (a screen reader reads its title and keys). */
  open(): void {
    const active = document.activeElement;
    this.returnTo = active instanceof HTMLElement && !this.element.contains(active) ? active : undefined;
    show(this.element, true);
    this.element.focus();
  }

  /** Hides the help; focus goes back to where it was. */
  close(): void {
    if (!this.isOpen) return;
    show(this.element, false);
    const back = this.returnTo;
    this.returnTo = undefined;
    if (back?.isConnected) back.focus();
    else composerInput()?.focus();
  }
}

function composerInput(): HTMLTextAreaElement | null {
  return document.querySelector<HTMLTextAreaElement>('textarea.composer-input');
}

function messagesOf(list: Element): HTMLElement[] {
  return Array.from(list.querySelectorAll<HTMLElement>('.message'));
}

/** Focuses a message (reachable by script only: Tab goes through the messages' buttons, not each message). */
function focusMessage(message: HTMLElement): void {
  if (!message.hasAttribute('tabindex')) message.tabIndex = -1;
  message.focus({ preventScroll: true });
  message.scrollIntoView({ block: 'nearest' });
}

/** Installs the panel's keys on `root` (the panel is already built in it) and adds the help to it. */
export function installPanelKeys(root: HTMLElement): KeyboardHelp {
  const help = new KeyboardHelp();
  root.append(help.element);
  // "Cadenza: Open Chat" (and any way in from the keyboard) focuses the panel's page: with nothing in it
  // focused yet, the message box takes the focus, so typing goes straight into it.
  window.addEventListener('focus', () => {
    if (document.activeElement === null || document.activeElement === document.body) composerInput()?.focus();
  });
  root.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.isComposing) return;
    const target = event.target instanceof HTMLElement ? event.target : undefined;
    if (event.key === 'F1' && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      if (help.isOpen) help.close();
      else help.open();
      return;
    }
    const list = root.querySelector<HTMLElement>('.messages');
    if (!list || !target) return;
    const ctrl = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
    // From the message box to the conversation's last message (VS Code's chat uses the same key).
    if (ctrl && event.key === 'ArrowUp' && target.matches('textarea.composer-input')) {
      const last = messagesOf(list).at(-1);
      if (!last) return;
      event.preventDefault();
      focusMessage(last);
      return;
    }
    if (!list.contains(target)) return;
    if (ctrl && event.key === 'ArrowDown') {
      event.preventDefault();
      composerInput()?.focus();
      return;
    }
    // Arrows move between messages only from the list or a message itself: inside a message, a text box
    // (editing a question) or a code block keeps its own arrows.
    const onList = target === list;
    if (!isListKey(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!onList && !target.matches('.message')) return;
    const messages = messagesOf(list);
    const next = listTarget(event.key, onList ? -1 : messages.indexOf(target), messages.length);
    const message = next === undefined ? undefined : messages[next];
    // At an end nothing moves, and the key is not taken (the list may still scroll).
    if (!message) return;
    event.preventDefault();
    focusMessage(message);
  });
  return help;
}
