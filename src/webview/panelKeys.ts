/**
 * The panel's keyboard map and what it says while an answer streams, as data and pure functions (no DOM):
 * unit-tested in plain Node. The Alt+F1 help lists `keyboardHelp`, so the help and the keys cannot drift
 * apart; `listTarget` moves through the conversation; `progressText` is what the optional progress
 * announcements (`cadenza.chat.accessibility.announceProgress`) say.
 */

/** One line of the keyboard help: the keys and what they do. */
export interface KeyHelp {
  readonly keys: string;
  readonly does: string;
}

/** Every key the panel handles itself, in the order the help lists them. */
export const keyboardHelp: readonly KeyHelp[] = [
  { keys: 'Enter', does: 'Send the message (Shift+Enter starts a new line).' },
  { keys: 'Escape', does: 'Stop the answer while it streams.' },
  { keys: 'Ctrl+Up', does: 'From the message box, go to the last message.' },
  { keys: 'Up / Down', does: 'In the conversation, go to the previous or next message.' },
  { keys: 'Home / End', does: 'In the conversation, go to the first or last message.' },
  { keys: 'Tab', does: 'From a message, reach its buttons: copy, regenerate, the code blocks\u2019 actions, approve or deny a tool card.' },
  { keys: 'Ctrl+Down', does: 'From the conversation, go back to the message box.' },
  { keys: 'Alt+F1', does: 'Show this help; Escape closes it.' },
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
  if (elapsedMs < progressEveryMs) return 'Cadenza is answering\u2026';
  const seconds = Math.round(elapsedMs / 1000);
  return `Cadenza is still answering: ${seconds} seconds, ${words} ${words === 1 ? 'word' : 'words'} so far.`;
}

/** The number of words in `text` (what a progress announcement counts). */
export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}
