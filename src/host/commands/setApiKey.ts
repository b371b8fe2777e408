import * as vscode from 'vscode';
import type { EndpointKeyRole } from '../apiKeyStore';
import type { HostContext } from '../context';
import { separateEndpoints } from '../endpoints';

const roleLabels: Readonly<Record<EndpointKeyRole, string>> = { chat: 'Chat server', embeddings: 'Embeddings server', audio: 'Audio server' };
const isRole = (value: unknown): value is EndpointKeyRole => value === 'chat' || value === 'embeddings' || value === 'audio';

/**
 * `cadenza.setApiKey`: asks for the key in a password box (or takes it as the argument, for
 * automation and tests) and stores it in SecretStorage only. When an operation has its own server
 * (`cadenza.endpoints.*`, `cadenza.chatBaseUrl`), it first asks whose key it is; a second argument
 * ('chat' | 'embeddings' | 'audio') names it directly. Returns whether a key was stored.
 */
export async function setApiKey(host: HostContext, keyArgument?: unknown, roleArgument?: unknown): Promise<boolean> {
  let key = typeof keyArgument === 'string' ? keyArgument : undefined;
  let role: EndpointKeyRole | undefined = isRole(roleArgument) ? roleArgument : undefined;
  const separate = separateEndpoints();
  if (key === undefined && role === undefined && separate.length > 0) {
    const picked = await vscode.window.showQuickPick(
      [{ label: 'The service', description: 'cadenza.baseUrl', role: undefined }, ...separate.map((entry) => ({ label: roleLabels[entry], description: `its own key (without one, the service's key is sent)`, role: entry }))],
      { title: 'Cadenza: whose API key?' },
    );
    if (picked === undefined) return false;
    role = picked.role;
  }
  key ??= await vscode.window.showInputBox({
    title: role === undefined ? 'Cadenza: API key' : `Cadenza: API key of the ${roleLabels[role].toLowerCase()}`,
    prompt: 'Paste the API key. It is kept in VS Code\'s secret storage only.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim().length === 0 ? 'The key cannot be empty.' : undefined),
  });
  key = key?.trim();
  if (!key) return false;
  if (role === undefined) await host.apiKey.set(key);
  else await host.apiKey.setFor(role, key);
  host.log.info(role === undefined ? 'API key stored in secret storage.' : `API key of the ${role} server stored in secret storage.`);
  return true;
}
