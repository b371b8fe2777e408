import * as vscode from 'vscode';
import { isLoopbackTarget, teamPoolConfig, TeamConnectionError } from '../../core/index/pg/pgConnect';
import type { HostContext } from '../context';
import type { IndexService } from '../index/indexService';
import { TEAM_CONNECTION_SECRET } from '../index/teamConnection';

/**
 * `cadenza.index.setTeamConnection`: asks for the team index's PostgreSQL connection string in a
 * password box (or takes it as the argument, for automation and tests) and keeps it in SecretStorage
 * only (it carries the database password). An empty string removes it. Returns whether one was stored.
 */
export async function setTeamConnection(host: HostContext, index: IndexService, argument?: unknown): Promise<boolean> {
  const value = typeof argument === 'string'
    ? argument
    : await vscode.window.showInputBox({
      title: 'Cadenza: team index connection',
      prompt: 'PostgreSQL connection string of the team index, for a role that may only SELECT. Kept in VS Code\'s secret storage only. Empty removes it.',
      placeHolder: 'postgresql://reader:password@db.example.com:5432/cadenza?sslmode=verify-full',
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) => {
        if (text.trim() === '') return undefined;
        try {
          teamPoolConfig(text);
          return undefined;
        } catch (error) {
          return TeamConnectionError.is(error) ? error.message : String(error);
        }
      },
    });
  if (value === undefined) return false;
  const trimmed = value.trim();
  if (trimmed === '') {
    await host.extension.secrets.delete(TEAM_CONNECTION_SECRET);
    host.log.info('Team index connection removed from secret storage.');
    await index.refreshTeam();
    return false;
  }
  let parsed: ReturnType<typeof teamPoolConfig>;
  try {
    parsed = teamPoolConfig(trimmed);
  } catch (error) {
    void vscode.window.showErrorMessage(TeamConnectionError.is(error) ? error.message : String(error));
    return false;
  }
  await host.extension.secrets.store(TEAM_CONNECTION_SECRET, trimmed);
  host.log.info(`Team index connection to ${parsed.target} stored in secret storage (TLS: ${parsed.tls}).`);
  if (parsed.tls === 'none' && !isLoopbackTarget(parsed.target)) {
    void vscode.window.showWarningMessage(`The team index connection to ${parsed.target} is not encrypted: add ?sslmode=verify-full to the connection string.`);
  }
  await index.refreshTeam();
  return true;
}
