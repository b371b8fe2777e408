// The agent against the workspace's real trust, with no override. In the usual run the harness disables
// workspace trust (the folder is trusted) and this checks the trusted side; run it with
//   HARNESS_WORKSPACE_TRUST=untrusted MOCHA_GREP="real workspace trust" node test/support/harness/runIntegration.mjs
// and the folder opens in VS Code's real Restricted Mode, where it checks that only the reading
// functions exist and the changing ones refuse, and that the conversation is in Plan with the switch locked.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cadenzaApi, openChatView, spyOnDialogs, useEmulator } from './helpers';
import { drivePanel } from './panelDriver';

type Body = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };

suite('Agent: the real workspace trust', () => {
  const emulator = useEmulator();

  test('offers edits and commands only in a trusted workspace; in Restricted Mode they do not exist and refuse', async () => {
    const api = await cadenzaApi();
    const trusted = vscode.workspace.isTrusted;
    // console is the channel here: the harness log shows which side ran.
    console.log(`[agent] workspace trusted: ${trusted}`);
    // The launcher's environment reaches the extension host. The Restricted Mode tier must really be
    // untrusted: if the harness ever stopped opening the folder untrusted, the trusted branch below would
    // run and the tier would pass without Restricted Mode.
    const expectUntrusted = process.env['HARNESS_WORKSPACE_TRUST'] === 'untrusted';
    assert.equal(
      trusted,
      !expectUntrusted,
      expectUntrusted ? 'the Restricted Mode run opened a trusted workspace' : 'the workspace should be trusted in this run',
    );
    const panel = drivePanel(api);
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const marker = path.join(root, 'trust-marker.txt');
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    try {
      await openChatView(api);
      await vscode.commands.executeCommand('cadenza.refreshModels');
      const shown = await panel.newConversation();
      await panel.selectModel('Meta-Llama-3.3-70B-Instruct');
      // Restricted Mode is always Plan: the composer's switch is locked there and says why; asking for Act changes nothing.
      const switched = await panel.post({ type: 'agent/setMode', mode: 'act' });
      const mode = switched.find((message) => message.type === 'agent/mode');
      if (trusted) {
        assert.equal(shown.modeLocked, undefined);
        assert.equal(mode?.type === 'agent/mode' && mode.mode, 'act');
      } else {
        assert.equal(shown.mode, 'plan');
        assert.match(shown.modeLocked ?? '', /^Restricted Mode: this workspace is not trusted, so conversations stay in Plan/);
        assert.ok(mode?.type === 'agent/mode' && mode.mode === 'plan' && mode.locked?.startsWith('Restricted Mode'), JSON.stringify(mode));
      }
      api.agent.setApprovalPolicy(() => 'approve');
      emulator().scriptChat({ toolCalls: [{ name: 'run_in_terminal', arguments: { command: 'echo ran > trust-marker.txt' } }] });
      emulator().scriptChat({ content: 'Done.' });
      await panel.send('Run the command.');
      const bodies = emulator()
        .requests.filter((request) => request.path === '/v1/chat/completions')
        .map((request) => request.body as Body);
      const offered = bodies[0]?.tools?.map((tool) => tool.function.name) ?? [];
      const result = String(bodies[1]?.messages.at(-1)?.content);
      if (trusted) {
        assert.ok(offered.includes('run_in_terminal') && offered.includes('edit_file'), offered.join(', '));
        assert.match(result, /^\$ echo ran > trust-marker\.txt\nExit code 0\./);
        assert.equal(fs.readFileSync(marker, 'utf8').trim(), 'ran');
      } else {
        assert.deepEqual(offered, [
          'read_file',
          'list_directory',
          'find_files',
          'search_text',
          'semantic_search',
          'get_diagnostics',
          'get_symbols',
          'get_selection',
        ]);
        assert.match(result, /^Error: run_in_terminal is not available: the workspace is in Restricted Mode/);
        assert.ok(panel.messages.some((message) => message.type === 'notice' && message.text.startsWith('Restricted Mode')));
        assert.equal(fs.existsSync(marker), false);
        const signal = new AbortController().signal;
        const restricted = (error: unknown): boolean => typeof error === 'object' && error !== null && 'reason' in error && error.reason === 'restricted';
        await assert.rejects(api.agent.port.runInTerminal('echo ran > trust-marker.txt', { timeoutMs: 1000, signal }), restricted);
        await assert.rejects(api.agent.port.createFile('trust-marker.txt', 'x', signal), restricted);
        assert.match((await api.agent.port.readFile('src/greeting.ts', signal)).text, /export function greeting/);
        // Nor does a checkpoint of this very folder restore: a restore writes and deletes files.
        const store = api.agent.checkpoints.store;
        const greetingFile = path.join(root, 'src', 'greeting.ts');
        const now = fs.readFileSync(greetingFile, 'utf8');
        const id = `restricted-${Date.now()}`;
        const folder = vscode.workspace.workspaceFolders?.[0];
        await store.save({
          id,
          conversationId: 'restricted',
          messageId: id,
          createdAt: Date.now(),
          folders: folder ? [{ name: folder.name, fsPath: folder.uri.fsPath }] : [],
          files: [{ path: 'src/greeting.ts', before: await store.putText('export const replaced = true;\n'), after: await store.putText(now) }],
        });
        // Answered as a user who confirms anything would.
        const dialogs = spyOnDialogs((call) => call.items.find((item) => item.startsWith('Restore')));
        try {
          assert.equal(await api.agent.checkpoints.restore(id), 'refused');
        } finally {
          dialogs.restore();
          await store.remove(id);
        }
        assert.match(dialogs.calls[0]?.message ?? '', /^Restricted Mode: Cadenza does not restore checkpoints/);
        assert.equal(fs.readFileSync(greetingFile, 'utf8'), now);
      }
    } finally {
      api.agent.setApprovalPolicy(undefined);
      panel.dispose();
      fs.rmSync(marker, { force: true });
      await vscode.commands.executeCommand('cadenza.clearApiKey');
    }
  });
});
