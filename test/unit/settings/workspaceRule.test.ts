// The rule that a workspace's settings may make Cadenza do or spend less, never more, on the values VS Code's
// inspect() gives: the user's value counts unless the workspace's is stricter.
import assert from 'node:assert/strict';
import {
  lessOnly,
  readBoolean,
  readChoice,
  readNumber,
  readText,
  readTextList,
  union,
  userOnly,
  type SettingValues,
} from '../../../src/core/settings/workspaceRule';

/** Completions on/off: on weighs more than off. */
const enabled = lessOnly(readBoolean, (on) => (on ? 1 : 0), false);
/** A daily token limit where 0 means none: none weighs the most. */
const dailyLimit = lessOnly(readNumber(0, Number.MAX_SAFE_INTEGER), (limit) => (limit === 0 ? Infinity : limit), 1_000_000);
/** The index: off, ask, auto, in that order. */
const indexModes = ['off', 'ask', 'auto'] as const;
const indexMode = lessOnly(readChoice(indexModes), (mode) => indexModes.indexOf(mode), 'ask');
/** A debounce: a shorter one sends more requests. */
const debounce = lessOnly(readNumber(0, 2000), (ms) => -ms, 75);
/** Checkpoint retention: fewer days deletes more. */
const retention = lessOnly(readNumber(1, 3650, false), (days) => -days, 30);

