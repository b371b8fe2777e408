// Project instructions in the real extension host: AGENTS.md at the root and nested ones for the active
// file, Cadenza's own file, the panel's chips with their token cost, the per-conversation switch, a link
// that leads outside the workspace (never read), and Create Project Instructions. The suite's title holds
// "real workspace trust", so it also runs in the Restricted Mode tier, where the instructions must arrive
// marked as untrusted information.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToWebview } from '../../src/shared/protocol';
import { cadenzaApi, openChatView, useEmulator, waitFor } from './helpers';
import { drivePanel } from './panelDriver';

type Instructions = Extract<ToWebview, { type: 'state/instructions' }>;
type Body = { messages: { role: string; content: string }[] };

suite('Project instructions under the real workspace trust', () => {
  const emulator = useEmulator();
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  const created: string[] = [];
  const outside = path.join(os.tmpdir(), `cadenza-secret-${process.pid}.md`);

  const write = (relative: string, text: string): void => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    created.push(file);
  };

  suiteSetup(() => {
    write('AGENTS.md', 'Root rule: answer in British English.');
    write('src/AGENTS.md', 'Source rule: no default exports.');
    fs.writeFileSync(outside, 'SECRET outside the workspace');
    fs.mkdirSync(path.join(root, '.github'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, '.github', 'copilot-instructions.md'));
    created.push(path.join(root, '.github', 'copilot-instructions.md'), path.join(root, '.github'));
  });
  suiteTeardown(async () => {
    for (const file of [...created, path.join(root, '.cadenza', 'instructions.md'), path.join(root, '.cadenza')].reverse())
      fs.rmSync(file, { recursive: true, force: true });
    fs.rmSync(outside, { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('the root and nested AGENTS.md reach the system prompt and the panel, a link outside the workspace does not', async () => {
    const api = await cadenzaApi();
    const panel = drivePanel(api);
    try {
      await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
      await openChatView(api);
      await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'src', 'greeting.ts')));
      await panel.newConversation();
      let state: Instructions | undefined;
      await waitFor(
        () => {
          state = panel.messages.filter((message): message is Instructions => message.type === 'state/instructions').at(-1);
          return state?.files.length === 2;
        },
        () => `the panel to list two instruction files (saw ${JSON.stringify(state)})`,
      );
      assert.deepEqual(
        state?.files.map((file) => file.path),
        ['AGENTS.md', 'src/AGENTS.md'],
      );
      assert.ok(state?.files.every((file) => file.tokens > 0 && !file.cut));
      assert.equal(state?.enabled, true);
      assert.equal(state?.untrusted, !vscode.workspace.isTrusted);

      emulator().reset();
      await panel.send('Hello');
      const system = (emulator().requests.find((request) => request.path === '/v1/chat/completions')?.body as Body).messages[0];
      assert.equal(system?.role, 'system');
      const text = String(system?.content);
      assert.ok(text.indexOf('Root rule') >= 0 && text.indexOf('Root rule') < text.indexOf('Source rule'), text);
      assert.ok(!text.includes('SECRET'), 'a file outside the workspace was read through a link');
      if (vscode.workspace.isTrusted) assert.match(text, /(^|\n)Project instructions \(files this project keeps/);
      else assert.match(text, /NOT trusted[\s\S]*cannot enable any tool/);
      // The meter counts them.
      const meter = panel.messages.filter((message) => message.type === 'context/meter').at(-1) as Extract<ToWebview, { type: 'context/meter' }> | undefined;
      assert.ok((meter?.usedTokens ?? 0) >= (state?.files.reduce((sum, file) => sum + file.tokens, 0) ?? 0));
    } finally {
      panel.dispose();
    }
  });

  test('a conversation can leave them out', async () => {
    const panel = drivePanel(await cadenzaApi());
    emulator().reset();
    try {
      await panel.send('Without instructions', { useInstructions: false });
    } finally {
      panel.dispose();
    }
    const body = emulator().requests.find((request) => request.path === '/v1/chat/completions')?.body as Body;
    assert.ok(!JSON.stringify(body.messages).includes('Root rule'));
  });

  test('Create Project Instructions writes .cadenza/instructions.md from the template, and it applies at once', async () => {
    const uri = await vscode.commands.executeCommand<string | undefined>('cadenza.createInstructions');
    assert.ok(uri?.endsWith('.cadenza/instructions.md'), uri);
    assert.match(fs.readFileSync(path.join(root, '.cadenza', 'instructions.md'), 'utf8'), /^# Instructions for Cadenza/);
    const panel = drivePanel(await cadenzaApi());
    try {
      await panel.newConversation();
      emulator().reset();
      await panel.send('With the new file');
    } finally {
      panel.dispose();
    }
    const body = emulator().requests.find((request) => request.path === '/v1/chat/completions')?.body as Body;
    assert.match(String(body.messages[0]?.content), /--- \.cadenza\/instructions\.md ---\n# Instructions for Cadenza/);
  });
});
