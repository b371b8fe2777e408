// Reasoning models in the panel and the editor commands: thinking that outlasts the time-out is one
// request (never cut off and re-billed), shown apart in the panel, kept with the answer but out of its
// text, out of the history sent back, out of what the commands return, and the controls reach the request.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToWebview } from '../../src/shared/protocol';
import { cadenzaApi, storedConversation } from './helpers';
import { useChatSuite } from './panelDriver';

type Done = Extract<ToWebview, { type: 'chat/done' }>;
const thinker = 'DeepSeek-R1';
const thought = 'The user greets me. I should answer briefly, and mention the weather is not known to me.';

suite('Reasoning models: thinking apart from the answer', () => {
  const { emulator, panel } = useChatSuite(thinker);

  suiteSetup(async () => {
    // One second: the thinking below lasts three.
    await vscode.workspace.getConfiguration('cadenza').update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('cadenza').update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  test('three seconds of thinking under a one-second time-out: one request, thinking streamed apart, answer clean', async () => {
    const api = await cadenzaApi();
    emulator().scriptChat({ content: 'Hello! I cannot see the weather.', reasoning: thought, thinkMs: 3000 });
    const { answer } = await panel().send('Hi, how is the weather?');
    assert.equal(answer, 'Hello! I cannot see the weather.');
    assert.equal(emulator().requests.filter((request) => request.path === '/v1/chat/completions').length, 1, 'nothing was retried');
    const streamed = panel()
      .messages.filter((message) => message.type === 'chat/reasoning')
      .map((message) => (message as { text: string }).text)
      .join('');
    assert.equal(streamed, thought, 'the thinking reached the panel, whole, as reasoning');
    const deltas = panel()
      .messages.filter((message) => message.type === 'chat/delta')
      .map((message) => (message as { text: string }).text)
      .join('');
    assert.equal(deltas, answer, 'no thinking in the answer text');
    const done = panel()
      .messages.filter((message): message is Done => message.type === 'chat/done')
      .at(-1);
    assert.equal(done?.error, undefined);
    assert.ok((done?.reasoningMs ?? 0) >= 2000, `thinking took about 3 s, reported ${done?.reasoningMs} ms`);
    const stored = (await storedConversation(api, (await panel().conversation()).id))?.messages.at(-1);
    assert.equal(stored?.text, answer);
    assert.equal(stored?.reasoning?.text, thought);
  });

  test('the thinking is never sent back to the model in the history', async () => {
    await panel().send('And tomorrow?');
    const body = emulator().requests.find((request) => request.path === '/v1/chat/completions')?.body as { messages: { role: string; content: string }[] };
    const history = JSON.stringify(body.messages);
    assert.ok(history.includes('Hello! I cannot see the weather.'), 'the earlier answer is in the history');
    assert.ok(!history.includes('The user greets me'), 'its thinking is not');
    assert.ok(!history.includes('<think>'));
  });

  test('Explain Selection returns the answer without the thinking', async () => {
    emulator().scriptChat({ content: 'It adds two numbers.', reasoning: 'Look at the body: a + b.', thinkMs: 300 });
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const add = (a: number, b: number) => a + b;\n' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 0, 44);
    const answer = await vscode.commands.executeCommand<string>('cadenza.explainSelection');
    assert.equal(answer, 'It adds two numbers.');
  });

  test('a model that takes tools thinks in an agent step: the panel is told how long, as for a plain answer', async () => {
    // gpt-oss-120b takes tools, so the panel answers with the agent; its steps reported no thinking time
    // (found with llama-server's Qwen3-template model in the llama tier, whose template takes tools too).
    await panel().newConversation();
    await vscode.commands.executeCommand('cadenza.selectModel', 'gpt-oss-120b');
    emulator().scriptChat({ content: 'Hello!', reasoning: 'Nothing to look up.', thinkMs: 600 });
    const { answer, posted, done } = await panel().send('Hi');
    assert.equal(answer, 'Hello!');
    assert.ok(
      posted.some((message) => message.type === 'chat/reasoning'),
      posted.map((message) => message.type).join(', '),
    );
    assert.ok((done?.reasoningMs ?? 0) >= 400, `thinking took about 0.6 s, reported ${String(done?.reasoningMs)} ms`);
  });

  // Rewrite Selection with a reasoning model: test/ui/editorCommands.ui.mjs (the command takes no arguments).

  test('reasoning controls reach the request only for models that take them', async () => {
    await panel().newConversation();
    await vscode.commands.executeCommand('cadenza.selectModel', 'gpt-oss-120b');
    await panel().send('Quick one', { reasoningEffort: 'low', thinking: false });
    await vscode.commands.executeCommand('cadenza.selectModel', 'Qwen3-32B');
    await panel().send('Another', { reasoningEffort: 'low', thinking: false });
    await vscode.commands.executeCommand('cadenza.selectModel', 'Meta-Llama-3.3-70B-Instruct');
    await panel().send('Plain', { reasoningEffort: 'low', thinking: false });
    const bodies = emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Record<string, unknown>);
    assert.equal(bodies[0]?.['reasoning_effort'], 'low');
    assert.equal(bodies[0]?.['chat_template_kwargs'], undefined);
    assert.deepEqual(bodies[1]?.['chat_template_kwargs'], { enable_thinking: false });
    assert.equal(bodies[1]?.['reasoning_effort'], undefined);
    assert.equal(bodies[2]?.['reasoning_effort'], undefined);
    assert.equal(bodies[2]?.['chat_template_kwargs'], undefined);
    const models = panel()
      .messages.filter((message) => message.type === 'state/models')
      .at(-1) as Extract<ToWebview, { type: 'state/models' }> | undefined;
    assert.deepEqual(models?.models.find((model) => model.id === 'gpt-oss-120b')?.reasoning, ['effort']);
  });
});
