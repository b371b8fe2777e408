/**
 * The checkpoint under an agent turn that changed files: which files and how, "Show changes" (one
 * multi-file diff in the editor) and "Restore to before this turn" (the host asks first, naming files
 * that changed since, and restores in one undoable step). After a restore it says so. A turn recorded in
 * another window's folders (conversations are shared by every window) names them instead of offering Restore.
 */
import type { FromWebview } from '../shared/protocol';
import type { CheckpointView } from '../shared/views';
import type { PanelStringId } from '../shared/panelStrings';
import { button, el } from './dom';
import { t } from './l10n';

/** What each kind of change to a file reads as. */
const changeText = { edited: 'fileEdited', created: 'fileCreated', deleted: 'fileDeleted' } as const satisfies Record<
  CheckpointView['files'][number]['change'],
  PanelStringId
>;

/** Renders a checkpoint; `post` sends the panel's requests. */
export function checkpointBlock(checkpoint: CheckpointView, post: (message: FromWebview) => void): HTMLElement {
  const count = checkpoint.files.length;
  const one = count === 1;
  const title =
    checkpoint.restoredAt === undefined
      ? t(one ? 'checkpointOne' : 'checkpointMany', { count })
      : t(one ? 'restoredOne' : 'restoredMany', { count, time: new Date(checkpoint.restoredAt).toLocaleTimeString() });
  const list = el('ul', { className: 'checkpoint-files' });
  for (const file of checkpoint.files) {
    list.append(
      el(
        'li',
        {},
        el('span', { className: `checkpoint-change change-${file.change}`, text: t(changeText[file.change]) }),
        el('span', { className: 'checkpoint-path', text: file.path }),
      ),
    );
  }
  const actions = el(
    'div',
    { className: 'checkpoint-actions' },
    button({
      text: t('showChanges'),
      label: t(one ? 'showChangesOne' : 'showChangesMany', { count }),
      icon: 'open',
      className: 'text-button secondary',
      onClick: () => post({ type: 'checkpoint/showChanges', id: checkpoint.id }),
    }),
  );
  const elsewhere = checkpoint.recordedIn;
  if (elsewhere === undefined) {
    const again = checkpoint.restoredAt !== undefined;
    actions.append(
      button({
        text: t(again ? 'restoreAgain' : 'restore'),
        label: again ? t(one ? 'restoreAgainOne' : 'restoreAgainMany', { count }) : t(one ? 'restoreOne' : 'restoreMany', { count }),
        icon: 'refresh',
        className: 'text-button secondary checkpoint-restore',
        onClick: () => post({ type: 'checkpoint/restore', id: checkpoint.id }),
      }),
    );
  }
  const where =
    elsewhere === undefined
      ? []
      : [
          el('p', {
            className: 'checkpoint-elsewhere',
            text: t(elsewhere.length === 1 ? 'recordedElsewhereOne' : 'recordedElsewhereMany', { folders: elsewhere.join(', ') }),
          }),
        ];
  return el(
    'div',
    { className: `checkpoint${checkpoint.restoredAt === undefined ? '' : ' restored'}`, attrs: { role: 'group', 'aria-label': title } },
    el('p', { className: 'checkpoint-title', text: title }),
    list,
    ...where,
    actions,
  );
}
