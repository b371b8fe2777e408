import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadFixtures } from '../unit/audio/fixtures';
import { cadenzaApi, useEmulator } from './helpers';

function text(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

function markdown(value: string | vscode.MarkdownString | undefined): string {
  return typeof value === 'string' ? value : (value?.value ?? '');
}

/**
 * cadenza_semanticSearch and cadenza_transcribeAudio as any agent uses them: listed in vscode.lm.tools,
 * run through vscode.lm.invokeTool (VS Code validates the input, calls prepareInvocation, asks for the
 * confirmation and invokes the tool). In extension-test mode VS Code's DialogService accepts every
 * confirmation without showing it, so the confirmation texts are checked on the registered tools.
 */
suite('VS Code chat: language model tools', () => {
  const emulator = useEmulator();
  let root: string;
  const token = (): vscode.CancellationToken => new vscode.CancellationTokenSource().token;
  const invoke = async (name: string, input: object): Promise<vscode.LanguageModelToolResult> =>
    vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token());

  suiteSetup(async function () {
    this.timeout(120_000);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    root = folder.uri.fsPath;
    const source = loadFixtures().files.find((file) => file.name === 'mp3-cbr128-info-id3.mp3');
    assert.ok(source, 'the mp3 fixture exists');
    fs.mkdirSync(path.join(root, 'media'), { recursive: true });
    fs.copyFileSync(source.path, path.join(root, 'media', 'standup.mp3'));
    await cadenzaApi();
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await vscode.commands.executeCommand('cadenza.refreshModels');
    const built = await vscode.commands.executeCommand<{ status: string }>('cadenza.index.rebuild', { fromScratch: true });
    assert.equal(built.status, 'complete');
  });
  setup(() => emulator().reset());
  suiteTeardown(async () => {
    fs.rmSync(path.join(root, 'media'), { recursive: true, force: true });
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('both tools are listed for every agent with their schemas and tags', () => {
    const search = vscode.lm.tools.find((tool) => tool.name === 'cadenza_semanticSearch');
    const transcribe = vscode.lm.tools.find((tool) => tool.name === 'cadenza_transcribeAudio');
    assert.ok(search && transcribe, 'both tools are registered');
    assert.deepEqual(Reflect.get(search.inputSchema ?? {}, 'required'), ['query']);
    assert.deepEqual(Reflect.get(transcribe.inputSchema ?? {}, 'required'), ['path']);
    assert.ok(search.tags.includes('codesearch'));
    assert.ok(transcribe.tags.includes('transcription'));
  });

  test('cadenza_semanticSearch returns path:lines with previews, best first, embedding only the query', async () => {
    const result = text(await invoke('cadenza_semanticSearch', { query: 'greeting', maxResults: 3 }));
    assert.match(result, /^\d results? for "greeting" \(path:lines, best first\):/);
    assert.match(result, /1\. src\/greeting\.ts:\d+-\d+ \(score \d\.\d{3}, (meaning \+ words|words|meaning)\)\n {3}\/\*\* Returns a greeting/);
    assert.ok(result.split('\n').filter((line) => /^\d+\. /.test(line)).length <= 3, 'at most maxResults');
    const embeddings = emulator().requests.filter((request) => request.path === '/v1/embeddings');
    assert.equal(embeddings.length, 1);
    assert.match(JSON.stringify(embeddings[0]?.body), /Query: greeting/);
  });

  test('cadenza_transcribeAudio uploads the file and returns the transcript', async () => {
    emulator().scriptTranscript('Yesterday we shipped the index.');
    const result = text(await invoke('cadenza_transcribeAudio', { path: 'media/standup.mp3', language: 'English' }));
    assert.equal(result, 'Yesterday we shipped the index.');
    const upload = emulator().requests.find((request) => request.path === '/v1/audio/transcriptions');
    const body = upload?.body as Record<string, unknown> | undefined;
    assert.equal(body?.['model'], 'Whisper-Large-v3');
    assert.equal(body?.['language'], 'en');
    assert.equal((body?.['file'] as { filename?: string } | undefined)?.filename, 'standup.mp3');
  });

  test('the confirmations say what is sent where', async () => {
    const api = await cadenzaApi();
    const search = await api.lm.tools.semanticSearch.prepareInvocation({ input: { query: 'retry logic' } });
    assert.equal(search.confirmationMessages?.title, 'Search the workspace with Cadenza?');
    const searchText = markdown(search.confirmationMessages?.message);
    assert.ok(searchText.includes(emulator().baseUrl), searchText);
    assert.match(searchText, /retry logic/);
    assert.match(searchText, /E5-Mistral-7B-Instruct/);
    assert.match(markdown(search.invocationMessage), /Searching the workspace for "retry logic"/);

    const transcribe = await api.lm.tools.transcribeAudio.prepareInvocation({ input: { path: 'media/standup.mp3' } });
    assert.equal(transcribe.confirmationMessages?.title, 'Transcribe audio with Cadenza?');
    const transcribeText = markdown(transcribe.confirmationMessages?.message);
    assert.ok(transcribeText.includes(`${emulator().baseUrl}/v1/audio/transcriptions`), transcribeText);
    assert.match(transcribeText, /`media\/standup\.mp3` \(0\.2 MB\) is uploaded/);
    assert.match(transcribeText, /Whisper-Large-v3/);
    assert.equal(emulator().requests.filter((request) => request.path !== '/v1/models').length, 0, 'preparing sends nothing');
  });

  test('a missing file, an empty or a missing query is an error the agent can read, and nothing is sent', async () => {
    await assert.rejects(invoke('cadenza_transcribeAudio', { path: 'media/nowhere.mp3' }), /No file at "media\/nowhere\.mp3"/);
    await assert.rejects(invoke('cadenza_semanticSearch', { query: '   ' }), /non-empty "query"/);
    // VS Code 1.139 does not check an extension's invokeTool input against the schema: the tool does.
    await assert.rejects(invoke('cadenza_semanticSearch', { maxResults: 2 }), /non-empty "query"/);
    assert.equal(emulator().requests.filter((request) => request.path.startsWith('/v1/audio') || request.path === '/v1/embeddings').length, 0);
  });

  test('a transcription the service refuses reports the reason', async () => {
    emulator().injectFault(
      {
        kind: 'status',
        status: 400,
        body: '{"error":{"message":"Audio file is corrupted","type":"invalid_request_error","code":"invalid_value","param":"file"}}',
        contentType: 'application/json',
      },
      { path: '/v1/audio/transcriptions' },
    );
    await assert.rejects(
      invoke('cadenza_transcribeAudio', { path: path.join(root, 'media', 'standup.mp3') }),
      /Could not transcribe media\/standup\.mp3: .*Audio file is corrupted/,
    );
  });
});
