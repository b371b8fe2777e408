import { strict as assert } from 'node:assert';
import type { ModelInfo } from '../../../src/core/api/types';
import { conversationToMarkdown, newConversation, settleInterrupted, type StoredMessage } from '../../../src/core/chat/conversation';
import { buildChatRequest } from '../../../src/core/chat/requestBuilder';

const model: ModelInfo = {
  id: 'Meta-Llama-3.3-70B-Instruct',
  ownedBy: undefined,
  contextLength: 131072,
  maxCompletionTokens: 16384,
  pricing: undefined,
  capabilities: ['chat', 'tools', 'json'],
  family: undefined,
};

function agentAnswer(id: string, question: string, size = 10): StoredMessage[] {
  return [
    { id: `${id}-q`, role: 'user', text: question, createdAt: 1 },
    {
      id: `${id}-1`,
      role: 'assistant',
      text: '',
      createdAt: 2,
      toolCalls: [
        { id: `${id}-c1`, name: 'read_file', arguments: '{"path":"a.ts"}', status: 'done', result: 'a.ts (1 lines)\n' + 'x'.repeat(size) },
        {
          id: `${id}-c2`,
          name: 'edit_file',
          arguments: '{"path":"a.ts"}',
          status: 'denied',
          result: 'The user denied the edit of a.ts',
          change: { kind: 'edit', path: 'a.ts', diff: '-x\n+y' },
        },
      ],
    },
    { id: `${id}-2`, role: 'assistant', text: `answer ${id}`, createdAt: 3 },
  ];
}

describe('agent history in the conversation', () => {
  it('sends each step as the assistant message with its calls, then one tool message per call, in order', () => {
    const conversation = newConversation(model.id);
    conversation.messages.push(...agentAnswer('a', 'first'), { id: 'n', role: 'user', text: 'next', createdAt: 4 });
    const { request } = buildChatRequest(conversation, model, {});
    assert.deepEqual(request.messages, [
      { role: 'user', content: 'first' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'a-c1', name: 'read_file', arguments: '{"path":"a.ts"}' },
          { id: 'a-c2', name: 'edit_file', arguments: '{"path":"a.ts"}' },
        ],
      },
      { role: 'tool', toolCallId: 'a-c1', content: 'a.ts (1 lines)\nxxxxxxxxxx' },
      { role: 'tool', toolCallId: 'a-c2', content: 'The user denied the edit of a.ts' },
      { role: 'assistant', content: 'answer a' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('never separates a tool result from its call when old turns are dropped', () => {
    const conversation = newConversation(model.id);
    conversation.messages.push(...agentAnswer('old', 'old question', 20000), ...agentAnswer('mid', 'middle question', 200), {
      id: 'n',
      role: 'user',
      text: 'newest',
      createdAt: 9,
    });
    const { request, budget } = buildChatRequest(conversation, { ...model, contextLength: 6000 }, { maxTokens: 4000 });
    assert.ok(budget.droppedCount > 0);
    const roles = request.messages.map((message) => message.role);
    assert.deepEqual(roles, ['user', 'assistant', 'tool', 'tool', 'assistant', 'user']);
    const ids = request.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : []));
    assert.deepEqual(ids, ['mid-c1', 'mid-c2']);
  });

  it('reserves room for the tool schemas in the context budget', () => {
    const conversation = newConversation(model.id);
    conversation.messages.push({ id: 'q', role: 'user', text: 'hello', createdAt: 1 });
    const plain = buildChatRequest(conversation, { ...model, contextLength: 10_000 }, { maxTokens: 1000 }).budget;
    const reserved = buildChatRequest(conversation, { ...model, contextLength: 10_000 }, { maxTokens: 1000 }, 800).budget;
    assert.equal(plain.limitTokens, 9000);
    assert.equal(reserved.limitTokens, 8200);
  });

  it('settles calls a closed window left without a result, so the history stays valid', () => {
    const conversation = newConversation(model.id);
    const [question, step] = agentAnswer('x', 'q');
    assert.ok(question && step?.toolCalls?.[0]);
    const waiting = { ...step.toolCalls[0], status: 'awaitingApproval' as const };
    delete waiting.result;
    step.toolCalls = [waiting];
    conversation.messages.push(question, step);
    settleInterrupted(conversation);
    assert.deepEqual([waiting.status, waiting.result], ['cancelled', 'Not run: the answer was interrupted.']);
    const { request } = buildChatRequest(conversation, model, {});
    assert.deepEqual(request.messages.at(-1), { role: 'tool', toolCallId: 'x-c1', content: 'Not run: the answer was interrupted.' });
  });

  it('exports the calls with the conversation', () => {
    const conversation = newConversation(model.id);
    conversation.messages.push(...agentAnswer('a', 'first'));
    const markdown = conversationToMarkdown(conversation);
    assert.match(markdown, /- `read_file` `\{"path":"a\.ts"\}` \u2014 done/);
    assert.match(markdown, /- `edit_file` `\{"path":"a\.ts"\}` \u2014 denied/);
  });
});
