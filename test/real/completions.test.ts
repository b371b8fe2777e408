// Inline completions in the real extension host against the REAL local model (Qwen2.5-Coder-1.5B on the
// stack's llama-server, test/real/run.mjs): an empty function body whose content is obvious is asked
// through VS Code's own inline-suggest commands, the ghost text is accepted, and the document is judged by
// what the code does (transpiled and run), not by a string of ours.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import * as vscode from 'vscode';
import type { CompletionDecision } from '../../src/host/completions/completionService';
import { cadenzaApi, waitFor } from '../integration/helpers';

/** An environment variable the tier sets; a missing one is a failure, never a skip. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: this suite runs inside the real-model tier (node test/real/run.mjs)`);
  return value;
}

/** Runs a TypeScript module's `add` export on two numbers (the module is transpiled, then evaluated). */
function callAdd(source: string, a: number, b: number): unknown {
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } });
  const exports: Record<string, unknown> = {};
  // The model's code, run on purpose to judge it.
  new Function('exports', outputText)(exports);
  const add = exports['add'];
  assert.equal(typeof add, 'function', 'the module still exports add');
  return (add as (x: number, y: number) => unknown)(a, b);
}

suite('Real models: inline completions', () => {
  const decisions: CompletionDecision[] = [];
  let subscription: vscode.Disposable | undefined;
  let folder = '';
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('cadenza');
  const global = vscode.ConfigurationTarget.Global;

  suiteSetup(async function () {
    this.timeout(120_000);
    const api = await cadenzaApi();
    assert.ok((JSON.parse(required('CADENZA_REAL_MODELS')) as { chat?: string }).chat, 'the tier names its chat model');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the fixture workspace is open');
    folder = path.join(root, 'realcompletion');
    fs.mkdirSync(folder, { recursive: true });
    subscription = api.completions.onDidDecide((decision) => decisions.push(decision));
    await config().update('baseUrl', required('CADENZA_REAL_CHAT_URL'), global);
    await config().update('requestTimeoutSeconds', 300, global);
    await vscode.commands.executeCommand('cadenza.setApiKey', 'local-stack-needs-no-key');
    await vscode.workspace.getConfiguration('editor').update('inlineSuggest.enabled', true, global);
    assert.equal(await vscode.commands.executeCommand('cadenza.toggleCompletions', true), true);
    await waitFor(
      () => api.completions.state().kind === 'on',
      () => `completions on (state ${JSON.stringify(api.completions.state())})`,
      60_000,
    );
  });

  suiteTeardown(async () => {
    subscription?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.toggleCompletions', false);
    await config().update('completions.enabled', undefined, global);
    for (const key of ['baseUrl', 'requestTimeoutSeconds']) await config().update(key, undefined, global);
    await vscode.workspace.getConfiguration('editor').update('inlineSuggest.enabled', undefined, global);
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    fs.rmSync(folder, { recursive: true, force: true });
  });

  test('the real chat model completes a trivial function body as ghost text, and the accepted code works', async function () {
    // Prompt processing and decoding on two shared cores: seconds idle, a minute or more under load.
    this.timeout(360_000);
    const api = await cadenzaApi();
    const before = 'export function add(a: number, b: number): number {\n  \n}\n';
    const file = path.join(folder, 'math.ts');
    fs.writeFileSync(file, before);
    assert.equal(callAdd(before, 2, 3), undefined, 'the empty body adds nothing yet');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    editor.selection = new vscode.Selection(1, 2, 1, 2);
    const requestsBefore = api.completions.stats().requests;
    decisions.length = 0;
    // Not awaited: the trigger settles only when the provider has answered.
    const triggered = vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    const mine = (): CompletionDecision[] => decisions.filter((d) => d.uri === document.uri.toString());
    await waitFor(
      () => mine().some((d) => d.outcome === 'suggested'),
      () => `a suggestion from the real model (decisions: ${JSON.stringify(mine())})`,
      300_000,
    );
    const suggested = mine().find((d) => d.outcome === 'suggested');
    assert.ok(api.completions.stats().requests > requestsBefore, 'the suggestion came from a request to the model, not a cache');
    console.log(`[realmodels] completion for add(a, b): ${JSON.stringify(suggested?.text)}`);
    await waitFor(
      async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
        return editor.document.getText() !== before;
      },
      () => `the suggestion ${JSON.stringify(suggested?.text)} accepted (document: ${JSON.stringify(editor.document.getText())})`,
      30_000,
    );
    await triggered;
    const after = editor.document.getText();
    // The accepted text went in at the cursor and nothing else changed.
    assert.ok(after.startsWith(before.slice(0, before.indexOf('\n') + 3)) && after.endsWith('\n}\n'), `only the body changed:\n${after}`);
    // Judged by what it does: the completed function adds.
    assert.equal(callAdd(after, 2, 3), 5, `add(2, 3) with the accepted completion:\n${after}`);
    assert.equal(callAdd(after, -7, 10.5), 3.5, `add(-7, 10.5) with the accepted completion:\n${after}`);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
