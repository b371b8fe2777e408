import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cadenzaApi, openChatView, useEmulator } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

suite('Chat view', () => {
  let panel: Panel;
  // The recorder is attached before useEmulator() sets cadenza.baseUrl, so the state the host posts for
  // that change (or on the view's first `ready`) is recorded whichever suite resolved the view first.
  suiteSetup(async () => {
    panel = drivePanel(await cadenzaApi());
  });
  const emulator = useEmulator();
  suiteTeardown(() => panel.dispose());

  test('openChat resolves the webview view (onDidResolve / isResolved)', async () => {
    const api = await cadenzaApi();
    await openChatView(api);
    assert.equal(api.chatView.isResolved, true);
  });

  test('the panel is told the configured service address and that no key is set', async () => {
    const state = await panel.connectionState((s) => s.baseUrl === emulator().baseUrl, `baseUrl ${emulator().baseUrl}`);
    assert.equal(state.hasKey, false);
  });

  test('changing cadenza.baseUrl updates the panel', async () => {
    const moved = `${emulator().baseUrl}/moved`;
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', moved, vscode.ConfigurationTarget.Global);
    await panel.connectionState((s) => s.baseUrl === moved, `baseUrl ${moved}`);
    panel.clear();
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', emulator().baseUrl, vscode.ConfigurationTarget.Global);
    await panel.connectionState((s) => s.baseUrl === emulator().baseUrl, `baseUrl ${emulator().baseUrl} again`);
  });

  test('chat/send re-checks the image the webview sends: a string that is not an image is refused, never stored or sent', async () => {
    const api = await cadenzaApi();
    await openChatView(api);
    await panel.newConversation();
    const before = emulator().requests.length;
    panel.clear();
    for (const dataUrl of ['data:image/png;base64,QUJDRA==', 'https://example.com/x.png', 'data:text/html;base64,PGgxPg==']) {
      await panel.send('What is this?', {}, { image: { name: 'x.png', dataUrl, bytes: dataUrl.length } });
    }
    assert.equal(panel.messages.filter((message) => message.type === 'notice' && message.level === 'error').length, 3, JSON.stringify(panel.messages));
    assert.equal(
      panel.messages.some((message) => message.type === 'message/add'),
      false,
      'the message was stored',
    );
    assert.deepEqual((await panel.conversation()).messages, []);
    assert.equal(emulator().requests.length, before, 'something was sent to the service');
  });
});
