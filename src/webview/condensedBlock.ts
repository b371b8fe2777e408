/**
 * The summary of a condensed conversation, shown after the last message it covers: which messages it stands
 * for and which model wrote it, the summary itself in an editable box (what is sent instead of them), and
 * Save for an edit. The messages above stay as they were.
 */
import type { FromWebview } from '../shared/protocol';
import type { CondensedView } from '../shared/views';
import { button, el } from './dom';
import { t } from './l10n';

/** Renders a summary; `post` sends the user's edit. */
export function condensedBlock(condensed: CondensedView, post: (message: FromWebview) => void): HTMLElement {
  const count = condensed.messageCount;
  const title = condensed.edited
    ? t(count === 1 ? 'condensedEditedOne' : 'condensedEditedMany', { count })
    : t(count === 1 ? 'condensedOne' : 'condensedMany', { count, model: condensed.model });
  const box = el('textarea', { className: 'condensed-summary', attrs: { 'aria-label': t('summaryBox'), rows: '6' } });
  box.value = condensed.summary;
  const save = button({
    text: t('saveSummary'),
    label: t('saveSummaryLabel'),
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
    { className: 'condensed', attrs: { 'aria-label': t('condensedRegion') } },
    el('p', { className: 'condensed-title', text: title }),
    box,
    el('div', { className: 'condensed-actions' }, save),
  );
}
