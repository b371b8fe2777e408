import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToWebview } from '../../src/shared/protocol';
import { cadenzaApi, storedConversation, waitFor } from './helpers';
import { type Panel, useChatSuite } from './panelDriver';

type Done = Extract<ToWebview, { type: 'chat/done' }>;
const chatModel = 'Meta-Llama-3.3-70B-Instruct';

function lastDone(panel: Panel): Done | undefined {
  return panel.messages.filter((message): message is Done => message.type === 'chat/done').at(-1);
}

async function waitForDone(panel: Panel, what: string): Promise<Done> {
  await waitFor(
    () => lastDone(panel) !== undefined,
    () => `chat/done (${what}); saw ${panel.messages.map((m) => m.type).join(', ')}`,
  );
  const done = lastDone(panel);
  if (!done) throw new Error('unreachable');
  return done;
}

suite('Chat: key, models, streaming, errors', () => {
  const { emulator, panel } = useChatSuite();

  test('lists the live models with limits and prices, and selects one by argument', async () => {
    const ids = await vscode.commands.executeCommand<string[]>('cadenza.refreshModels');
    assert.ok(ids.includes(chatModel), `models: ${ids.join(', ')}`);
    const api = await cadenzaApi();
    const listed = api.connection.model(chatModel);
    assert.equal(listed?.contextLength, 131072);
    assert.equal(listed?.maxCompletionTokens, 16384);
    assert.ok(listed?.pricing && Math.abs(listed.pricing.promptPerToken * 1e6 - 0.6) < 1e-9);
    assert.ok(listed?.capabilities.includes('tools'));
    assert.equal(await vscode.commands.executeCommand('cadenza.selectModel', chatModel), chatModel);
    assert.equal(panel().selectedModel(), chatModel);
  });

  test('streams an answer into the panel with the service usage and cost, and saves it', async () => {
    const api = await cadenzaApi();
    emulator().scriptChat({ content: 'Streaming works: one, two, three, four, five, six, seven.' });
    const { answer } = await panel().send('Count to seven', { temperature: 0.2 });
    assert.equal(answer, 'Streaming works: one, two, three, four, five, six, seven.');
    const deltas = panel().messages.filter((message) => message.type === 'chat/delta');
    assert.ok(deltas.length >= 1);
    const done = await waitForDone(panel(), 'streamed answer');
    assert.equal(done.stopped, false);
    assert.equal(done.error, undefined);
    assert.equal(done.usage?.source, 'service');
    assert.ok((done.usage?.costUsd ?? 0) > 0, 'cost from the model price');
    const request = emulator().requests.find((entry) => entry.path === '/v1/chat/completions');
    const body = request?.body as { model?: string; stream?: boolean; temperature?: number; stream_options?: { include_usage?: boolean } };
    assert.equal(body.model, chatModel);
    assert.equal(body.stream, true);
    assert.equal(body.temperature, 0.2);
    assert.equal(body.stream_options?.include_usage, true);
    const saved = await storedConversation(api, (await panel().conversation()).id);
    assert.equal(saved?.messages.at(-1)?.text, answer);
  });

  test('Stop aborts at once and keeps the partial answer, marked as stopped', async () => {
    const api = await cadenzaApi();
    emulator().scriptChat({ content: 'partial answer that stalls here and never finishes the sentence', chunkCount: 8 });
    emulator().injectFault({ kind: 'stall', afterChunks: 3 }, { path: '/v1/chat/completions' });
    const answering = panel().send('Tell me a long story');
    await waitFor(() => panel().messages.some((message) => message.type === 'chat/delta'), 'the first delta');
    const stoppedAt = Date.now();
    await panel().stop();
    const { answer: text } = await answering;
    assert.ok(Date.now() - stoppedAt < 2000, 'stop is immediate');
    const done = await waitForDone(panel(), 'stopped answer');
    assert.equal(done.stopped, true);
    assert.ok(text.length > 0 && text.startsWith('partial'), `partial text kept: ${JSON.stringify(text)}`);
    const saved = (await storedConversation(api, (await panel().conversation()).id))?.messages.at(-1);
    assert.equal(saved?.stopped, true);
    assert.equal(saved?.text, text);
  });

  test('a wrong key shows the service message with the Set API key action, and keeps the question', async () => {
    await vscode.commands.executeCommand('cadenza.setApiKey', 'wrong-key');
    try {
      await panel().send('Will this work?');
      const done = await waitForDone(panel(), '401');
      assert.equal(done.error?.action, 'setApiKey');
      assert.match(done.error?.message ?? '', /API key/i);
      assert.doesNotMatch(done.error?.message ?? '', /wrong-key/);
      const messages = (await panel().conversation()).messages;
      assert.equal(messages.at(-2)?.text, 'Will this work?');
    } finally {
      await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    }
  });

  test('a model the service does not have gives the pick-another-model action', async () => {
    await panel().selectModel('No-Such-Model');
    try {
      await panel().send('hello');
      const done = await waitForDone(panel(), '404');
      assert.equal(done.error?.action, 'selectModel');
    } finally {
      await panel().selectModel(chatModel);
    }
  });

  test('a 429 is retried after the service says, with a countdown, then answers', async () => {
    emulator().injectFault(
      {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '1' },
        body: '{"error":{"message":"Rate limit exceeded","type":"rate_limit_exceeded","code":"insufficient_quota","param":null}}',
        contentType: 'application/json',
      },
      { path: '/v1/chat/completions' },
    );
    emulator().scriptChat({ content: 'after the rate limit' });
    const { answer } = await panel().send('again please');
    assert.equal(answer, 'after the rate limit');
    const retrying = panel().messages.find((message) => message.type === 'chat/retrying');
    assert.ok(retrying && retrying.type === 'chat/retrying' && retrying.seconds >= 1, 'a countdown was shown');
  });

  test("a retired model is reported, and the conversation keeps the user's choice", async () => {
    const catalogue = emulator().models;
    const index = catalogue.findIndex((model) => model.id === chatModel);
    const [removed] = catalogue.splice(index, 1);
    try {
      await vscode.commands.executeCommand('cadenza.refreshModels');
      await waitFor(() => panel().messages.some((message) => message.type === 'notice' && message.text.includes('no longer offered')), 'the retirement notice');
      assert.equal(panel().selectedModel(), chatModel, 'not silently switched');
    } finally {
      if (removed) catalogue.splice(index, 0, removed);
      await vscode.commands.executeCommand('cadenza.refreshModels');
    }
  });

  test('the context budget drops the oldest turns, shows the meter, and keeps the newest turn', async () => {
    const api = await cadenzaApi();
    await vscode.workspace
      .getConfiguration('cadenza')
      .update('models.overrides', { [chatModel]: { contextLength: 2000 } }, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(async () => (await api.connection.refreshModels()).some((model) => model.id === chatModel && model.contextLength === 2000), 'the override');
      const long = 'lorem ipsum dolor sit amet '.repeat(60);
      for (let turn = 0; turn < 4; turn += 1) await panel().send(`${turn}: ${long}`, { maxTokens: 500 });
      panel().clear();
      await panel().send('the newest question', { maxTokens: 500 });
      const meter = panel().messages.find((message) => message.type === 'context/meter');
      assert.ok(meter && meter.type === 'context/meter');
      assert.ok(meter.droppedMessages > 0, `dropped ${meter.droppedMessages}`);
      assert.ok(meter.usedTokens <= meter.limitTokens);
      const sent = emulator()
        .requests.filter((entry) => entry.path === '/v1/chat/completions')
        .at(-1)?.body as { messages: { content: string }[] };
      assert.equal(sent.messages.at(-1)?.content, 'the newest question');
    } finally {
      await vscode.workspace.getConfiguration('cadenza').update('models.overrides', undefined, vscode.ConfigurationTarget.Workspace);
      await api.connection.refreshModels();
    }
  });

  test('a failed final save still ends the answer in the panel, says it is not saved, and Save again stores it', async () => {
    const api = await cadenzaApi();
    await panel().newConversation();
    // The answer waits before its headers, long enough to make the conversation's file unwritable meanwhile:
    // a directory where the file goes makes the save's rename fail, as a full disk or a read-only folder would.
    emulator().injectFault({ kind: 'latency', ms: 1500 }, { path: '/v1/chat/completions' });
    emulator().scriptChat({ content: 'An answer the disk could not take.' });
    const answering = panel().send('Will this be saved?');
    await waitFor(() => panel().messages.some((message) => message.type === 'message/add' && message.message.role === 'assistant'), 'the answer to start');
    const file = path.join(api.storage.conversationsFolder, `${(await panel().conversation()).id}.json`);
    fs.rmSync(file, { force: true });
    fs.mkdirSync(file);
    try {
      const { answer } = await answering;
      assert.equal(answer, 'An answer the disk could not take.');
      const done = await waitForDone(panel(), 'the answer whose save failed');
      assert.equal(done.stopped, false);
      assert.equal(done.error, undefined);
      assert.match(done.saveError ?? '', /could not be saved/);
      const saveAgain = (): Promise<Extract<ToWebview, { type: 'chat/saveResult' }>> => panel().retrySave(done.messageId);
      // Still unwritable: the panel hears so again.
      assert.match((await saveAgain()).error ?? '', /could not be saved/);
      fs.rmSync(file, { recursive: true, force: true });
      const saved = await saveAgain();
      assert.equal(saved.messageId, done.messageId);
      assert.equal(saved.error, undefined);
      const onDisk = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: { text: string }[] };
      assert.deepEqual(
        onDisk.messages.map((message) => message.text),
        ['Will this be saved?', 'An answer the disk could not take.'],
      );
    } finally {
      if (fs.existsSync(file) && fs.statSync(file).isDirectory()) fs.rmSync(file, { recursive: true, force: true });
    }
  });

  test('the open conversation is remembered per window (workspace state), never shared with other windows through global state', async () => {
    const api = await cadenzaApi();
    await panel().newConversation();
    await panel().send('which window am I in?');
    const id = (await panel().conversation()).id;
    // Two windows sharing one active id through global state both saved into the same file (issue 12).
    assert.equal(api.storage.workspaceState.get('cadenza.chat.activeConversation'), id);
    assert.equal(api.storage.globalState.get('cadenza.chat.activeConversation'), undefined);
  });

  test('New Chat starts an empty conversation: the next question goes without the earlier turns, which stay saved', async () => {
    const api = await cadenzaApi();
    await panel().send('My cat is called Quintilian.');
    const earlier = await panel().conversation();
    panel().clear();
    emulator().reset();
    await vscode.commands.executeCommand('cadenza.newChat');
    const fresh = await panel().conversation();
    assert.notEqual(fresh.id, earlier.id, 'New Chat kept the conversation');
    assert.deepEqual(fresh.messages, []);
    await waitFor(
      () =>
        panel().messages.some(
          (message) => message.type === 'conversation/show' && message.conversation.id === fresh.id && message.conversation.messages.length === 0,
        ),
      'the panel to show the empty conversation',
    );
    await panel().send('What is my cat called?');
    const body = emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .at(-1)?.body as { messages: { role: string; content: unknown }[] };
    assert.deepEqual(
      body.messages.filter((message) => message.role !== 'system').map((message) => message.content),
      ['What is my cat called?'],
    );
    assert.ok(!JSON.stringify(body).includes('Quintilian'), 'the earlier conversation was sent');
    assert.ok(
      (await storedConversation(api, earlier.id))?.messages.some((message) => message.text === 'My cat is called Quintilian.'),
      'the earlier conversation is still saved',
    );
  });

  test('a conversation survives a reload of the panel and can be switched, renamed and deleted', async () => {
    const api = await cadenzaApi();
    await panel().newConversation();
    await panel().send('remember this conversation');
    const saved = await panel().conversation();
    panel().clear();
    await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
    await waitFor(
      () =>
        panel().messages.some(
          (message) =>
            message.type === 'conversation/show' &&
            message.conversation.id === saved.id &&
            message.conversation.messages.some((entry) => entry.text === 'remember this conversation'),
        ),
      'the conversation after the reload',
    );
    await panel().newConversation();
    assert.notEqual((await panel().conversation()).id, saved.id);
    await panel().switchTo(saved.id);
    assert.equal((await panel().conversation()).id, saved.id);
    await panel().rename(saved.id, 'Renamed chat');
    assert.equal((await panel().conversation()).title, 'Renamed chat');
    await panel().delete(saved.id);
    assert.equal(await storedConversation(api, saved.id), undefined);
  });

  test('Copy as Markdown puts the conversation on the clipboard as Export renders it, and says so', async () => {
    await panel().newConversation();
    const turn = await panel().send('copy this conversation');
    const shown = await panel().conversation();
    await vscode.env.clipboard.writeText('something else');
    const posted = await panel().post({ type: 'conversation/copyMarkdown', id: shown.id });
    const copied = await vscode.env.clipboard.readText();
    assert.ok(copied.startsWith(`# ${shown.title}\n`), copied);
    assert.ok(turn.answer !== '' && copied.includes('**You**\n\ncopy this conversation') && copied.includes(turn.answer), copied);
    assert.ok(
      posted.some((message) => message.type === 'notice' && message.level === 'info' && message.text === 'Conversation copied as Markdown.'),
      JSON.stringify(posted),
    );
  });
});
