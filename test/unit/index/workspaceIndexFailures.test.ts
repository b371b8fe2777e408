// The workspace index when embedding goes wrong: a short 429 storm retried, a long one paused with the index
// intact, a stop, replies of the wrong count or dimension, an auth error and a batch with one bad input.
import * as assert from 'node:assert/strict';
import { chunkText } from '../../../src/core/index/chunker';
import type { EmbedFunction } from '../../../src/core/index/embedQueue';
import { WorkspaceIndex, type WorkspaceIndexOptions } from '../../../src/core/index/workspaceIndex';
import { CollectingLogger, Fixture, codeFile, fakeEmbedding, recordingEmbedder } from './helpers';
import { DIM, files, indexStorage, openIndex } from './indexSuite';

describe('index/workspaceIndex when embedding fails', () => {
  let fx: Fixture;
  let storage: string;
  const open = (embed: EmbedFunction, extra: Partial<WorkspaceIndexOptions> = {}): Promise<WorkspaceIndex> => openIndex(fx, storage, embed, extra);

  beforeEach(() => {
    fx = new Fixture();
    storage = indexStorage(fx);
  });
  afterEach(() => fx.dispose());

  it('retries a batch that failed in a short 429 storm within the same run, and completes', async () => {
    fx.write(Object.fromEntries(Object.entries(files(8)).map(([k, v]) => [`ws/${k}`, v])));
    let calls = 0;
    const blip: EmbedFunction = async (texts) => {
      calls++;
      if (calls === 2 || calls === 3) throw Object.assign(new Error('429 Too Many Requests'), { reason: 'rateLimited', retryAfterMs: 20 });
      return texts.map((t) => fakeEmbedding(t, DIM));
    };
    const logger = new CollectingLogger();
    const index = await open(blip, { logger, embedding: { batchSize: 4, concurrency: 1, maxConsecutiveFailures: 3 } });
    const result = await index.sync();
    assert.equal(result.status, 'complete', JSON.stringify(result));
    assert.equal(result.chunksPending, 0);
    assert.ok(logger.has('warn', /trying it again in 20 ms/));
    await index.close();
  });

  it('pauses on a 429 storm after the client gave up, keeping the index loadable and intact', async () => {
    fx.write(Object.fromEntries(Object.entries(files(8)).map(([k, v]) => [`ws/${k}`, v])));
    let calls = 0;
    const storm: EmbedFunction = async (texts) => {
      calls++;
      if (calls % 2 === 0) throw Object.assign(new Error('429 Too Many Requests'), { reason: 'rateLimited' });
      if (calls > 4) throw Object.assign(new Error('429 Too Many Requests'), { reason: 'rateLimited' });
      return texts.map((t) => fakeEmbedding(t, DIM));
    };
    const logger = new CollectingLogger();
    const index = await open(storm, { logger, embedding: { batchSize: 4, concurrency: 1, maxConsecutiveFailures: 3, retryDelayMs: 10 } });
    const result = await index.sync();
    assert.equal(result.status, 'incomplete');
    assert.equal(result.chunksEmbedded, 8);
    assert.ok(logger.has('warn', /paused after 3 failed attempts in a row/));
    const filesBefore = index.stats().files;
    await index.close();
    const { index: reopened, status } = await WorkspaceIndex.open({
      roots: [{ name: 'ws', path: fx.path('ws') }],
      storagePath: storage,
      modelId: 'E5-Mistral-7B-Instruct',
      dimension: DIM,
      embed: recordingEmbedder(DIM).embed,
      chunking: { targetTokens: 120 },
    });
    assert.equal(status.kind, 'loaded');
    assert.equal(reopened.stats().files, filesBefore);
    assert.equal((await reopened.sync()).status, 'complete');
    await reopened.close();
  });

  it('cancels cleanly on abort and keeps the batches that finished', async () => {
    fx.write(Object.fromEntries(Object.entries(files(8)).map(([k, v]) => [`ws/${k}`, v])));
    const controller = new AbortController();
    const done: string[] = [];
    const slow: EmbedFunction = async (texts, signal) => {
      if (done.length >= 8) controller.abort();
      if (signal.aborted) throw new Error('The operation was aborted');
      done.push(...texts);
      return texts.map((t) => fakeEmbedding(t, DIM));
    };
    const index = await open(slow, { embedding: { batchSize: 4, concurrency: 1 } });
    const result = await index.sync({ signal: controller.signal });
    assert.equal(result.status, 'cancelled');
    await index.close();
    const fake = recordingEmbedder(DIM);
    const again = await open(fake.embed);
    const finished = await again.sync();
    assert.equal(finished.status, 'complete');
    assert.equal(fake.texts().filter((t) => done.includes(t)).length, 0);
    await again.close();
  });

  it('rejects replies with the wrong count or dimension without storing anything', async () => {
    fx.write({ 'ws/a.ts': codeFile('a', 2) });
    for (const bad of [
      (texts: readonly string[]): Float32Array[] => texts.slice(1).map((t) => fakeEmbedding(t, DIM)),
      (texts: readonly string[]): Float32Array[] => texts.map((t) => fakeEmbedding(t, DIM + 1)),
      (texts: readonly string[]): Float32Array[] => texts.map(() => new Float32Array(DIM).fill(NaN)),
    ]) {
      const logger = new CollectingLogger();
      const index = await open(async (texts) => bad(texts), { logger });
      const result = await index.sync();
      assert.equal(result.status, 'incomplete');
      assert.equal(index.stats().vectors, 0);
      assert.equal(index.stats().files, 0);
      assert.ok(logger.has('warn', /EmbedReplyError/));
      // Keyword search still works for the file that could not be embedded.
      assert.equal(index.search({ text: 'aStep1' })[0]?.matched, 'keyword');
      await index.close();
    }
    const fake = recordingEmbedder(DIM);
    const index = await open(fake.embed);
    assert.equal((await index.sync()).status, 'complete');
    await index.close();
  });

  it('stops at once on an auth error and splits a rejected batch to isolate a bad input', async () => {
    fx.write(Object.fromEntries(Object.entries(files(3)).map(([k, v]) => [`ws/${k}`, v])));
    let calls = 0;
    const auth = await open(async () => {
      calls++;
      throw Object.assign(new Error('invalid key'), { reason: 'auth' });
    });
    const r1 = await auth.sync();
    assert.match(r1.stopReason ?? '', /fatal: invalid key/);
    assert.deepEqual(r1.stop, { kind: 'fatal', detail: 'invalid key' }, 'the kind and detail the host words');
    assert.ok(calls <= 2, `${calls} calls after an auth error`);
    await auth.close();

    const poison = chunkText(codeFile('mod1', 4), { targetTokens: 120 })[1]?.text ?? '';
    const picky = await open(async (texts) => {
      if (texts.includes(poison)) throw Object.assign(new Error('input too long'), { reason: 'badRequest' });
      return texts.map((t) => fakeEmbedding(t, DIM));
    });
    const r2 = await picky.sync();
    assert.equal(r2.status, 'incomplete');
    assert.equal(r2.chunksPending, 1);
    assert.equal(picky.stats().files, 2, 'only the file with the bad chunk waits');
    await picky.close();
  });
});
