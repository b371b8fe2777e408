import * as vscode from 'vscode';
import type { HostContext } from '../context';

/**
 * `cadenza.setApiKey`: asks for the key in a password box (or takes it as the argument, for
 * automation and tests) and stores it in SecretStorage only. Returns whether a key was stored.
 */
export async function setApiKey(host: HostContext, keyArgument?: unknown): Promise<boolean> {
  let key = typeof keyArgument === 'string' ? keyArgument : undefined;
  key ??= await vscode.window.showInputBox({
    title: 'Cadenza: API key',
    prompt: 'Paste the API key of the inference service. It is kept in VS Code\'s secret storage only.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim().length === 0 ? 'The key cannot be empty.' : undefined),
  });
  key = key?.trim();
  if (!key) return false;
  await host.apiKey.set(key);
  host.log.info('API key stored in secret storage.');
  return true;
}
