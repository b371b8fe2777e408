// Which index answers searches when a team index is configured: the team's (with its snapshot, address and
// TLS, for the status bar and Index Status), or the local one while the team's cannot be reached, said once,
// and looked up again every 30 s until it answers. Also what the index's status bar shows when idle.
import * as vscode from 'vscode';
import type { IndexStats } from '../../core/index/workspaceIndex';
import type { Logger } from '../../core/logger';
import { errorView } from '../service/errorView';
import { readIndexSettings } from './indexSettings';
import type { IndexStatusBar } from './indexStatusBar';
import { NoTeamSnapshotError, teamRepository, type TeamConnection } from './teamConnection';
import type { TeamAnswer } from './teamSearch';

/** Which index answered the last search, for the status bar, Index Status and tests. */
export type TeamState =
  | {
      readonly kind: 'team';
      readonly repository: string;
      readonly commit: string;
      readonly updatedAt: Date;
      readonly target: string;
      readonly tls: string;
      readonly overridden: number | undefined;
    }
  | { readonly kind: 'fallback'; readonly message: string };

const TEAM_PROBE_MS = 30_000;

/** The team index's state, the probe while it is unreachable, and the idle status bar. */
export class TeamIndexState implements vscode.Disposable {
  private state: TeamState | undefined;
  private probe: NodeJS.Timeout | undefined;

  /** `stats` gives what the local index holds now (undefined while it is not open). */
  constructor(
    private readonly team: TeamConnection,
    private readonly statusBar: IndexStatusBar,
    private readonly log: Logger,
    private readonly stats: () => IndexStats | undefined,
  ) {}

  /** Which index answered the last search (undefined without a team index). */
  get current(): TeamState | undefined {
    return this.state;
  }

  /** Looks the team index up now (at start, after a settings change, and every 30 s while unreachable). */
  async refresh(): Promise<TeamState | undefined> {
    if (teamRepository() === '' || !(await this.team.configured())) {
      this.set(undefined);
      return undefined;
    }
    try {
      const opened = await this.team.open(readIndexSettings().model, true);
      const snapshot = opened.index.snapshot;
      this.set({
        kind: 'team',
        repository: snapshot.repository,
        commit: snapshot.commit,
        updatedAt: snapshot.updatedAt,
        target: opened.target,
        tls: opened.tls,
        overridden: this.state?.kind === 'team' ? this.state.overridden : undefined,
      });
    } catch (error) {
      this.failed(error);
    }
    return this.state;
  }

  /** The team index answered a search. */
  answered(answer: TeamAnswer): void {
    const { snapshot } = answer;
    this.set({
      kind: 'team',
      repository: snapshot.repository,
      commit: snapshot.commit,
      updatedAt: snapshot.updatedAt,
      target: answer.target,
      tls: answer.tls,
      overridden: answer.overridden,
    });
  }

  /** The team index could not answer: the local one does, said once (log and a warning) until the team's is back. */
  failed(error: unknown): void {
    const why = error instanceof NoTeamSnapshotError ? error.message : vscode.l10n.t('Cadenza cannot reach the team index: {0}', errorView(error).message);
    const message = vscode.l10n.t(
      '{0} The local index answers until it is back (it holds your uncommitted files; run "Cadenza: Rebuild Index" to index every file locally).',
      why,
    );
    if (this.state?.kind !== 'fallback') {
      this.log.warn(message);
      void vscode.window.showWarningMessage(message);
    }
    this.set({ kind: 'fallback', message });
  }

  /** What the status bar shows when no pass runs: the team index, the fallback, or the local index's size. */
  showIdle(stats: IndexStats): void {
    const state = this.state;
    if (state?.kind === 'team') this.statusBar.team(state);
    else if (state?.kind === 'fallback') this.statusBar.teamFallback(state.message, stats);
    else this.statusBar.idle(stats);
  }

  private set(state: TeamState | undefined): void {
    const was = this.state;
    this.state = state;
    if (was?.kind === 'fallback' && state?.kind === 'team') this.log.info(`The team index at ${state.target} answers again.`);
    if (state?.kind === 'fallback' && !this.probe) {
      this.probe = setInterval(() => void this.refresh(), TEAM_PROBE_MS);
    } else if (state?.kind !== 'fallback' && this.probe) {
      clearInterval(this.probe);
      this.probe = undefined;
    }
    if (state?.kind === 'team') this.statusBar.team(state);
    else if (state?.kind === 'fallback') this.statusBar.teamFallback(state.message, this.stats());
    else {
      const stats = this.stats();
      if (stats) this.statusBar.idle(stats);
    }
  }

  dispose(): void {
    if (this.probe) clearInterval(this.probe);
  }
}
