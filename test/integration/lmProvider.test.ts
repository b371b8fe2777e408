import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

type WireMessage = { role: string; content: unknown; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string };
type Body = {
  model?: string;
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
  messages: WireMessage[];
  tools?: { function: { name: string } }[];
  tool_choice?: unknown;
};

const llama = 'Meta-Llama-3.3-70B-Instruct';
const maverick = 'Llama-4-Maverick-17B-128E-Instruct';
/** A real 1×1 PNG (the emulator checks the image data). */
const pngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** VS Code 1.139 passes the capabilities it received to callers (not in the 1.104 API types). */
function runtimeCapabilities(model: vscode.LanguageModelChat): { image: unknown; tools: unknown } {
  const capabilities: unknown = Reflect.get(model, 'capabilities');
  assert.ok(typeof capabilities === 'object' && capabilities !== null, "VS Code exposes the model's capabilities");
  return { image: Reflect.get(capabilities, 'supportsImageToText'), tools: Reflect.get(capabilities, 'supportsToolCalling') };
}

/** LanguageModelDataPart.image: in VS Code 1.139's API object, not in the 1.104 types. */
function imagePart(bytes: Uint8Array, mimeType: string): vscode.LanguageModelTextPart {
  const dataPart: unknown = Reflect.get(vscode, 'LanguageModelDataPart');
  assert.equal(typeof dataPart, 'function', 'this VS Code has LanguageModelDataPart');
  const image: unknown = Reflect.get(dataPart as object, 'image');
  assert.equal(typeof image, 'function');
  // Typed as a text part only to fit the 1.104 signature of LanguageModelChatMessage.User.
  return Reflect.apply(image as (data: Uint8Array, mime: string) => unknown, dataPart, [bytes, mimeType]) as vscode.LanguageModelTextPart;
}

async function collect(response: vscode.LanguageModelChatResponse): Promise<unknown[]> {
  const parts: unknown[] = [];
  for await (const part of response.stream) parts.push(part);
  return parts;
}

/**
 * The language model provider as other extensions and VS Code's chat use it: vscode.lm.selectChatModels
 * lists Cadenza's models (VS Code asks the provider), model.sendRequest streams through the provider to
 * the emulated service, and countTokens comes from the provider's estimate.
 */
