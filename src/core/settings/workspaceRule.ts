// A workspace's settings may make Cadenza do or spend less, never more.
//
// A repository someone cloned carries its own `.vscode/settings.json`, and once its folder is trusted VS Code
// applies those values over the user's. Trusting a folder is consent to run its code, not to let it decide
// what the user's key spends or what is deleted from the user's storage: without this rule a repository
// could switch inline completions on with no daily limit, index itself without asking, lift the agent's
// step limit, or prune the user's checkpoints. So for the settings that spend, ask consent or delete, the
// value that counts is the user's, unless the workspace's is stricter: it may switch a feature off or lower a
// limit, never switch one on or raise one. Some settings are the user's alone (which model writes
// completions; which team repository is searched with the user's database credentials).
//
// This file knows nothing of VS Code: it takes the values `inspect()` gives and each setting's rule.

/** One setting's values by where they are set, as VS Code's `WorkspaceConfiguration.inspect()` gives them. */
export interface SettingValues {
  readonly defaultValue?: unknown;
  /** The user's settings (local and remote together). */
  readonly globalValue?: unknown;
  /** The workspace's: a folder's `.vscode/settings.json`, or a `.code-workspace` file. */
  readonly workspaceValue?: unknown;
  /** A folder's of a multi-root workspace. */
  readonly workspaceFolderValue?: unknown;
}

/** Where a value the rule did not take was set. */
export type WorkspaceLevel = 'workspace' | 'workspaceFolder';

/** The value that counts, and the workspace's values that did not count because they would do or spend more. */
export interface EffectiveSetting<T> {
  readonly value: T;
  /** The user's value (or the default) before any workspace value narrowed it. */
  readonly userValue: T;
  readonly ignored: readonly { readonly level: WorkspaceLevel; readonly value: T }[];
}

/**
 * How a workspace may change one setting:
 * - `lessOnly`: a workspace's value counts only when it weighs less than the user's (does, spends or
 *   deletes less); the lightest of all the values counts.
 * - `userOnly`: the user's value alone; a workspace's is ignored whatever it says.
 * - `union`: a list each may only add to (languages where completions stay off).
 */
export interface WorkspaceRule<T> {
  readonly kind: 'lessOnly' | 'userOnly' | 'union';
  /** The value that counts, given every level's value. */
  effective(values: SettingValues): EffectiveSetting<T>;
}

/**
 * Reads one raw value: the value in the setting's range (clamped), or undefined when it is not a value of
 * the setting at all (a string where a number belongs). Clamping comes first, so a workspace's `-1` for a
 * limit where `0` means "none" is read as `0` and weighed as none, not as "lower".
 */
export type ReadValue<T> = (raw: unknown) => T | undefined;

const levels: readonly WorkspaceLevel[] = ['workspace', 'workspaceFolder'];

function workspaceValues<T>(values: SettingValues, read: ReadValue<T>): { level: WorkspaceLevel; value: T }[] {
  const found: { level: WorkspaceLevel; value: T }[] = [];
  for (const level of levels) {
    const raw = level === 'workspace' ? values.workspaceValue : values.workspaceFolderValue;
    if (raw === undefined) continue;
    // In a single-folder workspace the folder's settings are the workspace's: inspect() gives the value twice.
    if (level === 'workspaceFolder' && JSON.stringify(raw) === JSON.stringify(values.workspaceValue)) continue;
    const value = read(raw);
    // A value of the wrong type is no value (VS Code's settings editor marks it); it is not reported as ignored.
    if (value !== undefined) found.push({ level, value });
  }
  return found;
}

/** The user's value, else the default, else `fallback` (when neither is a value of the setting). */
function userValueOf<T>(values: SettingValues, read: ReadValue<T>, fallback: T): T {
  return (values.globalValue === undefined ? undefined : read(values.globalValue)) ?? read(values.defaultValue) ?? fallback;
}

/**
 * A setting a workspace may only lighten: `weight` says how much a value makes Cadenza do, spend or delete
 * (higher is more; `Infinity` for "no limit"). The value that counts is the lightest of the user's and the
 * workspace's; a workspace value heavier than the user's is ignored.
 */
export function lessOnly<T>(read: ReadValue<T>, weight: (value: T) => number, fallback: T): WorkspaceRule<T> {
  return {
    kind: 'lessOnly',
    effective(values) {
      const userValue = userValueOf(values, read, fallback);
      const ceiling = weight(userValue);
      let value = userValue;
      const ignored: { level: WorkspaceLevel; value: T }[] = [];
      for (const entry of workspaceValues(values, read)) {
        if (weight(entry.value) > ceiling) ignored.push(entry);
        else if (weight(entry.value) < weight(value)) value = entry.value;
      }
      return { value, userValue, ignored };
    },
  };
}

/** A setting only the user decides: a workspace's value is ignored (reported when it differs from the user's). */
export function userOnly<T>(read: ReadValue<T>, fallback: T): WorkspaceRule<T> {
  return {
    kind: 'userOnly',
    effective(values) {
      const userValue = userValueOf(values, read, fallback);
      const same = (value: T): boolean => JSON.stringify(value) === JSON.stringify(userValue);
      return { value: userValue, userValue, ignored: workspaceValues(values, read).filter((entry) => !same(entry.value)) };
    },
  };
}

/** A list of things left out, to which a workspace may only add: the user's entries and every workspace's, once each. */
export function union(read: ReadValue<readonly string[]>): WorkspaceRule<readonly string[]> {
  return {
    kind: 'union',
    effective(values) {
      const userValue = userValueOf(values, read, []);
      const value = [...new Set([...userValue, ...workspaceValues(values, read).flatMap((entry) => entry.value)])];
      return { value, userValue, ignored: [] };
    },
  };
}

/** Reads a boolean. */
export const readBoolean: ReadValue<boolean> = (raw) => (typeof raw === 'boolean' ? raw : undefined);

/** Reads a string, trimmed. */
export const readText: ReadValue<string> = (raw) => (typeof raw === 'string' ? raw.trim() : undefined);

/** Reads a list of strings (other entries dropped). */
export const readTextList: ReadValue<readonly string[]> = (raw) =>
  Array.isArray(raw) ? raw.filter((entry): entry is string => typeof entry === 'string' && entry !== '') : undefined;

/** Reads a finite number clamped to `[low, high]`, rounded when `whole`. */
export function readNumber(low: number, high: number, whole = true): ReadValue<number> {
  return (raw) => {
    if (typeof raw !== 'number' || !Number.isFinite(raw)) return undefined;
    const value = whole ? Math.round(raw) : raw;
    return Math.min(high, Math.max(low, value));
  };
}

/** Reads one of `choices`. */
export function readChoice<T extends string>(choices: readonly T[]): ReadValue<T> {
  return (raw) => choices.find((choice) => choice === raw);
}
