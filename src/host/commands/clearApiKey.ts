import type { HostContext } from '../context';

/** `cadenza.clearApiKey`: removes the key from SecretStorage. */
export async function clearApiKey(host: HostContext): Promise<void> {
  await host.apiKey.clear();
  host.log.info('API key removed from secret storage.');
}
