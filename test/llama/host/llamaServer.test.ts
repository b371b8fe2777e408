// The real extension, in a real VS Code extension host, against a real llama-server (started by the
// llama tier, test/llama/run.mjs, which passes its address in CADENZA_LLAMA_URL). The user's path:
// point cadenza.baseUrl at the self-hosted server, set a key (llama-server ignores it), refresh the
// models, pick one, and chat in the panel, with options and an image.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToWebview } from '../../../src/shared/protocol';
import { cadenzaApi, openChatView, storedConversation, waitFor } from '../../integration/helpers';
import { drivePanel, type Panel } from '../../integration/panelDriver';
import { pngDataUrl } from '../client/llamaEnv';

type Done = Extract<ToWebview, { type: 'chat/done' }>;

function llamaUrl(): string {
  const url = process.env['CADENZA_LLAMA_URL'];
  // A missing server is a failure, never a skip: only the llama tier runs this suite, and it sets the URL.
  if (!url) throw new Error('CADENZA_LLAMA_URL is not set: this suite runs inside the llama tier (node test/llama/run.mjs)');
  return url;
}

const chatModel = process.env['CADENZA_LLAMA_CHAT_MODEL'] ?? 'cadenza-scripted-qwen2';

suite('llama-server: the extension against a real self-hosted server', () => {
  let panel: Panel;

  suiteSetup(async () => {
    const api = await cadenzaApi();
    panel = drivePanel(api);
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', llamaUrl(), vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('cadenza.setApiKey', 'llama-server-needs-no-key');
    await openChatView(api);
    await panel.newConversation();
  });
  setup(() => panel.clear());
  suiteTeardown(async () => {
    panel.dispose();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
  });

  async function answerDone(): Promise<Done> {
    let done: Done | undefined;
    await waitFor(
      () => (done = panel.messages.filter((m): m is Done => m.type === 'chat/done').at(-1)) !== undefined,
      () => `chat/done; saw ${panel.messages.map((m) => m.type).join(', ')}`,
      60_000,
    );
    if (!done) throw new Error('unreachable');
    return done;
  }

  test('refreshes the models from llama-server and selects its model', async () => {
    const ids = await vscode.commands.executeCommand<string[]>('cadenza.refreshModels');
    assert.ok(ids.includes(chatModel), `models: ${ids.join(', ')}`);
    const api = await cadenzaApi();
    assert.equal(api.connection.model(chatModel)?.ownedBy, 'llamacpp');
    assert.equal(await vscode.commands.executeCommand('cadenza.selectModel', chatModel), chatModel);
    assert.equal(panel.selectedModel(), chatModel);
  });

  test("streams an answer into the panel with the server's token counts, and saves it", async () => {
    const api = await cadenzaApi();
    const { answer } = await panel.send('Say hello.', { temperature: 0, maxTokens: 16 });
    assert.equal(answer, 'Hello!');
    const deltas = panel.messages.flatMap((m) => (m.type === 'chat/delta' ? [m.text] : []));
    assert.equal(deltas.join(''), 'Hello!');
    const done = await answerDone();
    assert.equal(done.error, undefined, JSON.stringify(done.error));
    assert.equal(done.stopped, false);
    assert.ok((done.usage?.completionTokens ?? 0) >= 2, JSON.stringify(done.usage));
    assert.equal((await storedConversation(api, (await panel.conversation()).id))?.messages.at(-1)?.text, 'Hello!');
  });

  test("applies the panel's stop sequence and JSON mode", async () => {
    assert.equal((await panel.send('Say hello.', { temperature: 0, maxTokens: 16, stop: ['!'] })).answer, 'Hello');
    panel.clear();
    const { answer: json } = await panel.send('Any JSON object.', { temperature: 0, maxTokens: 48, jsonMode: 'object' });
    const parsed: unknown = JSON.parse(json);
    assert.equal(typeof parsed, 'object');
    const done = await answerDone();
    assert.equal(done.error, undefined, JSON.stringify(done.error));
  });

  test("sends an image attachment as a data URL to the server's projector", async () => {
    await panel.newConversation();
    await panel.selectModel(chatModel);
    const dataUrl = pngDataUrl();
    const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64').length;
    const { answer } = await panel.send('What is in this picture?', { temperature: 0, maxTokens: 8 }, { image: { name: 'square.png', dataUrl, bytes } });
    assert.equal(answer, 'Hello!');
    const done = await answerDone();
    assert.equal(done.error, undefined, JSON.stringify(done.error));
    assert.ok((done.usage?.promptTokens ?? 0) > 16, 'the image became prompt tokens');
  });
});
