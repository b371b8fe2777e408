import * as assert from 'node:assert/strict';
import { renameSync, statSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { withContext } from '../../../src/core/index/chunkContext';
import { chunkText } from '../../../src/core/index/chunker';
import { crc32 } from '../../../src/core/index/hashing';
import type { EmbedFunction } from '../../../src/core/index/embedQueue';
import { nodeFileSource, type FileSource } from '../../../src/core/index/fileSource';
import { IndexStore } from '../../../src/core/index/store/indexStore';
import { WorkspaceIndex, type WorkspaceIndexOptions } from '../../../src/core/index/workspaceIndex';
import { CollectingLogger, Fixture, codeFile, fakeEmbedding, recordingEmbedder } from './helpers';
import { DIM, files, indexStorage, openIndex } from './indexSuite';

describe('index/workspaceIndex', () => {
  let fx: Fixture;
  let storage: string;
  const open = (embed: EmbedFunction, extra: Partial<WorkspaceIndexOptions> = {}): Promise<WorkspaceIndex> => openIndex(fx, storage, embed, extra);

  beforeEach(() => {
    fx = new Fixture();
    storage = indexStorage(fx);
  });
  afterEach(() => fx.dispose());

  it('builds, then re-embeds only the changed chunks of a changed file', async () => {
    fx.write(Object.fromEntries(Object.entries(files(6)).map(([k, v]) => [`ws/${k}`, v])));
    const fake = recordingEmbedder(DIM);
    const index = await open(fake.embed);
    const first = await index.sync();
    assert.equal(first.status, 'complete');
    const total = index.stats().chunks;
    assert.equal(fake.texts().length, total);
    assert.ok(total >= 12);

    const original = codeFile('mod2', 4);
    fx.write({ 'ws/src/file2.ts': original.replace('mod2Step3', 'mod2StepRenamedThree') });
    fake.batches.length = 0;
    const second = await index.sync();
    const chunksOf = (text: string) => withContext(text, chunkText(text, { targetTokens: 120 }));
    const changedChunks = chunksOf(original.replace('mod2Step3', 'mod2StepRenamedThree')).filter((c) => !chunksOf(original).some((o) => o.hash === c.hash));
    assert.equal(second.filesChanged, 1);
    assert.equal(second.filesUnchanged, 5);
    assert.deepEqual(
      fake.texts(),
      changedChunks.map((c) => c.text),
    );
    assert.ok(fake.texts().length < 3);
    await index.close();
  });

  it('a rename costs no embedding; a delete removes the file; both survive a restart', async () => {
    fx.write({ 'ws/a.ts': codeFile('a', 3), 'ws/b.ts': codeFile('b', 3) });
    const fake = recordingEmbedder(DIM);
    let index = await open(fake.embed);
    await index.sync();
    renameSync(fx.path('ws/a.ts'), fx.path('ws/renamed.ts'));
    fx.remove('ws/b.ts');
    fake.batches.length = 0;
    const result = await index.sync();
    assert.equal(fake.batches.length, 0);
    assert.equal(result.filesDeleted, 2);
    assert.ok(result.chunksReused > 0);
    await index.close();
    index = await open(fake.embed);
    assert.equal(index.stats().files, 1);
    // Before this session's first sync only vectors are searchable (chunk texts are not stored).
    const hits = index.search({ text: 'aStep1', vector: fakeEmbedding('export function aStep1(input: number): number', DIM) });
    assert.equal(hits[0]?.relPath, 'renamed.ts');
    assert.equal(hits[0]?.matched, 'semantic');
    assert.equal(hits[0]?.absPath, fx.path('ws/renamed.ts'));
    await index.close();
  });

  it('resumes an interrupted build without re-embedding what was done (embedder dies after N batches)', async () => {
    fx.write(Object.fromEntries(Object.entries(files(8)).map(([k, v]) => [`ws/${k}`, v])));
    const embedded: string[] = [];
    let calls = 0;
    const flaky: EmbedFunction = async (texts) => {
      calls++;
      if (calls > 3) throw Object.assign(new Error('connect ECONNREFUSED'), { reason: 'network' });
      embedded.push(...texts);
      return texts.map((t) => fakeEmbedding(t, DIM));
    };
    const logger = new CollectingLogger();
    const index = await open(flaky, { logger, embedding: { batchSize: 4, concurrency: 1, maxConsecutiveFailures: 2 } });
    const first = await index.sync();
    assert.equal(first.status, 'incomplete');
    assert.equal(first.chunksEmbedded, 12);
    assert.ok(first.chunksPending > 0);
    assert.match(first.stopReason ?? '', /tooManyFailures/);
    assert.deepEqual(first.stop, { kind: 'tooManyFailures', detail: 'connect ECONNREFUSED' }, 'the kind and detail the host words');
    assert.ok(logger.has('warn', /failed.*stay pending/));
    await index.close(); // a reload

    const fake = recordingEmbedder(DIM);
    const resumed = await open(fake.embed);
    const second = await resumed.sync();
    assert.equal(second.status, 'complete');
    assert.equal(fake.texts().filter((t) => embedded.includes(t)).length, 0, 'nothing embedded twice');
    assert.equal(embedded.length + fake.texts().length, resumed.stats().chunks);
    await resumed.close();
  });

  it('turns a storm of changes into one batch of work (a branch switch)', async () => {
    fx.write(Object.fromEntries(Object.entries(files(40, 2)).map(([k, v]) => [`ws/${k}`, v])));
    const fake = recordingEmbedder(DIM);
    const index = await open(fake.embed, { embedding: { batchSize: 32, concurrency: 1 } });
    await index.sync();
    fake.batches.length = 0;
    const changed: string[] = [];
    for (let i = 0; i < 40; i++) {
      const p = `ws/src/file${i}.ts`;
      if (i % 2 === 0) fx.write({ [p]: codeFile(`branch${i}`, 2) });
      else fx.remove(p);
      changed.push(fx.path(p));
    }
    fx.write({ 'ws/node_modules/x/index.js': 'ignored' });
    changed.push(fx.path('ws/node_modules/x/index.js'));
    const calls = changed.map((p, i) => index.applyChanges(i % 2 ? { deleted: [p] } : { changed: [p] }));
    const results = await Promise.all(calls);
    const worked = results.filter((r) => r.filesSeen > 0 || r.filesDeleted > 0);
    assert.equal(worked.length, 1, 'one run did all the work');
    assert.equal(worked[0]?.filesDeleted, 20);
    assert.equal(index.stats().files, 20);
    assert.ok(fake.batches.length <= 2, `${fake.batches.length} embedding batches`);
    assert.ok(!index.search({ text: 'mod1Step0' }).some((r) => r.relPath === 'src/file1.ts'));
    await index.close();
  });

  it('handles folders in change events and re-walks when an ignore file changes', async () => {
    fx.write({ 'ws/a.ts': codeFile('a', 1), 'ws/lib/b.ts': codeFile('b', 1), 'ws/lib/c.ts': codeFile('c', 1) });
    const fake = recordingEmbedder(DIM);
    const index = await open(fake.embed);
    await index.sync();
    fx.remove('ws/lib');
    await index.applyChanges({ deleted: [fx.path('ws/lib')] });
    assert.equal(index.stats().files, 1);
    fx.write({ 'ws/lib/d.ts': codeFile('d', 1) });
    await index.applyChanges({ changed: [fx.path('ws/lib')] });
    assert.equal(index.stats().files, 2);
    fx.write({ 'ws/.cadenzaignore': 'lib/\n' });
    const r = await index.applyChanges({ changed: [fx.path('ws/.cadenzaignore')] });
    assert.equal(r.filesDeleted, 1);
    assert.ok(!index.search({ text: 'dStep0' }).some((h) => h.relPath === 'lib/d.ts'));
    await index.close();
  });

  it('never embeds or returns files reached through links out of the workspace (sync, change events, chunk reads), and says how many it skipped', async () => {
    fx.write({ 'home/.aws/credentials': 'aws_secret_access_key = hunter2secret', 'home/.ssh/config': 'Host sshsecrethost', 'ws/a.ts': codeFile('a', 1) });
    symlinkSync('../home/.aws/credentials', fx.path('ws/notes.txt'), 'file');
    symlinkSync(fx.path('home/.ssh'), fx.path('ws/docs'), 'dir');
    const fake = recordingEmbedder(DIM);
    const index = await open(fake.embed);
    const result = await index.sync();
    assert.equal(result.linksOutside, 2);
    // A change event naming the links (the watcher reports them like any file) embeds nothing either.
    fx.write({ 'home/.ssh/new': 'Host anothersecret' });
    symlinkSync('../home/.ssh/new', fx.path('ws/late.txt'), 'file');
    const changed = await index.applyChanges({ changed: [fx.path('ws/notes.txt'), fx.path('ws/docs'), fx.path('ws/late.txt'), fx.path('ws/docs/new')] });
    assert.equal(changed.filesChanged, 0);
    assert.equal(changed.linksOutside, 4);
    assert.ok(!fake.texts().some((text) => /secret/.test(text)), fake.texts().join('\n'));
    assert.deepEqual(
      index.search({ text: 'hunter2secret sshsecrethost anothersecret' }).map((hit) => hit.relPath),
      [],
    );
    assert.equal(await index.readChunk({ absPath: fx.path('ws/notes.txt'), startLine: 1, endLine: 1 }), undefined);
    await index.close();
  });

  it('logs and survives unreadable files, files vanishing mid-read, binaries and non-UTF-8 text', async () => {
    fx.write({
      'ws/ok.ts': codeFile('ok', 1),
      'ws/gone.ts': codeFile('gone', 1),
      'ws/locked.ts': codeFile('locked', 1),
      'ws/blob.dat2': Buffer.from([1, 2, 3, 0, 4, 5]),
      'ws/latin.txt': Buffer.from('Déjà vu: façade naïve\n'.repeat(5), 'latin1'),
      'ws/bundle.js': `var x=${'1+'.repeat(3000)}1;`,
    });
    const source: FileSource = {
      stat: nodeFileSource.stat,
      read: async (p, max) => {
        if (p.endsWith('gone.ts')) return undefined;
        if (p.endsWith('locked.ts')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return nodeFileSource.read(p, max);
      },
    };
    const logger = new CollectingLogger();
    const fake = recordingEmbedder(DIM);
    const index = await open(fake.embed, { fileSource: source, logger });
    const result = await index.sync();
    assert.equal(result.status, 'complete');
    assert.deepEqual(
      index.search({ text: 'façade' }).map((h) => h.relPath),
      ['latin.txt'],
    );
    assert.equal(index.stats().files, 2);
    assert.ok(logger.has('warn', /Cannot read .*locked\.ts/));
    assert.ok(logger.has('debug', /bundle\.js: minified/));
    assert.ok(logger.has('debug', /blob\.dat2: binary/));
    assert.ok(logger.has('debug', /latin\.txt is not valid UTF-8; decoded as windows-1252/));
    await index.close();
  });

  it('re-chunks when chunking options change but reuses every unchanged chunk vector', async () => {
    fx.write({ 'ws/a.ts': codeFile('a', 6) });
    const fake = recordingEmbedder(DIM);
    const index = await open(fake.embed, { chunking: { targetTokens: 120 } });
    await index.sync();
    await index.close();
    const before = fake.texts().length;
    const other = await open(fake.embed, { chunking: { targetTokens: 400 } });
    const r = await other.sync();
    assert.equal(r.filesChanged, 1);
    assert.ok(fake.texts().length > before, 'bigger chunks are new texts');
    await other.close();
    const third = await open(fake.embed, { chunking: { targetTokens: 400 } });
    const r3 = await third.sync();
    assert.equal(r3.filesChanged, 0, 'the new chunker version was stored');
    await third.close();
  });

  it('embeds a chunk cut from inside a method with the class and method names, and finds a file by a word of its path', async () => {
    const body = Array.from({ length: 40 }, (_, i) => `        part_${i} = self.validator.value_${i}(request, scopes)`);
    fx.write({ 'ws/oauth/revocation.py': ['class Endpoint:', '    def create_response(self, request):', ...body, '        return part_0', ''].join('\n') });
    const fake = recordingEmbedder(DIM);
    const index = await open(fake.embed);
    assert.equal((await index.sync()).status, 'complete');
    const inside = fake.texts().filter((t) => !t.startsWith('class Endpoint'));
    assert.ok(inside.length >= 1, `${fake.texts().length} texts`);
    for (const text of inside) assert.ok(text.startsWith('Endpoint > create_response\n        part_'), text.slice(0, 60));
    // "revocation" is only in the file's name.
    const hits = index.search({ text: 'revocation' });
    assert.equal(hits[0]?.relPath, 'oauth/revocation.py');
    assert.equal(hits[0]?.matched, 'keyword');
    await index.close();
  });

  it('re-chunks and re-embeds an index stored by the chunker that embedded bare chunks (version 1)', async () => {
    const text = [
      'class Endpoint:',
      '    def create_response(self, request):',
      ...Array.from({ length: 150 }, (_, i) => `        part_${i} = self.validator.value_${i}(request, scopes)`),
      '',
    ].join('\n');
    fx.write({ 'ws/a.py': text, 'storage/.keep': '' });
    // What the previous release stored: the bare chunks' vectors, under chunker version 1.
    const { store } = await IndexStore.open({ path: storage, modelId: 'E5-Mistral-7B-Instruct', dimension: DIM });
    const bare = chunkText(text);
    store.addVectors(bare.map((c) => ({ hash: c.hash, vector: fakeEmbedding(c.text, DIM) })));
    const stat = statSync(fx.path('ws/a.py'));
    store.putFile({
      path: 'ws/a.py',
      hash: 'old',
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      chunks: bare.map((c) => ({ startLine: c.startLine, endLine: c.endLine, hash: c.hash })),
    });
    store.chunkerVersion = crc32(Buffer.from('chunker/1/320/128/512/2'));
    await store.compact('all');
    await store.close();
    const fake = recordingEmbedder(DIM);
    // Without a keyword index nothing else makes the run read a file whose size and time are unchanged.
    const index = await open(fake.embed, { chunking: undefined, keywordIndex: false });
    const r = await index.sync();
    assert.equal(r.filesChanged, 1);
    assert.ok(
      fake.texts().some((t) => t.startsWith('Endpoint > create_response\n')),
      'the chunks were embedded again with their context',
    );
    await index.close();
  });

  it('reports a corrupt index file and rebuilds it', async () => {
    fx.write({ 'ws/a.ts': codeFile('a', 1), 'storage/.keep': '' });
    fx.write({ [path.relative(fx.root, storage)]: 'not an index at all' });
    const { index, status } = await WorkspaceIndex.open({
      roots: [{ name: 'ws', path: fx.path('ws') }],
      storagePath: storage,
      modelId: 'E5-Mistral-7B-Instruct',
      dimension: DIM,
      embed: recordingEmbedder(DIM).embed,
    });
    assert.equal(status.kind === 'discarded' && status.reason, 'corrupt');
    assert.equal((await index.sync()).status, 'complete');
    await index.close();
  });
});
