import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cadenzaApi, cadenzaExtension, extensionId, waitFor } from './helpers';

suite('Activation', () => {
  test('the extension is installed in this VS Code, loaded from the repository', () => {
    const extension = cadenzaExtension();
    assert.equal(extension.id, extensionId);
    const manifest = extension.packageJSON as { name?: string; publisher?: string; main?: string };
    assert.equal(manifest.name, 'cadenza');
    assert.equal(manifest.publisher, 'cadenza');
    assert.equal(manifest.main, './dist/extension.js');
  });

  test('it activates by itself (onStartupFinished), without anyone calling activate()', async () => {
    await waitFor(() => cadenzaExtension().isActive, 'the extension to become active', 30_000);
  });

  test('activate() returned the API: the chat view provider', async () => {
    const api = await cadenzaApi();
    assert.ok(api, 'activate() returned nothing');
    assert.equal(typeof api.chatView.isResolved, 'boolean');
    assert.equal(typeof api.chatView.onDidResolve, 'function');
    assert.equal(cadenzaExtension().exports, api, 'exports and activate() disagree');
  });

  test('it runs in a real VS Code 1.x extension host on Node ≥ 20', () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    const major = Number(process.versions.node.split('.')[0]);
    assert.ok(major >= 20, `extension host Node ${process.version}`);
  });
});
