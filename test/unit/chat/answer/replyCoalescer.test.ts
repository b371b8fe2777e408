import { strict as assert } from 'node:assert';
import { ReplyCoalescer } from '../../../../src/core/chat/answer/replyCoalescer';
import type { StoredMessage } from '../../../../src/core/chat/conversation';
import type { ToWebview } from '../../../../src/shared/protocol';

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('core/chat/answer/replyCoalescer (the answer on its way to the panel)', () => {
  it('sends a fast stream as one delta per two frames, and the whole text at the end', async () => {
    const posted: ToWebview[] = [];
    const coalescer = new ReplyCoalescer((message) => posted.push(message), 'a');
    for (let i = 0; i < 100; i += 1) coalescer.text('x');
    await wait(60);
    coalescer.text('y');
    const reply: StoredMessage = { id: 'a', role: 'assistant', text: '', createdAt: 1 };
    coalescer.finish(reply);
    assert.deepEqual(posted, [
      { type: 'chat/delta', messageId: 'a', text: 'x'.repeat(100) },
      { type: 'chat/delta', messageId: 'a', text: 'y' },
    ]);
    assert.equal(reply.text, `${'x'.repeat(100)}y`);
    assert.equal(reply.reasoning, undefined);
  });

  it('sends thinking apart and keeps it with the reply, never in its text', () => {
    const posted: ToWebview[] = [];
    const coalescer = new ReplyCoalescer((message) => posted.push(message), 'a');
    coalescer.reasoning('Hmm.');
    coalescer.text('Yes.');
    const reply: StoredMessage = { id: 'a', role: 'assistant', text: '', createdAt: 1 };
    coalescer.finish(reply);
    assert.deepEqual(posted, [
      { type: 'chat/reasoning', messageId: 'a', text: 'Hmm.' },
      { type: 'chat/delta', messageId: 'a', text: 'Yes.' },
    ]);
    assert.equal(reply.text, 'Yes.');
    assert.equal(reply.reasoning?.text, 'Hmm.');
  });
});
