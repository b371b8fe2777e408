import * as vscode from 'vscode';
import type { IndexRunResult } from '../../core/index/indexRun';
import type { IndexStats } from '../../core/index/workspaceIndex';
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
    const rebuild = 'Rebuild from Scratch';
    const answer = await vscode.window.showWarningMessage(
      'Discard the workspace index and build it again from scratch?',
      {
        modal: true,
        detail: 'A command asked for it (another extension may have run it). Every file is sent to the embedding model again, which costs tokens.',
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
  void vscode.window.setStatusBarMessage(paused ? 'Cadenza index paused' : 'Cadenza index resumed', 3000);
  return paused;
}

function describe(stats: IndexStats): string {
  const last = stats.lastRun;
  const links = last?.linksOutside ? `, ${last.linksOutside} link${last.linksOutside === 1 ? '' : 's'} out of the workspace folder skipped` : '';
  const when = last ? `last update ${last.status} (${last.chunksEmbedded} embedded, ${last.chunksPending} pending${links})` : 'not updated this session';
  return `${stats.files.toLocaleString('en-US')} files, ${stats.chunks.toLocaleString('en-US')} chunks, ${(stats.diskBytes / 1048576).toFixed(2)} MB on disk, model ${stats.modelId}, ${when}.`;
}

/** `cadenza.index.status`: size on disk, files, chunks, model, last update; returns the figures. */
export async function indexStatus(index: IndexService): Promise<IndexStats | undefined> {
  if (!index.available) {
    void vscode.window.showInformationMessage('Cadenza has no index here: open a folder first.');
    return undefined;
  }
  const stats = await index.stats();
  if (!stats) return undefined;
  void vscode.window.showInformationMessage(`Cadenza index: ${describe(stats)}`, 'Rebuild', 'Show Log').then((choice) => {
    if (choice === 'Rebuild') void vscode.commands.executeCommand('cadenza.index.rebuild');
    if (choice === 'Show Log') void vscode.commands.executeCommand('cadenza.showLog');
  });
  return stats;
}
