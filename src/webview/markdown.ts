/**
 * Markdown to sanitised DOM: markdown-it with raw HTML off and linkify on, highlight.js for fenced
 * code, then DOMPurify anyway (defence in depth), then the code-block toolbars. No `style` attributes
 * come out (the CSP would block them): table alignment becomes a class.
 */
import DOMPurify, { type Config } from 'dompurify';
import MarkdownIt from 'markdown-it';
import { decorateCodeBlocks } from './codeBlocks';
import { highlight } from './highlight';

const md = new MarkdownIt({
  html: false,
  linkify: true,
  typographer: false,
  highlight: (code, language) => highlight(code, language) ?? '',
});

// Tables: markdown-it writes `style="text-align:…"`; use a class instead.
md.core.ruler.push('alignment_classes', (state) => {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue;
    const style = token.attrGet('style');
    const align = style ? /text-align:(left|right|center)/.exec(style)?.[1] : undefined;
    if (!token.attrs) continue;
    token.attrs = token.attrs.filter(([name]) => name !== 'style');
    if (align) token.attrJoin('class', `align-${align}`);
  }
});

// Images cannot load under the CSP (no remote content); show them as links to what they point at.
md.renderer.rules['image'] = (tokens, index) => {
  const token = tokens[index];
  if (!token) return '';
  const src = token.attrGet('src') ?? '';
  const alt = token.content || src;
  return `<a href="${md.utils.escapeHtml(src)}" class="image-link">${md.utils.escapeHtml(alt)}</a>`;
};

const purifyConfig: Config & { RETURN_DOM_FRAGMENT: true } = {
  RETURN_DOM_FRAGMENT: true,
  FORBID_ATTR: ['style'],
  FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'button', 'img'],
};
// Parse the configuration once: DOMPurify otherwise rebuilds its allow-lists on every call, and a
// streaming answer calls it for every block. (With a set configuration, the one passed to
// `sanitize` below only selects the TypeScript overload; it is the same object.)
DOMPurify.setConfig(purifyConfig);

/** Renders Markdown into a sanitised fragment with toolbars on its code blocks. */
export function renderMarkdown(text: string): DocumentFragment {
  const fragment = DOMPurify.sanitize(md.render(text), purifyConfig);
  decorateCodeBlocks(fragment);
  return fragment;
}

/** A code block rendered directly (JSON answers, unclosed fences of very long code). */
export function renderCode(code: string, language: string, highlighted: boolean): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const pre = document.createElement('pre');
  const element = document.createElement('code');
  element.className = `language-${language}`;
  const html = highlighted ? highlight(code, language) : undefined;
  if (html === undefined) element.textContent = code;
  else element.append(DOMPurify.sanitize(html, purifyConfig));
  pre.append(element);
  fragment.append(pre);
  decorateCodeBlocks(fragment);
  return fragment;
}
