import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HandledRequest } from '../../src/host/lm/participant';
import { recordedText, recordingStream, type RecordedPart } from '../../src/host/lm/responseTee';
import { loadFixtures } from '../unit/audio/fixtures';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

type Body = {
  model?: string;
  messages?: { role: string; content: unknown; tool_calls?: unknown[] }[];
  tools?: { function: { name: string } }[];
  tool_choice?: unknown;
};

/**
 * @cadenza in VS Code's own chat. Requests go through the real chat: `workbench.action.chat.open` with
 * a query submits it as a user would, VS Code routes it to the participant (parsing the command, the
 * #-references and the selected model), and `onDidHandleRequest` reports what the participant streamed
 * into VS Code's response (VS Code offers no way to read a chat response back). A few cases VS Code's
 * chat input cannot express from here call the handler directly with a recording response stream.
 */
suite('VS Code chat: @cadenza participant', () => {
  const emulator = useEmulator();
  let root: string;
  let handled: HandledRequest[] = [];
  let subscription: vscode.Disposable | undefined;
  const chatBodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);

  /** Sends `query` (with files attached as the chat's paperclip does) through VS Code's chat view and resolves with what @cadenza answered. */
  async function ask(query: string, attachFiles: vscode.Uri[] = []): Promise<HandledRequest> {
    const before = handled.length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: false, ...(attachFiles.length > 0 ? { attachFiles } : {}) });
    await waitFor(() => handled.length > before, `@cadenza to answer "${query}"`, 20_000);
    return handled[before] as HandledRequest;
  }

  async function selectGreeting(): Promise<vscode.TextEditor> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, 'src', 'greeting.ts')));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 3, 1);
    return editor;
  }

  /** A chat request as VS Code would pass it, for the handler called directly. */
  async function directRequest(prompt: string, command: string | undefined, references: vscode.ChatPromptReference[] = []): Promise<vscode.ChatRequest> {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'cadenza', id: 'Meta-Llama-3.3-70B-Instruct' });
    assert.ok(model, 'the Cadenza model is listed');
    return { prompt, command, references, toolReferences: [], toolInvocationToken: undefined as never, model };
  }

  async function runDirect(
    request: vscode.ChatRequest,
    cancel?: vscode.CancellationTokenSource,
  ): Promise<{ result: vscode.ChatResult; parts: RecordedPart[] }> {
    const api = await cadenzaApi();
    const recorder = recordingStream();
    const result = (await api.lm.participantHandler(request, { history: [] }, recorder.stream, (cancel ?? new vscode.CancellationTokenSource()).token)) ?? {};
    return { result, parts: recorder.parts };
  }

  suiteSetup(async function () {
    this.timeout(60_000);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    root = folder.uri.fsPath;
    const api = await cadenzaApi();
    subscription = api.lm.onDidHandleRequest((request) => handled.push(request));
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await vscode.commands.executeCommand('cadenza.refreshModels');
    const built = await vscode.commands.executeCommand<{ status: string }>('cadenza.index.rebuild', { fromScratch: true });
    assert.equal(built.status, 'complete');
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza' })).length > 0, 'Cadenza models in VS Code');
  });
  setup(() => {
    emulator().reset();
    handled = [];
  });
  suiteTeardown(async () => {
    subscription?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.join(root, 'audio'), { recursive: true, force: true });
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test("@cadenza answers a question with the service, using the chat's Cadenza model", async () => {
    emulator().scriptChat({ content: 'greeting() returns "Hello, <name>!".', chunkCount: 4 });
    const answer = await ask('@cadenza what does greeting() return?');
    assert.equal(answer.command, undefined);
    assert.equal(answer.model?.vendor, 'cadenza', 'VS Code picked a Cadenza model for the request');
    assert.equal(recordedText(answer.parts), 'greeting() returns "Hello, <name>!".');
    assert.equal(answer.parts.filter((part) => part.kind === 'markdown').length, 4, "streamed in the service's chunks");
    assert.equal(answer.result.errorDetails, undefined);
    const [body] = chatBodies();
    assert.equal(body?.model, answer.model?.id);
    assert.equal(answer.result.metadata?.['model'], answer.model?.id);
    assert.equal(body?.messages?.at(-1)?.content, 'what does greeting() return?');
    assert.equal(body?.messages?.[0]?.role, 'system');
  });

  test('a follow-up carries the earlier turn of the conversation', async () => {
    emulator().scriptChat({ content: 'First answer.' });
    await ask('@cadenza remember the word lantern');
    emulator().scriptChat({ content: 'Second answer.' });
    await ask('@cadenza which word?');
    const body = chatBodies().at(-1);
    const turns = (body?.messages ?? []).map((message) => `${message.role}:${String(message.content)}`);
    assert.deepEqual(turns.slice(-3), ['user:remember the word lantern', 'assistant:First answer.', 'user:which word?']);
  });

  test('/search renders the index hits as links with lines, score and preview', async () => {
    const answer = await ask('@cadenza /search greeting');
    assert.equal(answer.command, 'search');
    const anchors = answer.parts.filter((part): part is Extract<RecordedPart, { kind: 'anchor' }> => part.kind === 'anchor');
    const greeting = anchors.find((anchor) => anchor.uri.endsWith('/src/greeting.ts'));
    assert.ok(greeting, `anchors: ${JSON.stringify(anchors)}`);
    assert.match(greeting.title ?? '', /^src\/greeting\.ts:\d+-\d+$/);
    assert.ok((greeting.startLine ?? 0) >= 1);
    assert.match(recordedText(answer.parts), /Returns a greeting for/, 'the preview line is shown');
    assert.equal(answer.result.metadata?.['hits'], anchors.length);
    const embeddings = emulator().requests.filter((request) => request.path === '/v1/embeddings');
    assert.equal(embeddings.length, 1, 'the query was embedded once');
    assert.equal(chatBodies().length, 0, '/search needs no chat completion');
  });

  test('/explain explains the selection in the editor', async () => {
    await selectGreeting();
    emulator().scriptChat({ content: 'It builds a greeting.' });
    const answer = await ask('@cadenza /explain');
    assert.equal(answer.command, 'explain');
    assert.equal(recordedText(answer.parts), 'It builds a greeting.');
    const question = String(chatBodies()[0]?.messages?.at(-1)?.content);
    assert.match(question, /^Explain this code/);
    // VS Code's chat attaches the active editor's selection as an implicit reference (tracked with a delay,
    // so it may still hold an earlier selection of this file); without one the participant reads the editor.
    assert.match(question, /src\/greeting\.ts \(lines \d-\d\):\n```typescript\n(.*\n)?export function greeting/);
  });

  test("/explain explains a referenced selection rather than the editor's", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const uri = vscode.Uri.file(path.join(root, 'src', 'math.py'));
    const reference: vscode.ChatPromptReference = { id: 'vscode.implicit.selection', value: new vscode.Location(uri, new vscode.Range(0, 0, 2, 0)) };
    emulator().scriptChat({ content: 'Python explained.' });
    const { result, parts } = await runDirect(await directRequest('why?', 'explain', [reference]));
    assert.equal(result.errorDetails, undefined);
    assert.equal(recordedText(parts), 'Python explained.');
    const question = String(chatBodies()[0]?.messages?.at(-1)?.content);
    assert.match(question, /The user also asks: why\?/);
    assert.match(question, /src\/math\.py \(lines 1-3\):\n```python\n/);
  });

  test('/transcribe transcribes an attached audio file and quotes the transcript', async () => {
    const source = loadFixtures().files.find((file) => file.name === 'mp3-cbr128-info-id3.mp3');
    assert.ok(source, 'the mp3 fixture exists');
    fs.mkdirSync(path.join(root, 'audio'), { recursive: true });
    fs.copyFileSync(source.path, path.join(root, 'audio', 'memo.mp3'));
    emulator().scriptTranscript('Hello from the memo.');
    // A `#file:` typed into the query text is not resolved (only the input's completions make references), so the file is attached.
    const answer = await ask('@cadenza /transcribe English', [vscode.Uri.file(path.join(root, 'audio', 'memo.mp3'))]);
    assert.equal(answer.command, 'transcribe');
    assert.equal(answer.references, 1, 'VS Code passed the attachment as a reference');
    const text = recordedText(answer.parts);
    assert.match(text, /Transcript of\*\* audio\/memo\.mp3 \(Whisper-Large-v3, en, 12\.\d s\):/);
    assert.match(text, /> Hello from the memo\./);
    const upload = emulator().requests.find((request) => request.path === '/v1/audio/transcriptions');
    assert.equal((upload?.body as Record<string, unknown> | undefined)?.['language'], 'en');
  });

  test("a #tool reference makes the model call it through vscode.lm.invokeTool with the chat's invocation token", async () => {
    // VS Code waits for the user to approve a tool call in a chat; its test mode auto-approves instead.
    await vscode.workspace.getConfiguration('chat').update('tools.global.autoApprove', true, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    try {
      emulator().scriptChat({ toolCalls: [{ name: 'cadenza_semanticSearch', arguments: { query: 'greeting' } }] });
      emulator().scriptChat({ content: 'It is in src/greeting.ts.' });
      const answer = await ask('@cadenza #cadenzaSearch where is the greeting?');
      assert.deepEqual(answer.toolReferences, ['cadenza_semanticSearch']);
      assert.equal(answer.result.metadata?.['toolCalls'], 1);
      const [first, second] = chatBodies();
      assert.deepEqual(
        first?.tools?.map((tool) => tool.function.name),
        ['cadenza_semanticSearch'],
      );
      assert.equal(first?.tool_choice, 'required');
      const toolMessage = second?.messages?.find((message) => message.role === 'tool');
      assert.match(String(toolMessage?.content), /src\/greeting\.ts:\d+-\d+/);
      assert.match(recordedText(answer.parts), /It is in src\/greeting\.ts\./);
    } finally {
      await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', false);
      await vscode.workspace.getConfiguration('chat').update('tools.global.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("a service error is the result's error with what fixes it; a cancel ends quietly", async () => {
    const request = await directRequest('hello', undefined);
    await vscode.commands.executeCommand('cadenza.setApiKey', 'wrong-key');
    try {
      const { result } = await runDirect(request);
      assert.match(result.errorDetails?.message ?? '', /API key/i);
      assert.match(result.errorDetails?.message ?? '', /Cadenza: Set API Key/);
    } finally {
      await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    }
    emulator().scriptChat({ content: 'a long answer that stalls', chunkCount: 6 });
    emulator().injectFault({ kind: 'stall', afterChunks: 2 }, { path: '/v1/chat/completions' });
    const cancel = new vscode.CancellationTokenSource();
    setTimeout(() => cancel.cancel(), 500);
    const started = Date.now();
    const { result } = await runDirect(await directRequest('tell me a story', undefined), cancel);
    assert.ok(Date.now() - started < 3000, 'the cancel ended the answer at once');
    assert.equal(result.errorDetails, undefined);
    assert.equal(result.metadata?.['canceled'], true);
  });

  test('without a key the answer says how to set one, with a button', async () => {
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    try {
      // Without a key VS Code lists no Cadenza model, so the request carries another vendor's (or none).
      const model = { vendor: 'other', id: 'other-model' } as unknown as vscode.LanguageModelChat;
      const { result, parts } = await runDirect({
        prompt: 'hello',
        command: undefined,
        references: [],
        toolReferences: [],
        toolInvocationToken: undefined as never,
        model,
      });
      assert.match(result.errorDetails?.message ?? '', /No Cadenza API key/);
      assert.ok(
        parts.some((part) => part.kind === 'button' && part.command === 'cadenza.setApiKey'),
        JSON.stringify(parts),
      );
      assert.equal(chatBodies().length, 0, 'nothing was sent');
    } finally {
      await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    }
  });
});
