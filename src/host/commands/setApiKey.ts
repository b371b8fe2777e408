import * as vscode from 'vscode';
import type { EndpointKeyRole } from '../apiKeyStore';
import type { HostContext } from '../context';
import { separateEndpoints } from '../endpoints';

/** The name of each server with a key of its own, in the display language. */
const roleLabel = (role: EndpointKeyRole): string =>
  role === 'chat' ? vscode.l10n.t('Chat server') : role === 'embeddings' ? vscode.l10n.t('Embeddings server') : vscode.l10n.t('Audio server');

/** The key box's title for one server. */
const roleTitle = (role: EndpointKeyRole): string =>
  role === 'chat'
    ? vscode.l10n.t('Cadenza: API key of the chat server')
    : role === 'embeddings'
      ? vscode.l10n.t('Cadenza: API key of the embeddings server')
      : vscode.l10n.t('Cadenza: API key of the audio server');
const isRole = (value: unknown): value is EndpointKeyRole => value === 'chat' || value === 'embeddings' || value === 'audio';

/**
 * `cadenza.setApiKey`: asks for the key in a password box and stores it in SecretStorage only. When an
 * operation has its own server (`cadenza.endpoints.*`, `cadenza.chatBaseUrl`), it first asks whose key it
 * is; a second argument ('chat' | 'embeddings' | 'audio') names it directly. A key passed as the argument
 * is stored as it is only when `trustArguments` (VS Code's test mode: the caller is the extension's own
 * tests); otherwise any extension could swap the key for its own account's, so it only fills the box the
 * user confirms. Returns whether a key was stored.
 */
export async function setApiKey(host: HostContext, keyArgument?: unknown, roleArgument?: unknown, trustArguments = false): Promise<boolean> {
  const offered = typeof keyArgument === 'string' ? keyArgument : undefined;
  let role: EndpointKeyRole | undefined = isRole(roleArgument) ? roleArgument : undefined;
  const separate = separateEndpoints();
  if (offered === undefined && role === undefined && separate.length > 0) {
    const picked = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('The service'), description: 'cadenza.baseUrl', role: undefined },
        ...separate.map((entry) => ({
          label: roleLabel(entry),
          description: vscode.l10n.t("its own key (without one, the service's key is sent)"),
          role: entry,
        })),
      ],
      { title: vscode.l10n.t('Cadenza: whose API key?') },
    );
    if (picked === undefined) return false;
    role = picked.role;
  }
  let key = trustArguments ? offered : undefined;
  key ??= await vscode.window.showInputBox({
    title: role === undefined ? vscode.l10n.t('Cadenza: API key') : roleTitle(role),
    prompt:
      offered === undefined
        ? vscode.l10n.t("Paste the API key. It is kept in VS Code's secret storage only.")
        : vscode.l10n.t(
            'A command filled this in (another extension may have run it). Press Enter to store this key in place of yours, or Escape to keep yours.',
          ),
    ...(offered !== undefined ? { value: offered } : {}),
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim().length === 0 ? vscode.l10n.t('The key cannot be empty.') : undefined),
  });
  key = key?.trim();
  if (!key) return false;
  if (role === undefined) await host.apiKey.set(key);
  else await host.apiKey.setFor(role, key);
  host.log.info(role === undefined ? 'API key stored in secret storage.' : `API key of the ${role} server stored in secret storage.`);
  return true;
}
