/**
 * The summary of a condensed conversation, shown after the last message it covers: which messages it stands
 * for and which model wrote it, the summary itself in an editable box (what is sent instead of them), and
 * Save for an edit. The messages above stay as they were.
 */
import type { FromWebview } from '../shared/protocol';
import type { CondensedView } from '../shared/views';
import { button, el } from './dom';

/** Renders a summary; `post` sends the user's edit. */
export function condensedBlock(condensed: CondensedView, post: (message: FromWebview) => void): HTMLElement {
  const title = `The ${condensed.messageCount} message${condensed.messageCount === 1 ? '' : 's'} above ${condensed.messageCount === 1 ? 'is' : 'are'} condensed: this summary${condensed.edited ? ' (edited)' : ` by ${condensed.model}`} is sent instead of them.`;
  const box = el('textarea', { className: 'condensed-summary', attrs: { 'aria-label': 'Summary sent instead of the earlier messages', rows: '6' } });
  box.value = condensed.summary;
  const save = button({
    text: 'Save summary',
    label: 'Save summary: send this edited summary instead of the earlier messages from now on',
    icon: 'check',
    className: 'text-button secondary',
    onClick: () => post({ type: 'condense/edit', summary: box.value }),
  });
  save.disabled = true;
  box.addEventListener('input', () => {
    save.disabled = box.value.trim() === '' || box.value === condensed.summary;
  });
  return el(
    'section',
    { className: 'condensed', attrs: { 'aria-label': 'Summary of earlier messages' } },
    el('p', { className: 'condensed-title', text: title }),
    box,
    el('div', { className: 'condensed-actions' }, save),
  );
}
