// Kept free of `vscode` imports so the plain-Node unit test can check it against package.json.
//
// Which settings a workspace may only lighten (core/settings/workspaceRule.ts says why): those that spend
// tokens, ask consent, reach the user's team database, or delete the user's checkpoints. Each `weight`
// says how much a value makes Cadenza do, spend or delete; a workspace's value counts only when it weighs
// no more than the user's. The ranges are the manifest's `minimum`/`maximum`.
import { lessOnly, readBoolean, readChoice, readNumber, readText, readTextList, union, userOnly } from '../core/settings/workspaceRule';
import { settingDefaults } from './settingDefaults';

const on = (value: boolean): number => (value ? 1 : 0);
const more = (value: number): number => value;
/** For a length of quiet or of keeping: the shorter, the more it sends or deletes. */
const longerIsLess = (value: number): number => -value;
const indexModes = ['off', 'ask', 'auto'] as const;
const agentModes = ['plan', 'act'] as const;

/** The guarded settings, keyed without the `cadenza.` prefix; every other setting follows VS Code's usual order. */
export const settingRules = {
  'completions.enabled': lessOnly(readBoolean, on, settingDefaults['completions.enabled']),
  // A workspace could name the dearest model; which model spends the user's tokens is the user's choice.
  'completions.model': userOnly(readText, settingDefaults['completions.model']),
  'completions.disabledLanguages': union(readTextList),
  'completions.debounceMs': lessOnly(readNumber(0, 2000), longerIsLess, settingDefaults['completions.debounceMs']),
  // 0 means no limit: the most a limit allows.
  'completions.dailyTokenLimit': lessOnly(
    readNumber(0, Number.MAX_SAFE_INTEGER),
    (limit) => (limit === 0 ? Infinity : limit),
    settingDefaults['completions.dailyTokenLimit'],
  ),
  'completions.enableInRestrictedMode': userOnly(readBoolean, settingDefaults['completions.enableInRestrictedMode']),
  'index.mode': lessOnly(readChoice(indexModes), (mode) => indexModes.indexOf(mode), settingDefaults['index.mode']),
  'index.maxFileSizeKB': lessOnly(readNumber(1, 10_240), more, settingDefaults['index.maxFileSizeKB']),
  // The connection string is the user's (SecretStorage); which repository it searches is the user's choice too.
  'index.team.repository': userOnly(readText, settingDefaults['index.team.repository']),
  'agent.enabled': lessOnly(readBoolean, on, settingDefaults['agent.enabled']),
  // Plan only reads: a workspace may start its conversations in Plan, never in Act against the user's choice.
  'agent.defaultMode': lessOnly(readChoice(agentModes), (mode) => agentModes.indexOf(mode), settingDefaults['agent.defaultMode']),
  'agent.maxSteps': lessOnly(readNumber(1, 100), more, settingDefaults['agent.maxSteps']),
  'agent.maxToolResultTokens': lessOnly(readNumber(256, 100_000), more, settingDefaults['agent.maxToolResultTokens']),
  'agent.terminalTimeoutSeconds': lessOnly(readNumber(1, 3600), more, settingDefaults['agent.terminalTimeoutSeconds']),
  'agent.requireToolCall': lessOnly(readBoolean, on, settingDefaults['agent.requireToolCall']),
  // Retention: deleting is what cannot be undone, so a workspace may only keep more (within the range).
  'agent.checkpoints.maxAgeDays': lessOnly(readNumber(1, 3650, false), longerIsLess, settingDefaults['agent.checkpoints.maxAgeDays']),
  'agent.checkpoints.maxMegabytes': lessOnly(readNumber(1, 10_000, false), longerIsLess, settingDefaults['agent.checkpoints.maxMegabytes']),
};

/** A guarded setting's key. */
export type GuardedSetting = keyof typeof settingRules;

/** The type of a guarded setting's value. */
export type GuardedValue<K extends GuardedSetting> = ReturnType<(typeof settingRules)[K]['effective']>['value'];
