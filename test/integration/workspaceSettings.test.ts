// A workspace's settings may make Cadenza do or spend less, never more (src/host/settingRules.ts): what a
// cloned repository's .vscode/settings.json asks for, and what reaches the service (the emulator records
// every request) in the real extension host. The values are written to the workspace's settings the way
// VS Code writes them, and removed afterwards.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CompletionDecision } from '../../src/host/completions/completionService';
import type { RunningEmulator } from '../support/emulator/emulator';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

const { Global, Workspace } = vscode.ConfigurationTarget;

suite('Workspace settings may only lighten what Cadenza does', () => {
  const emulator = useEmulator();
  const completions = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('cadenza.completions');
  const chatRequests = (): RunningEmulator['requests'] => emulator().requests.filter((request) => request.path === '/v1/chat/completions');
  const embeddings = (): number => emulator().requests.filter((request) => request.path === '/v1/embeddings').length;
  let samples = '';

  suiteSetup(async () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the fixture workspace is open');
    samples = path.join(root, 'workspace-settings-samples');
    fs.mkdirSync(samples, { recursive: true });
    fs.writeFileSync(path.join(samples, 'area.js'), 'function area(radius) {\n  return \n}\n');
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await vscode.workspace.getConfiguration('editor').update('inlineSuggest.enabled', true, Global);
  });

  suiteTeardown(async () => {
    for (const key of ['enabled', 'model', 'dailyTokenLimit']) {
      await completions().update(key, undefined, Workspace);
      await completions().update(key, undefined, Global);
    }
    await vscode.workspace.getConfiguration('cadenza.index').update('mode', undefined, Workspace);
    await vscode.workspace.getConfiguration('editor').update('inlineSuggest.enabled', undefined, Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    fs.rmSync(samples, { recursive: true, force: true });
  });

  test('a workspace cannot switch completions on, choose their model or lift their daily limit; it can lower it', async function () {
    this.timeout(60_000);
    const api = await cadenzaApi();
    const decisions: CompletionDecision[] = [];
    const subscription = api.completions.onDidDecide((decision) => decisions.push(decision));
    try {
      emulator().reset();
      // The repository asks for completions from the largest model, with no daily limit.
      await completions().update('enabled', true, Workspace);
      await completions().update('model', 'Meta-Llama-3.3-70B-Instruct', Workspace);
      await completions().update('dailyTokenLimit', 0, Workspace);
      assert.equal(completions().inspect('enabled')?.workspaceValue, true, 'the workspace value is written');
      assert.equal(api.completions.state().kind, 'off', 'the user never turned completions on');
      assert.match(api.statusBars.completions.tooltipText(), /inline completions:\*\* off/);
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(samples, 'area.js')));
      const editor = await vscode.window.showTextDocument(document, { preview: false });
      editor.selection = new vscode.Selection(1, 9, 1, 9);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      assert.equal(decisions.length, 0, `no completion was even considered: ${JSON.stringify(decisions)}`);

      // The user turns them on: now they run, from the user's model (empty: the smallest), never the workspace's.
      await completions().update('enabled', true, Global);
      await waitFor(
        () => api.completions.state().kind === 'on',
        () => `completions on (state ${JSON.stringify(api.completions.state())})`,
      );
      emulator().scriptChat({ content: 'Math.PI * radius ** 2;' });
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await waitFor(
        () => decisions.some((decision) => decision.outcome === 'suggested'),
        () => `a suggestion (decisions: ${JSON.stringify(decisions)})`,
      );
      const sent = chatRequests();
      assert.ok(sent.length >= 1, 'the request reached the service once the user turned completions on');
      for (const request of sent) assert.equal((request.body as { model: string }).model, 'Meta-Llama-3.1-8B-Instruct', 'the workspace chose the model');

      // Today's usage is now above one token. The user's limit of 1 stands against the workspace's "no limit" (0)...
      assert.ok(api.completions.usageToday().promptTokens > 0);
      await completions().update('dailyTokenLimit', 1, Global);
      await waitFor(
        () => api.completions.state().kind === 'capped',
        () =>
          `completions paused by the user's limit (limit ${api.completions.dailyLimit()}, state ${JSON.stringify(api.completions.state())}): the workspace lifted it`,
      );
      // ...and a workspace's lower limit counts against the user's default of a million.
      await completions().update('dailyTokenLimit', undefined, Global);
      await waitFor(() => api.completions.dailyLimit() === 1_000_000, "the user's limit gone");
      await completions().update('dailyTokenLimit', 1, Workspace);
      await waitFor(
        () => api.completions.dailyLimit() === 1 && api.completions.state().kind === 'capped',
        () => `the workspace's lower limit honoured (limit ${api.completions.dailyLimit()}, state ${JSON.stringify(api.completions.state())})`,
      );
    } finally {
      subscription.dispose();
      for (const key of ['enabled', 'model', 'dailyTokenLimit']) {
        await completions().update(key, undefined, Workspace);
        await completions().update(key, undefined, Global);
      }
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  test('Toggle Inline Completions turns them on over a workspace\'s "off", in the user\'s settings', async () => {
    const api = await cadenzaApi();
    try {
      await completions().update('enabled', false, Workspace);
      assert.equal(await vscode.commands.executeCommand('cadenza.toggleCompletions'), true);
      assert.equal(completions().inspect('enabled')?.globalValue, true);
      assert.equal(completions().inspect('enabled')?.workspaceValue, undefined, 'the workspace\'s "off" that would keep them off is gone');
      await waitFor(
        () => api.completions.state().kind === 'on',
        () => `completions on (state ${JSON.stringify(api.completions.state())})`,
      );
      // Off again, where the user switched them on.
      assert.equal(await vscode.commands.executeCommand('cadenza.toggleCompletions'), false);
      assert.equal(completions().inspect('enabled')?.globalValue, false);
    } finally {
      await completions().update('enabled', undefined, Workspace);
      await completions().update('enabled', undefined, Global);
    }
  });

  test('a workspace\'s cadenza.index.mode "auto" still asks before the first build', async function () {
    this.timeout(60_000);
    const api = await cadenzaApi();
    const index = vscode.workspace.getConfiguration('cadenza.index');
    // The question not asked yet in this workspace (earlier suites may have answered it).
    const before = await api.index.answerConsent(undefined);
    try {
      await index.update('mode', 'auto', Workspace);
      await api.index.whenSettled();
      emulator().reset();
      let settled = false;
      const started = api.index.start().finally(() => {
        settled = true;
      });
      // The question is a notification; closing it is "not now". Closed until start() returns: with the
      // workspace's "auto" counted it would return by itself after building.
      await waitFor(
        async () => {
          await vscode.commands.executeCommand('notifications.clearAll');
          return settled;
        },
        'start() to return once its question was closed',
        30_000,
      );
      await started;
      assert.equal(embeddings(), 0, 'the index was built without asking: the workspace\'s "auto" counted');
      assert.equal(await api.index.answerConsent(undefined), false, 'the question was asked, and closing it answered "not now"');
    } finally {
      await index.update('mode', undefined, Workspace);
      await api.index.answerConsent(before);
      await api.index.whenSettled();
    }
  });
});
