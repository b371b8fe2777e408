import * as vscode from 'vscode';
import type { EndpointKeyRole } from '../apiKeyStore';
import type { HostContext } from '../context';

const isRole = (value: unknown): value is EndpointKeyRole => value === 'chat' || value === 'embeddings' || value === 'audio';

/**
 * `cadenza.clearApiKey`: removes the key from SecretStorage; with an argument ('chat' | 'embeddings' |
 * 'audio'), that operation's own key instead, after which the operation gets the main key again. Any
 * extension can pass that argument, so unless `trustArguments` (VS Code's test mode) the user confirms it
 * first, in a modal question. Returns whether a key was removed.
 */
/** The question before a server's own key is removed. */
function removeQuestion(role: EndpointKeyRole): string {
  if (role === 'chat') return vscode.l10n.t('Remove the API key of the chat server from secret storage?');
  if (role === 'embeddings') return vscode.l10n.t('Remove the API key of the embeddings server from secret storage?');
  return vscode.l10n.t('Remove the API key of the audio server from secret storage?');
}

/** Why the question is asked, and what the server is sent without its own key. */
function removeDetail(role: EndpointKeyRole): string {
  if (role === 'chat')
    return vscode.l10n.t("A command asked for it (another extension may have run it). Without its own key, the chat server is sent the service's key.");
  if (role === 'embeddings')
    return vscode.l10n.t("A command asked for it (another extension may have run it). Without its own key, the embeddings server is sent the service's key.");
  return vscode.l10n.t("A command asked for it (another extension may have run it). Without its own key, the audio server is sent the service's key.");
}

export async function clearApiKey(host: HostContext, roleArgument?: unknown, trustArguments = false): Promise<boolean> {
  if (isRole(roleArgument)) {
    if (!trustArguments) {
      const remove = vscode.l10n.t('Remove Key');
      const answer = await vscode.window.showWarningMessage(removeQuestion(roleArgument), { modal: true, detail: removeDetail(roleArgument) }, remove);
      if (answer !== remove) return false;
    }
    await host.apiKey.clearFor(roleArgument);
    host.log.info(`API key of the ${roleArgument} server removed from secret storage.`);
    return true;
  }
  await host.apiKey.clear();
  host.log.info('API key removed from secret storage.');
  return true;
}
