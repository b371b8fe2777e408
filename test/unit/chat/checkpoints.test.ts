import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planRestore, TurnRecorder } from '../../../src/core/chat/checkpointRecorder';
import { CheckpointStore, textHash } from '../../../src/core/chat/checkpoints';
import { changeTools } from '../../../src/core/tools/changeTools';
import { ToolSession } from '../../../src/core/tools/toolTypes';
import { MemoryPort } from '../tools/memoryPort';

describe('checkpoints of agent turns', () => {
  let root: string;
  let store: CheckpointStore;
  const signal = new AbortController().signal;
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
  const readNow = (port: MemoryPort) => async (path: string): Promise<string | undefined> => port.files.get(path);

  it('records the texts before a turn (first change per file wins) and after it, and nothing for a turn that changed nothing', async () => {
    const port = new MemoryPort({ 'src/a.ts': 'one\ntwo\n' });
    const recorder = new TurnRecorder(store, 'conv-1');
    await turn(port, recorder, [
      { name: 'edit_file', args: { path: 'src/a.ts', old_text: 'one', new_text: 'ONE' } },
      { name: 'edit_file', args: { path: 'src/a.ts', old_text: 'two', new_text: 'TWO' } },
      { name: 'create_file', args: { path: 'src/b.ts', content: 'new\n' } },
    ]);
    const done = await recorder.finish('msg-1', readNow(port));
    assert.ok(done);
    assert.deepEqual(done.summary.files, [{ path: 'src/a.ts', change: 'edited' }, { path: 'src/b.ts', change: 'created' }]);
    const loaded = await store.load(done.checkpoint.id);
    assert.deepEqual(loaded?.files, [
      { path: 'src/a.ts', before: textHash('one\ntwo\n'), after: textHash('ONE\nTWO\n') },
      { path: 'src/b.ts', before: null, after: textHash('new\n') },
    ]);
    assert.equal(await store.getText(textHash('one\ntwo\n')), 'one\ntwo\n');
    assert.equal(loaded?.conversationId, 'conv-1');
    assert.equal(loaded?.messageId, 'msg-1');

    const idle = new TurnRecorder(store, 'conv-1');
    assert.equal(await idle.finish('msg-2', readNow(port)), undefined);
    assert.equal((await store.list()).length, 1);
  });

  it('survives a new store over the same folder, and plans a restore that flags files changed since the turn', async () => {
    const port = new MemoryPort({ 'a.txt': 'before a', 'b.txt': 'before b' });
    const recorder = new TurnRecorder(store, 'c');
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
      const recorder = new TurnRecorder(store, 'c');
      // Flip between two texts: only two blobs ever exist.
      const [from, to] = index % 2 === 0 ? ['x', 'y'] : ['y', 'x'];
      await turn(port, recorder, [{ name: 'edit_file', args: { path: 'a.txt', old_text: from, new_text: to } }]);
      await recorder.finish(`m${index}`, readNow(port));
    }
    const usage = await store.usage();
    assert.equal(usage.checkpoints, 4);
    assert.equal(usage.blobs, 2);
  });

  it('prunes by age, then the oldest beyond the size, keeps the newest, and deletes blobs nobody needs', async () => {
    const day = 86_400_000;
    const now = Date.now();
    const big = (letter: string): string => letter.repeat(10_000);
    const save = async (id: string, createdAt: number, before: string, after: string): Promise<void> => {
      await store.save({ id, conversationId: 'c', messageId: id, createdAt, files: [{ path: 'f', before: await store.putText(before), after: await store.putText(after) }] });
    };
    await save('old', now - 40 * day, big('o'), big('p'));
    await save('mid', now - 2 * day, big('m'), big('n'));
    await save('new', now - 1 * day, big('n'), big('q'));
    const removed = await store.prune({ maxAgeDays: 30, maxBytes: 25_000 }, now);
    assert.deepEqual(removed.sort(), ['mid', 'old']);
    assert.deepEqual((await store.list()).map((entry) => entry.id), ['new']);
    assert.deepEqual(readdirSync(join(root, 'blobs')).sort(), [textHash(big('n')), textHash(big('q'))].sort());
    // The newest stays even alone over the size.
    assert.deepEqual(await store.prune({ maxAgeDays: 30, maxBytes: 10 }, now), []);
    assert.equal((await store.list()).length, 1);
  });

  it('refuses to plan a restore whose text was pruned, and never reads a damaged blob', async () => {
    const hash = await store.putText('gone soon');
    await store.save({ id: 'x', conversationId: 'c', messageId: 'm', createdAt: Date.now(), files: [{ path: 'f', before: hash, after: null }] });
    rmSync(join(root, 'blobs', hash));
    const checkpoint = await store.load('x');
    assert.ok(checkpoint);
    await assert.rejects(planRestore(store, checkpoint, async () => undefined), /no longer stored/);
    assert.equal(await store.load('../escape'), undefined);
  });
});
