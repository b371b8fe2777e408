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
export async function clearApiKey(host: HostContext, roleArgument?: unknown, trustArguments = false): Promise<boolean> {
  if (isRole(roleArgument)) {
    if (!trustArguments) {
      const remove = 'Remove Key';
      const answer = await vscode.window.showWarningMessage(
        `Remove the API key of the ${roleArgument} server from secret storage?`,
        {
          modal: true,
          detail: `A command asked for it (another extension may have run it). Without its own key, the ${roleArgument} server is sent the service's key.`,
        },
        remove,
      );
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
