import { strict as assert } from 'node:assert';
import { ApiError } from '../../../../src/core/api/errors';
import { AgentAnswer, type AgentAnswerRun, type StoredCheckpoint } from '../../../../src/core/chat/answer/agentAnswer';
import { newConversation, type StoredMessage } from '../../../../src/core/chat/conversation';
import type { ToolCallRecord } from '../../../../src/core/chat/toolLoop';
import { storedCall, toolCallView } from '../../../../src/core/chat/answer/storedCall';
import type { CautionRule, ToolFailure } from '../../../../src/shared/views';
import { fakeHost, pricedModel, result, sent } from './answerFakes';

const checkpoint: StoredCheckpoint = { id: 'cp-1', files: [{ path: 'src/a.ts', change: 'edited' }] };

/** The agent's port: a checkpoint when `changed`, the restricted notice when `restricted`. */
function agentRun(options: { changed?: boolean; restricted?: boolean } = {}): AgentAnswerRun & { readonly finished: string[] } {
  const finished: string[] = [];
  return {
    finished,
    restrictedNotice: () => (options.restricted ? 'Restricted Mode: the agent only reads.' : undefined),
    finishCheckpoint: (messageId) => {
      finished.push(messageId);
      return Promise.resolve(options.changed ? checkpoint : undefined);
    },
    checkpointView: (stored) => ({ id: stored.id, files: stored.files }),
    stepLimitText: (steps) => `Stopped after ${steps} steps.`,
    withoutToolsText: (reason) => `Without tools: ${reason}.`,
  };
}

function asked(): { conversation: ReturnType<typeof newConversation>; reply: StoredMessage } {
  const conversation = newConversation(pricedModel.id);
  conversation.messages.push({ id: 'q', role: 'user', text: 'Fix the typo in a.ts.', createdAt: 1 });
  const reply: StoredMessage = { id: 'a', role: 'assistant', text: '', createdAt: 2, model: pricedModel.id };
  conversation.messages.push(reply);
  return { conversation, reply };
}

const call = { id: 'call-1', name: 'edit_file', arguments: '{"path":"src/a.ts"}' };
const record = (status: ToolCallRecord['status'], extra: Partial<ToolCallRecord> = {}): ToolCallRecord => ({ ...call, status, ...extra });

