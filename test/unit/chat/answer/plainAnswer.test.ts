import { strict as assert } from 'node:assert';
import { ApiError } from '../../../../src/core/api/errors';
import { PlainAnswer } from '../../../../src/core/chat/answer/plainAnswer';
import { newConversation, type StoredMessage } from '../../../../src/core/chat/conversation';
import { fakeHost, pricedModel, result, sent } from './answerFakes';

/** A conversation asked one question, and the reply being answered. */
function asked(): { conversation: ReturnType<typeof newConversation>; reply: StoredMessage } {
  const conversation = newConversation(pricedModel.id);
  conversation.messages.push({ id: 'q', role: 'user', text: 'Name a colour.', createdAt: 1 });
  const reply: StoredMessage = { id: 'a', role: 'assistant', text: '', createdAt: 2, model: pricedModel.id };
  conversation.messages.push(reply);
  return { conversation, reply };
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('core/chat/answer/plainAnswer (a plain answer in the panel)', () => {
  it('coalesces the text into a few deltas, stores it with its usage and cost, and ends with one chat/done', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new PlainAnswer(host.deps, conversation, reply, pricedModel);
    for (const piece of ['Bl', 'u', 'e.']) answer.event({ type: 'text', step: 1, text: piece });
    answer.event({ type: 'usage', step: 1, result: result('Blue.') });
    const text = await answer.done({ type: 'done', outcome: 'answered', text: 'Blue.', steps: 1 });
    assert.equal(text, 'Blue.');
    assert.equal(reply.text, 'Blue.');
    assert.deepEqual(
      sent(host.posted, 'chat/delta').map((delta) => delta.text),
      ['Blue.'],
    );
    const [done, ...more] = sent(host.posted, 'chat/done');
    assert.equal(more.length, 0);
    assert.equal(done?.messageId, 'a');
    assert.equal(done?.stopped, false);
    assert.equal(done?.usage?.promptTokens, 10);
    assert.ok((done?.usage?.costUsd ?? 0) > 0, 'the answer is priced by the model');
    assert.deepEqual(host.spent, [reply.usage]);
    assert.equal(host.saves.length, 1);
  });

  it('keeps the thinking apart from the answer and says how long it took', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new PlainAnswer(host.deps, conversation, reply, pricedModel);
    answer.event({ type: 'thinking', step: 1, text: 'Sky...' });
    await wait(50);
    answer.event({ type: 'text', step: 1, text: 'Blue.' });
    answer.event({ type: 'usage', step: 1, result: result('Blue.') });
    await answer.done({ type: 'done', outcome: 'answered', text: 'Blue.', steps: 1 });
    assert.equal(reply.text, 'Blue.');
    assert.equal(reply.reasoning?.text, 'Sky...');
    assert.deepEqual(
      sent(host.posted, 'chat/reasoning').map((part) => part.text),
      ['Sky...'],
    );
    assert.equal(sent(host.posted, 'chat/done')[0]?.reasoningMs, reply.reasoning?.ms);
  });

  it('checks a JSON-mode answer and says what is wrong', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    conversation.options = { ...conversation.options, jsonMode: 'object' };
    const answer = new PlainAnswer(host.deps, conversation, reply, pricedModel);
    answer.event({ type: 'text', step: 1, text: 'not json' });
    answer.event({ type: 'usage', step: 1, result: result('not json') });
    await answer.done({ type: 'done', outcome: 'answered', text: 'not json', steps: 1 });
    const check = sent(host.posted, 'chat/done')[0]?.jsonCheck;
    assert.ok(check, 'a JSON-mode answer is checked');
    assert.equal(check.valid, false);
    assert.match(check.problems[0] ?? '', /not valid JSON/);
  });

  it('keeps the partial text of a stopped answer, marked as stopped, without usage', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new PlainAnswer(host.deps, conversation, reply, pricedModel);
    answer.event({ type: 'text', step: 1, text: 'Bl' });
    const text = await answer.done({ type: 'done', outcome: 'stopped', text: 'Bl', steps: 1 });
    assert.equal(text, 'Bl');
    assert.equal(reply.stopped, true);
    assert.equal(reply.usage, undefined);
    assert.deepEqual(sent(host.posted, 'chat/done'), [{ type: 'chat/done', messageId: 'a', stopped: true }]);
    assert.equal(host.spent.length, 0);
  });

  it('shows an error under the answer as the host presents it, and stores it', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new PlainAnswer(host.deps, conversation, reply, pricedModel);
    answer.event({ type: 'text', step: 1, text: 'Bl' });
    const text = await answer.failed(new ApiError('rateLimited', 'Too many requests'));
    assert.equal(text, '');
    assert.deepEqual(reply.error, { message: 'Too many requests', reason: 'rateLimited' });
    assert.equal(reply.text, 'Bl', 'what arrived before the error stays');
    const done = sent(host.posted, 'chat/done')[0];
    assert.deepEqual(done?.error, { message: 'Too many requests', reason: 'rateLimited' });
  });

  it('says under the answer when the save at its end failed', async () => {
    const host = fakeHost('The disk is full.');
    const { conversation, reply } = asked();
    const answer = new PlainAnswer(host.deps, conversation, reply, pricedModel);
    answer.event({ type: 'usage', step: 1, result: result('') });
    await answer.done({ type: 'done', outcome: 'answered', text: '', steps: 1 });
    assert.equal(sent(host.posted, 'chat/done')[0]?.saveError, 'The disk is full.');
  });
});
