import * as vscode from 'vscode';
import type { IndexProgress } from '../../core/index/indexRun';
import type { IndexStats } from '../../core/index/workspaceIndex';

/** The index's status bar item: progress while building (files and chunks done of total), size when idle. */
export class IndexStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cadenza.index', vscode.StatusBarAlignment.Right, 99);

  constructor() {
    this.item.name = 'Cadenza index';
    this.item.command = 'cadenza.index.status';
  }

  progress(update: IndexProgress): void {
    this.item.text = update.phase === 'scanning'
      ? `$(sync~spin) Index: ${update.filesProcessed}/${update.filesSeen} files`
      : `$(sync~spin) Index: ${update.chunksEmbedded}/${update.chunksToEmbed} chunks`;
    this.item.tooltip = 'Cadenza is updating the workspace index. Click for its status.';
    this.item.show();
  }

  idle(stats: IndexStats): void {
    this.item.text = `$(database) ${stats.chunks.toLocaleString('en-US')} chunks`;
    this.item.tooltip = `Cadenza index: ${stats.files} files, ${stats.chunks} chunks, ${(stats.diskBytes / 1048576).toFixed(1)} MB, ${stats.modelId}. Click for details.`;
    this.item.show();
  }

  paused(): void {
    this.item.text = '$(debug-pause) Index paused';
    this.item.tooltip = 'The Cadenza index is paused. Run "Cadenza: Pause or Resume Index" to resume.';
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
