// A real server's thinking in the real panel: the llama tier's thinking server (chat-thinking.gguf behind
// Qwen3's template, --reasoning-format deepseek; test/llama/servers.mjs) streams `reasoning_content` and
// then the answer. The panel must be sent the thinking as `chat/reasoning` before any `chat/delta`, and
// the saved reply must keep the thinking apart from its text.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cadenzaApi, openChatView, storedConversation } from '../../integration/helpers';
import { drivePanel, type Panel } from '../../integration/panelDriver';

function thinkingUrl(): string {
  const url = process.env['CADENZA_LLAMA_THINKING_URL'];
  // A missing server is a failure, never a skip: only the llama tier runs this suite, and it sets the URL.
  if (!url) throw new Error('CADENZA_LLAMA_THINKING_URL is not set: this suite runs inside the llama tier (node test/llama/run.mjs)');
  return url;
}

const thinkingModel = process.env['CADENZA_LLAMA_THINKING_MODEL'] ?? 'cadenza-thinking-qwen3';

suite("llama-server: a thinking model's reasoning_content in the panel", () => {
  let panel: Panel;

  suiteSetup(async () => {
    const api = await cadenzaApi();
    panel = drivePanel(api);
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', thinkingUrl(), vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('cadenza.setApiKey', 'llama-server-needs-no-key');
    await openChatView(api);
    const ids = await vscode.commands.executeCommand<string[]>('cadenza.refreshModels');
    assert.ok(ids.includes(thinkingModel), `models: ${ids.join(', ')}`);
    await panel.newConversation();
    await panel.selectModel(thinkingModel);
  });
  suiteTeardown(async () => {
    panel.dispose();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await vscode.workspace.getConfiguration('cadenza').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
  });

  test("the thinking reaches the panel as chat/reasoning before the answer's deltas, and is saved apart from the text", async () => {
    const api = await cadenzaApi();
    const { answer, posted, done } = await panel.send('Say hello.', { temperature: 0, maxTokens: 32 });
    assert.equal(done?.error, undefined, JSON.stringify(done?.error));
    assert.equal(answer, 'Hello!');
    const kinds = posted.map((message) => message.type);
    const thought = posted.flatMap((message) => (message.type === 'chat/reasoning' ? [message.text] : [])).join('');
    assert.match(thought, /user greets me/);
    assert.ok(kinds.indexOf('chat/reasoning') !== -1 && kinds.indexOf('chat/reasoning') < kinds.indexOf('chat/delta'), kinds.join(', '));
    const deltas = posted.flatMap((message) => (message.type === 'chat/delta' ? [message.text] : [])).join('');
    assert.equal(deltas, 'Hello!', 'no thinking and no tags in the answer text');
    assert.equal(typeof done?.reasoningMs, 'number', 'the panel is told how long the model thought');
    const stored = (await storedConversation(api, (await panel.conversation()).id))?.messages.at(-1);
    assert.equal(stored?.text, 'Hello!');
    assert.match(stored?.reasoning?.text ?? '', /user greets me/);
    assert.doesNotMatch(stored?.reasoning?.text ?? '', /think>/);
  });
});
