// What the index says to the user and the log when a file was discarded, while a run goes and when it ended,
// apart from the service that runs it.
import * as vscode from 'vscode';
import type { IndexProgress, IndexRunResult } from '../../core/index/indexRun';
import type { LoadStatus } from '../../core/index/types';
import { numberLocale } from '../../shared/numbers';
import type { HostContext } from '../context';
import { incompleteReason } from './incompleteText';

/** An index file that could not be used: logged, and the user told why it is rebuilt. */
export function reportLoad(log: HostContext['log'], status: LoadStatus): void {
  if (status.kind !== 'discarded') return;
  const message =
    status.reason === 'otherModel'
      ? vscode.l10n.t('Cadenza is rebuilding the workspace index because it was built with another embedding model.')
      : status.reason === 'foreignVersion'
        ? vscode.l10n.t('Cadenza is rebuilding the workspace index because it was written by another version of Cadenza.')
        : vscode.l10n.t('Cadenza is rebuilding the workspace index because it was damaged.');
  log.warn(`The workspace index was discarded (${status.reason}: ${status.detail}); rebuilding.`);
  void vscode.window.showInformationMessage(message);
}

/** A finished run: logged, and a warning with the log at hand when it is incomplete. */
export function reportRun(log: HostContext['log'], result: IndexRunResult): void {
  log.info(
    `Index run ${result.status}: ${result.filesChanged} files changed, ${result.filesDeleted} deleted, ${result.chunksEmbedded} chunks embedded, ${result.chunksReused} reused, ${result.chunksPending} pending (${Math.round(result.elapsedMs)} ms)${result.stopReason ? `: ${result.stopReason}` : ''}.`,
  );
  if (result.status === 'incomplete') {
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'The workspace index is incomplete: {0}. What was embedded is kept; the rest is retried on the next update.',
          incompleteReason(vscode, numberLocale(vscode.env.language), result),
        ),
        vscode.l10n.t('Show Log'),
      )
      .then((choice) => choice && log.show(true));
  }
}

/** A run's progress in the notification: files scanned, then chunks embedded (one message per plural form). */
export function progressMessage(update: IndexProgress): string {
  const count = (value: number): string => value.toLocaleString(vscode.env.language);
  if (update.phase === 'scanning')
    return update.filesProcessed === 1
      ? vscode.l10n.t('{0} file scanned', count(update.filesProcessed))
      : vscode.l10n.t('{0} files scanned', count(update.filesProcessed));
  return update.chunksToEmbed === 1
    ? vscode.l10n.t('{0} of {1} chunk embedded', count(update.chunksEmbedded), count(update.chunksToEmbed))
    : vscode.l10n.t('{0} of {1} chunks embedded', count(update.chunksEmbedded), count(update.chunksToEmbed));
}
