import * as vscode from 'vscode';
import { ApiKeyStore } from './apiKeyStore';
import { clearApiKey } from './commands/clearApiKey';
import { openChat } from './commands/openChat';
import { setApiKey } from './commands/setApiKey';
import { showLog } from './commands/showLog';
import type { HostContext } from './context';
import { commandIds, viewIds } from './ids';
import { seedDevelopmentKey } from './devBootstrap';
import { createLog } from './log';
import { ChatViewProvider } from './views/chatViewProvider';

/** What activate() returns: a small API for other extensions and the integration tests. */
export interface CadenzaApi {
  readonly chatView: ChatViewProvider;
}

/** The composition root: wires core and host, registers everything, and does nothing else. */
export function activate(extension: vscode.ExtensionContext): CadenzaApi {
  const started = performance.now();
  const log = createLog();
  const apiKey = new ApiKeyStore(extension.secrets);
  const host: HostContext = { extension, log, apiKey };
  const chatView = new ChatViewProvider(host);

  extension.subscriptions.push(
    log,
    apiKey,
    chatView,
    vscode.window.registerWebviewViewProvider(viewIds.chat, chatView),
    vscode.commands.registerCommand(commandIds.setApiKey, (key?: unknown) => setApiKey(host, key)),
    vscode.commands.registerCommand(commandIds.clearApiKey, () => clearApiKey(host)),
    vscode.commands.registerCommand(commandIds.showLog, () => showLog(host)),
    vscode.commands.registerCommand(commandIds.openChat, () => openChat()),
  );
  void seedDevelopmentKey(extension, apiKey, log);
  log.info(`Cadenza activated in ${(performance.now() - started).toFixed(1)} ms (VS Code ${vscode.version}).`);
  return { chatView };
}

export function deactivate(): void {
  // Everything is owned by extension.subscriptions and disposed by VS Code.
}
