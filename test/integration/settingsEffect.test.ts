// Each setting's effect, not just its value: what reaches the service (the emulator records every request)
// and what lands in the editor or the clipboard. settings.test.ts checks that the settings exist and read
// back; this suite checks that changing one changes what Cadenza does.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AudioFileResult } from '../../src/host/audio/transcribeCommand';
import type { ToWebview } from '../../src/shared/protocol';
import { startEmulator, type RunningEmulator } from '../support/emulator/emulator';
import { loadFixtures } from '../unit/audio/fixtures';
import { cadenzaApi, openChatView, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

type Done = Extract<ToWebview, { type: 'chat/done' }>;
type ChatBody = {
  model?: string;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  max_tokens?: number;
  stop?: string[];
  messages: { role: string; content: unknown }[];
};

/** The `cadenza.chat.*` values this suite sets; none is a default, and the model is not the first listed. */
const chatDefaults = {
  model: 'Meta-Llama-3.3-70B-Instruct',
  temperature: 0.35,
  topP: 0.8,
  topK: 17,
  maxTokens: 123,
  stop: ['END', '###'],
  systemPrompt: 'You answer as the settings test.',
} as const;

suite('Settings take effect', () => {
  const emulator = useEmulator();
  let panel: Panel;
  const chatRequests = (from: RunningEmulator): ChatBody[] =>
    from.requests.filter((request) => request.path === '/v1/chat/completions').map((request) => request.body as ChatBody);
  const lastDone = (): Done | undefined => panel.messages.filter((message): message is Done => message.type === 'chat/done').at(-1);
  const update = async (section: string, key: string, value: unknown): Promise<void> => {
    await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
  };

  suiteSetup(async function () {
    this.timeout(60_000);
    const api = await cadenzaApi();
    panel = drivePanel(api);
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await openChatView(api);
    await vscode.commands.executeCommand('cadenza.refreshModels');
  });
  setup(() => {
    emulator().reset();
    panel.clear();
  });
  suiteTeardown(async () => {
    for (const key of Object.keys(chatDefaults)) await update('cadenza.chat', key, undefined);
    for (const key of ['chatBaseUrl', 'requestTimeoutSeconds', 'maxRetries']) await update('cadenza', key, undefined);
    await update('cadenza.audio', 'output', undefined);
    panel.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  /** Explains a one-line selection through the real command: it sends with the conversation's options. */
  const explainSomething = async (): Promise<string | undefined> => {
    const document = await vscode.workspace.openTextDocument({ language: 'javascript', content: 'const answer = 42;\n' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 0, 18);
    return vscode.commands.executeCommand<string>('cadenza.explainSelection');
  };

  test('every cadenza.chat.* default reaches the request of a new conversation', async () => {
    for (const [key, value] of Object.entries(chatDefaults)) await update('cadenza.chat', key, value);
    await panel.newConversation();
    emulator().scriptChat({ content: 'It is the answer.' });
    assert.equal(await explainSomething(), 'It is the answer.');
    const [body] = chatRequests(emulator());
    assert.ok(body, 'a chat request reached the service');
    assert.equal(body.model, chatDefaults.model);
    assert.equal(body.temperature, chatDefaults.temperature);
    assert.equal(body.top_p, chatDefaults.topP);
    assert.equal(body.top_k, chatDefaults.topK);
    assert.equal(body.max_tokens, chatDefaults.maxTokens);
    assert.deepEqual(body.stop, chatDefaults.stop);
    // The system prompt is the first message; with a model that takes tools, after the agent's own preamble.
    const system = body.messages[0];
    assert.equal(system?.role, 'system');
    assert.ok(
      String(system.content) === chatDefaults.systemPrompt || String(system.content).endsWith(`\n\n${chatDefaults.systemPrompt}`),
      `the system message: ${JSON.stringify(system.content)}`,
    );
  });

  test('with the chat defaults empty, the request leaves the service its defaults', async () => {
    for (const key of Object.keys(chatDefaults)) await update('cadenza.chat', key, undefined);
    await panel.newConversation();
    emulator().scriptChat({ content: 'Plain.' });
    assert.equal(await explainSomething(), 'Plain.');
    const [body] = chatRequests(emulator());
    assert.ok(body, 'a chat request reached the service');
    // Empty model setting: the model last used (the previous test's), as a new conversation resolves it
    // (issue 11: conversation, setting, last used, then the service's default). Empty max tokens: 4096.
    assert.equal(body.model, chatDefaults.model);
    assert.equal(body.max_tokens, 4096);
    for (const key of ['temperature', 'top_p', 'top_k', 'stop'] as const) assert.equal(body[key], undefined, key);
    assert.ok(!JSON.stringify(body.messages).includes(chatDefaults.systemPrompt), 'the old system prompt is gone');
  });

  test('cadenza.chatBaseUrl sends chat completions to the other host, and everything else to cadenza.baseUrl', async () => {
    const chatHost = await startEmulator({ key: emulator().key });
    try {
      await update('cadenza', 'chatBaseUrl', chatHost.baseUrl);
      await panel.newConversation();
      chatHost.scriptChat({ content: 'From the chat host.' });
      assert.equal((await panel.send('Which host?')).answer, 'From the chat host.');
      assert.equal(chatRequests(chatHost).length, 1, 'the chat host answered');
      assert.equal(chatRequests(emulator()).length, 0, 'no chat request went to cadenza.baseUrl');
      await vscode.commands.executeCommand('cadenza.refreshModels');
      assert.ok(
        emulator().requests.some((request) => request.path === '/v1/models'),
        'the model list still comes from cadenza.baseUrl',
      );
      // The model list is merged from every server that lists models (an endpoint per operation, issue 14),
      // so the chat host may be asked for its list too; it gets no other operation.
      assert.deepEqual(
        [...new Set(chatHost.requests.map((request) => request.path))].filter((path) => path !== '/v1/models'),
        ['/v1/chat/completions'],
        'the chat host is asked for chat (and its model list) only',
      );

      await update('cadenza', 'chatBaseUrl', undefined);
      emulator().scriptChat({ content: 'From the main host.' });
      assert.equal((await panel.send('And now?')).answer, 'From the main host.');
      assert.equal(chatRequests(chatHost).length, 1, 'nothing more went to the chat host once the setting was cleared');
    } finally {
      await update('cadenza', 'chatBaseUrl', undefined);
      await chatHost.close();
    }
  });

  test('cadenza.requestTimeoutSeconds ends a stalled stream with a time-out; cadenza.maxRetries 0 sends once', async function () {
    this.timeout(60_000);
    await update('cadenza', 'requestTimeoutSeconds', 1);
    await update('cadenza', 'maxRetries', 0);
    try {
      await panel.newConversation();
      emulator().injectFault({ kind: 'stall', afterChunks: 2 }, { path: '/v1/chat/completions' });
      emulator().scriptChat({ content: 'This answer stalls after its first words and never ends.' });
      const started = Date.now();
      assert.equal((await panel.send('Stall, please.')).answer, '');
      const elapsed = Date.now() - started;
      const done = lastDone();
      assert.equal(done?.error?.reason, 'timeout', JSON.stringify(done?.error));
      assert.equal(chatRequests(emulator()).length, 1);
      // Hang versus progress, not speed: the default (60 s) would outlast this test's own time-out.
      assert.ok(elapsed < 30_000, `the stalled answer ended after ${elapsed} ms`);
    } finally {
      await update('cadenza', 'requestTimeoutSeconds', undefined);
      await update('cadenza', 'maxRetries', undefined);
    }
  });

  test('cadenza.requestTimeoutSeconds bounds the wait for the headers, and cadenza.maxRetries retries that many times', async function () {
    this.timeout(60_000);
    await update('cadenza', 'requestTimeoutSeconds', 1);
    await update('cadenza', 'maxRetries', 2);
    try {
      await panel.newConversation();
      emulator().injectFault({ kind: 'latency', ms: 10_000 }, { path: '/v1/chat/completions', times: 3 });
      assert.equal((await panel.send('Answer slowly.')).answer, '');
      assert.equal(lastDone()?.error?.reason, 'timeout', JSON.stringify(lastDone()?.error));
      assert.equal(chatRequests(emulator()).length, 3, 'the first attempt and 2 retries');
    } finally {
      await update('cadenza', 'requestTimeoutSeconds', undefined);
      await update('cadenza', 'maxRetries', undefined);
    }
  });

  test('cadenza.maxRetries against a failing server: that many retries, then the error; 0 sends once', async function () {
    this.timeout(60_000);
    try {
      for (const retries of [3, 0]) {
        await update('cadenza', 'maxRetries', retries);
        emulator().reset();
        panel.clear();
        await panel.newConversation();
        emulator().injectFault({ kind: 'status', status: 500 }, { path: '/v1/chat/completions', times: 10 });
        assert.equal((await panel.send(`Fail (${retries} retries).`)).answer, '');
        assert.equal(lastDone()?.error?.reason, 'server', JSON.stringify(lastDone()?.error));
        assert.equal(chatRequests(emulator()).length, retries + 1, `requests with cadenza.maxRetries ${retries}`);
      }
      // And a server that recovers within the retries answers.
      await update('cadenza', 'maxRetries', 2);
      emulator().reset();
      await panel.newConversation();
      emulator().injectFault({ kind: 'status', status: 503 }, { path: '/v1/chat/completions', times: 2 });
      emulator().scriptChat({ content: 'Third time lucky.' });
      assert.equal((await panel.send('Fail twice, then answer.')).answer, 'Third time lucky.');
      assert.equal(chatRequests(emulator()).length, 3);
    } finally {
      await update('cadenza', 'maxRetries', undefined);
    }
  });

  suite('cadenza.audio.output', () => {
    const transcript = 'Spoken words for the output setting.';
    const speech = (): vscode.Uri => {
      const entry = loadFixtures().files.find((candidate) => candidate.name === 'mp3-cbr128-info-id3.mp3');
      if (!entry) throw new Error('no audio fixture mp3-cbr128-info-id3.mp3');
      return vscode.Uri.file(entry.path);
    };
    const transcribe = async (): Promise<AudioFileResult[]> =>
      // No `output` argument: the destination comes from the setting.
      vscode.commands.executeCommand<AudioFileResult[]>('cadenza.transcribeAudio', speech(), { model: 'Whisper-Large-v3', language: 'en' });

    test('"cursor" inserts the transcript at the cursor of the active editor', async function () {
      // The first transcription of a run loads the audio pipeline: 26 s on two loaded cores, under 1 s warm.
      this.timeout(90_000);
      await update('cadenza.audio', 'output', 'cursor');
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: 'Before: . After.' });
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(0, 8, 0, 8);
      emulator().scriptTranscript(transcript);
      const [result] = await transcribe();
      assert.equal(result?.status, 'done', result?.error);
      await waitFor(() => document.getText() !== 'Before: . After.', 'the transcript in the editor');
      assert.equal(document.getText(), `Before: ${transcript}. After.`);
    });

    test('"clipboard" copies the transcript and opens nothing', async () => {
      await update('cadenza.audio', 'output', 'clipboard');
      await vscode.env.clipboard.writeText('something else');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      emulator().scriptTranscript(transcript);
      const [result] = await transcribe();
      assert.equal(result?.status, 'done', result?.error);
      assert.equal(await vscode.env.clipboard.readText(), transcript);
      assert.ok(!vscode.workspace.textDocuments.some((document) => document.getText().includes(transcript)), 'no document holds the transcript');
    });
  });
});
