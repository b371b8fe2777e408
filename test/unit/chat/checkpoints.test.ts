import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planRestore, TurnRecorder } from '../../../src/core/chat/checkpointRecorder';
import { CheckpointStore, textHash, unscopedMaxAgeDays } from '../../../src/core/chat/checkpoints';
import type { FolderRoot } from '../../../src/core/tools/workspacePaths';
import { changeTools } from '../../../src/core/tools/changeTools';
import { ToolSession } from '../../../src/core/tools/toolTypes';
import { MemoryPort } from '../tools/memoryPort';

describe('checkpoints of agent turns', () => {
  let root: string;
  let store: CheckpointStore;
  const signal = new AbortController().signal;
  /** The window's folder, as the host records it with each checkpoint. */
  const here: FolderRoot[] = [{ name: 'project-a', fsPath: '/home/me/project-a' }];
  const elsewhere: FolderRoot[] = [{ name: 'project-b', fsPath: '/home/me/project-b' }];
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cadenza-checkpoints-'));
    store = new CheckpointStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Runs edit_file/create_file through the recorder's port, as the agent does. */
  async function turn(port: MemoryPort, recorder: TurnRecorder, calls: { name: 'edit_file' | 'create_file'; args: Record<string, string> }[]): Promise<void> {
    const tools = changeTools(recorder.wrap(port), { terminalTimeoutSeconds: 5 });
    const session = new ToolSession();
    for (const call of calls) {
      const tool = tools.find((entry) => entry.definition.name === call.name);
      assert.ok(tool);
      const prepared = await tool.prepare(call.args, { signal, session });
      await prepared.apply(signal);
    }
  }
  const readNow =
    (port: MemoryPort) =>
    async (path: string): Promise<string | undefined> =>
      port.files.get(path);

  it('records the texts before a turn (first change per file wins) and after it, and nothing for a turn that changed nothing', async () => {
    const port = new MemoryPort({ 'src/a.ts': 'one\ntwo\n' });
    const recorder = new TurnRecorder(store, 'conv-1', here);
    await turn(port, recorder, [
      { name: 'edit_file', args: { path: 'src/a.ts', old_text: 'one', new_text: 'ONE' } },
      { name: 'edit_file', args: { path: 'src/a.ts', old_text: 'two', new_text: 'TWO' } },
      { name: 'create_file', args: { path: 'src/b.ts', content: 'new\n' } },
    ]);
    const done = await recorder.finish('msg-1', readNow(port));
    assert.ok(done);
    assert.deepEqual(done.summary.files, [
      { path: 'src/a.ts', change: 'edited' },
      { path: 'src/b.ts', change: 'created' },
    ]);
    const loaded = await store.load(done.checkpoint.id);
    assert.deepEqual(loaded?.files, [
      { path: 'src/a.ts', before: textHash('one\ntwo\n'), after: textHash('ONE\nTWO\n') },
      { path: 'src/b.ts', before: null, after: textHash('new\n') },
    ]);
    assert.equal(await store.getText(textHash('one\ntwo\n')), 'one\ntwo\n');
    assert.equal(loaded?.conversationId, 'conv-1');
    assert.equal(loaded?.messageId, 'msg-1');
    // The folders the turn ran in, in the store and in what the conversation keeps.
    assert.deepEqual(loaded?.folders, here);
    assert.deepEqual(done.summary.folders, here);

    const idle = new TurnRecorder(store, 'conv-1', here);
    assert.equal(await idle.finish('msg-2', readNow(port)), undefined);
    assert.equal((await store.list()).length, 1);
  });

  it('survives a new store over the same folder, and plans a restore that flags files changed since the turn', async () => {
    const port = new MemoryPort({ 'a.txt': 'before a', 'b.txt': 'before b' });
    const recorder = new TurnRecorder(store, 'c', here);
    await turn(port, recorder, [
      { name: 'edit_file', args: { path: 'a.txt', old_text: 'before', new_text: 'after' } },
      { name: 'edit_file', args: { path: 'b.txt', old_text: 'before', new_text: 'after' } },
      { name: 'create_file', args: { path: 'c.txt', content: 'made' } },
    ]);
    const done = await recorder.finish('m', readNow(port));
    assert.ok(done);
    port.files.set('b.txt', 'after b, then the user typed');
    const reopened = new CheckpointStore(root);
    const checkpoint = await reopened.load(done.checkpoint.id);
    assert.ok(checkpoint);
    const steps = await planRestore(reopened, checkpoint, readNow(port));
    assert.deepEqual(steps, [
      { path: 'a.txt', text: 'before a', changedSince: false, existsNow: true },
      { path: 'b.txt', text: 'before b', changedSince: true, existsNow: true },
      { path: 'c.txt', text: null, changedSince: false, existsNow: true },
    ]);
  });

  it('stores each distinct text once across turns', async () => {
    const port = new MemoryPort({ 'a.txt': 'x' });
    for (let index = 0; index < 4; index += 1) {
      const recorder = new TurnRecorder(store, 'c', here);
      // Flip between two texts: only two blobs ever exist.
      const [from, to] = index % 2 === 0 ? ['x', 'y'] : ['y', 'x'];
      await turn(port, recorder, [{ name: 'edit_file', args: { path: 'a.txt', old_text: from, new_text: to } }]);
      await recorder.finish(`m${index}`, readNow(port));
    }
    const usage = await store.usage();
    assert.equal(usage.checkpoints, 4);
    assert.equal(usage.blobs, 2);
  });

  const day = 86_400_000;
  const big = (letter: string): string => letter.repeat(10_000);
  /** Saves a checkpoint of one file, recorded in `folders` (null: before folders were kept). */
  const save = async (id: string, createdAt: number, before: string, after: string, folders: FolderRoot[] | null = here): Promise<void> => {
    await store.save({
      id,
      conversationId: 'c',
      messageId: id,
      createdAt,
      ...(folders ? { folders } : {}),
      files: [{ path: 'f', before: await store.putText(before), after: await store.putText(after) }],
    });
  };

  it('prunes by age, then the oldest beyond the size, keeps the newest, and deletes blobs nobody needs', async () => {
    const now = Date.now();
    await save('old', now - 40 * day, big('o'), big('p'));
    await save('mid', now - 2 * day, big('m'), big('n'));
    await save('new', now - 1 * day, big('n'), big('q'));
    const removed = await store.prune({ maxAgeDays: 30, maxBytes: 25_000 }, here, now);
    assert.deepEqual(removed.sort(), ['mid', 'old']);
    assert.deepEqual(
      (await store.list()).map((entry) => entry.id),
      ['new'],
    );
    assert.deepEqual(readdirSync(join(root, 'blobs')).sort(), [textHash(big('n')), textHash(big('q'))].sort());
    // The newest stays even alone over the size.
    assert.deepEqual(await store.prune({ maxAgeDays: 30, maxBytes: 10 }, here, now), []);
    assert.equal((await store.list()).length, 1);
  });

  it("prunes only the checkpoints of this window's folders: another project's, however old or large, stay with their texts", async () => {
    const now = Date.now();
    await save('b-old', now - 300 * day, big('a'), big('b'), elsewhere);
    await save('b-big', now - 3 * day, big('c'), big('d'), elsewhere);
    await save('a-old', now - 10 * day, big('e'), big('f'));
    await save('a-mid', now - 2 * day, big('g'), big('h'));
    // Shares its text before with another project's checkpoint: that blob must stay for it.
    await save('a-new', now - 1 * day, big('c'), big('i'));
    // A workspace whose settings keep 5 days and 25 kB: its old and its over-budget checkpoints go, no other.
    const removed = await store.prune({ maxAgeDays: 5, maxBytes: 25_000 }, here, now);
    assert.deepEqual(removed.sort(), ['a-mid', 'a-old']);
    assert.deepEqual(
      (await store.list()).map((entry) => entry.id),
      ['b-old', 'b-big', 'a-new'],
    );
    for (const letter of ['a', 'b', 'c', 'd', 'i']) assert.equal(await store.getText(textHash(big(letter))), big(letter), `the text ${letter} is kept`);
    for (const letter of ['e', 'f', 'g', 'h']) assert.equal(await store.getText(textHash(big(letter))), undefined, `the text ${letter} is gone`);
    // The other project's own window prunes them by its own policy.
    assert.deepEqual(await store.prune({ maxAgeDays: 30, maxBytes: 1_000_000 }, elsewhere, now), ['b-old']);
  });

  it("keeps a checkpoint recorded before folders were kept until it is older than the default age, whatever a window's policy says", async () => {
    const now = Date.now();
    await save('legacy-recent', now - 10 * day, big('r'), big('s'), null);
    await save('legacy-old', now - (unscopedMaxAgeDays + 1) * day, big('t'), big('u'), null);
    assert.deepEqual(await store.prune({ maxAgeDays: 1, maxBytes: 10 }, here, now), ['legacy-old']);
    const left = await store.list();
    assert.deepEqual(
      left.map((entry) => entry.id),
      ['legacy-recent'],
    );
    assert.equal(left[0]?.folders, undefined);
    assert.equal(await store.getText(textHash(big('r'))), big('r'));
  });

  it('plans the restore of a file the turn edited and the user deleted since: its text before, created again', async () => {
    const port = new MemoryPort({ 'src/a.ts': 'before\n' });
    const recorder = new TurnRecorder(store, 'c', here);
    await turn(port, recorder, [{ name: 'edit_file', args: { path: 'src/a.ts', old_text: 'before', new_text: 'after' } }]);
    const done = await recorder.finish('m', readNow(port));
    assert.ok(done);
    port.files.delete('src/a.ts');
    assert.deepEqual(await planRestore(store, done.checkpoint, readNow(port)), [{ path: 'src/a.ts', text: 'before\n', changedSince: true, existsNow: false }]);
  });

  it('reads a checkpoint whose recorded folders are damaged as unreadable, never as one without folders', async () => {
    const hash = await store.putText('x');
    await store.save({
      id: 'bad',
      conversationId: 'c',
      messageId: 'm',
      createdAt: Date.now(),
      folders: [{ name: 'p', fsPath: 7 }] as unknown as FolderRoot[],
      files: [{ path: 'f', before: hash, after: null }],
    });
    assert.equal(await store.load('bad'), undefined);
  });

  it('refuses to plan a restore whose text was pruned, and never reads a damaged blob', async () => {
    const hash = await store.putText('gone soon');
    await store.save({ id: 'x', conversationId: 'c', messageId: 'm', createdAt: Date.now(), files: [{ path: 'f', before: hash, after: null }] });
    rmSync(join(root, 'blobs', hash));
    const checkpoint = await store.load('x');
    assert.ok(checkpoint);
    await assert.rejects(
      planRestore(store, checkpoint, async () => undefined),
      /no longer stored/,
    );
    assert.equal(await store.load('../escape'), undefined);
  });
});