suite('VS Code chat: language model provider', () => {
  const emulator = useEmulator();
  const token = (): vscode.CancellationToken => new vscode.CancellationTokenSource().token;
  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const model = async (id: string): Promise<vscode.LanguageModelChat> => {
    const [found] = await vscode.lm.selectChatModels({ vendor: 'cadenza', id });
    assert.ok(found, `${id} is offered in VS Code`);
    return found;
  };

  suiteSetup(async function () {
    this.timeout(60_000);
    await cadenzaApi();
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await vscode.commands.executeCommand('cadenza.refreshModels');
    const built = await vscode.commands.executeCommand<{ status: string }>('cadenza.index.rebuild', { fromScratch: true });
    assert.equal(built.status, 'complete');
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza' })).length > 0, 'Cadenza models in VS Code');
  });
  setup(() => emulator().reset());
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test("lists the service's chat models in VS Code with context, output limit and image/tool capabilities", async () => {
    const models = await vscode.lm.selectChatModels({ vendor: 'cadenza' });
    const expected = emulator()
      .models.filter((entry) => entry.kind !== 'speechToText' && entry.kind !== 'embeddings')
      .map((entry) => entry.id)
      .sort();
    assert.deepEqual(models.map((entry) => entry.id).sort(), expected, 'chat-capable models only');
    const big = await model(llama);
    assert.equal(big.maxInputTokens, 131072 - 4096, 'context minus the answer reserved by default');
    assert.equal(big.family, llama);
    assert.deepEqual(runtimeCapabilities(big), { image: false, tools: true });
    assert.deepEqual(runtimeCapabilities(await model(maverick)), { image: true, tools: true });
    assert.deepEqual(runtimeCapabilities(await model('DeepSeek-R1')), { image: false, tools: false });
    const api = await cadenzaApi();
    const info = (await api.lm.provider.provideLanguageModelChatInformation({ silent: true }, token())).find((entry) => entry.id === llama);
    assert.equal(info?.maxOutputTokens, 16384);
    assert.match(info?.tooltip ?? '', /128K context, up to 16K output tokens, tools/);
  });

  test('streams text through model.sendRequest, passes sampling options, and counts tokens by estimate', async () => {
    emulator().scriptChat({ content: 'One two three four five six.', chunkCount: 3 });
    const chat = await model(llama);
    const response = await chat.sendRequest(
      [vscode.LanguageModelChatMessage.User('Count to six')],
      { modelOptions: { temperature: 0.2, max_tokens: 50 } },
      token(),
    );
    const parts = await collect(response);
    assert.ok(parts.every((part) => part instanceof vscode.LanguageModelTextPart));
    assert.equal(parts.length, 3, 'streamed as the service sent it');
    assert.equal(parts.map((part) => (part as vscode.LanguageModelTextPart).value).join(''), 'One two three four five six.');
    const [body] = bodies();
    assert.equal(body?.model, llama);
    assert.equal(body?.stream, true);
    assert.equal(body?.max_tokens, 50);
    assert.equal(body?.temperature, 0.2);
    assert.deepEqual(body?.messages, [{ role: 'user', content: 'Count to six' }]);
    assert.equal(await chat.countTokens('abcdefgh'), 2);
    assert.equal(await chat.countTokens(vscode.LanguageModelChatMessage.User('abcdefgh')), 6);
  });

  test('streams whole tool calls, and the results invoked through vscode.lm.invokeTool go back as tool messages', async () => {
    const tools: vscode.LanguageModelChatTool[] = vscode.lm.tools
      .filter((tool) => tool.name.startsWith('cadenza_'))
      .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
    assert.equal(tools.length, 2);
    emulator().scriptChat({
      fragmented: true,
      toolCalls: [
        { name: 'cadenza_semanticSearch', arguments: { query: 'greeting', maxResults: 3 } },
        { name: 'cadenza_semanticSearch', arguments: { query: 'add numbers' } },
      ],
    });
    const chat = await model(llama);
    const question = vscode.LanguageModelChatMessage.User('Where is the greeting?');
    const parts = await collect(await chat.sendRequest([question], { tools, toolMode: vscode.LanguageModelChatToolMode.Required }, token()));
    const calls = parts.filter((part): part is vscode.LanguageModelToolCallPart => part instanceof vscode.LanguageModelToolCallPart);
    assert.equal(calls.length, 2, 'each call once, complete');
    assert.deepEqual(
      calls.map((call) => call.input),
      [{ query: 'greeting', maxResults: 3 }, { query: 'add numbers' }],
    );
    assert.notEqual(calls[0]?.callId, calls[1]?.callId);
    const first = bodies()[0];
    assert.deepEqual(first?.tools?.map((tool) => tool.function.name).sort(), ['cadenza_semanticSearch', 'cadenza_transcribeAudio']);
    assert.equal(first?.tool_choice, 'required');

    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of calls) {
      const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: undefined }, token());
      results.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
    }
    emulator().scriptChat({ content: 'It is in src/greeting.ts.' });
    const answer = await collect(
      await chat.sendRequest([question, vscode.LanguageModelChatMessage.Assistant(calls), vscode.LanguageModelChatMessage.User(results)], { tools }, token()),
    );
    assert.equal(answer.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join(''), 'It is in src/greeting.ts.');
    const second = bodies().at(-1);
    assert.equal(second?.tool_choice, 'auto');
    const [user, assistant, ...toolMessages] = second?.messages ?? [];
    assert.equal(user?.role, 'user');
    assert.deepEqual(
      assistant?.tool_calls?.map((call) => call.id),
      calls.map((call) => call.callId),
    );
    assert.deepEqual(
      toolMessages.map((message) => [message.role, message.tool_call_id]),
      calls.map((call) => ['tool', call.callId]),
    );
    assert.match(String(toolMessages[0]?.content), /src\/greeting\.ts:\d+-\d+/);
  });

  test('sends only the newest image of a request, as a data URL, to a vision model', async () => {
    emulator().scriptChat({ content: 'Two squares.' });
    const png = Buffer.from(pngBase64, 'base64');
    const chat = await model(maverick);
    await collect(
      await chat.sendRequest(
        [
          vscode.LanguageModelChatMessage.User([new vscode.LanguageModelTextPart('What is this?'), imagePart(png, 'image/png')]),
          vscode.LanguageModelChatMessage.Assistant('A square.'),
          vscode.LanguageModelChatMessage.User([new vscode.LanguageModelTextPart('And this one?'), imagePart(png, 'image/png')]),
        ],
        {},
        token(),
      ),
    );
    const messages = bodies()[0]?.messages ?? [];
    assert.equal(messages.length, 3);
    assert.match(String(messages[0]?.content), /^What is this\?\n\n\[An earlier image is not resent/);
    assert.deepEqual(messages[2]?.content, [
      { type: 'text', text: 'And this one?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
    ]);
  });

  test('a service error rejects with what fixes it; a cancel ends the stream at once', async () => {
    emulator().injectFault(
      {
        kind: 'status',
        status: 401,
        body: '{"error":{"message":"Invalid API key","type":"invalid_request_error","code":"invalid_api_key","param":null}}',
        contentType: 'application/json',
      },
      { path: '/v1/chat/completions' },
    );
    const chat = await model(llama);
    await assert.rejects(
      async () => collect(await chat.sendRequest([vscode.LanguageModelChatMessage.User('hello')], {}, token())),
      (error: unknown) => {
        assert.match(String(error instanceof Error ? error.message : error), /Run "Cadenza: Set API Key"/);
        return true;
      },
    );

    emulator().scriptChat({ content: 'a long answer that stalls after a few words', chunkCount: 8 });
    emulator().injectFault({ kind: 'stall', afterChunks: 3 }, { path: '/v1/chat/completions' });
    const source = new vscode.CancellationTokenSource();
    const response = await chat.sendRequest([vscode.LanguageModelChatMessage.User('a story')], {}, source.token);
    let text = '';
    let cancelledAt = 0;
    try {
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) text += part.value;
        if (cancelledAt === 0) {
          cancelledAt = Date.now();
          source.cancel();
        }
      }
    } catch (error) {
      assert.ok(
        error instanceof vscode.CancellationError || (error instanceof Error && /cancel/i.test(error.name + error.message)),
        `only a cancellation, not ${String(error)}`,
      );
    }
    assert.ok(text.length > 0);
    assert.ok(Date.now() - cancelledAt < 2000, 'the stream ended at once');
  });

  test('without a key no model is offered, and setting it brings them back with a change event', async () => {
    let changes = 0;
    const subscription = vscode.lm.onDidChangeChatModels(() => {
      changes += 1;
    });
    try {
      await vscode.commands.executeCommand('cadenza.clearApiKey');
      await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza' })).length === 0, 'no Cadenza model without a key');
      await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
      await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza' })).length > 0, 'the models back with the key');
      assert.ok(changes >= 2, `VS Code saw ${changes} changes`);
    } finally {
      subscription.dispose();
    }
  });

  test('a listing that fails offers no models and never throws', async function () {
    this.timeout(60_000);
    emulator().injectFault({ kind: 'status', status: 500 }, { path: '/v1/models', times: 20 });
    assert.deepEqual(await vscode.commands.executeCommand('cadenza.refreshModels'), []);
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza' })).length === 0, 'no Cadenza model after a failed listing', 30_000);
    emulator().reset();
    await vscode.commands.executeCommand('cadenza.refreshModels');
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza' })).length > 0, 'the models back after a good listing');
  });
});
