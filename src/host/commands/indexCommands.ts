import * as vscode from 'vscode';
import type { IndexRunResult } from '../../core/index/indexRun';
import type { IndexStats } from '../../core/index/workspaceIndex';
import { formatFixed, formatInteger, numberLocale } from '../../shared/numbers';
import type { IndexService } from '../index/indexService';

/**
 * `cadenza.index.rebuild`: a full pass over the workspace (new and changed chunks embedded, deleted files
 * dropped), with a cancellable notification. `{ fromScratch: true }` discards the index first: any
 * extension can pass it, so unless `trustArguments` (VS Code's test mode) the user confirms it first, in a
 * modal question (declined, nothing runs).
 */
export async function rebuildIndex(index: IndexService, argument?: unknown, trustArguments = false): Promise<IndexRunResult | undefined> {
  const fromScratch = typeof argument === 'object' && argument !== null && (argument as { fromScratch?: unknown }).fromScratch === true;
  if (fromScratch && !trustArguments) {
    const rebuild = vscode.l10n.t('Rebuild from Scratch');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Discard the workspace index and build it again from scratch?'),
      {
        modal: true,
        detail: vscode.l10n.t(
          'A command asked for it (another extension may have run it). Every file is sent to the embedding model again, which costs tokens.',
        ),
      },
      rebuild,
    );
    if (answer !== rebuild) return undefined;
  }
  await index.consent();
  return index.sync(true, fromScratch);
}

/** `cadenza.index.pause`: pauses or resumes indexing; returns whether it is now paused. */
export function pauseIndex(index: IndexService): boolean {
  const paused = index.togglePause();
  void vscode.window.setStatusBarMessage(paused ? vscode.l10n.t('Cadenza index paused') : vscode.l10n.t('Cadenza index resumed'), 3000);
  return paused;
}

function describe(stats: IndexStats): string {
  const locale = numberLocale(vscode.env.language);
  const number = (value: number): string => formatInteger(value, locale);
  const last = stats.lastRun;
  const status = !last
    ? ''
    : last.status === 'complete'
      ? vscode.l10n.t('complete')
      : last.status === 'cancelled'
        ? vscode.l10n.t('cancelled')
        : vscode.l10n.t('incomplete');
  const when = !last
    ? vscode.l10n.t('not updated this session')
    : !last.linksOutside
      ? vscode.l10n.t('last update {0} ({1} embedded, {2} pending)', status, number(last.chunksEmbedded), number(last.chunksPending))
      : last.linksOutside === 1
        ? vscode.l10n.t(
            'last update {0} ({1} embedded, {2} pending, 1 link out of the workspace folder skipped)',
            status,
            number(last.chunksEmbedded),
            number(last.chunksPending),
          )
        : vscode.l10n.t(
            'last update {0} ({1} embedded, {2} pending, {3} links out of the workspace folder skipped)',
            status,
            number(last.chunksEmbedded),
            number(last.chunksPending),
            number(last.linksOutside),
          );
  return vscode.l10n.t(
    'Cadenza index: {0} files, {1} chunks, {2} MB on disk, model {3}, {4}.',
    number(stats.files),
    number(stats.chunks),
    formatFixed(stats.diskBytes / 1048576, 2, locale),
    stats.modelId,
    when,
  );
}

/** `cadenza.index.status`: size on disk, files, chunks, model, last update; returns the figures. */
export async function indexStatus(index: IndexService): Promise<IndexStats | undefined> {
  if (!index.available) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Cadenza has no index here: open a folder first.'));
    return undefined;
  }
  const stats = await index.stats();
  if (!stats) return undefined;
  const rebuild = vscode.l10n.t('Rebuild');
  const showLog = vscode.l10n.t('Show Log');
  void vscode.window.showInformationMessage(describe(stats), rebuild, showLog).then((choice) => {
    if (choice === rebuild) void vscode.commands.executeCommand('cadenza.index.rebuild');
    if (choice === showLog) void vscode.commands.executeCommand('cadenza.showLog');
  });
  return stats;
}
