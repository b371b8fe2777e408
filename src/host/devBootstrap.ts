import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';
import type { Logger } from '../core/logger';

/**
 * `npm start` hands the emulator's (or the chosen service's) key to a development instance through
 * `CADENZA_API_KEY`. Only outside production mode, and only when no key is stored yet, it is copied
 * into SecretStorage once; an installed extension never reads keys from the environment.
 */
export async function seedDevelopmentKey(context: vscode.ExtensionContext, apiKey: ApiKeyStore, log: Logger): Promise<void> {
  const key = process.env['CADENZA_API_KEY']?.trim();
  if (context.extensionMode === vscode.ExtensionMode.Production || !key) return;
  if ((await apiKey.get()) !== undefined) return;
  await apiKey.set(key);
  log.info('Development mode: stored the API key from CADENZA_API_KEY in secret storage.');
}
