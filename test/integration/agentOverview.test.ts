// The workspace's files go with the agent's system prompt (issue #35): the model learns the paths without a
// call. Read through the workspace port (VS Code's findFiles under files.exclude and search.exclude), so an
// excluded folder stays out, and read again when a file is created.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './helpers';
import { useChatSuite } from './panelDriver';

type Body = { messages: { role: string; content: unknown }[]; tools?: unknown[] };

const toolModel = 'Meta-Llama-3.3-70B-Instruct';

suite('Agent: the workspace file list in the system prompt', () => {
  const { emulator, panel } = useChatSuite(toolModel);
  const root = (): string => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    return folder.uri.fsPath;
  };
  const created = (): string => path.join(root(), 'src', 'overview-new.ts');

  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const ask = async (text: string): Promise<string> => {
    const before = bodies().length;
    await panel().send(text);
    const body = bodies()[before];
    assert.ok(body?.tools, 'the agent answered (tools offered)');
    const system = body.messages.find((message) => message.role === 'system');
    return String(system?.content ?? '');
  };

  suiteTeardown(() => fs.rmSync(created(), { force: true }));

  test('lists the workspace files after the agent instructions, without an excluded folder, and a new file once created', async () => {
    emulator().scriptChat({ content: 'Seen.' }, { times: 20 });
    let system = await ask('Which files are there?');
    assert.match(system, /^You are Cadenza, a coding assistant in VS Code\./, 'the instructions come first');
    assert.match(system, /\n\nFiles in the workspace:\n/);
    assert.match(system, /^src\/greeting\.ts$/m, 'a workspace file is listed by its workspace-relative path');
    assert.match(system, /^docs\/notes\.md$/m);
    assert.doesNotMatch(system, /^src\/overview-new\.ts$/m);
    await vscode.workspace.getConfiguration('files').update('exclude', { '**/docs': true }, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(
        async () => !/^docs\//m.test((system = await ask('Which files now?'))),
        () => `the list without the excluded docs/ (last: ${JSON.stringify(system.slice(0, 600))})`,
        20_000,
      );
      assert.match(system, /^src\/greeting\.ts$/m);
    } finally {
      await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    }

    fs.writeFileSync(created(), 'export const fresh = 1;\n');
    await waitFor(
      async () => /^src\/overview-new\.ts$/m.test((system = await ask('And now?'))),
      () => `the new file in the list (last: ${JSON.stringify(system.slice(0, 600))})`,
      20_000,
    );
  });
});
