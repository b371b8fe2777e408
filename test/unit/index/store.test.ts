import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, appendFileSync } from 'node:fs';
import * as path from 'node:path';
import { contentHash } from '../../../src/core/index/hashing';
import { IndexStore } from '../../../src/core/index/store/indexStore';
import { nodeStoreIo, type StoreFile, type StoreIo } from '../../../src/core/index/store/storeIo';
import type { FileRecord } from '../../../src/core/index/types';
import { CollectingLogger, Fixture, fakeEmbedding } from './helpers';

const MODEL = 'E5-Mistral-7B-Instruct';
const DIM = 64;

function fileWith(pathKey: string, texts: string[]): { record: FileRecord; vectors: { hash: string; vector: Float32Array }[] } {
  const vectors = texts.map((t) => ({ hash: contentHash(t), vector: fakeEmbedding(t, DIM) }));
  const record: FileRecord = {
    path: pathKey,
    hash: contentHash(texts.join('\n')),
    size: 100,
    mtimeMs: 1700000000000.5,
    chunks: texts.map((t, i) => ({ startLine: i * 10 + 1, endLine: i * 10 + 9, hash: contentHash(t) })),
  };
  return { record, vectors };
}

async function populated(file: string, options: { io?: StoreIo; logger?: CollectingLogger } = {}): Promise<IndexStore> {
  const { store } = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM, ...options });
  for (const [key, texts] of [
    ['w/a.ts', ['alpha one', 'alpha two']],
    ['w/b.ts', ['beta one']],
  ] as const) {
    const { record, vectors } = fileWith(key, [...texts]);
    store.addVectors(vectors);
    store.putFile(record);
  }
  return store;
}

/** An io whose writes to temporary snapshot files fail after `budget` bytes. */
function failingIo(budget: number): StoreIo {
  return {
    ...nodeStoreIo,
    open: async (p, flags) => {
      const file = await nodeStoreIo.open(p, flags);
      if (!p.includes('.tmp-')) return file;
      let left = budget;
      const wrapped: StoreFile = {
        read: (...a) => file.read(...a),
        sync: () => file.sync(),
        truncate: (n) => file.truncate(n),
        stat: () => file.stat(),
        close: () => file.close(),
        write: async (buffer, offset, length, position) => {
          if (left <= 0) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          const n = Math.min(length, left);
          left -= n;
          return file.write(buffer, offset, n, position);
        },
      };
      return wrapped;
    },
  };
}

