// Plan and Act through the chat panel's logic in the real extension host, with tool calls the emulator's
// model is scripted to make: in Plan a write the model forces anyway is refused where calls run (nothing is
// written, nothing is asked, the model is told why), every answer keeps the mode that made it, Act on this
// plan switches the conversation to Act and sends the plan, whose edit then waits for approval as always,
// and a new conversation starts in `cadenza.agent.defaultMode`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import type { ToolCallView } from '../../src/shared/views';
import { cadenzaApi, openChatView, storedConversation, useEmulator } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

type Body = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };

const toolModel = 'Meta-Llama-3.3-70B-Instruct';

suite('Agent: Plan and Act', () => {
  const emulator = useEmulator();
  let api: CadenzaApi;
  let panel: Panel;
  let greetingFile: string;
  let original: string;
  let asked: string[];

  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const cards = (): ToolCallView[] => panel.messages.flatMap((message) => (message.type === 'tool/call' ? [message.call] : []));
  /** Puts src/greeting.ts back, through its open document when there is one (so the editor agrees with the disk). */
  const restoreGreeting = async (): Promise<void> => {
    const document = vscode.workspace.textDocuments.find((entry) => entry.uri.fsPath === greetingFile);
    if (!document) {
      fs.writeFileSync(greetingFile, original);
      return;
    }
    if (document.getText() === original && !document.isDirty) return;
    const whole = new vscode.WorkspaceEdit();
    whole.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), original);
    await vscode.workspace.applyEdit(whole);
    await document.save();
  };
  const edit = { name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hello', new_text: 'Welcome' } };

  suiteSetup(async () => {
    api = await cadenzaApi();
    panel = drivePanel(api);
    greetingFile = path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', 'src', 'greeting.ts');
    original = fs.readFileSync(greetingFile, 'utf8');
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await openChatView(api);
    await vscode.commands.executeCommand('cadenza.refreshModels');
  });
  setup(() => {
    emulator().reset();
    panel.clear();
    asked = [];
    api.agent.setApprovalPolicy((question) => {
      asked.push(question.call.name);
      return 'approve';
    });
  });
  suiteTeardown(async () => {
    api.agent.setApprovalPolicy(undefined);
    panel.dispose();
    await restoreGreeting();
    await vscode.workspace.getConfiguration('cadenza.agent').update('defaultMode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('in Plan a write the model forces is refused: nothing written, nothing asked, the model told why; the answer and the conversation keep Plan', async () => {
    const shown = await panel.newConversation();
    assert.equal(shown.mode, 'act', 'a new conversation starts in Act by default');
    await panel.selectModel(toolModel);
    const switched = await panel.post({ type: 'agent/setMode', mode: 'plan' });
    assert.ok(switched.some((message) => message.type === 'agent/mode' && message.mode === 'plan' && message.locked === undefined));
    emulator().scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/greeting.ts' } }, edit] });
    emulator().scriptChat({ content: 'greeting says Hello.\n\n## Plan\n1. In src/greeting.ts, change Hello to Welcome.' });
    const turn = await panel.send('Make the greeting friendlier.');

    assert.equal(fs.readFileSync(greetingFile, 'utf8'), original, 'the file was written in Plan mode');
    assert.deepEqual(asked, [], 'an approval was asked in Plan mode');
    const [first, second] = bodies();
    const offered = first?.tools?.map((tool) => tool.function.name) ?? [];
    assert.ok(offered.includes('read_file') && !offered.includes('edit_file') && !offered.includes('run_in_terminal'), offered.join(', '));
    assert.match(String(first?.messages[0]?.content), /Plan mode[\s\S]*## Plan/);
    const told = String(second?.messages.at(-1)?.content);
    assert.match(told, /^Error: edit_file was refused: this conversation is in Plan mode/);
    const card = cards().find((entry) => entry.name === 'edit_file' && entry.status !== 'forming' && entry.status !== 'queued');
    assert.equal(card?.status, 'denied');
    assert.equal(turn.answer, 'greeting says Hello.\n\n## Plan\n1. In src/greeting.ts, change Hello to Welcome.');
    // The mode is on every answer, as shown and as saved.
    const answers = (await panel.conversation()).messages.filter((message) => message.role === 'assistant');
    assert.deepEqual(
      answers.map((message) => message.mode),
      answers.map(() => 'plan'),
    );
    const stored = await storedConversation(api, shown.id);
    assert.equal(stored?.mode, 'plan');
    assert.deepEqual(
      stored?.messages.filter((message) => message.role === 'assistant').map((message) => message.mode),
      answers.map(() => 'plan'),
    );
  });

  test('Act on this plan switches the conversation to Act and sends the plan; its edit waits for approval and is made', async () => {
    const id = (await panel.conversation()).id;
    emulator().scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/greeting.ts' } }, edit] });
    emulator().scriptChat({ content: 'Done: the greeting says Welcome.' });
    const plan = '1. In src/greeting.ts, change Hello to Welcome.\n2. Keep the rest.';
    const posted = await panel.post({ type: 'agent/actOnPlan', plan, options: {} });
    assert.ok(posted.some((message) => message.type === 'agent/mode' && message.mode === 'act'));
    assert.equal((await panel.conversation()).mode, 'act');
    const userMessages = (await panel.conversation()).messages.filter((message) => message.role === 'user');
    assert.equal(userMessages.at(-1)?.text, plan);
    const [first] = bodies();
    assert.equal(String(first?.messages.at(-1)?.content), plan);
    assert.ok(first?.tools?.some((tool) => tool.function.name === 'edit_file'));
    assert.doesNotMatch(String(first?.messages[0]?.content), /Plan mode/);
    assert.deepEqual(asked, ['edit_file']);
    assert.match(fs.readFileSync(greetingFile, 'utf8'), /Welcome, \$\{name\}/);
    const stored = await storedConversation(api, id);
    assert.equal(stored?.mode, 'act');
    assert.deepEqual(
      stored?.messages.filter((message) => message.role === 'assistant').map((message) => message.mode),
      ['plan', 'plan', 'act', 'act'],
    );
    // Reopening shows the mode and every answer's.
    await panel.newConversation();
    await panel.post({ type: 'conversation/switch', id });
    const reopened = await panel.conversation();
    assert.equal(reopened.id, id);
    assert.equal(reopened.mode, 'act');
    assert.deepEqual(
      reopened.messages.filter((message) => message.role === 'assistant').map((message) => message.mode),
      ['plan', 'plan', 'act', 'act'],
    );
    await restoreGreeting();
  });

  test('a new conversation starts in cadenza.agent.defaultMode', async () => {
    await vscode.workspace.getConfiguration('cadenza.agent').update('defaultMode', 'plan', vscode.ConfigurationTarget.Global);
    try {
      assert.equal((await panel.newConversation()).mode, 'plan');
    } finally {
      await vscode.workspace.getConfiguration('cadenza.agent').update('defaultMode', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal((await panel.newConversation()).mode, 'act');
  });
});
