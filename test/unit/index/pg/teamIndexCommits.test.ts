// The team index across commits, against a real PostgreSQL with pgvector (test/support/pg/setup.sh): file
// contents are stored once (content-addressed blobs) and a new commit's snapshot is a delta on a full
// one, so a commit touching a few files writes rows for those files only, while each commit's search
// sees its own files. Upgrades of an earlier release's database are in teamIndexUpgrades.test.ts.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, utimesSync } from 'node:fs';
import { Pool } from 'pg';
import { chunkText } from '../../../../src/core/index/chunker';
import { PgTeamIndex } from '../../../../src/core/index/pg/pgTeamIndex';
import { CHUNKS_INSERT_SQL } from '../../../../src/core/index/pg/pgSql';
import { MAX_DELTA_FRACTION } from '../../../../src/core/index/pg/pgRunStore';
import { buildTeamIndex, type TeamIndexResult } from '../../../../src/core/index/pg/teamIndexer';
import { embedText } from '../../../support/emulator/embeddings';
import { startPostgres, type TestPostgres } from '../../../support/pg/pgServer';
import { silentLogger } from '../../../../src/core/logger';
import { Fixture } from '../helpers';
import { MODEL, moduleText, recordingEmbed } from './teamFixtures';

const REPO = 'shop';
const FILES = 40;