describe('index/store', () => {
  let fx: Fixture;
  let file: string;
  beforeEach(() => {
    fx = new Fixture();
    file = path.join(fx.root, 'store', 'index.cdzi');
  });
  afterEach(() => fx.dispose());

  it('round-trips files, chunk ranges and vectors through snapshot and journal', async () => {
    const store = await populated(file);
    await store.checkpoint({ sync: true });
    await store.close();
    const reopened = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.equal(reopened.status.kind, 'loaded');
    const s = reopened.store;
    assert.deepEqual([...s.files()].map((f) => f.path).sort(), ['w/a.ts', 'w/b.ts']);
    assert.deepEqual(s.getFile('w/a.ts'), fileWith('w/a.ts', ['alpha one', 'alpha two']).record);
    const slot = s.slotOf(contentHash('beta one'));
    assert.ok(slot !== undefined && s.arena);
    assert.equal(s.isLive(slot), true);
    // Compaction moves everything into the snapshot and empties the journal.
    assert.equal(await s.compact(), true);
    await s.close();
    const third = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.deepEqual(third.status, { kind: 'loaded', files: 2, vectors: 3, journalRecords: 0 });
    await third.store.close();
  });

  it('drops unreferenced vectors at compaction unless asked to keep them', async () => {
    const store = await populated(file);
    store.deleteFile('w/b.ts');
    assert.equal(store.vectorCount, 3);
    await store.compact(new Set());
    assert.equal(store.vectorCount, 2);
    assert.equal(store.hasVector(contentHash('beta one')), false);
    await store.close();
  });

  it('keeps the old snapshot intact when a write fails midway, and leaves no temporary file', async () => {
    const good = await populated(file);
    await good.compact();
    await good.close();
    const before = readFileSync(file);
    const logger = new CollectingLogger();
    const { store } = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM, io: failingIo(100), logger });
    store.deleteFile('w/a.ts');
    assert.equal(await store.compact(), false);
    assert.ok(logger.has('error', /Writing the index failed/));
    assert.deepEqual(readFileSync(file), before);
    assert.deepEqual(
      readdirSync(path.dirname(file)).filter((n) => n.includes('.tmp-')),
      [],
    );
    assert.equal(store.writable, false);
    await store.close().catch(() => undefined);
    const reopened = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.equal(reopened.status.kind, 'loaded');
    await reopened.store.close();
  });

  it('detects a flipped byte anywhere as corruption and starts empty', async () => {
    const store = await populated(file);
    await store.compact();
    await store.close();
    const size = statSync(file).size;
    for (const offset of [5, 30, 70, Math.floor(size / 2), size - 1]) {
      const bytes = readFileSync(file);
      const original = Buffer.from(bytes);
      bytes[offset] = (bytes[offset] ?? 0) ^ 0x10;
      writeFileSync(file, bytes);
      const logger = new CollectingLogger();
      const { store: s, status } = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM, logger });
      assert.equal(status.kind, 'discarded', `flip at ${offset}`);
      assert.equal(status.kind === 'discarded' && status.reason, 'corrupt');
      assert.equal(s.fileCount, 0);
      assert.ok(logger.has('warn', /discarded/));
      await s.close();
      writeFileSync(file, original);
    }
  });

  it('detects a truncated file', async () => {
    const store = await populated(file);
    await store.compact();
    await store.close();
    truncateSync(file, statSync(file).size - 10);
    const { status, store: s } = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.equal(status.kind === 'discarded' && status.reason, 'corrupt');
    await s.close();
    truncateSync(file, 3);
    const again = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.equal(again.status.kind === 'discarded' && again.status.reason, 'corrupt');
    await again.store.close();
  });

  it('reports a file of another format version as foreignVersion, not a crash', async () => {
    const store = await populated(file);
    await store.compact();
    await store.close();
    const bytes = readFileSync(file);
    bytes.writeUInt32LE(99, 8);
    // Re-seal the header so only the version differs.
    const { crc32 } = await import('../../../src/core/index/hashing');
    bytes.writeUInt32LE(crc32(bytes.subarray(0, 60)), 60);
    writeFileSync(file, bytes);
    const { status, store: s } = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.equal(status.kind === 'discarded' && status.reason, 'foreignVersion');
    await s.close();
  });

  it('never mixes models or dimensions: another model or dimension starts a new index', async () => {
    const store = await populated(file);
    await store.compact();
    await store.close();
    const other = await IndexStore.open({ path: file, modelId: 'other-embedder', dimension: DIM });
    assert.equal(other.status.kind === 'discarded' && other.status.reason, 'otherModel');
    await other.store.close();
    const store2 = await populated(file);
    await store2.compact();
    await store2.close();
    const wider = await IndexStore.open({ path: file, modelId: MODEL, dimension: 128 });
    assert.equal(wider.status.kind === 'discarded' && wider.status.reason, 'otherModel');
    assert.deepEqual(wider.store.addVectors([{ hash: 'aa'.repeat(16), vector: new Float32Array(64).fill(1) }]), [], 'a 64-d vector never enters a 128-d index');
    await wider.store.close();
  });

  it('replays the journal after a crash and drops a torn last record', async () => {
    const store = await populated(file);
    await store.checkpoint({ sync: true });
    // A crash: no close, no compaction; then garbage as if a record was half written.
    appendFileSync(`${file}.journal`, Buffer.from([200, 0, 0, 0, 1, 2, 3]));
    const logger = new CollectingLogger();
    const { store: s, status } = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM, logger });
    assert.equal(status.kind, 'loaded');
    assert.equal(s.fileCount, 2);
    assert.ok(logger.has('warn', /damaged tail of 7 bytes/));
    // The journal was cut back, so new records follow good ones.
    s.deleteFile('w/a.ts');
    await s.close();
    const again = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.deepEqual(
      [...again.store.files()].map((f) => f.path),
      ['w/b.ts'],
    );
    await again.store.close();
    await store.close().catch(() => undefined);
  });

  it('ignores a journal left over from before the last compaction', async () => {
    const store = await populated(file);
    await store.checkpoint({ sync: true });
    const staleJournal = readFileSync(`${file}.journal`);
    store.deleteFile('w/a.ts');
    await store.compact();
    await store.close();
    writeFileSync(`${file}.journal`, staleJournal); // as if the crash came between rename and journal reset
    const { store: s } = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.deepEqual(
      [...s.files()].map((f) => f.path),
      ['w/b.ts'],
    );
    await s.close();
  });

  it('keeps changes made while a compaction is writing', async () => {
    const store = await populated(file);
    const writing = store.compact();
    await new Promise((resolve) => setImmediate(resolve)); // the snapshot write is now under way
    const { record, vectors } = fileWith('w/during.ts', ['alpha one']); // its vector already exists
    store.addVectors(vectors);
    store.putFile(record);
    store.deleteFile('w/b.ts');
    assert.equal(await writing, true);
    await store.close();
    const { store: s } = await IndexStore.open({ path: file, modelId: MODEL, dimension: DIM });
    assert.deepEqual([...s.files()].map((f) => f.path).sort(), ['w/a.ts', 'w/during.ts']);
    await s.close();
  });

  it('learns the dimension from the first vectors when none was given', async () => {
    const { store } = await IndexStore.open({ path: file, modelId: MODEL });
    assert.equal(store.dimension, 0);
    const { record, vectors } = fileWith('w/c.ts', ['gamma']);
    store.addVectors(vectors);
    store.putFile(record);
    await store.checkpoint({ sync: true });
    await store.close();
    const { store: s } = await IndexStore.open({ path: file, modelId: MODEL });
    assert.equal(s.dimension, DIM);
    assert.equal(s.fileCount, 1);
    await s.close();
    assert.ok(existsSync(file));
  });

  it('stays within 4.5 KB per 4,096-d chunk on disk, metadata included', async () => {
    const { store } = await IndexStore.open({ path: file, modelId: MODEL, dimension: 4096 });
    for (let f = 0; f < 50; f++) {
      const texts = Array.from({ length: 4 }, (_, c) => `file ${f} chunk ${c}`);
      store.addVectors(texts.map((t) => ({ hash: contentHash(t), vector: fakeEmbedding(t, 4096) })));
      store.putFile({
        path: `workspace/src/module${f}/component${f}.ts`,
        hash: contentHash(`f${f}`),
        size: 4000,
        mtimeMs: 1,
        chunks: texts.map((t, c) => ({ startLine: c * 40 + 1, endLine: c * 40 + 40, hash: contentHash(t) })),
      });
    }
    await store.compact();
    await store.close();
    const perChunk = statSync(file).size / 200;
    assert.ok(perChunk <= 4500, `${perChunk} bytes per chunk`);
  });
});
