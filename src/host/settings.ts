import * as vscode from 'vscode';
import { settingDefaults } from './settingDefaults';
import { settingRules, type GuardedSetting, type GuardedValue } from './settingRules';
import type { StoredOptions } from '../core/chat/conversation';
import type { WorkspaceLevel } from '../core/settings/workspaceRule';

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

/**
 * `cadenza.chat.accessibility.announceProgress`: whether the panel tells a screen reader that an answer has
 * started and how it is going (a finished answer is read out once either way).
 */
export function readAnnounceProgress(): boolean {
  return (
    vscode.workspace.getConfiguration('cadenza.chat').get<boolean>('accessibility.announceProgress', settingDefaults['chat.accessibility.announceProgress']) ===
    true
  );
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
  return vscode.l10n.t('This workspace sets the system prompt of new conversations and @cadenza (cadenza.chat.systemPrompt in its settings): “{0}”', shown);
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

/** Reads the completion settings now, clamped to sane ranges; a workspace may only lighten them (settingRules.ts). */
export function readCompletionSettings(): CompletionSettings {
  return {
    enabled: guardedSetting('completions.enabled'),
    model: guardedSetting('completions.model'),
    disabledLanguages: guardedSetting('completions.disabledLanguages'),
    debounceMs: guardedSetting('completions.debounceMs'),
    dailyTokenLimit: guardedSetting('completions.dailyTokenLimit'),
    // A user setting only: a workspace in Restricted Mode cannot switch it on for itself.
    enableInRestrictedMode: guardedSetting('completions.enableInRestrictedMode'),
    // A user setting only, like the one above: a workspace cannot widen what is sent.
    allowOutsideWorkspace:
      (vscode.workspace.getConfiguration('cadenza.completions').inspect<boolean>('allowOutsideWorkspace')?.globalValue ??
        settingDefaults['completions.allowOutsideWorkspace']) === true,
  };
}

/**
 * The value of a guarded setting that counts (settingRules.ts): the user's, unless the workspace's is
 * stricter. Read at the moment of use, like every setting.
 */
export function guardedSetting<K extends GuardedSetting>(key: K): GuardedValue<K> {
  const rule: (typeof settingRules)[K] = settingRules[key];
  return rule.effective(guardedConfiguration().inspect(key) ?? {}).value;
}

/**
 * `cadenza.*` as seen from the first folder, so a folder's own value of a resource-scoped setting
 * (`index.mode`) is weighed too (it can only narrow); without a folder, the workspace's.
 */
function guardedConfiguration(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('cadenza', vscode.workspace.workspaceFolders?.[0]?.uri ?? null);
}

/** A workspace's value of a guarded setting that does not count, because it would make Cadenza do or spend more. */
export interface IgnoredSetting {
  /** The full id, `cadenza.completions.enabled`. */
  readonly id: string;
  readonly value: unknown;
  readonly level: WorkspaceLevel;
}

/** Every workspace value of a guarded setting that is ignored now. */
export function ignoredWorkspaceSettings(): IgnoredSetting[] {
  const config = guardedConfiguration();
  return Object.entries(settingRules).flatMap(([key, rule]) =>
    rule.effective(config.inspect(key) ?? {}).ignored.map((entry) => ({ id: `cadenza.${key}`, value: entry.value, level: entry.level })),
  );
}
