import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cadenzaApi, useEmulator } from './helpers';

/** Values written to the workspace configuration and read back; none equals its default. */
const written = {
  requestTimeoutSeconds: 7,
  maxRetries: 4,
  'models.overrides': { 'my-model': { capabilities: ['chat', 'tools'], contextLength: 32768 } },
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

  test('the emulator answers from inside the extension host with the configured key', async () => {
    const response = await fetch(`${emulator().baseUrl}/v1/models`, { headers: { Authorization: `Bearer ${emulator().key}` } });
    assert.equal(response.status, 200);
    const unauthorised = await fetch(`${emulator().baseUrl}/v1/models`, { headers: { Authorization: 'Bearer wrong' } });
    assert.equal(unauthorised.status, 401);
  });
});