describe('core/chat/answer/agentAnswer (an agent answer in the panel)', () => {
  it('shows each step as its own message, with its calls as cards, and stores the calls with their results', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const run = agentRun({ changed: true });
    const answer = new AgentAnswer(host.deps, conversation, reply, pricedModel, run);
    answer.start();
    answer.event({ type: 'step', step: 1 });
    answer.event({ type: 'text', step: 1, text: 'Editing.' });
    answer.event({ type: 'usage', step: 1, result: result('Editing.', [call]) });
    answer.event({ type: 'toolCall', step: 1, index: 0, call: record('running') });
    answer.event({
      type: 'toolCall',
      step: 1,
      index: 0,
      call: record('done', { result: 'Edited.', preview: { kind: 'edit', path: 'src/a.ts', before: 'tpyo', after: 'typo', diff: '-tpyo\n+typo' } }),
    });
    answer.event({ type: 'stepDone', step: 1, calls: [] });
    answer.event({ type: 'step', step: 2 });
    answer.event({ type: 'text', step: 2, text: 'Fixed.' });
    answer.event({ type: 'usage', step: 2, result: result('Fixed.') });
    const text = await answer.done({ type: 'done', outcome: 'answered', text: 'Fixed.', steps: 2 });

    assert.equal(text, 'Fixed.');
    const answers = conversation.messages.filter((message) => message.role === 'assistant');
    assert.deepEqual(
      answers.map((message) => message.text),
      ['Editing.', 'Fixed.'],
    );
    assert.deepEqual(answers[0]?.toolCalls, [{ ...call, status: 'done', result: 'Edited.', change: { kind: 'edit', path: 'src/a.ts', diff: '-tpyo\n+typo' } }]);
    const second = answers[1];
    assert.ok(second);
    // The second step opens before the first closes, so the panel stays streaming throughout.
    const order = host.posted.map(
      (message) => `${message.type}:${'messageId' in message ? message.messageId : 'message' in message ? message.message.id : ''}`,
    );
    assert.ok(order.indexOf(`message/add:${second.id}`) < order.indexOf('chat/done:a'));
    assert.deepEqual(
      sent(host.posted, 'tool/call').map((card) => card.call.status),
      ['queued', 'running', 'done'],
    );
    assert.deepEqual(run.finished, [second.id], 'the checkpoint goes under the last step');
    assert.equal(second.checkpoint, checkpoint);
    assert.deepEqual(sent(host.posted, 'checkpoint/update'), [
      { type: 'checkpoint/update', messageId: second.id, checkpoint: { id: 'cp-1', files: [{ path: 'src/a.ts', change: 'edited' }] } },
    ]);
    assert.equal(host.spent.length, 2, 'each step is counted');
    assert.equal(host.meters, 1);
  });

  it("a failed call's card and stored call carry why it failed; a kind the panel does not know is left out", async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new AgentAnswer(host.deps, conversation, reply, pricedModel, agentRun());
    answer.event({ type: 'step', step: 1 });
    answer.event({ type: 'usage', step: 1, result: result('', [call]) });
    const failed = record('failed', { result: 'Error: src/a.ts changed since you read it. Read it again, then edit.', failure: 'changed' });
    answer.event({ type: 'toolCall', step: 1, index: 0, call: failed });
    await answer.done({ type: 'done', outcome: 'answered', text: '', steps: 1 });
    const card = sent(host.posted, 'tool/call').at(-1)?.call;
    assert.equal(card?.failure, 'changed');
    assert.equal(card?.result, 'Error: src/a.ts changed since you read it. Read it again, then edit.', 'the card keeps what the model was sent');
    const stored = conversation.messages.find((message) => message.toolCalls)?.toolCalls?.[0];
    assert.equal(stored?.failure, 'changed');
    // A conversation file is read as it is: a kind from elsewhere does not reach the panel.
    assert.equal(toolCallView({ ...failed, failure: 'melted' as ToolFailure }, 0).failure, undefined);
    assert.equal(toolCallView({ ...failed, status: 'done' }, 0).failure, undefined);
  });

  it("a caution's id travels with its English text to the card and the stored call; an id this version does not know is left out", () => {
    const preview = { kind: 'create', path: '.vscode/tasks.json', content: '{}', caution: 'Workspace settings.', cautionRule: { id: 'vscode' } } as const;
    const stored = storedCall(record('awaitingApproval', { preview }));
    assert.deepEqual(stored.change, {
      kind: 'create',
      path: '.vscode/tasks.json',
      content: '{}',
      caution: 'Workspace settings.',
      cautionRule: { id: 'vscode' },
    });
    assert.deepEqual(toolCallView(stored, 0).change, stored.change);
    // A conversation file is read as it is: an id from elsewhere leaves the English text alone on the card.
    const melted = {
      ...stored,
      change: { kind: 'edit', path: 'x.cfg', diff: '', caution: 'It melts.', cautionRule: { id: 'melted' } as unknown as CautionRule },
    } as const;
    assert.deepEqual(toolCallView(melted, 0).change, { kind: 'edit', path: 'x.cfg', diff: '', caution: 'It melts.' });
  });

  it('says first when the workspace is restricted', () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    new AgentAnswer(host.deps, conversation, reply, pricedModel, agentRun({ restricted: true })).start();
    assert.deepEqual(sent(host.posted, 'notice'), [{ type: 'notice', level: 'info', text: 'Restricted Mode: the agent only reads.' }]);
  });

  it('notes a step asked for without tools, and an answer that hit the step limit', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new AgentAnswer(host.deps, conversation, reply, pricedModel, agentRun());
    answer.event({ type: 'step', step: 1 });
    answer.event({ type: 'usage', step: 1, result: result('', [call]) });
    answer.event({ type: 'step', step: 2, withoutTools: 'repeatedCall' });
    assert.equal(conversation.messages.at(-1)?.agentStop, 'Without tools: repeatedCall.');
    await answer.done({ type: 'done', outcome: 'stepLimit', text: '', steps: 2 });
    const done = sent(host.posted, 'chat/done').at(-1);
    assert.equal(done?.agentStop, 'Stopped after 2 steps.');
  });

  it('a stop cancels the cards still forming and keeps the partial step, marked as stopped', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new AgentAnswer(host.deps, conversation, reply, pricedModel, agentRun());
    answer.event({ type: 'step', step: 1 });
    answer.event({ type: 'text', step: 1, text: 'Let me' });
    answer.event({ type: 'toolCallForming', step: 1, index: 0, id: 'call-1', name: 'edit_file', arguments: '{"pa' });
    const text = await answer.done({ type: 'done', outcome: 'stopped', text: 'Let me', steps: 1 });
    assert.equal(text, 'Let me');
    assert.equal(reply.stopped, true);
    assert.deepEqual(
      sent(host.posted, 'tool/call').map((card) => card.call.status),
      ['forming', 'cancelled'],
    );
    assert.deepEqual(sent(host.posted, 'chat/done'), [{ type: 'chat/done', messageId: 'a', stopped: true }]);
  });

  it('an error is shown on the step it hit, as the host presents it', async () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new AgentAnswer(host.deps, conversation, reply, pricedModel, agentRun());
    answer.event({ type: 'step', step: 1 });
    const text = await answer.failed(new ApiError('server', 'The service failed.'));
    assert.equal(text, '');
    assert.deepEqual(reply.error, { message: 'The service failed.', reason: 'server' });
    assert.deepEqual(sent(host.posted, 'chat/done')[0]?.error, { message: 'The service failed.', reason: 'server' });
    assert.equal(host.meters, 1);
  });

  it('saves a card that waits for approval, so a reload shows it', () => {
    const host = fakeHost();
    const { conversation, reply } = asked();
    const answer = new AgentAnswer(host.deps, conversation, reply, pricedModel, agentRun());
    answer.event({ type: 'approvalAsked', step: 1, index: 0, call: record('awaitingApproval') });
    assert.deepEqual(host.saves, [conversation]);
  });
});
