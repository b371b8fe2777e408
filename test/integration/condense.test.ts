// Condensing in the real extension host against the emulator: a conversation is condensed (the fast model
// summarises the older turns), the panel shows the summary while the stored history stays whole, and the
// request after it carries the summary (as an earlier turn, never as system text) instead of the old turns;
// an edited summary is what is sent next; a summary cut off by its answer limit is not used; with
// cadenza.chat.autoCondense a request that crosses the threshold is condensed first on its own.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import { cadenzaApi, storedConversation } from './helpers';
import { useChatSuite } from './panelDriver';

type Body = { model: string; max_tokens?: number; messages: { role: string; content: unknown }[] };

suite('Condensing long conversations', () => {
  const { emulator, panel } = useChatSuite('Meta-Llama-3.3-70B-Instruct');
  let api: CadenzaApi;
  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const everything = (body: Body | undefined): string => JSON.stringify(body?.messages ?? []);
  /** The messages after the system prompt (project instructions another suite created may be there). */
  const turns = (body: Body | undefined): Body['messages'] => (body?.messages ?? []).filter((message) => message.role !== 'system');
  const systemText = (body: Body | undefined): string => JSON.stringify((body?.messages ?? []).filter((message) => message.role === 'system'));

  suiteSetup(async () => {
    api = await cadenzaApi();
    // Plain answers: the agent's tool loop is not what this suite is about.
    await vscode.workspace.getConfiguration('cadenza.agent').update('enabled', false, vscode.ConfigurationTarget.Global);
  });
  setup(async () => {
    await panel().newConversation();
    await panel().selectModel('Meta-Llama-3.3-70B-Instruct');
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('cadenza.agent').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('cadenza.chat').update('autoCondense', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('cadenza.chat').update('autoCondenseThreshold', undefined, vscode.ConfigurationTarget.Global);
  });

  test('the fast model summarises the older turns; the next request carries the summary, not them; an edit is sent after', async () => {
    for (const word of ['alpha', 'beta', 'gamma', 'delta']) {
      emulator().scriptChat({ content: `answer about ${word}` });
      await panel().send(`question about ${word}`);
    }
    emulator().scriptChat({ content: 'The user asked about alpha and beta; both were answered.' });
    assert.equal(await panel().condense(), true);
    const condensing = bodies().at(-1);
    assert.equal(condensing?.model, 'Meta-Llama-3.1-8B-Instruct', 'the smallest general chat model writes the summary');
    assert.match(everything(condensing), /question about alpha/);
    assert.match(everything(condensing), /answer about beta/);
    assert.doesNotMatch(everything(condensing), /question about gamma/, 'the newest two turns are not condensed');

    const stored = await storedConversation(api, (await panel().conversation()).id);
    assert.equal(stored?.messages.length, 8, 'the full history stays stored');
    assert.equal(stored?.condensed?.summary, 'The user asked about alpha and beta; both were answered.');
    assert.ok(
      panel().messages.some((message) => message.type === 'conversation/show' && message.conversation.condensed?.messageCount === 4),
      'the panel shows the summary over 4 messages',
    );

    emulator().scriptChat({ content: 'answer about epsilon' });
    await panel().send('question about epsilon');
    const next = bodies().at(-1);
    assert.equal(next?.model, 'Meta-Llama-3.3-70B-Instruct');
    // The summary is written from what was said and read: sent as an earlier turn, it never speaks as the system.
    assert.deepEqual(
      turns(next).map((message) => message.role),
      ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user'],
    );
    assert.match(
      String(turns(next)[0]?.content),
      /^Summary of the earlier part of this conversation[^]*not instructions[^]*The user asked about alpha and beta/,
    );
    assert.doesNotMatch(systemText(next), /alpha/);
    assert.doesNotMatch(everything(next), /question about alpha|answer about alpha|question about beta|answer about beta/);
    assert.deepEqual(
      turns(next)
        .slice(2)
        .map((message) => message.content),
      ['question about gamma', 'answer about gamma', 'question about delta', 'answer about delta', 'question about epsilon'],
    );

    await panel().editSummary('EDITED: alpha and beta were settled.');
    emulator().scriptChat({ content: 'answer about zeta' });
    await panel().send('question about zeta');
    const edited = bodies().at(-1);
    assert.match(String(turns(edited)[0]?.content), /EDITED: alpha and beta were settled\./);
    assert.doesNotMatch(everything(edited), /both were answered/);
  });

  test('a summary cut off by its answer limit is not used: the history stays, and the panel says how to get a longer one', async () => {
    for (const word of ['alpha', 'beta', 'gamma', 'delta']) {
      emulator().scriptChat({ content: `answer about ${word}` });
      await panel().send(`question about ${word}`);
    }
    // 1,800 of the emulator's tokens: the default limit of 1,024 cuts it (finish_reason "length").
    const long = 'The user asked about alpha. '.repeat(300).trim();
    emulator().scriptChat({ content: long });
    panel().clear();
    assert.equal(await panel().condense(), false);
    assert.equal(bodies().at(-1)?.max_tokens, 1024);
    assert.equal((await storedConversation(api, (await panel().conversation()).id))?.condensed, undefined, 'the cut summary replaced the history');
    const notice = panel()
      .messages.filter((message) => message.type === 'notice' && message.key === 'condense')
      .at(-1);
    assert.ok(notice?.type === 'notice' && notice.level === 'warning', JSON.stringify(notice));
    assert.match(notice.text, /cut off at 1,024 tokens, so nothing was condensed[^]*Max tokens[^]*above 1,024/);
    emulator().scriptChat({ content: 'answer about epsilon' });
    await panel().send('question about epsilon');
    assert.match(everything(bodies().at(-1)), /question about alpha[^]*answer about beta/, 'the turns are still sent whole');
    assert.doesNotMatch(everything(bodies().at(-1)), /The user asked about alpha/);

    // The Condense button sends the panel's max tokens: with 4,096 the same summary is written whole.
    emulator().scriptChat({ content: long });
    await panel().condense(4096);
    assert.equal(bodies().at(-1)?.max_tokens, 4096);
    assert.equal((await panel().conversation()).condensed?.summary, long);
  });

  test('with cadenza.chat.autoCondense a request past the threshold is condensed first, on its own', async () => {
    await panel().selectModel('Meta-Llama-3.1-8B-Instruct');
    await vscode.workspace.getConfiguration('cadenza.chat').update('autoCondense', true, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('cadenza.chat').update('autoCondenseThreshold', 0.5, vscode.ConfigurationTarget.Global);
    // 16,384 context minus 4,096 for the answer: 12,288 tokens, half of it 6,144; each question is about 1,700 tokens, so the fourth crosses it.
    const long = (word: string): string => `question about ${word}: ${'lorem ipsum dolor sit amet '.repeat(250)}`;
    for (const word of ['one', 'two', 'three']) {
      emulator().scriptChat({ content: `answer about ${word}` });
      await panel().send(long(word), { maxTokens: 4096 });
    }
    assert.equal((await storedConversation(api, (await panel().conversation()).id))?.condensed, undefined, 'not condensed below the threshold');
    const before = bodies().length;
    emulator().scriptChat({ content: 'Summary: questions one and two were long and answered.' });
    emulator().scriptChat({ content: 'answer about four' });
    await panel().send(long('four'), { maxTokens: 4096 });
    const sent = bodies().slice(before);
    assert.equal(sent.length, 2, 'one condensing request, then the answer');
    assert.match(String(sent[0]?.messages[0]?.content), /^You condense the earlier part of a conversation/);
    assert.match(String(turns(sent[1])[0]?.content), /Summary: questions one and two were long and answered\./);
    assert.doesNotMatch(everything(sent[1]), /question about one|question about two/);
    assert.match(everything(sent[1]), /question about three[^]*question about four/);
  });
});
