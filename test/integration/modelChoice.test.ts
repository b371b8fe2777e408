// One model resolution for every entry point (core/chat/modelChoice.ts): with nothing chosen for it,
// @cadenza answers with the model the panel answers with. VS Code's chat hands @cadenza the model of its
// own picker; when that is another vendor's (VS Code's default in a profile with Copilot's models) @cadenza
// picks as the panel does. What each asked the service for is read from the emulator's requests.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { recordingStream } from '../../src/host/lm/responseTee';
import { cadenzaApi } from './helpers';
import { useChatSuite } from './panelDriver';

/** VS Code's chat on a model that is not Cadenza's. */
const otherVendorModel = { vendor: 'other', id: 'other-model' } as unknown as vscode.LanguageModelChat;

suite('One model for every entry point', () => {
  const { emulator, panel } = useChatSuite();

  /** The model each chat request to the service named, in order. */
  const requestedModels = (): (string | undefined)[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => (request.body as { model?: string }).model);

  /** Asks @cadenza through its handler, as VS Code's chat would with its picker on another vendor's model. */
  async function askCadenza(prompt: string): Promise<vscode.ChatResult> {
    const api = await cadenzaApi();
    const recorder = recordingStream();
    const request = {
      prompt,
      command: undefined,
      references: [],
      toolReferences: [],
      toolInvocationToken: undefined as never,
      model: otherVendorModel,
    } satisfies vscode.ChatRequest;
    return (await api.lm.participantHandler(request, { history: [] }, recorder.stream, new vscode.CancellationTokenSource().token)) ?? {};
  }

  test("with nothing chosen (a fresh profile's new conversation), @cadenza and the panel answer with the same model", async () => {
    await vscode.commands.executeCommand('cadenza.refreshModels');
    const cadenza = await askCadenza('Which model are you?');
    assert.equal(cadenza.errorDetails, undefined, JSON.stringify(cadenza.errorDetails));
    await panel().send('Which model are you?');
    const [fromCadenza, fromPanel] = requestedModels();
    assert.ok(fromCadenza !== undefined && fromPanel !== undefined, `two requests: ${JSON.stringify(requestedModels())}`);
    assert.equal(fromCadenza, fromPanel);
    assert.equal(cadenza.metadata?.['model'], fromPanel);
  });

  test('after the panel chatted with a model, @cadenza in a new conversation answers with it too', async () => {
    // Not the first model the service lists, nor the default: the last model used is what decides.
    await vscode.commands.executeCommand('cadenza.selectModel', 'Llama-4-Maverick-17B-128E-Instruct');
    await panel().newConversation();
    emulator().reset();
    await askCadenza('Which model are you?');
    await panel().send('Which model are you?');
    assert.deepEqual(requestedModels(), ['Llama-4-Maverick-17B-128E-Instruct', 'Llama-4-Maverick-17B-128E-Instruct']);
  });
});
