/**
 * The panel's keyboard map and what it says while an answer streams, as data and pure functions (no DOM):
 * unit-tested in plain Node. The Alt+F1 help lists `keyboardHelp`, so the help and the keys cannot drift
 * apart; `listTarget` moves through the conversation; `progressText` is what the optional progress
 * announcements (`cadenza.chat.accessibility.announceProgress`) say.
 */
import { t } from './l10n';

/** One line of the keyboard help: the keys and what they do. */
export interface KeyHelp {
  readonly keys: string;
  readonly does: string;
}

/** Every key the panel handles itself, in the order the help lists them. */
export const keyboardHelp: readonly KeyHelp[] = [
  { keys: t('keyEnter'), does: t('keyEnterDoes') },
  { keys: t('keyEscape'), does: t('keyEscapeDoes') },
  { keys: t('keyCtrlUp'), does: t('keyCtrlUpDoes') },
  { keys: t('keyUpDown'), does: t('keyUpDownDoes') },
  { keys: t('keyHomeEnd'), does: t('keyHomeEndDoes') },
  { keys: t('keyTab'), does: t('keyTabDoes') },
  { keys: t('keyCtrlDown'), does: t('keyCtrlDownDoes') },
  { keys: t('keyAltF1'), does: t('keyAltF1Does') },
];

/** A key that moves through the conversation's messages. */
export type ListKey = 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

/** Whether `key` moves through the conversation. */
export function isListKey(key: string): key is ListKey {
  return key === 'ArrowUp' || key === 'ArrowDown' || key === 'Home' || key === 'End';
}

/**
 * The index of the message `key` moves to from message `current` (-1: the list itself has focus) among
 * `count` messages, or undefined when it does not move (no messages, or already at that end). From the list
 * itself, Up goes to the last message (the newest, nearest the message box) and Down to the first.
 */
export function listTarget(key: ListKey, current: number, count: number): number | undefined {
  if (count === 0) return undefined;
  let next: number;
  switch (key) {
    case 'Home':
      next = 0;
      break;
    case 'End':
      next = count - 1;
      break;
    case 'ArrowUp':
      next = current < 0 ? count - 1 : current - 1;
      break;
    case 'ArrowDown':
      next = current < 0 ? 0 : current + 1;
      break;
  }
  return next < 0 || next >= count || next === current ? undefined : next;
}

/** How often a still-streaming answer is mentioned, with progress announcements on. */
export const progressEveryMs = 15_000;

/**
 * What the progress announcements say: at the start of an answer (`elapsedMs` 0), then every
 * `progressEveryMs` while it streams, with the words so far. The end is always announced, setting or not
 * (the answer itself, once).
 */
export function progressText(elapsedMs: number, words: number): string {
  if (elapsedMs < progressEveryMs) return t('answering');
  const seconds = Math.round(elapsedMs / 1000);
  return t(words === 1 ? 'stillAnsweringOne' : 'stillAnsweringMany', { seconds, words });
}

/** The number of words in `text` (what a progress announcement counts). */
export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}
