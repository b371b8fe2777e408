/**
 * Small DOM helpers. Everything is built with DOM APIs (no HTML strings, no `style` attributes, which
 * the CSP would block): text goes in through `textContent`, so nothing from a message becomes markup.
 */
import { icon, type IconName } from './icons';

/** Options for {@link el}. */
export interface ElementOptions {
  readonly className?: string;
  readonly text?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

/** Creates an element with a class, text and attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElementOptions = {}, ...children: Node[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.text !== undefined) element.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** Options for {@link button}. */
export interface ButtonOptions {
  /** The visible text; an icon-only button has none and relies on `label`. */
  readonly text?: string;
  /** The accessible name and tooltip. */
  readonly label: string;
  readonly icon?: IconName;
  readonly className?: string;
  readonly onClick?: (event: MouseEvent) => void;
}

/** A real `<button type="button">` with an accessible name, an optional icon and a tooltip. */
export function button(options: ButtonOptions): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = options.className ?? (options.text === undefined ? 'icon-button' : 'text-button');
  element.title = options.label;
  if (options.text === undefined || options.text !== options.label) element.setAttribute('aria-label', options.label);
  if (options.icon) element.append(icon(options.icon));
  if (options.text !== undefined) element.append(el('span', { text: options.text }));
  if (options.onClick) element.addEventListener('click', options.onClick);
  return element;
}

/** Disables a control and says why in its tooltip (the reason is also its accessible description). */
export function setDisabled(
  control: HTMLButtonElement | HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  disabled: boolean,
  reason: string,
  enabledTitle: string,
): void {
  control.disabled = disabled;
  control.title = disabled ? reason : enabledTitle;
}

/** Shows or hides an element (the `hidden` attribute, which CSS keeps authoritative). */
export function show(element: HTMLElement, visible: boolean): void {
  element.hidden = !visible;
}

let nextId = 0;

/** A unique id for `aria-controls`/`aria-describedby` links. */
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}
