/**
 * How the panel's texts travel: the host translates the catalogue (src/shared/panelStrings.ts) into a table and
 * writes it into the page as JSON; the page reads it back, checked, and fills the placeholders of its texts.
 */
import { panelStrings, type PanelStrings } from './panelStrings';

/** The id of the page's JSON script element that carries the translated table (the host writes it, the page reads it). */
export const panelStringsElementId = 'cadenza-strings';

/** Puts the values into a text's `{name}` placeholders; a placeholder without a value stays as it is. */
export function fillPlaceholders(text: string, args: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (Object.hasOwn(args, name) ? String(args[name]) : match));
}

/**
 * The catalogue in another language: `translate` gives the text for an English one (the English text when it has
 * none); a non-empty string in `given` wins over it (what the page was handed).
 */
export function localizePanelStrings(translate: (english: string) => string, given?: ReadonlyMap<string, unknown>): PanelStrings {
  const table: Record<string, string> = {};
  for (const [id, english] of Object.entries(panelStrings)) {
    const text = given?.get(id);
    table[id] = typeof text === 'string' && text !== '' ? text : translate(english);
  }
  return table as PanelStrings;
}

/**
 * The table the page was given, checked: an id whose text is missing or not a string falls back to English, so
 * a stale or broken table still shows every text.
 */
export function panelStringsFrom(value: unknown): PanelStrings {
  const given = new Map<string, unknown>(typeof value === 'object' && value !== null ? Object.entries(value) : []);
  return localizePanelStrings((english) => english, given);
}

/**
 * JSON that is safe inside a `<script>` element: a translation containing `</script>` or `<!--` cannot end the
 * element or open a comment, since every `<` is escaped (JSON.parse reads `\u003c` back as `<`).
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
