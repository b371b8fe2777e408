import { strict as assert } from 'node:assert';
import { Answering } from '../../../../src/core/chat/answer/answering';
import { newConversation } from '../../../../src/core/chat/conversation';

describe('core/chat/answer/answering (one answer at a time)', () => {
  it('a new answer stops the running one and waits for it to end before it starts', async () => {
    const log: string[] = [];
    const answering = new Answering(
      (conversation, signal) =>
        new Promise((resolve) => {
          log.push(`start ${conversation.id}`);
          const end = (): void => {
            log.push(`end ${conversation.id}${signal.aborted ? ' stopped' : ''}`);
            resolve(conversation.id);
          };
          if (conversation.title === 'slow') signal.addEventListener('abort', end, { once: true });
          else end();
        }),
    );
    const slow = newConversation();
    slow.title = 'slow';
    const quick = newConversation();
    const first = answering.answer(slow);
    const second = answering.answer(quick);
    assert.deepEqual(await Promise.all([first, second]), [slow.id, quick.id]);
    assert.deepEqual(log, [`start ${slow.id}`, `end ${slow.id} stopped`, `start ${quick.id}`, `end ${quick.id}`]);
  });

  it('stop aborts the running answer; with none running it does nothing', async () => {
    const answering = new Answering(
      (_conversation, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('partial'), { once: true })),
    );
    answering.stop();
    const running = answering.answer(newConversation());
    answering.stop();
    assert.equal(await running, 'partial');
  });
});
