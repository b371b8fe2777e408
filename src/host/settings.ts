import * as vscode from 'vscode';
import { settingDefaults } from './settingDefaults';
import type { StoredOptions } from '../core/chat/conversation';

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

/** Defaults for new conversations (`cadenza.chat.*`); null settings leave the service's default. */
export interface ChatDefaults {
  readonly model: string;
  readonly options: StoredOptions;
}

/** Reads the chat defaults now. */
export function readChatDefaults(): ChatDefaults {
  const config = vscode.workspace.getConfiguration('cadenza.chat');
  const number = (key: string): number | undefined => {
    const value = config.get<number | null>(key, null);
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  };
  const temperature = number('temperature');
  const topP = number('topP');
  const topK = number('topK');
  const maxTokens = number('maxTokens');
  const stop = config.get<string[]>('stop', []).filter((entry) => typeof entry === 'string' && entry !== '');
  const systemPrompt = config.get<string>('systemPrompt', '');
  const effort = config.get<string>('reasoningEffort', '');
  const reasoningEffort = effort === 'low' || effort === 'medium' || effort === 'high' ? effort : undefined;
  const thinking = config.get<boolean>('thinking', true);
  return {
    model: config.get<string>('model', '').trim(),
    options: {
      ...(temperature !== undefined ? { temperature } : {}),
      ...(topP !== undefined ? { topP } : {}),
      ...(topK !== undefined ? { topK } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(stop.length > 0 ? { stop } : {}),
      ...(systemPrompt ? { systemPrompt } : {}),
      ...(reasoningEffort ? { reasoningEffort } : {}),
      ...(thinking === false ? { thinking: false } : {}),
    },
  };
}

/** `cadenza.completions.*`: inline completions (ghost text). */
export interface CompletionSettings {
  /** Off by default: completions spend tokens on every pause in typing. */
  readonly enabled: boolean;
  /** Empty: the fastest small chat model listed. */
  readonly model: string;
  /** Language ids never completed. */
  readonly disabledLanguages: readonly string[];
  readonly debounceMs: number;
  /** Prompt and answer tokens a day; 0 means no limit. */
  readonly dailyTokenLimit: number;
  /** Completions in a Restricted Mode window (a user setting only). */
  readonly enableInRestrictedMode: boolean;
}

/** Reads the completion settings now, clamped to sane ranges. */
export function readCompletionSettings(): CompletionSettings {
  const config = vscode.workspace.getConfiguration('cadenza.completions');
  const debounce = config.get<number>('debounceMs', settingDefaults['completions.debounceMs']);
  const limit = config.get<number>('dailyTokenLimit', settingDefaults['completions.dailyTokenLimit']);
  // A user setting only: a workspace in Restricted Mode cannot switch it on for itself.
  const restricted = config.inspect<boolean>('enableInRestrictedMode');
  return {
    enabled: config.get<boolean>('enabled', settingDefaults['completions.enabled']) === true,
    model: config.get<string>('model', settingDefaults['completions.model']).trim(),
    disabledLanguages: config.get<string[]>('disabledLanguages', []).filter((id) => typeof id === 'string'),
    debounceMs: Number.isFinite(debounce) ? Math.min(2000, Math.max(0, Math.round(debounce))) : settingDefaults['completions.debounceMs'],
    dailyTokenLimit: Number.isFinite(limit) ? Math.max(0, Math.round(limit)) : settingDefaults['completions.dailyTokenLimit'],
    enableInRestrictedMode: (restricted?.globalValue ?? false) === true,
  };
}
