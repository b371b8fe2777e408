import * as vscode from 'vscode';
import { guardedSetting } from '../settings';

/** `cadenza.index.*`, read at the moment of use. */
export interface IndexSettings {
  /** ask: ask once per workspace before the first build; auto: build without asking; off: no index. */
  readonly mode: 'ask' | 'auto' | 'off';
  readonly model: string;
  readonly maxFileBytes: number;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly debounceMs: number;
}

/** Reads the index settings now; a workspace may only lighten `mode` and `maxFileSizeKB` (settingRules.ts). */
export function readIndexSettings(): IndexSettings {
  const config = vscode.workspace.getConfiguration('cadenza.index');
  return {
    mode: guardedSetting('index.mode'),
    model: config.get<string>('model', 'E5-Mistral-7B-Instruct').trim() || 'E5-Mistral-7B-Instruct',
    maxFileBytes: guardedSetting('index.maxFileSizeKB') * 1024,
    batchSize: Math.max(1, config.get<number>('batchSize', 32)),
    concurrency: Math.max(1, config.get<number>('concurrency', 2)),
    debounceMs: Math.max(50, config.get<number>('debounceMs', 1500)),
  };
}

/** `files.exclude` and `search.exclude`, merged, as the index's walker takes them. */
export function indexExcludes(): Record<string, boolean | { when: string }> {
  const merged: Record<string, boolean | { when: string }> = {};
  for (const section of ['files', 'search']) {
    const value = vscode.workspace.getConfiguration(section).get<Record<string, boolean | { when: string }>>('exclude', {});
    Object.assign(merged, value);
  }
  return merged;
}
