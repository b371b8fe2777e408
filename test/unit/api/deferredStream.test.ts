import { strict as assert } from 'node:assert';
import { answerAsStream, deferredStream } from '../../../src/core/api/deferredStream';
import type { ChatStreamEvent } from '../../../src/core/api/types';
import { playedStream, usage } from '../chat/scriptedStreams';

describe('deferredStream: a stream opened when first read', () => {
  it("opens nothing until read, then yields the opened stream's events and settles with its result", async () => {
    let opened = 0;
    const stream = deferredStream(() => {
      opened += 1;
      return Promise.resolve(playedStream('m', { text: ['a', 'b'] }));
    });
    assert.equal(opened, 0);
    const events: ChatStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.equal(opened, 1);
    assert.deepEqual(
      events.filter((event) => event.type === 'text').map((event) => event.type === 'text' && event.text),
      ['a', 'b'],
    );
    assert.equal((await stream.result).text, 'ab');
  });

  it('a failure to open surfaces on reading and in the result', async () => {
    const stream = deferredStream(() => Promise.reject(new Error('no client')));
    await assert.rejects(async () => {
      for await (const event of stream) assert.fail(`unexpected ${event.type}`);
    }, /no client/);
    await assert.rejects(stream.result, /no client/);
  });

  it("the opened stream's failure rejects the result as well", async () => {
    const stream = deferredStream(() => Promise.resolve(playedStream('m', { text: ['a'], error: new Error('reset') })));
    await assert.rejects(async () => {
      for await (const event of stream) void event;
    }, /reset/);
    await assert.rejects(stream.result, /reset/);
  });
});

describe('answerAsStream: a whole answer as a stream', () => {
  it('yields its thinking and text once each, then finish and usage, and settles with the answer', async () => {
    const answer = { id: 'a', model: 'm', text: 'The summary.', reasoning: 'Thought.', toolCalls: [], finishReason: 'length', usage: usage(7) };
    const stream = answerAsStream(() => Promise.resolve(answer));
    const events: ChatStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.deepEqual(
      events.map((event) => event.type),
      ['reasoning', 'text', 'finish', 'usage'],
    );
    assert.deepEqual(events[1], { type: 'text', text: 'The summary.' });
    assert.deepEqual(events[2], { type: 'finish', reason: 'length' });
    assert.equal(await stream.result, answer);
  });

  it('a failed answer fails the stream and its result', async () => {
    const stream = answerAsStream(() => Promise.reject(new Error('500')));
    await assert.rejects(async () => {
      for await (const event of stream) void event;
    }, /500/);
    await assert.rejects(stream.result, /500/);
  });
});
