// The agent's steps as the panel shows them (issue #35): a call the model repeats is not run again, the
// answer is then asked for without tools, and the panel says why under the answer; the last step of the
// limit asks for the answer without tools too; edit_file's replace_all is shown and approved as one change.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import type { ToWebview } from '../../src/shared/protocol';
import type { ToolCallView } from '../../src/shared/views';
import { cadenzaApi, openChatView, useEmulator } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

type Done = Extract<ToWebview, { type: 'chat/done' }>;
type Body = { messages: { role: string; content: unknown }[]; tools?: unknown[] };

const file = 'src/steps-demo.ts';
const source = 'export function total(a: number, b: number): number {\n  return a + b;\n}\nexport const answer = total(20, 22);\n';

suite('Agent: repeated calls, the answer without tools, replace_all', () => {
  const emulator = useEmulator();
  let api: CadenzaApi;
  let panel: Panel;
  let root: string;

  const cards = (): ToolCallView[] => panel.messages.flatMap((message) => (message.type === 'tool/call' ? [message.call] : []));
  const finalCards = (): ToolCallView[] => cards().filter((card) => !['forming', 'queued', 'running', 'awaitingApproval'].includes(card.status));
  const dones = (): Done[] => panel.messages.filter((message): message is Done => message.type === 'chat/done');
  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const onDisk = (): string => fs.readFileSync(path.join(root, file), 'utf8');

  suiteSetup(async () => {
    api = await cadenzaApi();
    panel = drivePanel(api);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    root = folder.uri.fsPath;
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await openChatView(api);
    await vscode.commands.executeCommand('cadenza.refreshModels');
  });
  setup(async () => {
    fs.writeFileSync(path.join(root, file), source);
    emulator().reset();
    await panel.newConversation();
    await panel.selectModel('Meta-Llama-3.3-70B-Instruct');
    panel.clear();
  });
  teardown(() => {
    api.agent.setApprovalPolicy(undefined);
    fs.rmSync(path.join(root, file), { force: true });
  });
  suiteTeardown(() => panel.dispose());

  test('a failing call sent again is not run: the first time the model is told to try another, the second time the answer is asked for without tools and the panel says why', async () => {
    api.agent.setApprovalPolicy(() => 'approve');
    const edit = { name: 'edit_file', arguments: { path: file, old_text: 'total', new_text: 'sum' } };
    emulator().scriptChat({ toolCalls: [edit] }, { times: 3 });
    emulator().scriptChat({ content: 'total occurs more than once; I left the file as it was.' });
    await panel.send('Rename total to sum.');
    assert.equal(bodies().length, 4);
    assert.ok(bodies()[1]?.tools && bodies()[2]?.tools, 'the requests after the failure and after the first repeat still offer tools');
    assert.equal(bodies()[3]?.tools, undefined, 'the answer is asked for without tools');
    assert.deepEqual(
      finalCards().map((card) => card.status),
      ['failed', 'skipped', 'skipped'],
    );
    assert.match(finalCards()[0]?.result ?? '', /^Error: old_text occurs 2 times in src\/steps-demo\.ts \(lines 1, 4\)\. Set replace_all to true/);
    // The card says why in the panel's language (the catalogue's text for the kind); the model got the English above.
    assert.deepEqual(
      finalCards().map((card) => card.failure),
      ['invalid', undefined, undefined],
    );
    assert.match(
      finalCards()[1]?.result ?? '',
      /^Not run: this exact call already failed at step 1 of this answer .*Do not send it again: call a different function/,
    );
    assert.match(finalCards()[2]?.result ?? '', /^Not run: this exact call already failed at step 1 of this answer .*\. Do not send it again\.$/);
    assert.equal(dones().at(-1)?.agentStop, 'Cadenza asked for the answer without tools: the same call repeated.');
    assert.equal(onDisk(), source);
  });

  test('the last step of the limit asks for the answer without tools, and the panel says so', async () => {
    await vscode.workspace.getConfiguration('cadenza.agent').update('maxSteps', 2, vscode.ConfigurationTarget.Global);
    try {
      emulator().scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: file } }] });
      emulator().scriptChat({ content: 'answer is total(20, 22), which is 42.' });
      await panel.send('What is answer?');
      assert.deepEqual(
        bodies().map((body) => body.tools === undefined),
        [false, true],
      );
      assert.equal(
        dones().at(-1)?.agentStop,
        'Cadenza asked for the answer without tools: this was the last of the 2 steps of one answer (cadenza.agent.maxSteps).',
      );
    } finally {
      await vscode.workspace.getConfiguration('cadenza.agent').update('maxSteps', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('replace_all changes every occurrence as one approved edit, and its card gives the count', async () => {
    api.agent.setApprovalPolicy(() => 'approve');
    emulator().scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: file, old_text: 'total', new_text: 'sum', replace_all: true } }] });
    emulator().scriptChat({ content: 'Renamed.' });
    await panel.send('Rename total to sum.');
    assert.equal(onDisk(), source.replaceAll('total', 'sum'));
    const card = finalCards()[0];
    assert.equal(card?.status, 'done');
    assert.deepEqual(card?.change, { kind: 'edit', path: file, diff: card?.change?.kind === 'edit' ? card.change.diff : '', replacements: 2 });
    assert.equal(card?.result, `Edited ${file}: replaced all 2 occurrences (lines 1, 4).`);
  });
});
