/**
 * Code block toolbars (Copy, Insert at cursor, Replace selection, Open in new editor) and the one
 * delegated click handler that turns a toolbar click into a `code/*` message with the block's code.
 */
import type { FromWebview } from '../shared/protocol';
import { button } from './dom';
import type { IconName } from './icons';
import { t } from './l10n';

type CodeAction = 'copy' | 'insert' | 'replaceSelection' | 'open';

const actions: readonly { readonly action: CodeAction; readonly label: string; readonly icon: IconName }[] = [
  { action: 'copy', label: t('copyCode'), icon: 'copy' },
  { action: 'insert', label: t('insertCode'), icon: 'insert' },
  { action: 'replaceSelection', label: t('replaceSelection'), icon: 'replace' },
  { action: 'open', label: t('openCode'), icon: 'open' },
];

function languageOf(code: Element): string {
  for (const name of code.classList) if (name.startsWith('language-')) return name.slice('language-'.length);
  return '';
}

let template: HTMLElement | undefined;

/** The toolbar, built once and cloned for each block (a streaming answer builds many). */
function toolbarTemplate(): HTMLElement {
  if (template) return template;
  template = document.createElement('div');
  template.className = 'code-actions';
  template.setAttribute('role', 'toolbar');
  for (const { action, label, icon } of actions) {
    const control = button({ label, icon });
    control.dataset['codeAction'] = action;
    template.append(control);
  }
  return template;
}

/** Wraps every `pre > code` under `root` in a block with a language label and the action buttons. */
export function decorateCodeBlocks(root: ParentNode): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector(':scope > code');
    if (!code || pre.parentElement?.classList.contains('code-block')) continue;
    code.classList.add('hljs');
    const language = languageOf(code);
    const block = document.createElement('div');
    block.className = 'code-block';
    block.dataset['language'] = language;
    const header = document.createElement('div');
    header.className = 'code-header';
    const label = document.createElement('span');
    label.className = 'code-language';
    label.textContent = language || 'text';
    const toolbar = toolbarTemplate().cloneNode(true);
    if (toolbar instanceof Element) toolbar.setAttribute('aria-label', language ? t('languageCodeActions', { language }) : t('codeActions'));
    header.append(label, toolbar);
    // A long line scrolls the block sideways: focusable, so the keyboard can scroll it (and reach it), named by its language.
    pre.tabIndex = 0;
    pre.setAttribute('role', 'group');
    pre.setAttribute('aria-label', language ? t('languageCode', { language }) : t('plainCode'));
    pre.replaceWith(block);
    block.append(header, pre);
  }
}

/** The code of a block without the final newline a fence always ends with. */
function codeOf(block: Element): string {
  const text = block.querySelector('pre > code')?.textContent ?? '';
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** Handles a click inside rendered Markdown; returns whether it was a code block action. */
export function handleCodeAction(target: EventTarget | null, post: (message: FromWebview) => void): boolean {
  if (!(target instanceof Element)) return false;
  const control = target.closest<HTMLButtonElement>('button[data-code-action]');
  const block = control?.closest<HTMLElement>('.code-block');
  if (!control || !block) return false;
  const code = codeOf(block);
  switch (control.dataset['codeAction']) {
    case 'copy':
      post({ type: 'code/copy', code });
      flash(control);
      return true;
    case 'insert':
      post({ type: 'code/insert', code });
      return true;
    case 'replaceSelection':
      post({ type: 'code/replaceSelection', code });
      return true;
    case 'open':
      post({ type: 'code/open', code, language: block.dataset['language'] || 'plaintext' });
      return true;
    default:
      return false;
  }
}

/** Briefly marks a copy button as done (the host does the copying). */
export function flash(control: HTMLElement): void {
  control.classList.add('done');
  window.setTimeout(() => control.classList.remove('done'), 1200);
}
