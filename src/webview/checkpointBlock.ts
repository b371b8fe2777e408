/**
 * The checkpoint under an agent turn that changed files: which files and how, "Show changes" (one
 * multi-file diff in the editor) and "Restore to before this turn" (the host asks first, naming files
 * that changed since, and restores in one undoable step). After a restore it says so. A turn recorded in
 * another window's folders (conversations are shared by every window) names them instead of offering Restore.
 */
import type { FromWebview } from '../shared/protocol';
import type { CheckpointView } from '../shared/views';
import { button, el } from './dom';

/** Renders a checkpoint; `post` sends the panel's requests. */
export function checkpointBlock(checkpoint: CheckpointView, post: (message: FromWebview) => void): HTMLElement {
  const count = checkpoint.files.length;
  const noun = `${count} file${count === 1 ? '' : 's'}`;
  const title =
    checkpoint.restoredAt === undefined
      ? `This turn changed ${noun}`
      : `Restored to before this turn (${noun}) at ${new Date(checkpoint.restoredAt).toLocaleTimeString()}`;
  const list = el('ul', { className: 'checkpoint-files' });
  for (const file of checkpoint.files) {
    list.append(
      el(
        'li',
        {},
        el('span', { className: `checkpoint-change change-${file.change}`, text: file.change }),
        el('span', { className: 'checkpoint-path', text: file.path }),
      ),
    );
  }
  const actions = el(
    'div',
    { className: 'checkpoint-actions' },
    button({
      text: 'Show changes',
      label: `Show changes: open the changes of this turn to ${noun} in one diff`,
      icon: 'open',
      className: 'text-button secondary',
      onClick: () => post({ type: 'checkpoint/showChanges', id: checkpoint.id }),
    }),
  );
  const elsewhere = checkpoint.recordedIn;
  if (elsewhere === undefined) {
    const restore = checkpoint.restoredAt === undefined ? 'Restore to before this turn' : 'Restore again';
    actions.append(
      button({
        text: restore,
        label: `${restore}: put ${noun} back as they were before this turn`,
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
            text: `Recorded in ${elsewhere.join(', ')}, not in this window's ${elsewhere.length === 1 ? 'folder' : 'folders'}: open ${elsewhere.length === 1 ? 'that folder' : 'those folders'} to restore this turn.`,
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
