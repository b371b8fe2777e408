// Inline completions in the real extension host against the emulator: ghost text triggered and accepted
// through VS Code's own inline-suggest commands, a keystroke cancelling a request mid-stream (the emulator
// sees the connection closed early), and ignored or secret files sending nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexRunResult } from '../../src/core/index/indexRun';
import type { CompletionDecision } from '../../src/host/completions/completionService';
import { chatRequests, openAt, workspaceRoot } from './completionHelpers';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

const folderName = 'completion-samples';

suite('Inline completions', () => {
  const emulator = useEmulator();
  const decisions: CompletionDecision[] = [];
  let subscription: vscode.Disposable | undefined;
  let samples = '';

  suiteSetup(async () => {
    const api = await cadenzaApi();
    subscription = api.completions.onDidDecide((decision) => decisions.push({ ...decision, at: Date.now() } as CompletionDecision));
    samples = path.join(workspaceRoot(), folderName);
    fs.mkdirSync(samples, { recursive: true });
    fs.writeFileSync(path.join(samples, 'area.js'), 'function area(radius) {\n  return \n}\n');
    fs.writeFileSync(path.join(samples, 'cancel.js'), 'function volume(radius) {\n  return \n}\n');
    fs.writeFileSync(path.join(samples, '.gitignore'), 'generated.js\n');
    fs.writeFileSync(path.join(samples, 'generated.js'), 'function ignored() {\n  return \n}\n');
    fs.writeFileSync(path.join(samples, '.env'), 'API_KEY=\n');
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await vscode.workspace.getConfiguration('editor').update('inlineSuggest.enabled', true, vscode.ConfigurationTarget.Global);
    assert.equal(api.completions.state().kind, 'off', 'completions are off by default');
    assert.equal(await vscode.commands.executeCommand('cadenza.toggleCompletions'), true);
    await waitFor(
      () => api.completions.state().kind === 'on',
      () => `completions on (state ${JSON.stringify(api.completions.state())})`,
    );
  });

  setup(() => {
    emulator().reset();
    decisions.length = 0;
  });

  suiteTeardown(async () => {
    subscription?.dispose();
    await vscode.commands.executeCommand('cadenza.toggleCompletions', false);
    await vscode.workspace.getConfiguration('cadenza.completions').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('editor').update('inlineSuggest.enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    fs.rmSync(samples, { recursive: true, force: true });
  });

  test('a suggestion appears as ghost text from the smallest chat model, and accepting it inserts it', async () => {
    const file = path.join(samples, 'area.js');
    const editor = await openAt(file, 1, 9);
    // The model answers the way chat models do: a fence, the line it was given, and code that already follows.
    emulator().scriptChat({ content: '```javascript\n  return Math.PI * radius ** 2;\n}\n```' });
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await waitFor(
      () => decisions.some((d) => d.uri === editor.document.uri.toString() && d.outcome === 'suggested'),
      () => `a suggestion (decisions: ${JSON.stringify(decisions)})`,
    );
    assert.equal(decisions.find((d) => d.outcome === 'suggested')?.text, 'Math.PI * radius ** 2;');
    const sent = chatRequests(emulator());
    assert.equal(sent.length, 1);
    const body = sent[0]?.body as { model: string; stream: boolean; messages: { role: string; content: string }[] };
    assert.equal(body.model, 'Meta-Llama-3.1-8B-Instruct', 'the smallest general chat model, not a reasoning one');
    assert.equal(body.stream, true);
    const prompt = body.messages.at(-1)?.content ?? '';
    assert.match(prompt, /File completion-samples\/area\.js \(javascript\)/);
    // The code after the cursor, then the code before it, ending at the cursor (prompt.ts).
    assert.match(prompt, /the code after the cursor:\n```javascript\n\}\n/);
    assert.ok(prompt.endsWith('```javascript\nfunction area(radius) {\n  return '), `ends at the cursor:\n${prompt}`);
    await waitFor(
      async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
        return editor.document.getText().includes('return Math.PI');
      },
      () => `the suggestion accepted (document: ${JSON.stringify(editor.document.getText())})`,
    );
    assert.equal(editor.document.getText(), 'function area(radius) {\n  return Math.PI * radius ** 2;\n}\n');
    const usage = (await cadenzaApi()).completions.usageToday();
    assert.ok(usage.requests >= 1 && usage.promptTokens > 0, `usage counted apart from chat: ${JSON.stringify(usage)}`);
    // Both status bars say it, from the same ledger: the completions item, and a line of its own in chat's.
    const { completions, statusBars } = await cadenzaApi();
    const said = (): string => {
      const now = completions.usageToday();
      const count = (value: number): string => value.toLocaleString('en-US');
      return `${now.requests} request${now.requests === 1 ? '' : 's'}, ${count(now.promptTokens + now.completionTokens)} tokens (${count(now.promptTokens)} prompt, ${count(now.completionTokens)} answer)`;
    };
    await waitFor(
      () => statusBars.completions.tooltipText().includes(`Today (apart from chat): ${said()}`),
      () => `the completions tooltip: ${statusBars.completions.tooltipText()} (usage ${said()})`,
    );
    await waitFor(
      () => statusBars.chat.tooltipText().includes(`Inline completions today (counted apart from chat): ${said()}`),
      () => `chat's tooltip: ${statusBars.chat.tooltipText()} (usage ${said()})`,
    );
    assert.match(statusBars.chat.tooltipText(), /This session's chat: \d+ answers?, \$[\d.]+\./, "chat's own spend stays on its own line");
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('a keystroke that departs from the streaming answer cancels the request: the emulator sees the client close', async function () {
    this.timeout(60_000);
    const api = await cadenzaApi();
    const before = api.completions.stats().cancelled;
    const file = path.join(samples, 'cancel.js');
    const editor = await openAt(file, 1, 9);
    emulator().setChunkDelay(300);
    emulator().scriptChat({ content: 'Math.PI * radius * radius * radius * 4 / 3;', chunkCount: 20 });
    // Not awaited: the trigger command settles only when the provider has answered.
    const triggered = vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    // Requests for cancel.js itself, by the prompt's line naming the cursor's file: a late request for area.js
    // (VS Code asks again after the revert above) carries cancel.js too, as an open editor's snippet.
    const forVolume = (): ReturnType<typeof chatRequests> =>
      chatRequests(emulator()).filter((request) => JSON.stringify(request.body).includes('File completion-samples/cancel.js (javascript)'));
    await waitFor(
      () => forVolume().length === 1,
      () => `the completion request to reach the emulator (decisions: ${JSON.stringify(decisions)}, requests: ${chatRequests(emulator()).length})`,
    );
    const seen = Date.now();
    // A keystroke at the cursor that the streaming answer ("Math…") is not writing.
    await editor.edit((edit) => edit.insert(new vscode.Position(1, 9), 'x'));
    const edited = Date.now();
    await waitFor(
      () => forVolume()[0]?.clientClosedEarly === true,
      () =>
        `the first request closed early (requests: ${JSON.stringify(forVolume().map((r) => r.clientClosedEarly))}, request seen at ${seen}, edited at ${edited}, decisions: ${JSON.stringify(decisions)})`,
    );
    assert.ok(
      api.completions.stats().cancelled > before,
      `counted as cancelled (before ${before}, now ${JSON.stringify(api.completions.stats())}, decisions ${JSON.stringify(decisions)})`,
    );
    assert.ok(editor.document.getText().includes('return x'));
    await triggered;
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test("with a local index, the request carries the index's chunk that defines the name at the cursor, never a refused file's", async function () {
    this.timeout(90_000);
    const geometry = 'export function circumferenceOfWheel(radius) {\n  const diameter = radius * 2;\n  return Math.PI * diameter;\n}\n';
    fs.writeFileSync(path.join(samples, 'wheel.js'), geometry);
    // A secret by its name: neither indexed nor sent (the index and the completion gate share one list).
    fs.writeFileSync(path.join(samples, 'credentials.json'), '{ "circumferenceOfWheel": "token-1234-secret" }\n');
    fs.writeFileSync(path.join(samples, 'trip.js'), 'function tripLength(radius, turns) {\n  return turns * circumferenceOfWheel(\n}\n');
    try {
      const built = await vscode.commands.executeCommand<IndexRunResult>('cadenza.index.rebuild', { fromScratch: true });
      assert.equal(built.status, 'complete', JSON.stringify(built));
      const api = await cadenzaApi();
      const hits = await api.index.keywordSearch('circumferenceOfWheel', 10);
      assert.ok(
        hits.some((hit) => hit.path.endsWith('wheel.js')) && !hits.some((hit) => hit.path.endsWith('credentials.json')),
        `the index holds wheel.js and not the secret (hits: ${JSON.stringify(hits.map((hit) => hit.path))})`,
      );
      emulator().reset();
      decisions.length = 0;
      const editor = await openAt(path.join(samples, 'trip.js'), 1, 38);
      emulator().scriptChat({ content: 'radius);' });
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await waitFor(
        () => decisions.some((d) => d.uri === editor.document.uri.toString() && d.outcome === 'suggested'),
        () => `a suggestion (decisions: ${JSON.stringify(decisions)})`,
      );
      const sent = chatRequests(emulator()).filter((request) => JSON.stringify(request.body).includes('function tripLength'));
      // VS Code may ask twice for the same position (opening the editor, then the trigger, the first
      // cancelled): every request must carry the index's chunk and nothing of the refused file.
      assert.ok(sent.length >= 1, 'no completion request');
      for (const request of sent) {
        const prompt = (request.body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? '';
        assert.match(prompt, /From completion-samples\/wheel\.js:\n```\n[^`]*const diameter = radius \* 2;/, `the index chunk is in the prompt:\n${prompt}`);
        assert.ok(prompt.indexOf('wheel.js') < prompt.indexOf('the code after the cursor'), "the chunk comes before the cursor's file");
        assert.ok(!prompt.includes('token-1234-secret') && !prompt.includes('credentials.json'), 'nothing of the refused file');
      }
      assert.equal(
        emulator().requests.filter((request) => request.path === '/v1/embeddings' && JSON.stringify(request.body).includes('tripLength')).length,
        0,
        'the lookup embeds nothing: it costs no request',
      );
    } finally {
      for (const name of ['wheel.js', 'credentials.json', 'trip.js']) fs.rmSync(path.join(samples, name), { force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  test('a file outside the workspace folders, or a link to one, sends nothing and lends no context unless the user allows it', async function () {
    this.timeout(60_000);
    const outside = path.join(path.dirname(workspaceRoot()), 'completion-outside');
    fs.mkdirSync(outside, { recursive: true });
    const profile = path.join(outside, 'profile.js');
    fs.writeFileSync(profile, 'function ocelotProfile() {\n  return \n}\n');
    const link = path.join(samples, 'linked-profile.js');
    fs.symlinkSync(profile, link, 'file');
    const settings = vscode.workspace.getConfiguration('cadenza.completions');
    try {
      for (const file of [profile, link]) {
        const editor = await openAt(file, 1, 9);
        await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
        await waitFor(
          () => decisions.some((d) => d.uri === editor.document.uri.toString()),
          () => `a decision for ${file} (decisions: ${JSON.stringify(decisions)})`,
        );
        const mine = decisions.filter((d) => d.uri === editor.document.uri.toString());
        assert.ok(
          mine.every((d) => d.outcome === 'skipped' && d.reason === 'outside'),
          `${file}: ${JSON.stringify(mine)}`,
        );
      }
      assert.equal(chatRequests(emulator()).length, 0, 'a request was sent for a file outside the workspace');
      // Visible beside a workspace file, the outside file lends it no context either.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.writeFileSync(path.join(samples, 'sidecar.js'), 'function sidecarWidth(frame) {\n  return \n}\n');
      await vscode.window.showTextDocument(vscode.Uri.file(profile), { viewColumn: vscode.ViewColumn.Two, preview: false });
      const sidecar = await vscode.window.showTextDocument(vscode.Uri.file(path.join(samples, 'sidecar.js')), {
        viewColumn: vscode.ViewColumn.One,
        preview: false,
      });
      sidecar.selection = new vscode.Selection(1, 9, 1, 9);
      assert.ok(
        vscode.window.visibleTextEditors.some((editor) => editor.document.uri.fsPath === profile),
        'the outside file is visible',
      );
      emulator().scriptChat({ content: 'frame.width;' });
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await waitFor(
        () => chatRequests(emulator()).some((request) => JSON.stringify(request.body).includes('sidecarWidth')),
        () => `a request for sidecar.js (decisions: ${JSON.stringify(decisions)})`,
      );
      assert.ok(
        chatRequests(emulator()).every((request) => !JSON.stringify(request.body).includes('ocelotProfile')),
        'the outside file was sent as context',
      );
      // The user may allow it.
      await settings.update('allowOutsideWorkspace', true, vscode.ConfigurationTarget.Global);
      emulator().reset();
      decisions.length = 0;
      const editor = await openAt(profile, 1, 9);
      emulator().scriptChat({ content: '42;' });
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await waitFor(
        () => decisions.some((d) => d.uri === editor.document.uri.toString() && d.outcome === 'suggested'),
        () => `a suggestion once allowed (decisions: ${JSON.stringify(decisions)})`,
      );
      assert.ok(chatRequests(emulator()).some((request) => JSON.stringify(request.body).includes('ocelotProfile')));
    } finally {
      await settings.update('allowOutsideWorkspace', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const file of [link, path.join(samples, 'sidecar.js')]) fs.rmSync(file, { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a .env file and a git-ignored file send nothing to the service', async () => {
    for (const [name, reason] of [
      ['.env', 'secret'],
      ['generated.js', 'ignored'],
    ] as const) {
      const editor = await openAt(path.join(samples, name), name === '.env' ? 0 : 1, name === '.env' ? 8 : 9);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await waitFor(
        () => decisions.some((d) => d.uri === editor.document.uri.toString()),
        () => `a decision for ${name} (decisions: ${JSON.stringify(decisions)})`,
      );
      const mine = decisions.filter((d) => d.uri === editor.document.uri.toString());
      assert.ok(
        mine.every((d) => d.outcome === 'skipped' && d.reason === reason),
        `${name}: ${JSON.stringify(mine)}`,
      );
    }
    const leaked = chatRequests(emulator()).filter((request) => /API_KEY|function ignored/.test(JSON.stringify(request.body)));
    assert.equal(leaked.length, 0, 'nothing of either file reached the service');
  });
});
