/**
 * The panel's texts in the user's language. The host puts the translated table into the page as a JSON script
 * element (src/host/views/webviewHtml.ts); it is read once, here, when this module is first evaluated: every
 * module that shows text imports this one, so it is evaluated before them and even their module-level texts are
 * translated. Without a page (unit tests in plain Node) or without the element, the texts are English.
 * The page's `lang` (VS Code's display language, which the host writes next to the table) is the language the
 * panel writes its numbers in (`locale`).
 */
import type { PanelStringArgs, PanelStringId, PanelStrings } from '../shared/panelStrings';
import { numberLocale } from '../shared/numbers';
import { fillPlaceholders, panelStringsElementId, panelStringsFrom } from '../shared/panelTable';

/** The little of `document` read here: the unit tests load these modules in plain Node, where there is none. */
interface Page {
  getElementById(id: string): { readonly textContent: string | null } | null;
  readonly documentElement?: { readonly lang: string };
}

const page = (globalThis as { readonly document?: Page }).document;
let table: PanelStrings = panelStringsFrom(readPageTable());
let language = numberLocale(page?.documentElement?.lang);

function readPageTable(): unknown {
  const text = page?.getElementById(panelStringsElementId)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Replaces the table (tests); ids it lacks are English. */
export function useStrings(value: unknown): void {
  table = panelStringsFrom(value);
}

/** Sets the language numbers are written in (tests): a VS Code language id such as `de` or `pt-br`. */
export function useLocale(value: string): void {
  language = numberLocale(value);
}

/** The locale the panel writes numbers in (Intl's spelling of the page's language; `en` without a page). */
export function locale(): string {
  return language;
}

/** The text for `id` in the user's language, with its placeholders filled from `args`. */
export function t<Id extends PanelStringId>(id: Id, ...args: keyof PanelStringArgs<Id> extends never ? [] : [PanelStringArgs<Id>]): string {
  const [values] = args;
  return values ? fillPlaceholders(table[id], values) : table[id];
}
