import type * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';
import type { Logger } from '../core/logger';

/** What every command and view needs; built once in activate() (the composition root). */
export interface HostContext {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel & Logger;
  readonly apiKey: ApiKeyStore;
}
