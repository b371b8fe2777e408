// A new user's first minutes, in the profile exactly as the harness made it (index.ts runs this suite
// first): no key, no settings, no stored conversation, no model picked. The first question must be
// answered, the picker must show the model that answers it, and Explain Selection must work straight
// after Set API Key. Each check here failed before models were resolved at send time.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToWebview } from '../../src/shared/protocol';
import { cadenzaApi, openChatView, storedConversation, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

type ModelsState = Extract<ToWebview, { type: 'state/models' }>;
/** The largest general chat model of the emulator's catalogue: the default a new user gets. */
const defaultModel = 'Meta-Llama-3.3-70B-Instruct';

function chatRequests(emulator: ReturnType<ReturnType<typeof useEmulator>>): { model?: string; messages?: { role: string; content: unknown }[] }[] {
  return emulator.requests.filter((request) => request.path === '/v1/chat/completions').map((request) => request.body as { model?: string });
}

suite('First run: a fresh profile, nothing set', () => {
  let attached: Panel | undefined;
  const panel = (): Panel => {
    if (!attached) throw new Error('the panel driver is not attached');
    return attached;
  };
  suiteSetup(async () => {
    attached = drivePanel(await cadenzaApi());
  });
  const emulator = useEmulator();
  suiteTeardown(async () => {
    attached?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('cadenza.chat').update('model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('the profile really is fresh: no key, no chat model setting, an empty conversation with no model', async () => {
    const api = await cadenzaApi();
    await openChatView(api);
    await panel().connectionState((state) => !state.hasKey, 'no key stored');
    assert.equal(vscode.workspace.getConfiguration('cadenza.chat').get<string>('model'), '');
    const conversation = await panel().conversation();
    assert.equal(conversation.messages.length, 0);
    assert.equal(conversation.model, undefined);
  });

  test('the first question typed after setting the key is answered, by the default model, without picking one', async () => {
    const api = await cadenzaApi();
    // The key is set and the question sent at once: the model list has not arrived yet.
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    const { answer } = await panel().send('What can you do?');
    assert.match(answer, /You asked: What can you do/);
    const requests = chatRequests(emulator());
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.model, defaultModel);
    const messages = panel().messages;
    assert.ok(
      !messages.some((message) => message.type === 'notice' && message.level === 'error'),
      `no error notice: ${JSON.stringify(messages.filter((m) => m.type === 'notice'))}`,
    );
    // The picker shows the model that answered, from the start: the last models state names it.
    const states = messages.filter((message): message is ModelsState => message.type === 'state/models' && !message.loading && message.models.length > 0);
    assert.equal(states.at(-1)?.selected, defaultModel);
    assert.equal((await storedConversation(api, (await panel().conversation()).id))?.model, defaultModel, 'the conversation keeps the model that answered');
  });

  test('a new conversation shows the resolved model before anything is sent', async () => {
    panel().clear();
    await panel().newConversation();
    await waitFor(
      () => panel().messages.some((message) => message.type === 'state/models' && message.selected !== undefined),
      'a models state with a selected model',
    );
    const state = panel()
      .messages.filter((message): message is ModelsState => message.type === 'state/models')
      .at(-1);
    // The last model used is the default for a new conversation once the user has chatted.
    assert.equal(state?.selected, defaultModel);
  });

  test('Explain Selection from the palette right after Set API Key, with cadenza.chat.model set, answers with that model', async () => {
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await vscode.workspace.getConfiguration('cadenza.chat').update('model', 'Meta-Llama-3.1-8B-Instruct', vscode.ConfigurationTarget.Global);
    await panel().newConversation();
    emulator().reset();
    const document = await vscode.workspace.openTextDocument({
      language: 'typescript',
      content: 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
    });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    const answer = await vscode.commands.executeCommand<string>('cadenza.explainSelection');
    assert.ok(typeof answer === 'string' && answer.length > 0, `Explain Selection answered: ${JSON.stringify(answer)}`);
    const requests = chatRequests(emulator());
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.model, 'Meta-Llama-3.1-8B-Instruct');
  });
});