describe('team index across commits (shared file contents, delta snapshots)', function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  let pool: Pool;
  let ws: Fixture;
  const embedded: string[] = [];
  const embed = recordingEmbed(embedded);

  before(async () => {
    pg = await startPostgres();
    pool = new Pool({ connectionString: pg.url, max: 2 });
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) files[`src/module${i}.ts`] = moduleText(i);
    ws = new Fixture(files);
  });

  after(async () => {
    await pool?.end();
    pg?.stop();
    ws?.dispose();
  });

  async function scalar(sql: string, params: unknown[] = []): Promise<number> {
    const result = await pool.query<{ n: string }>(sql, params);
    return Number(result.rows[0]?.n ?? NaN);
  }
  const snapshotOf = (commit: string): Promise<number> =>
    scalar('SELECT id AS n FROM cadenza_snapshots WHERE repository = $1 AND commit_id = $2', [REPO, commit]);
  const baseOf = (commit: string): Promise<number> =>
    scalar('SELECT coalesce(base_id, 0) AS n FROM cadenza_snapshots WHERE repository = $1 AND commit_id = $2', [REPO, commit]);
  const entryRows = async (commit: string): Promise<number> =>
    scalar('SELECT count(*) AS n FROM cadenza_entries WHERE snapshot_id = $1', [await snapshotOf(commit)]);
  const totals = async (): Promise<{ blobs: number; chunks: number; vectors: number; entries: number }> => ({
    blobs: await scalar('SELECT count(*) AS n FROM cadenza_blobs'),
    chunks: await scalar('SELECT count(*) AS n FROM cadenza_chunks'),
    vectors: await scalar('SELECT count(*) AS n FROM cadenza_vectors'),
    entries: await scalar('SELECT count(*) AS n FROM cadenza_entries'),
  });

  /** Indexes the checkout as `commit`, as a fresh CI checkout would be: every file's mtime is new. */
  async function index(commit: string): Promise<TeamIndexResult> {
    const later = new Date(Date.now() + 1000 * Number(commit.charCodeAt(0)));
    for (const name of readdirSync(ws.path('src'))) utimesSync(ws.path(`src/${name}`), later, later);
    embedded.length = 0;
    const result = await buildTeamIndex({ root: ws.root, repository: REPO, commit, model: MODEL, pool, embed, dimension: 64 });
    assert.equal(result.status, 'complete', JSON.stringify(result));
    return result;
  }

  /** The paths of the top hits at `commit` for a query, by words and by meaning. */
  async function top(commit: string, text: string, k = 1): Promise<string[]> {
    const team = await PgTeamIndex.open(pool, REPO, MODEL, commit);
    assert.ok(team, `snapshot ${commit}`);
    const hits = await team.search({ text, vector: Float32Array.from(embedText(text, 64)) }, { k });
    return hits.map((h) => h.path.replace(`${REPO}/`, ''));
  }

  it('a second commit embeds only its changed chunks and writes rows only for its changed files; each commit searches its own files', async () => {
    const first = await index('a');
    assert.equal(first.files, FILES);
    assert.equal(await entryRows('a'), FILES, 'the first snapshot is full');
    assert.equal(await baseOf('a'), 0);
    assert.equal(embedded.length, first.chunks);

    ws.write({
      'src/module1.ts': moduleText(1, 'discount1'),
      'src/module2.ts': moduleText(2, 'discount2'),
      'src/module3.ts': moduleText(3, 'discount3'),
      'src/extra.ts': moduleText(99, 'refundExtra'),
    });
    ws.remove('src/module4.ts');
    const before = await totals();
    const second = await index('b');
    const after = await totals();
    assert.equal(second.files, FILES, '40 - 1 deleted + 1 added');
    // Embedding: the four new contents' chunks, nothing of the 36 unchanged files re-read with new mtimes.
    assert.equal(embedded.length, 4, JSON.stringify(embedded));
    assert.ok(
      embedded.every((t) => /discount|refundExtra/.test(t)),
      JSON.stringify(embedded),
    );
    // Rows: one entry per changed path (3 changed, 1 added, 1 deleted), one blob and its chunks per new content.
    assert.equal(await baseOf('b'), await snapshotOf('a'), 'b is a delta on a');
    assert.equal(await entryRows('b'), 5);
    assert.deepEqual(second.written, { entries: 5, blobs: 4, chunks: 4, vectors: 4 });
    assert.deepEqual(
      {
        blobs: after.blobs - before.blobs,
        chunks: after.chunks - before.chunks,
        vectors: after.vectors - before.vectors,
        entries: after.entries - before.entries,
      },
      { blobs: 4, chunks: 4, vectors: 4, entries: 5 },
    );

    assert.deepEqual(await top('b', 'discount1'), ['src/module1.ts'], 'the new commit sees the change');
    assert.deepEqual(await top('a', 'compute1'), ['src/module1.ts'], 'the old commit keeps the old content');
    assert.ok(!(await top('b', 'compute1 ledger', 5)).includes('src/module1.ts'), 'the old content is gone at b');
    assert.ok(!(await top('a', 'discount1', 5)).includes('src/module1.ts'), 'the new content is absent at a');
    assert.deepEqual(await top('a', 'compute4'), ['src/module4.ts']);
    assert.ok(!(await top('b', 'compute4 ledger', 40)).includes('src/module4.ts'), 'the deleted file is gone at b');
    assert.deepEqual(await top('b', 'refundExtra'), ['src/extra.ts']);
    assert.deepEqual(await top('b', 'compute17'), ['src/module17.ts'], 'unchanged files come from the base');
    assert.equal((await PgTeamIndex.open(pool, REPO, MODEL))?.snapshot.commit, 'b', 'the newest complete snapshot answers by default');

    // Re-running the same commit writes nothing.
    const again = await index('b');
    assert.deepEqual(again.written, { entries: 0, blobs: 0, chunks: 0, vectors: 0 });
  });

  it('a third commit starts from the second (rows copied inside the database), a reverted file needs no row, and a large delta is written as a full snapshot', async () => {
    ws.write({ 'src/module1.ts': moduleText(1), 'src/module5.ts': moduleText(5, 'discount5') });
    const third = await index('c');
    assert.equal(embedded.length, 1, 'module1 went back to content the database holds');
    assert.equal(await baseOf('c'), await snapshotOf('a'), 'still a delta on a');
    // b's five rows copied, module1's dropped (same as a), module5's added.
    assert.equal(await entryRows('c'), 5);
    assert.deepEqual(third.written, { entries: 1, blobs: 1, chunks: 1, vectors: 1 });
    assert.deepEqual(await top('c', 'compute1'), ['src/module1.ts']);
    assert.deepEqual(await top('c', 'discount2'), ['src/module2.ts']);
    assert.deepEqual(await top('c', 'discount5'), ['src/module5.ts']);
    assert.deepEqual(await top('b', 'discount1'), ['src/module1.ts'], 'b unchanged');

    // A delta past MAX_DELTA_FRACTION of the base: the next commit is a full snapshot, flattened inside the database.
    const many: Record<string, string> = {};
    for (let i = 10; i < 10 + Math.ceil(FILES * MAX_DELTA_FRACTION) + 1; i++) many[`src/module${i}.ts`] = moduleText(i, `rebate${i}`);
    ws.write(many);
    await index('d');
    assert.equal(await baseOf('d'), await snapshotOf('a'));
    ws.write({ 'src/module30.ts': moduleText(30, 'rebate30') });
    const fifth = await index('e');
    assert.equal(await baseOf('e'), 0, 'e is full');
    assert.equal(await entryRows('e'), FILES);
    assert.equal(fifth.written.entries, 1, 'only the changed file is written by the run; the rest was copied by the database');
    assert.deepEqual(await top('e', 'rebate30'), ['src/module30.ts']);
    assert.deepEqual(await top('e', 'rebate12'), ['src/module12.ts']);
    assert.deepEqual(await top('e', 'discount2'), ['src/module2.ts']);
    assert.deepEqual(await top('e', 'refundExtra'), ['src/extra.ts']);
    assert.ok(!(await top('e', 'compute4 ledger', 40)).includes('src/module4.ts'));
  });

  it('a delta run stopped half-way leaves only complete files, and the next run completes the snapshot', async () => {
    const changed: Record<string, string> = {};
    for (let i = 20; i < 30; i++) changed[`src/module${i}.ts`] = moduleText(i, `surcharge${i}`);
    ws.write(changed);
    const controller = new AbortController();
    let calls = 0;
    const stopping = (texts: readonly string[]): Promise<Float32Array[]> => {
      if (++calls === 3) controller.abort();
      return embed(texts);
    };
    const stopped = await buildTeamIndex({
      root: ws.root,
      repository: REPO,
      commit: 'f',
      model: MODEL,
      pool,
      embed: stopping,
      dimension: 64,
      batchSize: 2,
      concurrency: 1,
      signal: controller.signal,
    });
    assert.notEqual(stopped.status, 'complete');
    const snapshot = await snapshotOf('f');
    const partial = await entryRows('f');
    assert.ok(partial < 10, `the stopped run stored part of the change (${partial} of 10 files)`);
    const missing = (): Promise<number> =>
      scalar(
        'SELECT count(*) AS n FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.snapshot_id = $1 AND NOT EXISTS (SELECT 1 FROM cadenza_vectors v WHERE v.hash = c.hash)',
        [snapshot],
      );
    assert.equal(await missing(), 0, 'no entry points at a content without vectors');
    assert.equal(await scalar('SELECT count(*) AS n FROM cadenza_snapshots WHERE id = $1 AND complete', [snapshot]), 0);
    embedded.length = 0;
    const resumed = await buildTeamIndex({ root: ws.root, repository: REPO, commit: 'f', model: MODEL, pool, embed, dimension: 64 });
    assert.equal(resumed.status, 'complete');
    assert.ok(embedded.length < 10, `only what the stopped run had not stored is embedded (${embedded.length})`);
    assert.equal(resumed.written.entries + partial, await entryRows('f'), 'the resumed run adds the rest, rewriting nothing');
    assert.equal(await missing(), 0);
    assert.deepEqual(await top('f', 'surcharge29'), ['src/module29.ts']);
    assert.deepEqual(await top('f', 'surcharge20'), ['src/module20.ts']);
    assert.deepEqual(await top('f', 'rebate30'), ['src/module30.ts'], 'the rest from the parent');
  });

  it("indexes every file of a checkout larger than the extension's file limit, and a run stopped by --max-files is not published as complete", async () => {
    const capped = await buildTeamIndex({ root: ws.root, repository: 'capped', commit: 'm1', model: MODEL, pool, embed, dimension: 64, maxFiles: 5 });
    assert.equal(capped.status, 'incomplete');
    assert.match(capped.stopReason ?? '', /stopped after 5 files/);
    assert.deepEqual(capped.stop, { kind: 'maxFiles', maxFiles: 5 });
    assert.equal(await PgTeamIndex.open(pool, 'capped', MODEL), undefined, 'no complete snapshot to search');
    // Without --max-files the whole checkout is indexed, and the capped run's files are taken up again.
    // (The walker's own limit, the extension's 250,000 files, does not apply to the indexer: bench/teamIndex/teamIndex
    // shows it on a 333,334-file checkout, where a commit touching 20 files counted 15 before.)
    const whole = await buildTeamIndex({ root: ws.root, repository: 'capped', commit: 'm1', model: MODEL, pool, embed, dimension: 64 });
    assert.equal(whole.status, 'complete', JSON.stringify(whole));
    assert.equal(whole.files, FILES);
    assert.ok(await PgTeamIndex.open(pool, 'capped', MODEL));
  });

  it('stores a file with a line longer than a chunk (a data file): every piece of the line is its own chunk of the same line range, and searchable', async () => {
    const long = `export const ITEMS = [${Array.from({ length: 1500 }, (_, i) => `'item${i}'`).join(', ')}];`;
    // Enough ordinary lines that the file's average line stays code-like (a file averaging over 1,000 characters a line counts as minified and is skipped).
    const rest = Array.from({ length: 30 }, (_, i) => `export const item${i} = (): string => ITEMS[${i}] ?? '';`).join('\n');
    const data = new Fixture({ 'src/items.ts': `// The catalogue.\nexport function first(): string {\n  return ITEMS[0];\n}\n${long}\n${rest}\n` });
    try {
      const pieces = chunkText(readFileSync(data.path('src/items.ts'), 'utf8')).filter((c) => c.startLine === 5 && c.endLine === 5);
      assert.ok(pieces.length >= 5, `the chunker cuts the ${long.length}-character line into pieces (${pieces.length})`);
      const errors: string[] = [];
      const logger = { ...silentLogger, error: (message: string | Error) => errors.push(String(message)) };
      const run = await buildTeamIndex({ root: data.root, repository: 'data', commit: 'd1', model: MODEL, pool, embed, dimension: 64, logger });
      assert.deepEqual(errors, []);
      assert.equal(run.status, 'complete', JSON.stringify(run));
      const stored = await scalar(
        "SELECT count(*) AS n FROM cadenza_chunks c JOIN cadenza_entries e ON e.blob_id = c.blob_id JOIN cadenza_snapshots s ON s.id = e.snapshot_id WHERE s.repository = 'data' AND c.start_line = 5 AND c.end_line = 5",
      );
      assert.equal(stored, pieces.length);
      const team = await PgTeamIndex.open(pool, 'data', MODEL, 'd1');
      const hits = await team?.search({ text: 'item1377' }, { k: 1 });
      assert.equal(hits?.[0]?.path, 'data/src/items.ts');
    } finally {
      data.dispose();
    }
  });

  it('a batch the database refuses stops the run as incomplete, with the reason, publishes nothing, and the next run stores every file', async () => {
    const files = new Fixture({ 'src/alpha.ts': moduleText(1, 'alphaRefusedOnce'), 'src/beta.ts': moduleText(2, 'betaRefusedOnce') });
    let refuse = true;
    // The pool as the indexer sees it, whose transactions fail at the chunks' INSERT while `refuse` holds (a full disk, a constraint).
    const bind = <T extends object>(target: T, prop: string | symbol): unknown => {
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    };
    const refusing = new Proxy(pool, {
      get: (target, prop) =>
        prop !== 'connect'
          ? bind(target, prop)
          : async () => {
              const client = await target.connect();
              return new Proxy(client, {
                get: (c, p) =>
                  p !== 'query'
                    ? bind(c, p)
                    : (sql: unknown, params?: unknown[]) =>
                        refuse && sql === CHUNKS_INSERT_SQL
                          ? Promise.reject(new Error('could not extend file: No space left on device (test)'))
                          : c.query(sql as string, params),
              });
            },
    });
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (message: string | Error) => errors.push(String(message)) };
    try {
      const first = await buildTeamIndex({ root: files.root, repository: 'refused', commit: 'r1', model: MODEL, pool: refusing, embed, dimension: 64, logger });
      assert.equal(first.status, 'incomplete', JSON.stringify(first));
      assert.match(first.stopReason ?? '', /No space left on device/);
      assert.match(errors.join('\n'), /Storing embeddings failed, so indexing stopped/);
      assert.equal(await PgTeamIndex.open(pool, 'refused', MODEL), undefined, 'no complete snapshot is published');
      refuse = false;
      const second = await buildTeamIndex({ root: files.root, repository: 'refused', commit: 'r1', model: MODEL, pool, embed, dimension: 64 });
      assert.equal(second.status, 'complete', JSON.stringify(second));
      const team = await PgTeamIndex.open(pool, 'refused', MODEL);
      for (const [word, path] of [
        ['alphaRefusedOnce', 'refused/src/alpha.ts'],
        ['betaRefusedOnce', 'refused/src/beta.ts'],
      ]) {
        const hits = await team?.search({ text: word ?? '', vector: Float32Array.from(embedText(word ?? '', 64)) }, { k: 1 });
        assert.equal(hits?.[0]?.path, path);
      }
      assert.equal(
        await scalar(
          "SELECT count(*) AS n FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.path LIKE 'refused/%' AND NOT EXISTS (SELECT 1 FROM cadenza_vectors v WHERE v.hash = c.hash)",
        ),
        0,
        'every stored chunk has its vector',
      );
    } finally {
      files.dispose();
    }
  });

  it("leaves out of the any-word pass a word that alone matches more chunks than a pass ranks, so a rarer word's chunk is not lost among them", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`src/entry${i}.ts`] = `// A ledger entry.\nexport const entry${i} = 'ledger ${i}';\n`;
    files['src/zz.ts'] = '// Where the zanzibar rate lives.\nexport const rate = 7;\n';
    const repo = new Fixture(files);
    try {
      const run = await buildTeamIndex({ root: repo.root, repository: 'common', commit: 'k1', model: MODEL, pool, embed, dimension: 64 });
      assert.equal(run.status, 'complete');
      // A pass ranks at most 5 matches here (2,000 in the product): "ledger" alone fills it.
      const team = await PgTeamIndex.open(pool, 'common', MODEL, 'k1', undefined, 5);
      const keyword = (await team?.lists({ text: 'ledger zanzibar' }, 10))?.keyword ?? [];
      assert.ok(
        keyword.some((hit) => hit.path === 'common/src/zz.ts'),
        keyword.map((hit) => hit.path).join(', '),
      );
    } finally {
      repo.dispose();
    }
  });
});