describe('a workspace may make Cadenza do or spend less, never more', () => {
  describe('lessOnly', () => {
    it("takes the user's value, else the default, when the workspace sets nothing", () => {
      assert.equal(enabled.effective({ defaultValue: false }).value, false);
      assert.equal(enabled.effective({ defaultValue: false, globalValue: true }).value, true);
      assert.deepEqual(enabled.effective({ defaultValue: false, globalValue: true }).ignored, []);
    });

    it('ignores a workspace that switches on what the user left off, and says so', () => {
      const result = enabled.effective({ defaultValue: false, workspaceValue: true });
      assert.equal(result.value, false);
      assert.deepEqual(result.ignored, [{ level: 'workspace', value: true }]);
      // The same from a folder of a multi-root workspace.
      assert.deepEqual(enabled.effective({ defaultValue: false, globalValue: false, workspaceFolderValue: true }).ignored, [
        { level: 'workspaceFolder', value: true },
      ]);
    });

    it('lets a workspace switch off what the user switched on', () => {
      const result = enabled.effective({ defaultValue: false, globalValue: true, workspaceValue: false });
      assert.equal(result.value, false);
      assert.equal(result.userValue, true);
      assert.deepEqual(result.ignored, []);
    });

    it('lets a workspace lower a limit, never raise or remove it', () => {
      assert.equal(dailyLimit.effective({ defaultValue: 1_000_000, workspaceValue: 5000 }).value, 5000);
      assert.equal(dailyLimit.effective({ defaultValue: 1_000_000, globalValue: 20_000, workspaceValue: 50_000 }).value, 20_000);
      // 0 is "no limit": the most a limit can allow.
      const removed = dailyLimit.effective({ defaultValue: 1_000_000, globalValue: 20_000, workspaceValue: 0 });
      assert.equal(removed.value, 20_000);
      assert.deepEqual(removed.ignored, [{ level: 'workspace', value: 0 }]);
      // A user with no limit may be given one by the workspace.
      assert.equal(dailyLimit.effective({ defaultValue: 1_000_000, globalValue: 0, workspaceValue: 3000 }).value, 3000);
    });

    it('clamps before weighing: a negative limit is read as 0, "no limit", not as a lower one', () => {
      const result = dailyLimit.effective({ defaultValue: 1_000_000, workspaceValue: -1 });
      assert.equal(result.value, 1_000_000);
      assert.deepEqual(result.ignored, [{ level: 'workspace', value: 0 }]);
    });

    it("orders choices: a workspace may choose off, or ask over the user's auto, never auto", () => {
      assert.equal(indexMode.effective({ defaultValue: 'ask', workspaceValue: 'auto' }).value, 'ask');
      assert.equal(indexMode.effective({ defaultValue: 'ask', workspaceValue: 'off' }).value, 'off');
      assert.equal(indexMode.effective({ defaultValue: 'ask', globalValue: 'auto', workspaceValue: 'ask' }).value, 'ask');
      assert.equal(indexMode.effective({ defaultValue: 'ask', globalValue: 'off', workspaceValue: 'ask' }).value, 'off');
    });

    it('weighs a debounce and a retention the other way round: only longer counts', () => {
      assert.equal(debounce.effective({ defaultValue: 75, workspaceValue: 0 }).value, 75);
      assert.equal(debounce.effective({ defaultValue: 75, workspaceValue: 400 }).value, 400);
      // Keeping checkpoints for fewer days deletes more of the user's data: ignored; more days count.
      assert.equal(retention.effective({ defaultValue: 30, globalValue: 60, workspaceValue: 1 }).value, 60);
      assert.equal(retention.effective({ defaultValue: 30, globalValue: 60, workspaceValue: 90 }).value, 90);
      assert.equal(retention.effective({ defaultValue: 30, globalValue: 60, workspaceValue: 1.5 }).ignored[0]?.value, 1.5);
    });

    it("takes the lightest of the workspace's and the folder's values", () => {
      const result = dailyLimit.effective({ defaultValue: 1_000_000, globalValue: 100, workspaceValue: 50, workspaceFolderValue: 80 });
      assert.equal(result.value, 50);
      // 80 is within what the user allows, so it is not reported as ignored; it is just not the strictest.
      assert.deepEqual(result.ignored, []);
      const mixed = dailyLimit.effective({ defaultValue: 1_000_000, globalValue: 100, workspaceValue: 500, workspaceFolderValue: 80 });
      assert.equal(mixed.value, 80);
      assert.deepEqual(mixed.ignored, [{ level: 'workspace', value: 500 }]);
    });

    it("counts a value once when the folder's settings are the workspace's (a single-folder workspace)", () => {
      assert.deepEqual(enabled.effective({ defaultValue: false, workspaceValue: true, workspaceFolderValue: true }).ignored, [
        { level: 'workspace', value: true },
      ]);
    });

    it('treats a value of the wrong type as no value, at every level', () => {
      const values: SettingValues = { defaultValue: 1_000_000, globalValue: 'lots', workspaceValue: '5' };
      const result = dailyLimit.effective(values);
      assert.equal(result.value, 1_000_000);
      assert.deepEqual(result.ignored, []);
      // Without a default that reads, the rule's own fallback.
      assert.equal(indexMode.effective({ globalValue: 'sometimes' }).value, 'ask');
    });
  });

  describe('userOnly', () => {
    const model = userOnly(readText, '');

    it("takes the user's value and ignores a workspace's, naming it", () => {
      const result = model.effective({ defaultValue: '', globalValue: 'small-model', workspaceValue: 'largest-model' });
      assert.equal(result.value, 'small-model');
      assert.deepEqual(result.ignored, [{ level: 'workspace', value: 'largest-model' }]);
    });

    it("ignores a workspace's value even when the user set none", () => {
      assert.equal(model.effective({ defaultValue: '', workspaceValue: 'acme/shop' }).value, '');
    });

    it("does not report a workspace value equal to the user's", () => {
      assert.deepEqual(model.effective({ defaultValue: '', globalValue: ' acme/shop ', workspaceValue: 'acme/shop' }).ignored, []);
    });
  });

  describe('union', () => {
    const disabled = union(readTextList);

    it("adds a workspace's entries to the user's; it cannot take any away", () => {
      assert.deepEqual(disabled.effective({ defaultValue: [], globalValue: ['markdown'], workspaceValue: [] }).value, ['markdown']);
      assert.deepEqual(
        disabled.effective({ defaultValue: [], globalValue: ['markdown'], workspaceValue: ['plaintext', 'markdown'], workspaceFolderValue: ['yaml'] }).value,
        ['markdown', 'plaintext', 'yaml'],
      );
      assert.deepEqual(disabled.effective({ defaultValue: [], workspaceValue: 'markdown' }).value, []);
    });
  });
});
