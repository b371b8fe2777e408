// The request scheduler with a fake clock: debounce, abort on typing past, typed-through, in-flight reuse, cache.
import assert from 'node:assert/strict';
import { CompletionScheduler, typedSince, type Clock, type CompletionRequest, type PartialListener } from '../../../src/core/completions/scheduler';

/** A clock whose time moves only when the test says. */
class FakeClock implements Clock {
  private time = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }
  /** Moves time on, firing due timers in order, letting promises settle between them. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A fetcher the test answers by hand, recording each request and its abort signal. */
class FakeService {
  readonly calls: { request: CompletionRequest; signal: AbortSignal; onPartial: PartialListener; answer: (text: string) => void }[] = [];
  readonly fetch = (request: CompletionRequest, signal: AbortSignal, onPartial: PartialListener): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      this.calls.push({ request, signal, onPartial, answer: resolve });
    });
  last(): FakeService['calls'][number] {
    const call = this.calls.at(-1);
    assert.ok(call, 'a request was sent');
    return call;
  }
}

const file = 'function area(radius) {\n  return ';
const after = '\n}\n';

/** The cursor after typing `typed` at the end of `file`. */
function cursor(typed = '', documentKey = 'file:///a.js'): CompletionRequest {
  return { documentKey, offset: file.length + typed.length, prefix: file + typed, suffix: after };
}

function setUp(): { clock: FakeClock; service: FakeService; scheduler: CompletionScheduler } {
  const clock = new FakeClock();
  const service = new FakeService();
  const scheduler = new CompletionScheduler({ fetch: service.fetch, clock, debounceMs: 75, orphanGraceMs: 200 });
  return { clock, service, scheduler };
}

const live = (): AbortSignal => new AbortController().signal;

