import * as vscode from 'vscode';
import type { IndexProgress } from '../../core/index/indexRun';
import type { IndexStats } from '../../core/index/workspaceIndex';
import { formatAge, teamStatusText } from '../../core/index/teamStatus';

/** What the status bar shows about a team index that answers. */
export interface TeamStatusView {
  readonly repository: string;
  readonly commit: string;
  readonly updatedAt: Date;
  readonly target: string;
  readonly tls: string;
  readonly overridden: number | undefined;
}

/** The index's status bar item: progress while building (files and chunks done of total), size when idle. */
export class IndexStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cadenza.index', vscode.StatusBarAlignment.Right, 99);

  constructor() {
    this.item.name = 'Cadenza index';
    this.item.command = 'cadenza.index.status';
  }

  progress(update: IndexProgress): void {
    this.item.text =
      update.phase === 'scanning'
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

  /** The team index answers: which snapshot, how fresh, how many local files override it. */
  team(state: TeamStatusView): void {
    this.item.text = `$(cloud) ${teamStatusText({ repository: state.repository, commit: state.commit, model: '', updatedAt: state.updatedAt }, Date.now())}`;
    const overrides =
      state.overridden === undefined
        ? 'Uncommitted files could not be listed (no git), so none override it.'
        : `${state.overridden} uncommitted file${state.overridden === 1 ? '' : 's'} answered from the local index instead.`;
    const tls = state.tls === 'none' ? 'without TLS' : state.tls === 'unverified' ? 'over TLS without certificate verification' : `over TLS (${state.tls})`;
    this.item.tooltip = `Cadenza searches the team index: ${state.repository} at commit ${state.commit}, updated ${formatAge(Date.now() - state.updatedAt.getTime())} ago (${state.updatedAt.toISOString()}), on ${state.target} ${tls}. ${overrides} Click for details.`;
    this.item.show();
  }

  /** The team index cannot answer: the local index does, and the tooltip says why. */
  teamFallback(message: string, stats: IndexStats | undefined): void {
    this.item.text = `$(warning) Local index${stats ? ` (${stats.chunks.toLocaleString('en-US')} chunks)` : ''}: team index unreachable`;
    this.item.tooltip = message;
    this.item.show();
  }

  /** The text and tooltip shown now. */
  get current(): { readonly text: string; readonly tooltip: string } {
    return { text: this.item.text, tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : (this.item.tooltip?.value ?? '') };
  }

  dispose(): void {
    this.item.dispose();
  }
}
