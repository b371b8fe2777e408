// The semantic index against the workspace's real trust. In the usual run the folder is trusted and this
// checks that the workspace's own `cadenza.index.mode` counts there; run with
//   HARNESS_WORKSPACE_TRUST=untrusted MOCHA_GREP="real workspace trust" node test/support/harness/runIntegration.mjs
// and it checks, in VS Code's real Restricted Mode, that a cloned repository's .vscode/settings.json cannot
// start indexing (a restricted setting), that even the user's own "auto" waits for Rebuild Index, and that
// the team index's database is not contacted until the folder is trusted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
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
        // VS Code applies the workspace's value; Cadenza does not let it skip the question (the
        // "Workspace settings" suite shows it still asks).
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

  test("the team index's database is contacted only for the user's repository setting, and only in a trusted workspace", async function () {
    this.timeout(60_000);
    const api = await cadenzaApi();
    const trusted = vscode.workspace.isTrusted;
    // Stands in for PostgreSQL: counts the connections made to it and closes each.
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    assert.ok(address && typeof address === 'object');
    const team = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('cadenza.index.team');
    const teamKind = (): string | undefined => api.index.teamStatus?.kind;
    // What reaches the team index: the look-up at start and after a settings change, and a search.
    const lookUp = async (): Promise<void> => {
      await api.index.whenSettled();
      await api.index.refreshTeam();
      await vscode.commands.executeCommand('cadenza.search', 'greeting');
    };
    try {
      assert.equal(
        await vscode.commands.executeCommand('cadenza.index.setTeamConnection', `postgresql://reader@127.0.0.1:${address.port}/cadenza?sslmode=disable`),
        true,
      );
      // A repository's settings naming a team repository: ignored, trusted or not.
      await team().update('repository', 'acme/shop', vscode.ConfigurationTarget.Workspace);
      await lookUp();
      assert.equal(connections, 0, "a workspace's cadenza.index.team.repository reached the database");
      assert.equal(teamKind(), undefined);
      await team().update('repository', undefined, vscode.ConfigurationTarget.Workspace);
      // The user's own setting: used once the folder is trusted, never before.
      await team().update('repository', 'acme/shop', vscode.ConfigurationTarget.Global);
      // With the user's team repository start() looks the team index up (and asks nothing).
      await api.index.start();
      await lookUp();
      if (trusted) {
        assert.ok(connections > 0, "a trusted workspace uses the user's team index");
        assert.equal(teamKind(), 'fallback', 'the stand-in is no database: the local index answers');
      } else {
        assert.equal(connections, 0, 'the team database was contacted in Restricted Mode');
        assert.equal(teamKind(), undefined);
      }
    } finally {
      await team().update('repository', undefined, vscode.ConfigurationTarget.Workspace);
      await team().update('repository', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('cadenza.index.setTeamConnection', '');
      await api.index.whenSettled();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
