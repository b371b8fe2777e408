// The extension's exported API: the whole object graph (chat, agent, approval policy, trust override) is
// for the integration tests only; an installed Cadenza gives other extensions a read-only search, so no
// extension can switch approvals off or lift Restricted Mode through it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { exportedApi } from '../../src/host/api';
import { cadenzaApi } from './helpers';

/** Every property name reachable from `root` (own and inherited, through objects and functions). */
function reachableNames(root: unknown, maxDepth = 8): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value) || depth > maxDepth) return;
    if (value === Object.prototype || value === Function.prototype) return;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'string') names.add(key);
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) visit(descriptor.value, depth + 1);
    }
    visit(Reflect.getPrototypeOf(value), depth + 1);
  };
  visit(root, 0);
  return names;
}

suite('Extension API', () => {
  test('other extensions get only a read-only search: no approval policy, trust override, chat or agent', async () => {
    const api = await cadenzaApi();
    // The suites run in VS Code's test mode, where the full API (with its test hooks) is returned.
    assert.equal(typeof api.agent.setApprovalPolicy, 'function');
    assert.equal(exportedApi(vscode.ExtensionMode.Test, api), api);
    for (const mode of [vscode.ExtensionMode.Production, vscode.ExtensionMode.Development]) {
      const exported = exportedApi(mode, api);
      assert.deepEqual(Object.keys(exported), ['search']);
      assert.ok(Object.isFrozen(exported));
      const names = reachableNames(exported);
      for (const hook of ['setApprovalPolicy', 'overrideTrust', 'setPolicy', 'approvals', 'agent', 'chat', 'port', 'runInTerminal']) {
        assert.equal(names.has(hook), false, `${hook} is reachable from the API of mode ${mode}`);
      }
    }
  });
});
