// The keys of an open suggestion list under the composer (the `@` mentions and the `/` prompt files): the
// arrows move through it (wrapping), Enter or Tab picks (Shift+Tab leaves it), Escape closes it.

/** What a list does with its keys. */
export interface ListboxKeyTarget {
  /** How many options it shows, and which one is active. */
  readonly count: number;
  readonly active: number;
  setActive(index: number): void;
  /** Picks the option at `index`; false when there is none. */
  pickAt(index: number): boolean;
  close(): void;
}

/** Handles `event` for an open list; returns whether the key was taken (then it goes no further). */
export function listboxKey(event: KeyboardEvent, list: ListboxKeyTarget): boolean {
  const { count, active } = list;
  switch (event.key) {
    case 'ArrowDown':
      if (count > 0) list.setActive((active + 1) % count);
      break;
    case 'ArrowUp':
      if (count > 0) list.setActive((active - 1 + count) % count);
      break;
    case 'Enter':
    case 'Tab':
      if (event.shiftKey || !list.pickAt(active)) return false;
      break;
    case 'Escape':
      list.close();
      break;
    default:
      return false;
  }
  event.preventDefault();
  event.stopPropagation();
  return true;
}
