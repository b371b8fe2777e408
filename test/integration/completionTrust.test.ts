// Inline completions against the workspace's real trust: a completion sends the file's text, so in
// Restricted Mode none is asked for unless the user setting cadenza.completions.enableInRestrictedMode
// allows it. In the usual run the folder is trusted and this checks that requests flow without that
// setting; the Restricted Mode tier runs it with
//   HARNESS_WORKSPACE_TRUST=untrusted MOCHA_GREP="real workspace trust" node test/support/harness/runIntegration.mjs
// where the folder opens untrusted and it checks that nothing is sent until the setting is on.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { requestsCarrying, setUserSetting, triggerAt, workspaceRoot } from './completionHelpers';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

suite('Inline completions: the real workspace trust', () => {
  const emulator = useEmulator();
  let file = '';

  suiteSetup(async () => {
    await cadenzaApi();
    file = path.join(workspaceRoot(), 'trustedCircle.js');
    fs.writeFileSync(file, 'function trustedCircle(radius) {\n  return \n}\n');
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await setUserSetting('editor', 'inlineSuggest.enabled', true);
    assert.equal(await vscode.commands.executeCommand('cadenza.toggleCompletions', true), true);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.toggleCompletions', false);
    await setUserSetting('cadenza.completions', 'enabled', undefined);
    await setUserSetting('cadenza.completions', 'enableInRestrictedMode', undefined);
    await setUserSetting('editor', 'inlineSuggest.enabled', undefined);
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    fs.rmSync(file, { force: true });
  });

  test('Restricted Mode sends no file text unless enableInRestrictedMode is on; a trusted workspace sends without it', async function () {
    this.timeout(60_000);
    const api = await cadenzaApi();
    const trusted = vscode.workspace.isTrusted;
    console.log(`[completions] workspace trusted: ${trusted}`);
    // The Restricted Mode tier must really be untrusted, or the trusted branch would pass in its place.
    const expectUntrusted = process.env['HARNESS_WORKSPACE_TRUST'] === 'untrusted';
    assert.equal(
      trusted,
      !expectUntrusted,
      expectUntrusted ? 'the Restricted Mode run opened a trusted workspace' : 'the workspace should be trusted in this run',
    );
    const sent = (): number => requestsCarrying(emulator(), 'trustedCircle').length;
    if (trusted) {
      assert.equal(api.completions.state().kind, 'on', JSON.stringify(api.completions.state()));
      await triggerAt(file, 1, 9);
      await waitFor(() => sent() > 0, 'the completion request in a trusted workspace');
      return;
    }
    // A provider of the test's own, asked alongside Cadenza's: it shows that VS Code did ask for ghost text here.
    const asked: string[] = [];
    const witness = vscode.languages.registerInlineCompletionItemProvider(
      { pattern: '**/trustedCircle.js' },
      {
        provideInlineCompletionItems: (document) => {
          asked.push(document.uri.toString());
          return undefined;
        },
      },
    );
    try {
      const uri = await triggerAt(file, 1, 9);
      await waitFor(() => asked.includes(uri), 'VS Code to ask the inline-completion providers');
      assert.equal(sent(), 0, "a completion request carried the file's text in Restricted Mode");
      assert.equal(api.completions.state().kind, 'restricted', `the status bar says why: ${JSON.stringify(api.completions.state())}`);
      await setUserSetting('cadenza.completions', 'enableInRestrictedMode', true);
      assert.equal(api.completions.state().kind, 'on', JSON.stringify(api.completions.state()));
      await triggerAt(file, 1, 9);
      await waitFor(() => sent() > 0, 'the completion request once the user allowed Restricted Mode');
    } finally {
      witness.dispose();
    }
  });
});
