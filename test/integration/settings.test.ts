import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { teamRepository } from '../../src/host/index/teamConnection';
import { readIndexSettings } from '../../src/host/index/indexSettings';
import { readCompletionSettings } from '../../src/host/settings';
import { readAgentSettings } from '../../src/host/tools/agentSettings';
import { readCheckpointPolicy } from '../../src/host/tools/checkpointService';
import { cadenzaApi, useEmulator } from './helpers';

/** Values written to the workspace configuration and read back; none equals its default. */
const written = {
  requestTimeoutSeconds: 7,
  maxRetries: 4,
  'models.overrides': { 'my-model': { capabilities: ['chat', 'tools'], contextLength: 32768 } },
} as const;

/** What a cloned repository could ask for: each would make Cadenza do, spend or delete more than the user's defaults. */
const heavier = {
  'completions.enabled': true,
  'completions.model': 'Meta-Llama-3.3-70B-Instruct',
  'completions.debounceMs': 0,
  'completions.dailyTokenLimit': 0,
  'index.mode': 'auto',
  'index.maxFileSizeKB': 4096,
  'index.team.repository': 'acme/shop',
  'agent.maxSteps': 100,
  'agent.maxToolResultTokens': 100_000,
  'agent.terminalTimeoutSeconds': 3600,
  'agent.requireToolCall': true,
  'agent.checkpoints.maxAgeDays': 1,
  'agent.checkpoints.maxMegabytes': 1,
} as const;

/** Values that make Cadenza do less than the user's defaults: these count. */
const lighter = {
  'completions.disabledLanguages': ['javascript'],
  'completions.debounceMs': 400,
  'completions.dailyTokenLimit': 5000,
  'index.mode': 'off',
  'index.maxFileSizeKB': 64,
  'agent.enabled': false,
  'agent.maxSteps': 3,
  'agent.maxToolResultTokens': 1000,
  'agent.terminalTimeoutSeconds': 10,
  // Plan does less than the user's Act: a workspace may choose it.
  'agent.defaultMode': 'plan',
  'agent.checkpoints.maxAgeDays': 90,
  'agent.checkpoints.maxMegabytes': 500,
} as const;

suite('Settings', () => {
  const emulator = useEmulator();
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('cadenza');

  suiteSetup(async () => {
    await cadenzaApi();
  });
  suiteTeardown(async () => {
    for (const key of Object.keys(written)) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('the manifest declares every setting with its default', () => {
    assert.equal(config().inspect('baseUrl')?.defaultValue, 'https://api.sambanova.ai');
    assert.equal(config().inspect('chatBaseUrl')?.defaultValue, '');
    assert.equal(config().inspect('requestTimeoutSeconds')?.defaultValue, 60);
    assert.equal(config().inspect('maxRetries')?.defaultValue, 2);
    assert.deepEqual(config().inspect('models.overrides')?.defaultValue, {});
  });

  test('cadenza.baseUrl points at the emulator (user setting)', () => {
    assert.equal(config().get('baseUrl'), emulator().baseUrl);
    assert.equal(config().inspect('baseUrl')?.globalValue, emulator().baseUrl);
  });

  test('a workspace cannot redirect where the API key is sent (base URLs are application-scoped)', async () => {
    for (const key of ['baseUrl', 'chatBaseUrl', 'endpoints.embeddings', 'endpoints.audio']) {
      await assert.rejects(Promise.resolve(config().update(key, 'http://attacker.invalid', vscode.ConfigurationTarget.Workspace)), Error, key);
      assert.notEqual(config().get(key), 'http://attacker.invalid', key);
    }
  });

  test('every other cadenza.* setting written to the workspace reads back', async () => {
    for (const [key, value] of Object.entries(written)) await config().update(key, value, vscode.ConfigurationTarget.Workspace);
    for (const [key, value] of Object.entries(written)) {
      assert.deepEqual(config().get(key), value, key);
      assert.deepEqual(config().inspect(key)?.workspaceValue, value, `${key} (workspace value)`);
    }
  });

  test("a workspace's values that would make Cadenza do or spend more are ignored and named; lighter ones count", async function () {
    // About 80 writes of the workspace's settings.json, each reloaded by VS Code and seen by every listener: 9 s
    // on an idle 2-core machine, over 30 s on a busy one (a CI run beside other work).
    this.timeout(120_000);
    const api = await cadenzaApi();
    try {
      for (const [key, value] of Object.entries(heavier)) await config().update(key, value, vscode.ConfigurationTarget.Workspace);
      for (const [key, value] of Object.entries(heavier)) assert.deepEqual(config().inspect(key)?.workspaceValue, value, `${key} is written to the workspace`);
      // What Cadenza reads is the user's (the defaults here).
      assert.deepEqual(readCompletionSettings(), {
        enabled: false,
        model: '',
        disabledLanguages: [],
        debounceMs: 75,
        dailyTokenLimit: 1_000_000,
        enableInRestrictedMode: false,
        allowOutsideWorkspace: false,
      });
      const index = readIndexSettings();
      assert.equal(index.mode, 'ask');
      assert.equal(index.maxFileBytes, 1024 * 1024);
      assert.equal(teamRepository(), '');
      assert.deepEqual(readAgentSettings(), {
        enabled: true,
        maxSteps: 8,
        maxToolResultTokens: 4000,
        terminalTimeoutSeconds: 60,
        requireToolCall: false,
        defaultMode: 'act',
      });
      assert.deepEqual(readCheckpointPolicy(), { maxAgeDays: 30, maxBytes: 200 * 1024 * 1024 });
      // And the notice names each ignored value.
      const ignored = await api.settingsNotice.check();
      const named = (entries: readonly { id: string; value: unknown }[]): string[] =>
        entries.map((entry) => `${entry.id}=${JSON.stringify(entry.value)}`).sort();
      const expected = Object.entries(heavier)
        .map(([key, value]) => `cadenza.${key}=${JSON.stringify(value)}`)
        .sort();
      assert.deepEqual(named(ignored), expected);
      assert.deepEqual(named(api.settingsNotice.shown), expected, 'the notice named them');

      for (const key of Object.keys(heavier)) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
      for (const [key, value] of Object.entries(lighter)) await config().update(key, value, vscode.ConfigurationTarget.Workspace);
      assert.deepEqual(await api.settingsNotice.check(), [], 'nothing lighter is named');
      const completions = readCompletionSettings();
      assert.deepEqual([completions.disabledLanguages, completions.debounceMs, completions.dailyTokenLimit], [['javascript'], 400, 5000]);
      assert.deepEqual([readIndexSettings().mode, readIndexSettings().maxFileBytes], ['off', 64 * 1024]);
      assert.deepEqual(readAgentSettings(), {
        enabled: false,
        maxSteps: 3,
        maxToolResultTokens: 1000,
        terminalTimeoutSeconds: 10,
        requireToolCall: false,
        defaultMode: 'plan',
      });
      assert.deepEqual(readCheckpointPolicy(), { maxAgeDays: 90, maxBytes: 500 * 1024 * 1024 });
    } finally {
      for (const key of new Set([...Object.keys(heavier), ...Object.keys(lighter)]))
        await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('the emulator answers from inside the extension host with the configured key', async () => {
    const response = await fetch(`${emulator().baseUrl}/v1/models`, { headers: { Authorization: `Bearer ${emulator().key}` } });
    assert.equal(response.status, 200);
    const unauthorised = await fetch(`${emulator().baseUrl}/v1/models`, { headers: { Authorization: 'Bearer wrong' } });
    assert.equal(unauthorised.status, 401);
  });
});
