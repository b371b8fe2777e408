import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cadenzaApi, openChatView, useEmulator } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

// The key lives only in SecretStorage. The suite observes it the way the panel does: through the
// connection state (`hasKey`) the host posts to the chat view after SecretStorage signals a change.
suite('SecretStorage: the API key', () => {
  const emulator = useEmulator();
  let panel: Panel;

  suiteSetup(async () => {
    const api = await cadenzaApi();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await openChatView(api);
    panel = drivePanel(api);
  });
  suiteTeardown(async () => {
    panel.dispose();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });
  setup(() => panel.clear());

  test('setApiKey with the key as argument stores it; the extension sees hasKey', async () => {
    const stored = await vscode.commands.executeCommand<boolean>('cadenza.setApiKey', emulator().key);
    assert.equal(stored, true);
    const state = await panel.connectionState((s) => s.hasKey, 'hasKey: true');
    assert.equal(state.baseUrl, emulator().baseUrl);
  });

  test('the key itself never reaches the panel', () => {
    assert.ok(!JSON.stringify(panel.messages).includes(emulator().key));
  });

  test('clearApiKey removes it; the extension sees no key', async () => {
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await panel.connectionState((s) => !s.hasKey, 'hasKey: false');
  });

  test('after clearApiKey the key is gone from SecretStorage and no request carries it: chat asks for a key', async () => {
    const api = await cadenzaApi();
    const secrets = api.storage.secrets;
    assert.equal(await vscode.commands.executeCommand<boolean>('cadenza.setApiKey', emulator().key), true);
    await panel.newConversation();
    await panel.selectModel('Meta-Llama-3.1-8B-Instruct');
    emulator().reset();
    await panel.send('Is the key sent?');
    assert.equal(
      emulator()
        .requests.filter((request) => request.path === '/v1/chat/completions')
        .at(-1)?.headers['authorization'],
      '[redacted]',
      'with a key stored, chat sends it',
    );
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    // What the next VS Code session would read.
    assert.equal(await secrets.get('cadenza.apiKey'), undefined, 'the key is still in SecretStorage');
    emulator().reset();
    panel.clear();
    await panel.send('Is the key still sent?');
    const sent = emulator().requests;
    assert.ok(
      sent.every((request) => request.headers['authorization'] === undefined),
      `a request carried a key after clearApiKey (${JSON.stringify(sent.map((request) => request.headers['authorization']))})`,
    );
    const done = panel.messages.find((message) => message.type === 'chat/done');
    assert.ok(done?.type === 'chat/done' && done.error?.action === 'setApiKey', `the answer asks for a key: ${JSON.stringify(done)}`);
  });

  test('a blank key is refused and nothing is stored', async () => {
    panel.clear();
    const stored = await vscode.commands.executeCommand<boolean>('cadenza.setApiKey', '   ');
    assert.equal(stored, false);
    // Each change of the stored key reaches the panel as one connection-state message, in order. Two
    // sentinel changes follow (store a real key, then clear it): once the clear's message has arrived, a
    // message from a blank key stored by mistake would have arrived before it, however late it came.
    assert.equal(await vscode.commands.executeCommand<boolean>('cadenza.setApiKey', `${emulator().key}-sentinel`), true);
    await panel.connectionState((s) => s.hasKey, 'hasKey: true (the sentinel key)');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await panel.connectionState((s) => !s.hasKey, 'hasKey: false (the sentinel cleared)');
    const states = panel.messages.flatMap((message) => (message.type === 'state/connection' ? [message.state.hasKey] : []));
    assert.deepEqual(states, [true, false], 'only the two sentinel changes reached the panel: the blank key changed nothing');
  });

  test('setting the key again after a clear works (round trip twice)', async () => {
    assert.equal(await vscode.commands.executeCommand<boolean>('cadenza.setApiKey', `${emulator().key}-2`), true);
    await panel.connectionState((s) => s.hasKey, 'hasKey: true');
    panel.clear();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await panel.connectionState((s) => !s.hasKey, 'hasKey: false');
  });
});
