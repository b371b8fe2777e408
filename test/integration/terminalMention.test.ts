// The @terminal mention in the real extension host: a real bash in VS Code's terminal with VS Code's own
// shell integration (injected by VS Code, as for a user), a real command whose output has colours, a
// redrawn progress line and a shell-integration mark, and the text the service receives for the mention:
// the command, what the terminal showed (no escape sequence left, the progress at its last state) and the
// exit code.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import type { MentionCandidate } from '../../src/shared/mentionCandidates';
import { cadenzaApi, openChatView, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };

suite('@terminal in the chat panel', function () {
  this.timeout(120_000);
  const emulator = useEmulator();
  let api: CadenzaApi;
  let panel: Panel;
  let terminal: vscode.Terminal | undefined;

  suiteSetup(async () => {
    api = await cadenzaApi();
    panel = drivePanel(api);
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await openChatView(api);
    await panel.newConversation();
    await panel.selectModel('Meta-Llama-3.1-8B-Instruct');
  });
  suiteTeardown(async () => {
    terminal?.dispose();
    panel.dispose();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  /** Runs `command` through shell integration; resolves with its exit code. */
  function run(integration: vscode.TerminalShellIntegration, command: string): Promise<number | undefined> {
    return new Promise((resolve) => {
      const listener = vscode.window.onDidEndTerminalShellExecution((event) => {
        if (event.terminal !== terminal) return;
        listener.dispose();
        resolve(event.exitCode);
      });
      integration.executeCommand(command);
    });
  }

  /** The @terminal chip's text as the service receives it with a message. */
  async function sendWithTerminal(): Promise<string> {
    const offered = await panel.queryMentions('terminal');
    const candidate = offered.find((entry: MentionCandidate) => entry.kind === 'terminal');
    assert.ok(candidate, `no @terminal offer in ${JSON.stringify(offered.map((entry) => entry.label))}`);
    const chip = await panel.attachMention(candidate);
    assert.ok(chip, 'no chip for @terminal');
    emulator().reset();
    await panel.send('Why did this print that?', {}, { mentions: [chip.token] });
    const body = emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .at(-1)?.body as Body | undefined;
    const content = body?.messages.filter((message) => message.role === 'user').at(-1)?.content;
    return typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');
  }

  test("a bash command's output reaches the request as the terminal showed it, with the command and its exit code", async () => {
    terminal = vscode.window.createTerminal({ name: 'cadenza-bash', shellPath: '/bin/bash' });
    terminal.show();
    const opened = terminal;
    await waitFor(
      () => opened.shellIntegration !== undefined,
      () => `shell integration in the bash terminal (active: ${vscode.window.activeTerminal?.name})`,
      30_000,
    );
    await waitFor(
      () => vscode.window.activeTerminal === opened,
      () => 'the bash terminal to be active',
      10_000,
    );
    const integration = opened.shellIntegration;
    assert.ok(integration);
    // Colours (CSI), a progress line redrawn with \r and ESC [ K, an OSC window title, and an echo whose
    // output is not in the command line (hello-cadenza-42).
    // The sleep: VS Code passes on only the output that reaches the terminal after the command started
    // (the bytes that came with its start mark are not), so a command that ends at once gives none.
    const command =
      "sleep 1; printf '\\033[01;31merror\\033[0m: 3 files\\n'; printf 'fetching  10%%\\rfetching  60%%\\r\\033[Kfetching 100%%\\n'; printf '\\033]0;a title\\007'; echo hello-cadenza-$((40 + 2))";
    assert.equal(await run(integration, command), 0);
    let sent = '';
    await waitFor(
      async () => {
        sent = await sendWithTerminal();
        return sent.includes('hello-cadenza-42');
      },
      () => `the echo in the @terminal text (sent: ${JSON.stringify(sent)})`,
      20_000,
    );
    assert.ok(sent.startsWith('Context: terminal (cadenza-bash)\n'), sent);
    assert.ok(sent.includes(`$ ${command}\n`), sent);
    assert.ok(sent.includes('error: 3 files\nfetching 100%\nhello-cadenza-42\n(exit code 0)'), JSON.stringify(sent));
    // No escape sequence or carriage return left, and no earlier state of the progress line.
    const output = sent.slice(sent.indexOf(`$ ${command}\n`) + command.length + 3);
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\u001b\u0007\r]/.test(output), JSON.stringify(output));
    assert.ok(!output.includes('10%') && !output.includes('60%'), JSON.stringify(output));
    assert.ok(sent.endsWith('Why did this print that?'), sent);

    // A command that printed nothing (or whose output VS Code did not pass on) says so.
    assert.equal(await run(integration, 'true'), 0);
    await waitFor(
      async () => {
        sent = await sendWithTerminal();
        return sent.includes('$ true\n');
      },
      () => `the second command in the @terminal text (sent: ${JSON.stringify(sent)})`,
      20_000,
    );
    assert.ok(sent.includes('$ true\n(no output reached Cadenza'), JSON.stringify(sent));
  });
});