describe('completions/scheduler', () => {
  it('reads what was typed between two cursors, and only that', () => {
    assert.equal(typedSince(cursor(), cursor('Math')), 'Math');
    assert.equal(typedSince(cursor('Math'), cursor()), undefined, 'deleting is not typing');
    assert.equal(typedSince(cursor(), cursor('', 'file:///b.js')), undefined, 'another document');
    assert.equal(typedSince(cursor(), { ...cursor('x'), suffix: 'changed' }), undefined, 'the text after the cursor changed');
    assert.equal(typedSince(cursor(), { ...cursor('x'), prefix: `${file.replace('area', 'size')}x` }), undefined, 'the text before the cursor changed');
  });

  it('debounces keystrokes into one request', async () => {
    const { clock, service, scheduler } = setUp();
    const first = scheduler.complete(cursor('M'), live());
    await clock.advance(30);
    const second = scheduler.complete(cursor('Ma'), live());
    await clock.advance(30);
    const third = scheduler.complete(cursor('Mat'), live());
    await clock.advance(74);
    assert.equal(service.calls.length, 0, 'nothing sent while the user types');
    await clock.advance(1);
    assert.equal(service.calls.length, 1);
    assert.equal(service.last().request.prefix, `${file}Mat`);
    service.last().answer('h.PI * radius ** 2;');
    assert.equal(await first, undefined);
    assert.equal(await second, undefined);
    assert.deepEqual(await third, { text: 'h.PI * radius ** 2;', source: 'network' });
    assert.equal(scheduler.stats.debounced, 2);
    assert.equal(scheduler.stats.requests, 1);
  });

  it('aborts the request at once when the user types past it, and counts it', async () => {
    const { clock, service, scheduler } = setUp();
    const first = scheduler.complete(cursor(), live());
    await clock.advance(75);
    const sent = service.last();
    sent.onPartial('Math.PI', false);
    const second = scheduler.complete(cursor('r'), live());
    assert.equal(sent.signal.aborted, true, 'aborted on the keystroke, not later');
    assert.equal(scheduler.stats.cancelled, 1);
    assert.equal(await first, undefined);
    await clock.advance(75);
    assert.equal(service.calls.length, 2, 'a new request for the new text');
    service.last().answer('adius * radius;');
    assert.deepEqual(await second, { text: 'adius * radius;', source: 'network' });
  });

  it('keeps a streaming request when the user types what it is writing, and serves the rest', async () => {
    const { clock, service, scheduler } = setUp();
    const first = scheduler.complete(cursor(), live());
    await clock.advance(75);
    const sent = service.last();
    sent.onPartial('Math.P', false);
    const typing = new AbortController();
    const second = scheduler.complete(cursor('Ma'), typing.signal);
    assert.equal(sent.signal.aborted, false);
    sent.answer('Math.PI * radius ** 2;');
    assert.deepEqual(await first, { text: 'Math.PI * radius ** 2;', source: 'network' });
    assert.deepEqual(await second, { text: 'th.PI * radius ** 2;', source: 'inflight' });
    assert.equal(service.calls.length, 1);
    assert.equal(scheduler.stats.inflightReuse, 1);
  });

  it('aborts a reused request as soon as its stream disagrees with what was typed', async () => {
    const { clock, service, scheduler } = setUp();
    void scheduler.complete(cursor(), live());
    await clock.advance(75);
    const sent = service.last();
    const second = scheduler.complete(cursor('Ma'), live());
    sent.onPartial('radius', false);
    assert.equal(sent.signal.aborted, true);
    assert.equal(scheduler.stats.cancelled, 1);
    assert.equal(await second, undefined);
  });

  it('aborts on the edit itself, before VS Code asks again, when the typed text departs from the answer', async () => {
    const { clock, service, scheduler } = setUp();
    void scheduler.complete(cursor(), live());
    await clock.advance(75);
    const sent = service.last();
    sent.onPartial('Math.PI', false);
    const at = cursor().offset;
    scheduler.noteEdit('file:///b.js', at, 0, 'x');
    assert.equal(sent.signal.aborted, false, 'another document');
    scheduler.noteEdit('file:///a.js', at, 0, 'Ma');
    assert.equal(sent.signal.aborted, false, 'typing what the answer writes');
    scheduler.noteEdit('file:///a.js', at + 2, 0, 'x');
    assert.equal(sent.signal.aborted, true, 'typing past it');
    assert.equal(scheduler.stats.cancelled, 1);
  });

  it('aborts on an edit elsewhere in the document, or a new line', async () => {
    for (const edit of [
      [0, 0, '// note\n'],
      [cursor().offset - 3, 3, ''],
      [cursor().offset, 0, '\n'],
    ] as const) {
      const { clock, service, scheduler } = setUp();
      void scheduler.complete(cursor(), live());
      await clock.advance(75);
      scheduler.noteEdit('file:///a.js', edit[0], edit[1], edit[2]);
      assert.equal(service.last().signal.aborted, true, JSON.stringify(edit));
    }
  });

  it('shortens the shown suggestion while the user types through it, without a request', async () => {
    const { clock, service, scheduler } = setUp();
    const first = scheduler.complete(cursor(), live());
    await clock.advance(75);
    service.last().answer('Math.PI * radius ** 2;');
    assert.equal((await first)?.text, 'Math.PI * radius ** 2;');
    assert.deepEqual(await scheduler.complete(cursor('M'), live()), { text: 'ath.PI * radius ** 2;', source: 'typedThrough' });
    assert.deepEqual(await scheduler.complete(cursor('Math.PI'), live()), { text: ' * radius ** 2;', source: 'typedThrough' });
    assert.equal(service.calls.length, 1);
    assert.equal(scheduler.stats.typedThrough, 2);
    // Typing something else leaves the suggestion behind.
    const other = scheduler.complete(cursor('Math.E'), live());
    await clock.advance(75);
    assert.equal(service.calls.length, 2);
    service.last().answer(' * radius;');
    assert.equal((await other)?.source, 'network');
  });

  it('answers from the cache when the same text comes back (typing, then deleting)', async () => {
    const { clock, service, scheduler } = setUp();
    const first = scheduler.complete(cursor(), live());
    await clock.advance(75);
    service.last().answer('Math.PI * radius ** 2;');
    await first;
    const typed = scheduler.complete(cursor('x'), live());
    await clock.advance(75);
    service.last().answer(' * 2;');
    await typed;
    scheduler.clearShown();
    assert.deepEqual(await scheduler.complete(cursor(), live()), { text: 'Math.PI * radius ** 2;', source: 'cache' });
    assert.equal(service.calls.length, 2);
    assert.equal(scheduler.stats.cacheHits, 1);
  });

  it('caches an empty answer too, so a spot with nothing to say is asked once', async () => {
    const { clock, service, scheduler } = setUp();
    const first = scheduler.complete(cursor(), live());
    await clock.advance(75);
    service.last().answer('');
    assert.equal(await first, undefined);
    assert.equal(await scheduler.complete(cursor(), live()), undefined);
    assert.equal(service.calls.length, 1);
  });

  it('sends nothing when VS Code cancels during the debounce', async () => {
    const { clock, service, scheduler } = setUp();
    const cancel = new AbortController();
    const pending = scheduler.complete(cursor(), cancel.signal);
    await clock.advance(20);
    cancel.abort();
    assert.equal(await pending, undefined);
    await clock.advance(500);
    assert.equal(service.calls.length, 0);
  });

  it('lets an abandoned request stream for a grace time, then aborts it', async () => {
    const { clock, service, scheduler } = setUp();
    const cancel = new AbortController();
    const pending = scheduler.complete(cursor(), cancel.signal);
    await clock.advance(75);
    const sent = service.last();
    cancel.abort();
    assert.equal(await pending, undefined);
    await clock.advance(199);
    assert.equal(sent.signal.aborted, false);
    await clock.advance(1);
    assert.equal(sent.signal.aborted, true);
    assert.equal(scheduler.stats.cancelled, 1);
  });

  it('does not count a request that already finished as cancelled', async () => {
    const { clock, service, scheduler } = setUp();
    const first = scheduler.complete(cursor(), live());
    await clock.advance(75);
    service.last().answer('Math.PI;');
    await first;
    scheduler.cancelAll();
    assert.equal(scheduler.stats.cancelled, 0);
  });
});
