import type { EndpointKeyRole } from '../apiKeyStore';
import type { HostContext } from '../context';

const isRole = (value: unknown): value is EndpointKeyRole => value === 'chat' || value === 'embeddings' || value === 'audio';

/**
 * `cadenza.clearApiKey`: removes the key from SecretStorage; with an argument ('chat' | 'embeddings' |
 * 'audio'), that operation's own key instead, after which the operation gets the main key again.
 */
export async function clearApiKey(host: HostContext, roleArgument?: unknown): Promise<void> {
  if (isRole(roleArgument)) {
    await host.apiKey.clearFor(roleArgument);
    host.log.info(`API key of the ${roleArgument} server removed from secret storage.`);
    return;
  }
  await host.apiKey.clear();
  host.log.info('API key removed from secret storage.');
}
