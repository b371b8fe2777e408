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

/**
 * The panel's word about a system prompt the workspace itself sets (`.vscode/settings.json`), or
 * undefined when it sets none. A cloned repository could steer every answer with one, so it is a
 * restricted setting: used only once the workspace is trusted, and then shown.
 */
export function workspaceSystemPromptNotice(): string | undefined {
  const inspected = vscode.workspace.getConfiguration('cadenza.chat').inspect<string>('systemPrompt');
  const value = [inspected?.workspaceFolderValue, inspected?.workspaceValue].find((entry) => typeof entry === 'string' && entry.trim() !== '');
  if (value === undefined) return undefined;
  const shown = value.length > 200 ? `${value.slice(0, 200)}\u2026` : value;
  // In Restricted Mode VS Code hides a restricted setting's workspace value, so this is the trusted case.
  return `This workspace sets the system prompt of new conversations and @cadenza (cadenza.chat.systemPrompt in its settings): \u201c${shown}\u201d`;
}

/** Audio defaults (`cadenza.audio.*`): what Transcribe and Translate use without asking, and where results go. */
export interface AudioSettings {
  /** A model id; '' means the first speech-to-text model the service lists. */
  readonly transcriptionModel: string;
  /** A code or English name; '' lets the service detect the language. */
  readonly language: string;
  readonly output: 'document' | 'cursor' | 'clipboard';
  readonly concurrency: number;
}

/** Reads the audio settings now. */
export function readAudioSettings(): AudioSettings {
  const config = vscode.workspace.getConfiguration('cadenza.audio');
  const output = config.get<string>('output', settingDefaults['audio.output']);
  return {
    transcriptionModel: config.get<string>('transcriptionModel', settingDefaults['audio.transcriptionModel']).trim(),
    language: config.get<string>('language', settingDefaults['audio.language']).trim(),
    output: output === 'cursor' || output === 'clipboard' ? output : 'document',
    concurrency: Math.max(1, config.get<number>('concurrency', settingDefaults['audio.concurrency'])),
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
  /** Completions (and context snippets) of files outside the workspace folders (a user setting only). */
  readonly allowOutsideWorkspace: boolean;
}

/** Reads the completion settings now, clamped to sane ranges. */
export function readCompletionSettings(): CompletionSettings {
  const config = vscode.workspace.getConfiguration('cadenza.completions');
  const debounce = config.get<number>('debounceMs', settingDefaults['completions.debounceMs']);
  const limit = config.get<number>('dailyTokenLimit', settingDefaults['completions.dailyTokenLimit']);
  // A user setting only: a workspace in Restricted Mode cannot switch it on for itself.
  const restricted = config.inspect<boolean>('enableInRestrictedMode');
  const outside = config.inspect<boolean>('allowOutsideWorkspace');
  return {
    enabled: config.get<boolean>('enabled', settingDefaults['completions.enabled']) === true,
    model: config.get<string>('model', settingDefaults['completions.model']).trim(),
    disabledLanguages: config.get<string[]>('disabledLanguages', []).filter((id) => typeof id === 'string'),
    debounceMs: Number.isFinite(debounce) ? Math.min(2000, Math.max(0, Math.round(debounce))) : settingDefaults['completions.debounceMs'],
    dailyTokenLimit: Number.isFinite(limit) ? Math.max(0, Math.round(limit)) : settingDefaults['completions.dailyTokenLimit'],
    enableInRestrictedMode: (restricted?.globalValue ?? false) === true,
    allowOutsideWorkspace: (outside?.globalValue ?? settingDefaults['completions.allowOutsideWorkspace']) === true,
  };
}
