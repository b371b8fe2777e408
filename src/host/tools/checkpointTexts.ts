// What the checkpoint commands say, in the display language: whole sentences with placeholders, one
// message per plural form, so a translation can put the words where its language wants them.
import * as vscode from 'vscode';
import type { RestoreStep } from '../../core/chat/checkpointRecorder';
import type { FolderRoot } from '../../core/tools/workspacePaths';

/** Folders as a message names them: their paths on disk. */
export function folderList(folders: readonly FolderRoot[]): string {
  return folders.map((folder) => folder.fsPath).join(', ');
}

const names = (list: readonly RestoreStep[]): string => list.map((step) => step.path).join(', ');

/** The title of the multi-file diff of one turn. */
export function changesTitle(files: number): string {
  return files === 1 ? vscode.l10n.t('Cadenza: changes of one agent turn (1 file)') : vscode.l10n.t('Cadenza: changes of one agent turn ({0} files)', files);
}

/**
 * The restore question: `unknown` when the checkpoint predates kept folders (`open` are this window's), the
 * files changed since the turn named last.
 */
export function restoreQuestion(steps: readonly RestoreStep[], unknown: boolean, open: readonly FolderRoot[]): string {
  const changed = steps.filter((step) => step.changedSince);
  const one = steps.length === 1;
  const overwritten = changed.length > 0 ? vscode.l10n.t('These changed after the turn, and those changes will be overwritten: {0}.', names(changed)) : '';
  let question: string;
  if (unknown)
    question = one
      ? vscode.l10n.t(
          "This checkpoint was recorded before Cadenza kept each turn's folders, so it cannot tell whether its files are this window's ({0}). Restore 1 file here only if the turn was made in this project: {1}.",
          folderList(open),
          names(steps),
        )
      : vscode.l10n.t(
          "This checkpoint was recorded before Cadenza kept each turn's folders, so it cannot tell whether its files are this window's ({0}). Restore {1} files here only if the turn was made in this project: {2}.",
          folderList(open),
          steps.length,
          names(steps),
        );
  else if (changed.length > 0)
    question = one ? vscode.l10n.t('Restore 1 file to before this turn?') : vscode.l10n.t('Restore {0} files to before this turn?', steps.length);
  else
    question = one
      ? vscode.l10n.t('Restore 1 file to before this turn ({0})? You can undo it.', names(steps))
      : vscode.l10n.t('Restore {0} files to before this turn ({1})? You can undo it.', steps.length, names(steps));
  return overwritten === '' ? question : `${question} ${overwritten}`;
}

/** The restore dialog's detail: which files are deleted or created again, and the one-step undo. */
export function restoreDetail(steps: readonly RestoreStep[]): string {
  const created = steps.filter((step) => step.text === null && step.existsNow);
  const recreated = steps.filter((step) => step.text !== null && !step.existsNow);
  return [
    ...(created.length > 0 ? [vscode.l10n.t('Files the turn created are deleted: {0}.', names(created))] : []),
    ...(recreated.length > 0 ? [vscode.l10n.t('Files deleted since the turn are created again: {0}.', names(recreated))] : []),
    vscode.l10n.t('Undo puts everything back in one step.'),
  ].join(' ');
}

/** Why a checkpoint of another window is not restored here. */
export function elsewhereMessage(recorded: readonly FolderRoot[], open: readonly FolderRoot[]): string {
  const here = folderList(recorded);
  if (open.length === 0)
    return recorded.length === 1
      ? vscode.l10n.t(
          "This turn was recorded in {0}, and this window has no folder open: its files are not this window's. Open that folder in a window to restore it; nothing was restored.",
          here,
        )
      : vscode.l10n.t(
          "This turn was recorded in {0}, and this window has no folder open: its files are not this window's. Open those folders in a window to restore it; nothing was restored.",
          here,
        );
  return recorded.length === 1
    ? vscode.l10n.t(
        "This turn was recorded in {0}, and this window has {1}: its files are not this window's. Open that folder in a window to restore it; nothing was restored.",
        here,
        folderList(open),
      )
    : vscode.l10n.t(
        "This turn was recorded in {0}, and this window has {1}: its files are not this window's. Open those folders in a window to restore it; nothing was restored.",
        here,
        folderList(open),
      );
}
