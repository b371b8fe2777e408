// The controls that stop inline completions, each shown by what reaches the service: while Snooze, a
// disabled language or a spent daily limit covers a file, asking for ghost text there sends nothing to the
// emulator; once it is lifted (Resume, the snooze's end, the language allowed again, no limit), the same
// file's requests flow. Settings are changed in the user settings, the target every reader honours.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CompletionDecision, CompletionState } from '../../src/host/completions/completionService';
import { requestsCarrying, setUserSetting, triggerAt, workspaceRoot } from './completionHelpers';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

const folderName = 'completion-controls';

suite('Inline completions: snooze, disabled languages and the daily limit stop requests', () => {
  const emulator = useEmulator();
  const decisions: CompletionDecision[] = [];
  const states: CompletionState[] = [];
  const subscriptions: vscode.Disposable[] = [];
  let samples = '';

  /** A JavaScript file whose function name (`marker`) is in every request made for it; the cursor goes after `return `. */
  const jsSample = (marker: string): string => {
    const file = path.join(samples, `${marker}.js`);
    fs.writeFileSync(file, `function ${marker}(radius) {\n  return \n}\n`);
    return file;
  };

  /** Asks for ghost text after `return ` in `file` and checks that nothing of it reached the service, and why. */
  async function expectNothingSent(file: string, marker: string, reason: string): Promise<void> {
    const uri = await triggerAt(file, 1, 9);
    await waitFor(
      () => decisions.some((decision) => decision.uri === uri),
      () => `the provider's decision for ${marker} (decisions: ${JSON.stringify(decisions)})`,
    );
    assert.deepEqual(
      requestsCarrying(emulator(), marker).map((request) => request.path),
      [],
      `a request for ${marker} reached the service`,
    );
    const mine = decisions.filter((decision) => decision.uri === uri);
    assert.ok(
      mine.every((decision) => decision.outcome === 'skipped' && decision.reason === reason),
      `${marker}: ${JSON.stringify(mine)}`,
    );
  }

  /** Asks for ghost text at `line`:`character` in `file` and waits for its request to reach the service. */
  async function expectSent(file: string, marker: string, line = 1, character = 9): Promise<void> {
    const uri = await triggerAt(file, line, character);
    await waitFor(
      () => requestsCarrying(emulator(), marker).length > 0,
      () => `a request for ${marker} (decisions: ${JSON.stringify(decisions.filter((decision) => decision.uri === uri))})`,
    );
    await waitFor(
      () => decisions.some((decision) => decision.uri === uri && decision.outcome !== 'skipped'),
      () => `the provider's answer for ${marker} (decisions: ${JSON.stringify(decisions)})`,
    );
  }

  suiteSetup(async () => {
    const api = await cadenzaApi();
    subscriptions.push(
      api.completions.onDidDecide((decision) => decisions.push(decision)),
      api.completions.onDidChangeState((state) => states.push(state)),
    );
    samples = path.join(workspaceRoot(), folderName);
    fs.mkdirSync(samples, { recursive: true });
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await setUserSetting('editor', 'inlineSuggest.enabled', true);
    assert.equal(await vscode.commands.executeCommand('cadenza.toggleCompletions', true), true);
    await waitFor(
      () => api.completions.state().kind === 'on',
      () => `completions on (state ${JSON.stringify(api.completions.state())})`,
    );
  });

  setup(() => {
    emulator().reset();
    decisions.length = 0;
    states.length = 0;
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    for (const subscription of subscriptions.splice(0)) subscription.dispose();
    await vscode.commands.executeCommand('cadenza.snoozeCompletions', 0);
    await vscode.commands.executeCommand('cadenza.toggleCompletions', false);
    await setUserSetting('cadenza.completions', 'enabled', undefined);
    await setUserSetting('cadenza.completions', 'disabledLanguages', undefined);
    await setUserSetting('cadenza.completions', 'dailyTokenLimit', undefined);
    await setUserSetting('editor', 'inlineSuggest.enabled', undefined);
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    fs.rmSync(samples, { recursive: true, force: true });
  });

  test('Snooze for 10 minutes sends nothing; Resume now sends again', async () => {
    const api = await cadenzaApi();
    const file = jsSample('snoozedCircle');
    const before = Date.now();
    await vscode.commands.executeCommand('cadenza.snoozeCompletions', 10);
    const after = Date.now();
    await expectNothingSent(file, 'snoozedCircle', 'snoozed');
    const state = api.completions.state();
    assert.equal(state.kind, 'snoozed', JSON.stringify(state));
    assert.ok(
      state.kind === 'snoozed' && state.until >= before + 600_000 && state.until <= after + 600_000,
      `snoozed for the 10 minutes asked (until ${state.kind === 'snoozed' ? state.until : '-'}, asked between ${before} and ${after})`,
    );
    await vscode.commands.executeCommand('cadenza.snoozeCompletions', 0);
    assert.equal(api.completions.state().kind, 'on');
    await expectSent(file, 'snoozedCircle');
  });

  test('a snooze ends by itself when its time is up, and requests flow again', async () => {
    const api = await cadenzaApi();
    const file = jsSample('briefSnooze');
    // 0.02 minutes: the command takes any length, so the test waits a second, not minutes.
    await vscode.commands.executeCommand('cadenza.snoozeCompletions', 0.02);
    // What the status bar shows: snoozed, then on again without anyone resuming.
    const kinds = (): string[] => states.map((state) => state.kind);
    await waitFor(
      () => kinds().indexOf('snoozed') >= 0 && kinds().lastIndexOf('on') > kinds().indexOf('snoozed'),
      () => `snoozed, then on again by itself (states: ${kinds().join(', ')})`,
    );
    assert.equal(api.completions.state().kind, 'on');
    await expectSent(file, 'briefSnooze');
  });

  test('a language in disabledLanguages sends nothing while other languages do; removed, it sends again', async () => {
    const file = jsSample('disabledLanguage');
    const python = path.join(samples, 'allowedLanguage.py');
    fs.writeFileSync(python, 'def allowedLanguage(radius):\n    return \n');
    await setUserSetting('cadenza.completions', 'disabledLanguages', ['javascript']);
    await expectNothingSent(file, 'disabledLanguage', 'language');
    const document = await vscode.workspace.openTextDocument(python);
    assert.equal(document.languageId, 'python');
    await expectSent(python, 'allowedLanguage', 1, 11);
    await setUserSetting('cadenza.completions', 'disabledLanguages', undefined);
    await expectSent(file, 'disabledLanguage');
  });

  test("once today's tokens reach dailyTokenLimit nothing more is sent; with no limit (0) requests flow", async () => {
    const api = await cadenzaApi();
    const spent = (): number => api.completions.usageToday().promptTokens + api.completions.usageToday().completionTokens;
    // One token of budget left: the next request is allowed, and what it spends reaches the limit.
    const limit = spent() + 1;
    await setUserSetting('cadenza.completions', 'dailyTokenLimit', limit);
    assert.equal(api.completions.dailyLimit(), limit);
    await expectSent(jsSample('lastAllowed'), 'lastAllowed');
    await waitFor(
      () => spent() >= limit,
      () => `the request's tokens counted (spent ${spent()} of ${limit})`,
    );
    const overBudget = jsSample('overBudget');
    await expectNothingSent(overBudget, 'overBudget', 'capped');
    assert.equal(api.completions.state().kind, 'capped', 'the status bar says the limit is reached');
    await setUserSetting('cadenza.completions', 'dailyTokenLimit', 0);
    assert.equal(api.completions.state().kind, 'on');
    await expectSent(overBudget, 'overBudget');
  });
});
