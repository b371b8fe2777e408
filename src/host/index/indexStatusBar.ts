import * as vscode from 'vscode';
import type { IndexProgress } from '../../core/index/indexRun';
import type { IndexStats } from '../../core/index/workspaceIndex';
import { shortCommit } from '../../core/index/teamStatus';
import { formatFixed, formatInteger, numberLocale } from '../../shared/numbers';

/** What the status bar shows about a team index that answers. */
export interface TeamStatusView {
  readonly repository: string;
  readonly commit: string;
  readonly updatedAt: Date;
  readonly target: string;
  readonly tls: string;
  readonly overridden: number | undefined;
}

/** A short age in the display language: "just now", "12 min", "3 h", "5 days" (core/index/teamStatus.ts's formatAge). */
function ageText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return vscode.l10n.t('just now');
  if (minutes < 60) return vscode.l10n.t('{0} min', minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return vscode.l10n.t('{0} h', hours);
  return vscode.l10n.t('{0} days', Math.floor(hours / 24));
}

/** The index's status bar item: progress while building (files and chunks done of total), size when idle. */
export class IndexStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cadenza.index', vscode.StatusBarAlignment.Right, 99);

  constructor() {
    this.item.name = vscode.l10n.t('Cadenza index');
    this.item.command = 'cadenza.index.status';
  }

  progress(update: IndexProgress): void {
    this.item.text =
      update.phase === 'scanning'
        ? `$(sync~spin) ${vscode.l10n.t('Index: {0}/{1} files', update.filesProcessed, update.filesSeen)}`
        : `$(sync~spin) ${vscode.l10n.t('Index: {0}/{1} chunks', update.chunksEmbedded, update.chunksToEmbed)}`;
    this.item.tooltip = vscode.l10n.t('Cadenza is updating the workspace index. Click for its status.');
    this.item.show();
  }

  idle(stats: IndexStats): void {
    const locale = numberLocale(vscode.env.language);
    this.item.text = `$(database) ${vscode.l10n.t('{0} chunks', stats.chunks.toLocaleString(vscode.env.language))}`;
    this.item.tooltip = vscode.l10n.t(
      'Cadenza index: {0} files, {1} chunks, {2} MB, {3}. Click for details.',
      formatInteger(stats.files, locale),
      formatInteger(stats.chunks, locale),
      formatFixed(stats.diskBytes / 1048576, 1, locale),
      stats.modelId,
    );
    this.item.show();
  }

  paused(): void {
    this.item.text = `$(debug-pause) ${vscode.l10n.t('Index paused')}`;
    this.item.tooltip = vscode.l10n.t('The Cadenza index is paused. Run "Cadenza: Pause or Resume Index" to resume.');
    this.item.show();
  }

  /** The team index answers: which snapshot, how fresh, how many local files override it. */
  team(state: TeamStatusView): void {
    const age = ageText(Date.now() - state.updatedAt.getTime());
    this.item.text = `$(cloud) ${vscode.l10n.t('Team index {0}, {1} old', shortCommit(state.commit), age)}`;
    const overrides =
      state.overridden === undefined
        ? vscode.l10n.t('Uncommitted files could not be listed (no git), so none override it.')
        : state.overridden === 1
          ? vscode.l10n.t('1 uncommitted file answered from the local index instead.')
          : vscode.l10n.t('{0} uncommitted files answered from the local index instead.', state.overridden);
    const tls =
      state.tls === 'none'
        ? vscode.l10n.t('without TLS')
        : state.tls === 'unverified'
          ? vscode.l10n.t('over TLS without certificate verification')
          : vscode.l10n.t('over TLS ({0})', state.tls);
    const searches = vscode.l10n.t(
      'Cadenza searches the team index: {0} at commit {1}, updated {2} ago ({3}), on {4} {5}.',
      state.repository,
      state.commit,
      age,
      state.updatedAt.toISOString(),
      state.target,
      tls,
    );
    this.item.tooltip = `${searches} ${overrides} ${vscode.l10n.t('Click for details.')}`;
    this.item.show();
  }

  /** The team index cannot answer: the local index does, and the tooltip says why. */
  teamFallback(message: string, stats: IndexStats | undefined): void {
    this.item.text = `$(warning) ${
      stats
        ? vscode.l10n.t('Local index ({0} chunks): team index unreachable', stats.chunks.toLocaleString(vscode.env.language))
        : vscode.l10n.t('Local index: team index unreachable')
    }`;
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
