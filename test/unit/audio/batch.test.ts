import { strict as assert } from 'node:assert';
import { runBatch } from '../../../src/core/audio/batch';
import { findLanguage, languages } from '../../../src/core/audio/languages';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('audio batch', () => {
  it('runs every item with bounded concurrency and keeps input order', async () => {
    let running = 0;
    let peak = 0;
    const results = await runBatch(
      [30, 10, 20, 5, 15],
      async (ms) => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(ms);
        running -= 1;
        return ms * 2;
      },
      { concurrency: 2 },
    );
    assert.equal(peak, 2);
    assert.deepEqual(
      results.map((result) => (result.status === 'done' ? result.value : undefined)),
      [60, 20, 40, 10, 30],
    );
  });

  it('lets one failure not stop the others, and says why it failed', async () => {
    const results = await runBatch(
      ['a', 'bad', 'c'],
      async (item) => {
        if (item === 'bad') throw new Error('not audio');
        return item.toUpperCase();
      },
      { concurrency: 3 },
    );
    assert.deepEqual(
      results.map((result) => result.status),
      ['done', 'failed', 'done'],
    );
    const failed = results[1];
    assert.ok(failed?.status === 'failed' && failed.error instanceof Error && failed.error.message === 'not audio');
  });

  it('on cancel keeps what was done, marks the rest canceled, and passes the signal to running work', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const promise = runBatch(
      [1, 2, 3, 4],
      async (item, signal) => {
        seen.push(signal);
        if (item === 1) return 'first';
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
        return 'never';
      },
      { concurrency: 2, signal: controller.signal },
    );
    await sleep(20);
    controller.abort();
    const results = await promise;
    assert.deepEqual(
      results.map((result) => result.status),
      ['done', 'canceled', 'canceled', 'canceled'],
    );
    assert.ok(seen.every((signal) => signal.aborted));
  });

  it('reports progress per item', async () => {
    const progress: string[] = [];
    await runBatch(['x', 'y'], async (item) => item, { concurrency: 1, onSettled: (index, result) => progress.push(`${index}:${result.status}`) });
    assert.deepEqual(progress, ['0:done', '1:done']);
  });
});

describe('languages', () => {
  it('lists ISO-639-1 codes with names, unique', () => {
    assert.ok(languages.length >= 50);
    assert.equal(new Set(languages.map((language) => language.code)).size, languages.length);
    assert.ok(languages.every((language) => /^[a-z]{2}$/.test(language.code) && language.name.length > 1));
  });

  it('finds a language by code or by English name', () => {
    assert.equal(findLanguage('de')?.name, 'German');
    assert.equal(findLanguage('French')?.code, 'fr');
    assert.equal(findLanguage('xx'), undefined);
  });
});
