import * as vscode from 'vscode';
import { settingDefaults } from './settingDefaults';

/**
 * Typed getters for every `cadenza.*` setting, with the defaults declared in package.json.
 * A unit test checks that the keys and defaults here match the manifest.
 */
export interface ModelOverride {
  readonly capabilities?: readonly string[];
  readonly contextLength?: number;
  readonly maxCompletionTokens?: number;
  readonly family?: 'speechToText' | 'audioInstruct';
}

export interface CadenzaSettings {
  readonly baseUrl: string;
  readonly chatBaseUrl: string;
  readonly requestTimeoutSeconds: number;
  readonly maxRetries: number;
  readonly modelOverrides: Readonly<Record<string, ModelOverride>>;
}

/** Reads all settings now; cheap, so callers read at the moment of use rather than caching. */
export function readSettings(): CadenzaSettings {
  const config = vscode.workspace.getConfiguration('cadenza');
  return {
    baseUrl: config.get<string>('baseUrl', settingDefaults.baseUrl).trim() || settingDefaults.baseUrl,
    chatBaseUrl: config.get<string>('chatBaseUrl', settingDefaults.chatBaseUrl).trim(),
    requestTimeoutSeconds: config.get<number>('requestTimeoutSeconds', settingDefaults.requestTimeoutSeconds),
    maxRetries: config.get<number>('maxRetries', settingDefaults.maxRetries),
    modelOverrides: config.get<Record<string, ModelOverride>>('models.overrides', {}),
  };
}
