import * as vscode from 'vscode';
import { isLoopbackTarget, teamPoolConfig, TeamConnectionError, type TeamConnectionFault } from '../../core/index/pg/pgConnect';
import type { HostContext } from '../context';
import type { IndexService } from '../index/indexService';
import { TEAM_CONNECTION_SECRET } from '../index/teamConnection';

/**
 * `cadenza.index.setTeamConnection`: asks for the team index's PostgreSQL connection string in a
 * password box and keeps it in SecretStorage only (it carries the database password). An empty string
 * removes it. A string passed as the argument is used as it is only when `trustArguments` (VS Code's test
 * mode: the caller is the extension's own tests); otherwise any extension could point the team index at
 * its own database, so it only fills the box, whose prompt names where it connects, for the user to
 * confirm. Returns whether one was stored.
 */
export async function setTeamConnection(host: HostContext, index: IndexService, argument?: unknown, trustArguments = false): Promise<boolean> {
  const offered = typeof argument === 'string' ? argument : undefined;
  const value =
    trustArguments && offered !== undefined
      ? offered
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Cadenza: team index connection'),
          prompt:
            offered === undefined
              ? vscode.l10n.t(
                  "PostgreSQL connection string of the team index, for a role that may only SELECT. Kept in VS Code's secret storage only. Empty removes it.",
                )
              : vscode.l10n.t(
                  'A command filled this in (another extension may have run it): {0}. Press Enter to use it, or Escape to keep the current connection.',
                  offeredTarget(offered),
                ),
          ...(offered !== undefined ? { value: offered } : {}),
          placeHolder: 'postgresql://reader:password@db.example.com:5432/cadenza?sslmode=verify-full',
          password: true,
          ignoreFocusOut: true,
          validateInput: (text) => {
            if (text.trim() === '') return undefined;
            try {
              teamPoolConfig(text);
              return undefined;
            } catch (error) {
              return TeamConnectionError.is(error) ? connectionFaultText(error.fault) : String(error);
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
    void vscode.window.showErrorMessage(TeamConnectionError.is(error) ? connectionFaultText(error.fault) : String(error));
    return false;
  }
  await host.extension.secrets.store(TEAM_CONNECTION_SECRET, trimmed);
  host.log.info(`Team index connection to ${parsed.target} stored in secret storage (TLS: ${parsed.tls}).`);
  if (parsed.tls === 'none' && !isLoopbackTarget(parsed.target)) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('The team index connection to {0} is not encrypted: add ?sslmode=verify-full to the connection string.', parsed.target),
    );
  }
  await index.refreshTeam();
  return true;
}

/** Where an offered connection string connects, for the prompt that shows it hidden (it holds a password). */
function offeredTarget(offered: string): string {
  if (offered.trim() === '') return 'it removes the team index connection';
  try {
    return `it connects to ${teamPoolConfig(offered).target}`;
  } catch {
    return 'it is not a connection string Cadenza can use';
  }
}

/** What is wrong with a connection string, in the user's language. */
function connectionFaultText(fault: TeamConnectionFault): string {
  switch (fault.kind) {
    case 'notUrl':
      return vscode.l10n.t('The team index connection is not a URL: use the form postgresql://user:password@host:5432/database?sslmode=verify-full');
    case 'wrongScheme':
      return vscode.l10n.t('The team index connection must start with postgresql:// (it starts with {0}://)', fault.scheme);
    case 'refusedParameters':
      return vscode.l10n.t(
        'The team index connection cannot set {0}: put the host, port and database in the address itself (postgresql://user:password@host:5432/database); the query may carry only sslmode, sslrootcert, options, application_name and connect_timeout.',
        new Intl.ListFormat(vscode.env.language, { type: 'conjunction' }).format(fault.names.map((name) => `"${name}"`)),
      );
    case 'optionsBackslash':
      return vscode.l10n.t("The team index connection's options end with a backslash: remove it.");
    case 'badHost':
      return vscode.l10n.t("The team index connection's host is not a valid name: {0}", fault.host);
    case 'unencrypted':
      return vscode.l10n.t(
        'The team index connection to {0} would not be encrypted: add ?sslmode=verify-full to the connection string (or sslmode=disable if you mean it).',
        fault.host,
      );
    case 'unknownSslMode':
      return vscode.l10n.t('Unknown sslmode "{0}": use disable, require, verify-ca or verify-full.', fault.mode);
  }
}
