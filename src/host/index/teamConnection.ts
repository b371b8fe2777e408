import { readFileSync } from 'node:fs';
import type { Pool } from 'pg';
import * as vscode from 'vscode';
import type { PgTeamIndex } from '../../core/index/pg/pgTeamIndex';
import type { TeamTls } from '../../core/index/pg/pgConnect';
import { loadSystemCertificates } from '../../core/net/systemCertificates';
import type { HostContext } from '../context';
import { guardedSetting } from '../settings';

/** SecretStorage key of the team index's connection string (it carries the database password). */
export const TEAM_CONNECTION_SECRET = 'cadenza.index.teamConnection';

/**
 * `cadenza.index.team.repository`: the repository name the team's `cadenza-index` runs write; empty = no team
 * index. The user's setting only: a cloned repository's settings cannot point the user's database
 * credentials at a repository of its choosing.
 */
export function teamRepository(): string {
  return guardedSetting('index.team.repository');
}

/** An open team index and how the connection is protected. */
export interface OpenTeamIndex {
  readonly index: PgTeamIndex;
  readonly target: string;
  readonly tls: TeamTls;
}

/** The team index has no snapshot for this repository and model (yet): not a connection failure. */
export class NoTeamSnapshotError extends Error {
  readonly reason = 'noSnapshot' as const;
}

const REOPEN_MS = 60_000;

/**
 * The extension's read-only connection to the team index: one small pool (`pg`, loaded on first use),
 * built from the connection string in SecretStorage with the TLS of `pgConnect.ts` (the OS certificates
 * per `http.systemCertificates`, like the HTTP client), and the newest complete snapshot of the
 * configured repository, looked up again every minute so a new CI run is picked up.
 */
export class TeamConnection implements vscode.Disposable {
  private pool: Pool | undefined;
  private poolKey = '';
  private opened: { key: string; at: number; value: OpenTeamIndex } | undefined;

  constructor(private readonly host: HostContext) {}

  /**
   * Whether the team index is used: a repository name and a stored connection string, in a trusted
   * workspace. In Restricted Mode nothing connects to the database (and no git runs in the folder for its
   * uncommitted files) until the user trusts the folder; the local index answers meanwhile.
   */
  async configured(): Promise<boolean> {
    return vscode.workspace.isTrusted && teamRepository() !== '' && (await this.host.extension.secrets.get(TEAM_CONNECTION_SECRET)) !== undefined;
  }

  /** The team index for `model`; throws when the database cannot be reached or has no snapshot (or in Restricted Mode). */
  async open(model: string, fresh = false): Promise<OpenTeamIndex> {
    if (!vscode.workspace.isTrusted) throw new Error(vscode.l10n.t('The team index is used once the workspace is trusted.'));
    const repository = teamRepository();
    const secret = await this.host.extension.secrets.get(TEAM_CONNECTION_SECRET);
    if (!repository || !secret) throw new Error(vscode.l10n.t('No team index is configured.'));
    const { teamPoolConfig } = await import('../../core/index/pg/pgConnect');
    const useSystem = vscode.workspace.getConfiguration('http').get<boolean>('systemCertificates', true);
    const pooled = teamPoolConfig(secret, { systemCertificates: useSystem ? loadSystemCertificates() : [], readFile: (file) => readFileSync(file, 'utf8') });
    if (!this.pool || this.poolKey !== secret) {
      await this.reset();
      const { Pool: PgPool } = await import('pg');
      this.pool = new PgPool(pooled.config);
      // An idle client losing its server (a restart) must not crash the extension host.
      this.pool.on('error', (error) => this.host.log.debug(`Team index connection closed: ${error.message}`));
      this.poolKey = secret;
    }
    const key = `${repository}\u0000${model}`;
    if (!fresh && this.opened && this.opened.key === key && Date.now() - this.opened.at < REOPEN_MS) return this.opened.value;
    this.opened = undefined;
    const { PgTeamIndex: Index } = await import('../../core/index/pg/pgTeamIndex');
    const index = await Index.open(this.pool, repository, model);
    if (!index)
      throw new NoTeamSnapshotError(
        vscode.l10n.t('The team index at {0} has no complete snapshot of "{1}" for {2} yet: run cadenza-index in CI first.', pooled.target, repository, model),
      );
    const value = { index, target: pooled.target, tls: pooled.tls };
    this.opened = { key, at: Date.now(), value };
    return value;
  }

  /** Forgets the pool and snapshot (a new connection string, or after a failure so the next try reconnects). */
  async reset(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.opened = undefined;
    this.poolKey = '';
    await pool?.end().catch(() => undefined);
  }

  dispose(): void {
    void this.reset();
  }
}
