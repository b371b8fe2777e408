// The semantic index against the workspace's real trust. In the usual run the folder is trusted and this
// checks that the workspace's own `cadenza.index.mode` counts there; run with
//   HARNESS_WORKSPACE_TRUST=untrusted MOCHA_GREP="real workspace trust" node test/harness/runIntegration.mjs
// and it checks, in VS Code's real Restricted Mode, that a cloned repository's .vscode/settings.json cannot
// start indexing (a restricted setting), and that even the user's own "auto" waits for Rebuild Index.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

suite('Index: the real workspace trust', () => {
  const emulator = useEmulator();

  test('a workspace cannot switch automatic indexing on; in Restricted Mode nothing is indexed until the user asks', async () => {
    const api = await cadenzaApi();
    const trusted = vscode.workspace.isTrusted;
    console.log(`[index] workspace trusted: ${trusted}`);
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const settingsFile = path.join(root, '.vscode', 'settings.json');
    const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('cadenza.index');
    const embeddings = (): number => emulator().requests.filter((request) => request.path === '/v1/embeddings').length;
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    const previous = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    // What a cloned repository carries: written as a file, the way it arrives.
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    // debounceMs is an ordinary setting: once it reads 1234, VS Code has read the file (in Restricted
    // Mode a restricted setting's workspace value is hidden even from inspect()).
    fs.writeFileSync(settingsFile, JSON.stringify({ 'cadenza.index.mode': 'auto', 'cadenza.index.debounceMs': 1234 }));
    try {
      await waitFor(() => config().get<number>('debounceMs') === 1234, 'VS Code to read the workspace settings');
      await api.index.whenSettled();
      if (trusted) {
        assert.equal(config().get<string>('mode'), 'auto');
        return;
      }
      assert.equal(config().get<string>('mode'), 'ask', 'in Restricted Mode the workspace value of a restricted setting does not count');
      // Even the user's own "auto" does not send an untrusted workspace's files unasked.
      await config().update('mode', 'auto', vscode.ConfigurationTarget.Global);
      await api.index.whenSettled();
      const before = embeddings();
      await api.index.start();
      assert.equal(embeddings(), before, 'the index was built without the user asking');
      assert.equal((await api.index.stats())?.lastRun, undefined);
      // The user's explicit action does build it.
      const result = await vscode.commands.executeCommand<{ status: string } | undefined>('cadenza.index.rebuild');
      assert.equal(result?.status, 'complete', JSON.stringify(result));
      assert.ok(embeddings() > before);
    } finally {
      if (previous === undefined) fs.rmSync(settingsFile, { force: true });
      else fs.writeFileSync(settingsFile, previous);
      await config().update('mode', undefined, vscode.ConfigurationTarget.Global);
      await api.index.whenSettled();
      await vscode.commands.executeCommand('cadenza.clearApiKey');
    }
  });
});
