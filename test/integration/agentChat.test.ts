// The agent through the chat panel's logic in the real extension host, with scripted tool calls from the
// emulator: cards and results in the panel, approvals (nothing changes without one; a denial reaches the
// model), "allow for this conversation" and the files it never covers, the API's approval policy, models
// without tools, the step limit (the user's: a workspace cannot raise it), Stop during an approval, and
// Restricted Mode.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import type { ToWebview } from '../../src/shared/protocol';
import type { ToolCallView } from '../../src/shared/views';
import { cadenzaApi, openChatView, removeGitRepository, storedConversation, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

type Done = Extract<ToWebview, { type: 'chat/done' }>;
type Body = {
  model: string;
  messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] }[];
  tools?: { function: { name: string } }[];
  tool_choice?: unknown;
};

const toolModel = 'Meta-Llama-3.3-70B-Instruct';
const greetingSource =
  '/** Returns a greeting for `name`; used by tests that read, search or edit workspace files. */\nexport function greeting(name: string): string {\n  return `Hello, ${name}!`;\n}\n';

suite('Agent: chat, approvals and Restricted Mode', () => {
  const emulator = useEmulator();
  let api: CadenzaApi;
  let panel: Panel;
  let root: string;

  const cards = (): ToolCallView[] => panel.messages.flatMap((message) => (message.type === 'tool/call' ? [message.call] : []));
  const dones = (): Done[] => panel.messages.filter((message): message is Done => message.type === 'chat/done');
  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const waitingCard = async (name: string): Promise<ToolCallView> => {
    let found: ToolCallView | undefined;
    await waitFor(
      () => (found = cards().find((card) => card.name === name && card.status === 'awaitingApproval')) !== undefined,
      () =>
        `a ${name} card waiting for approval (saw ${cards()
          .map((card) => `${card.name}:${card.status}`)
          .join(', ')})`,
    );
    if (!found) throw new Error('unreachable');
    return found;
  };
  const greetingOnDisk = (): string => fs.readFileSync(path.join(root, 'src', 'greeting.ts'), 'utf8');
  /** Puts src/greeting.ts back, through its open document when there is one (so the editor agrees with the disk). */
  const restoreGreeting = async (): Promise<void> => {
    const file = path.join(root, 'src', 'greeting.ts');
    const document = vscode.workspace.textDocuments.find((entry) => entry.uri.fsPath === file);
    if (!document) {
      fs.writeFileSync(file, greetingSource);
      return;
    }
    if (document.getText() === greetingSource && !document.isDirty) return;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), greetingSource);
    await vscode.workspace.applyEdit(edit);
    await document.save();
  };
  const diffTabs = (): vscode.Tab[] =>
    vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'cadenza-agent');

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
    emulator().reset();
    await panel.newConversation();
    await panel.selectModel(toolModel);
    panel.clear();
  });
  teardown(async () => {
    api.agent.setApprovalPolicy(undefined);
    api.agent.overrideTrust(undefined);
    await restoreGreeting();
    fs.rmSync(path.join(root, 'agent-ran.txt'), { force: true });
    fs.rmSync(path.join(root, 'src', 'created.ts'), { force: true });
    // What the sensitive-files test must never create (removed in case it did).
    for (const file of ['.vscode/tasks.json', 'package.json', 'pwned']) fs.rmSync(path.join(root, file), { force: true });
    await removeGitRepository(root);
  });
  suiteTeardown(async () => {
    panel.dispose();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a question makes the agent read a file: the card, its result, the history sent back, and the cards after a reload', async () => {
    emulator().scriptChat({ content: 'Let me read it.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/greeting.ts' }, id: 'call_read_1' }] });
    emulator().scriptChat({ content: 'It returns "Hello, <name>!".' });
    const { answer } = await panel.send('What does greeting.ts return?');
    assert.equal(answer, 'It returns "Hello, <name>!".');
    const [first, second] = bodies();
    assert.equal(first?.tool_choice, 'auto');
    assert.ok(
      first?.tools?.some((tool) => tool.function.name === 'edit_file'),
      'the changing functions are offered in a trusted workspace',
    );
    assert.equal(first?.messages[0]?.role, 'system');
    assert.deepEqual(
      second?.messages.slice(-2).map((message) => [message.role, message.tool_call_id]),
      [
        ['assistant', undefined],
        ['tool', 'call_read_1'],
      ],
    );
    assert.match(String(second?.messages.at(-1)?.content), /^src\/greeting\.ts \(4 lines\)\n\/\*\* Returns a greeting/);
    const done = cards().filter((card) => card.status === 'done');
    assert.equal(done.length, 1);
    assert.equal(done[0]?.name, 'read_file');
    assert.equal(dones().length, 2, 'one chat/done per step');
    const saved = (await storedConversation(api, (await panel.conversation()).id))?.messages ?? [];
    assert.equal(saved.at(-2)?.toolCalls?.[0]?.status, 'done');
    assert.equal(saved.at(-1)?.text, answer);

    panel.clear();
    await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
    await waitFor(
      () =>
        panel.messages.some(
          (message) =>
            message.type === 'conversation/show' &&
            message.conversation.messages.some(
              (entry) => entry.toolCalls?.[0]?.status === 'done' && entry.toolCalls[0].result?.startsWith('src/greeting.ts') === true,
            ),
        ),
      'the card in the conversation after a reload',
    );
    await openChatView(api);
  });

  test('cadenza.agent.requireToolCall makes the first request of an answer require a call, and only the first', async () => {
    await vscode.workspace.getConfiguration('cadenza.agent').update('requireToolCall', true, vscode.ConfigurationTarget.Global);
    try {
      emulator().scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/greeting.ts' }, id: 'call_read_2' }] });
      emulator().scriptChat({ content: 'It greets.' });
      assert.equal((await panel.send('What does greeting.ts do?')).answer, 'It greets.');
      assert.deepEqual(
        bodies().map((body) => body.tool_choice),
        ['required', 'auto'],
      );
    } finally {
      await vscode.workspace.getConfiguration('cadenza.agent').update('requireToolCall', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('nothing changes without approval, and a denial is reported to the model', async () => {
    emulator().scriptChat({
      toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'return `Hello, ${name}!`;', new_text: 'return `Hi, ${name}!`;' } }],
    });
    emulator().scriptChat({ content: 'Understood, I left it.' });
    const answering = panel.send('Make the greeting shorter.');
    const card = await waitingCard('edit_file');
    assert.equal(card.change?.kind, 'edit');
    assert.match(card.change?.kind === 'edit' ? card.change.diff : '', /- {2}return `Hello, \$\{name\}!`;\n\+ {2}return `Hi, \$\{name\}!`;/);
    await waitFor(() => diffTabs().length > 0, 'the proposed edit in a diff editor');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(greetingOnDisk(), greetingSource, 'unchanged while waiting');
    assert.equal(vscode.workspace.textDocuments.find((document) => document.uri.fsPath.endsWith('greeting.ts'))?.isDirty ?? false, false);
    assert.ok(api.agent.approvals.answer(card.id, 'deny'));
    assert.equal((await answering).answer, 'Understood, I left it.');
    assert.equal(greetingOnDisk(), greetingSource);
    assert.equal(cards().at(-1)?.status, 'denied');
    const sent = bodies()[1]?.messages.at(-1);
    assert.equal(sent?.role, 'tool');
    assert.match(String(sent?.content), /^The user denied the edit of src\/greeting\.ts; the file was not changed\./);
    await waitFor(() => diffTabs().length === 0, 'the diff editor to close');
  });

  test('an approved edit is applied; "allow edits for this conversation" covers later edits but never commands', async () => {
    emulator().scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hello', new_text: 'Hi' } }] });
    emulator().scriptChat({
      toolCalls: [
        { name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hi', new_text: 'Hey' } },
        { name: 'run_in_terminal', arguments: { command: 'echo ran > agent-ran.txt' } },
      ],
    });
    emulator().scriptChat({ content: 'Done.' });
    const answering = panel.send('Change the greeting, then run a command.');
    const edit = await waitingCard('edit_file');
    assert.ok(api.agent.approvals.answer(edit.id, 'allowConversation'));
    const command = await waitingCard('run_in_terminal');
    assert.equal(command.change?.kind === 'terminal' ? command.change.command : '', 'echo ran > agent-ran.txt');
    assert.match(greetingOnDisk(), /return `Hey, \$\{name\}!`;/, 'the second edit ran without asking');
    assert.equal(cards().filter((card) => card.name === 'edit_file' && card.status === 'done').length, 2);
    assert.equal(fs.existsSync(path.join(root, 'agent-ran.txt')), false, 'the command waits for its own approval');
    assert.ok(api.agent.approvals.answer(command.id, 'allowConversation'));
    assert.equal((await answering).answer, 'Done.');
    assert.equal(fs.readFileSync(path.join(root, 'agent-ran.txt'), 'utf8').trim(), 'ran');
    assert.match(String(bodies()[2]?.messages.at(-1)?.content), /^\$ echo ran > agent-ran\.txt\nExit code 0\./);
    assert.equal(api.agent.approvals.allowsEdits((await panel.conversation()).id), true);
  });

  test('"allow edits for this conversation" never covers files that can run code or change the editor; the card says why; the allowance shows and ends with the conversation', async () => {
    const created = ['.vscode/tasks.json', '.git/config', '.git/hooks/pre-commit', 'package.json'];
    emulator().scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hello', new_text: 'Hi' } }] });
    emulator().scriptChat({
      toolCalls: [
        { name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hi', new_text: 'Hey' } },
        {
          name: 'create_file',
          arguments: {
            path: '.vscode/tasks.json',
            content: '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch pwned","runOptions":{"runOn":"folderOpen"}}]}',
          },
        },
        { name: 'create_file', arguments: { path: '.git/config', content: '[core]\n\tfsmonitor = touch pwned\n' } },
        { name: 'create_file', arguments: { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' } },
        { name: 'create_file', arguments: { path: 'package.json', content: '{"scripts":{"postinstall":"touch pwned"}}' } },
      ],
    });
    emulator().scriptChat({ content: 'Done.' });
    const conversationId = (await panel.conversation()).id;
    const answering = panel.send('Change the greeting and set the project up.');
    const edit = await waitingCard('edit_file');
    assert.equal(edit.change?.kind === 'edit' ? edit.change.caution : 'no edit', undefined, 'an ordinary file has no caution');
    assert.ok(api.agent.approvals.answer(edit.id, 'allowConversation'));
    await waitFor(
      () => panel.messages.some((message) => message.type === 'agent/allowance' && message.conversationId === conversationId),
      'the panel to show the allowance',
    );
    const reasons: Record<string, RegExp> = {
      '.vscode/tasks.json': /tasks/,
      '.git/config': /fsmonitor/,
      '.git/hooks/pre-commit': /hooks/,
      'package.json': /scripts/,
    };
    for (const file of created) {
      let card: ToolCallView | undefined;
      await waitFor(
        () =>
          (card = cards().find(
            (entry) => entry.name === 'create_file' && entry.status === 'awaitingApproval' && entry.change?.kind === 'create' && entry.change.path === file,
          )) !== undefined,
        () =>
          `${file} to be asked for despite the allowance (saw ${cards()
            .map((entry) => `${entry.name}:${entry.status}`)
            .join(', ')})`,
      );
      if (!card) throw new Error('unreachable');
      assert.match(card.change?.kind === 'create' ? (card.change.caution ?? '') : '', reasons[file] ?? /never/);
      assert.equal(cards().filter((entry) => entry.name === 'edit_file' && entry.status === 'done').length, 2, 'the ordinary edit ran under the allowance');
      assert.ok(api.agent.approvals.answer(card.id, 'deny'));
    }
    assert.equal((await answering).answer, 'Done.');
    await waitFor(() => /return `Hey, \$\{name\}!`;/.test(greetingOnDisk()), 'the allowed edit on disk');
    for (const file of created) assert.equal(fs.existsSync(path.join(root, file)), false, `${file} was created`);
    assert.equal(api.agent.approvals.allowsEdits(conversationId), true);
    await panel.newConversation();
    assert.equal(api.agent.approvals.allowsEdits(conversationId), false, 'the allowance ends with the conversation');
    await waitFor(
      () => panel.messages.some((message) => message.type === 'agent/allowance' && message.conversationId === undefined),
      'the panel to hide the allowance',
    );
  });

  test('the allowance covers ordinary files only: config scripts, packages, instructions, CI, containers, wrappers, ignored and virtual-environment files each wait on a card that says why', async () => {
    // Edited (they exist first) and created; all denied, so none may exist or change afterwards.
    const existing: Record<string, string> = {
      'eslint.config.mjs': 'export default [];\n',
      gradlew: '#!/bin/sh\nexec java "$@"\n',
      '.gitignore': 'scratch/\n',
      'pyenv/pyvenv.cfg': 'home = /usr/bin\n',
    };
    const edits: Record<string, [string, string]> = {
      'eslint.config.mjs': ['export default [];', 'import "./pwn.js";\nexport default [];'],
      gradlew: ['exec java', 'touch pwned; exec java'],
    };
    const creates = [
      '.venv/lib/python3.12/site-packages/x.pth',
      'node_modules/x/index.js',
      'AGENTS.md',
      '.cadenza/instructions.md',
      '.github/workflows/ci.yml',
      'scratch/notes.md',
      'Dockerfile',
      'pyenv/bin/activate',
    ];
    const reasons: Record<string, RegExp> = {
      'eslint.config.mjs': /configuration/,
      gradlew: /wrapper/,
      '.venv/lib/python3.12/site-packages/x.pth': /interpreter start/,
      'node_modules/x/index.js': /Installed packages/,
      'AGENTS.md': /instructions/,
      '.cadenza/instructions.md': /instructions/,
      '.github/workflows/ci.yml': /CI/,
      'scratch/notes.md': /ignored/,
      Dockerfile: /container/,
      'pyenv/bin/activate': /virtual environment/,
    };
    for (const [file, text] of Object.entries(existing)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    try {
      emulator().scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hello', new_text: 'Hi' } }] });
      emulator().scriptChat({
        toolCalls: [
          ...Object.entries(edits).map(([file, [oldText, newText]]) => ({
            name: 'edit_file',
            arguments: { path: file, old_text: oldText, new_text: newText },
          })),
          ...creates.map((file) => ({ name: 'create_file', arguments: { path: file, content: 'import os; os.system("touch pwned")\n' } })),
          { name: 'create_file', arguments: { path: 'src/created.ts', content: 'export {};\n' } },
        ],
      });
      emulator().scriptChat({ content: 'Done.' });
      const answering = panel.send('Set the project up.');
      const first = await waitingCard('edit_file');
      assert.ok(api.agent.approvals.answer(first.id, 'allowConversation'));
      for (const file of [...Object.keys(edits), ...creates]) {
        let card: ToolCallView | undefined;
        const pathOf = (entry: ToolCallView): string | undefined =>
          entry.change?.kind === 'edit' || entry.change?.kind === 'create' ? entry.change.path : undefined;
        // Every change shows its card as waiting for a moment; one the user must answer is pending in the broker as well.
        await waitFor(
          () =>
            (card = cards().find((entry) => entry.status === 'awaitingApproval' && pathOf(entry) === file)) !== undefined &&
            api.agent.approvals.pendingCallIds.includes(card.id),
          () =>
            `${file} to wait for the user despite the allowance (saw ${cards()
              .map((entry) => `${entry.name} ${pathOf(entry) ?? ''}:${entry.status}`)
              .join(', ')}; pending ${api.agent.approvals.pendingCallIds.join(', ') || 'none'})`,
        );
        if (!card) throw new Error('unreachable');
        assert.deepEqual(api.agent.approvals.pendingCallIds, [card.id], `${file} is pending`);
        const caution = card.change?.kind === 'edit' || card.change?.kind === 'create' ? (card.change.caution ?? '') : '';
        assert.match(caution, reasons[file] ?? /never/, `the card of ${file} says why`);
        assert.equal(
          fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined,
          existing[file],
          `${file} changed before a decision`,
        );
        assert.ok(api.agent.approvals.answer(card.id, 'deny'));
      }
      // Nothing answers the ordinary new file's call: the answer ends only because the allowance covered it.
      assert.equal((await answering).answer, 'Done.');
      assert.equal(fs.readFileSync(path.join(root, 'src', 'created.ts'), 'utf8'), 'export {};\n', 'the ordinary new file was created');
      assert.equal(
        cards()
          .filter((entry) => entry.change?.kind === 'create' && entry.change.path === 'src/created.ts')
          .at(-1)?.status,
        'done',
      );
      for (const file of [...Object.keys(edits), ...creates]) {
        assert.equal(
          fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined,
          existing[file],
          `${file} after its denial`,
        );
      }
    } finally {
      for (const file of [
        'eslint.config.mjs',
        'gradlew',
        '.gitignore',
        'pyenv',
        '.venv',
        'node_modules',
        'AGENTS.md',
        '.cadenza',
        '.github',
        'scratch',
        'Dockerfile',
      ])
        fs.rmSync(path.join(root, file), { recursive: true, force: true });
    }
  });

  test('read_file of a git-ignored secret waits for the user on a card; denied, nothing of it reaches the model', async () => {
    fs.writeFileSync(path.join(root, '.gitignore'), '.env\n*.pem\n');
    fs.writeFileSync(path.join(root, '.env'), 'API_TOKEN=walrusSecretToken\n');
    try {
      emulator().scriptChat({
        toolCalls: [
          { name: 'read_file', arguments: { path: '.env' } },
          { name: 'read_file', arguments: { path: 'src/greeting.ts' } },
        ],
      });
      emulator().scriptChat({ content: 'I did not read it.' });
      const answering = panel.send('What is in .env?');
      const card = await waitingCard('read_file');
      assert.equal(card.change?.kind, 'read');
      assert.match(card.change?.kind === 'read' ? card.change.reason : '', /ignored by git and looks like a secret/);
      assert.ok(api.agent.approvals.answer(card.id, 'deny'));
      assert.equal((await answering).answer, 'I did not read it.');
      const sent = JSON.stringify(bodies()[1]?.messages);
      assert.ok(!sent.includes('walrusSecretToken'), 'the secret reached the model');
      assert.match(sent, /The user denied reading \.env; it was not read/);
      assert.match(sent, /export function greeting/, 'an ordinary file is read without asking');
    } finally {
      for (const file of ['.gitignore', '.env']) fs.rmSync(path.join(root, file), { force: true });
    }
  });

  test('an approval policy set through the API decides instead of the panel', async () => {
    const asked: string[] = [];
    api.agent.setApprovalPolicy((question) => {
      asked.push(question.preview.kind);
      return 'deny';
    });
    emulator().scriptChat({ toolCalls: [{ name: 'create_file', arguments: { path: 'src/created.ts', content: 'export {};\n' } }] });
    emulator().scriptChat({ content: 'Not created.' });
    assert.equal((await panel.send('Create a file.')).answer, 'Not created.');
    assert.deepEqual(asked, ['create']);
    assert.equal(fs.existsSync(path.join(root, 'src', 'created.ts')), false);
    api.agent.setApprovalPolicy(() => 'approve');
    emulator().scriptChat({ toolCalls: [{ name: 'create_file', arguments: { path: 'src/created.ts', content: 'export {};\n' } }] });
    emulator().scriptChat({ content: 'Created.' });
    await panel.send('Create it after all.');
    assert.equal(fs.readFileSync(path.join(root, 'src', 'created.ts'), 'utf8'), 'export {};\n');
  });

  test('a model without tools chats without them, and the panel says why', async () => {
    await panel.selectModel('DeepSeek-R1');
    await panel.send('Can you read my files?');
    assert.equal(bodies()[0]?.tools, undefined);
    const notice = panel.messages.find((message) => message.type === 'notice' && /DeepSeek-R1 cannot call tools/.test(message.text));
    assert.ok(notice, `notices: ${JSON.stringify(panel.messages.filter((message) => message.type === 'notice'))}`);
  });

  test('with cadenza.agent.enabled off, a tool model chats without tools', async () => {
    await vscode.workspace.getConfiguration('cadenza.agent').update('enabled', false, vscode.ConfigurationTarget.Global);
    try {
      await panel.send('Plain chat, please.');
      assert.equal(bodies()[0]?.tools, undefined);
    } finally {
      await vscode.workspace.getConfiguration('cadenza.agent').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('the step limit stops the answer with a clear message', async () => {
    await vscode.workspace.getConfiguration('cadenza.agent').update('maxSteps', 2, vscode.ConfigurationTarget.Global);
    try {
      emulator().scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, { times: 2 });
      await panel.send('Keep looking around.');
      assert.equal(bodies().length, 2);
      const last = dones().at(-1);
      assert.match(last?.agentStop ?? '', /^Stopped after 2 steps, the limit for one answer \(cadenza\.agent\.maxSteps\)/);
      assert.deepEqual(
        cards()
          .filter((card) => card.status === 'done' || card.status === 'skipped')
          .map((card) => card.status),
        ['done', 'skipped'],
      );
    } finally {
      await vscode.workspace.getConfiguration('cadenza.agent').update('maxSteps', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("a workspace cannot raise the user's step limit: its cadenza.agent.maxSteps of 100 is ignored", async () => {
    const agent = vscode.workspace.getConfiguration('cadenza.agent');
    await agent.update('maxSteps', 2, vscode.ConfigurationTarget.Global);
    await agent.update('maxSteps', 100, vscode.ConfigurationTarget.Workspace);
    try {
      emulator().scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, { times: 3 });
      await panel.send('Keep looking around, the repository says you may.');
      assert.equal(bodies().length, 2, "the workspace's step limit counted");
      assert.match(dones().at(-1)?.agentStop ?? '', /^Stopped after 2 steps/);
    } finally {
      await agent.update('maxSteps', undefined, vscode.ConfigurationTarget.Workspace);
      await agent.update('maxSteps', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('Stop while a command waits for approval ends the answer at once; the command never runs', async () => {
    emulator().scriptChat({ toolCalls: [{ name: 'run_in_terminal', arguments: { command: 'echo ran > agent-ran.txt' } }] });
    const answering = panel.send('Run something.');
    await waitingCard('run_in_terminal');
    const stoppedAt = Date.now();
    await panel.stop();
    await answering;
    assert.ok(Date.now() - stoppedAt < 2000);
    assert.equal(dones().at(-1)?.stopped, true);
    assert.equal(cards().at(-1)?.status, 'cancelled');
    assert.equal(fs.existsSync(path.join(root, 'agent-ran.txt')), false);
    assert.deepEqual(api.agent.approvals.pendingCallIds, []);
  });

  test('Restricted Mode: only the read-only functions exist, and the changing ones refuse', async () => {
    const manifest = vscode.extensions.getExtension('cadenza.cadenza')?.packageJSON as
      { capabilities?: { untrustedWorkspaces?: { supported?: unknown } } } | undefined;
    assert.equal(manifest?.capabilities?.untrustedWorkspaces?.supported, 'limited');
    api.agent.overrideTrust(false);
    emulator().scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hello', new_text: 'Bye' } }] });
    emulator().scriptChat({ content: 'I can only read here.' });
    await panel.send('Edit the greeting.');
    assert.deepEqual(
      bodies()[0]?.tools?.map((tool) => tool.function.name),
      ['read_file', 'list_directory', 'find_files', 'search_text', 'semantic_search', 'get_diagnostics', 'get_symbols', 'get_selection'],
    );
    assert.match(String(bodies()[0]?.messages[0]?.content), /Restricted Mode/);
    assert.match(String(bodies()[1]?.messages.at(-1)?.content), /^Error: edit_file is not available: the workspace is in Restricted Mode/);
    assert.ok(panel.messages.some((message) => message.type === 'notice' && message.text.startsWith('Restricted Mode')));
    assert.equal(greetingOnDisk(), greetingSource);
    const signal = new AbortController().signal;
    const restricted = (error: unknown): boolean => typeof error === 'object' && error !== null && 'reason' in error && error.reason === 'restricted';
    await assert.rejects(
      api.agent.port.editFile({ path: 'src/greeting.ts', expectedText: greetingSource, offset: 0, length: 3, newText: 'x' }, signal),
      restricted,
    );
    await assert.rejects(api.agent.port.createFile('src/created.ts', 'x', signal), restricted);
    await assert.rejects(api.agent.port.runInTerminal('echo ran > agent-ran.txt', { timeoutMs: 1000, signal }), restricted);
    assert.equal(fs.existsSync(path.join(root, 'agent-ran.txt')), false);
    assert.match((await api.agent.port.readFile('src/greeting.ts', signal)).text, /export function greeting/, 'reading still works');
  });
});
