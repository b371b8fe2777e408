// The team index across commits, against a real PostgreSQL with pgvector (test/pg/setup.sh): file
// contents are stored once (content-addressed blobs) and a new commit's snapshot is a delta on a full
// one, so a commit touching a few files writes rows for those files only, while each commit's search
// sees its own files. Also: databases of layout 1 (chunks per snapshot) and layout 2 (full-precision
// vectors) are migrated in place.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { Pool } from 'pg';
import { chunkText, chunkerVersion } from '../../../../src/core/index/chunker';
import { nodeFileSource } from '../../../../src/core/index/fileSource';
import { tsvectorLiteral, vectorLiteral } from '../../../../src/core/index/pg/pgText';
import { prepareFile } from '../../../../src/core/index/prepareFile';
import { PgTeamIndex } from '../../../../src/core/index/pg/pgTeamIndex';
import { CHUNKS_INSERT_SQL, semanticSql } from '../../../../src/core/index/pg/pgSql';
import { MAX_DELTA_FRACTION } from '../../../../src/core/index/pg/pgRunStore';
import { SCHEMA_VERSION } from '../../../../src/core/index/pg/pgSchema';
import { buildTeamIndex, type TeamIndexResult } from '../../../../src/core/index/pg/teamIndexer';
import { embedText } from '../../../emulator/embeddings';
import { startPostgres, type TestPostgres } from '../../../pg/pgServer';
import { silentLogger } from '../../../../src/core/logger';
import { Fixture } from '../helpers';

const MODEL = 'test-embedding-64';
const REPO = 'shop';
const FILES = 40;

const moduleText = (i: number, name = `compute${i}`): string => `/** Module ${i}: ${name} of the ledger. */\nexport function ${name}(x: number): number {\n  return x * ${i} + ${i * 7};\n}\n`;

describe('team index across commits (shared file contents, delta snapshots)', function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  let pool: Pool;
  let ws: Fixture;
  const embedded: string[] = [];
  const embed = (texts: readonly string[]): Promise<Float32Array[]> => {
    embedded.push(...texts);
    return Promise.resolve(texts.map((t) => Float32Array.from(embedText(t, 64))));
  };

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
  const snapshotOf = (commit: string): Promise<number> => scalar('SELECT id AS n FROM cadenza_snapshots WHERE repository = $1 AND commit_id = $2', [REPO, commit]);
  const baseOf = (commit: string): Promise<number> => scalar('SELECT coalesce(base_id, 0) AS n FROM cadenza_snapshots WHERE repository = $1 AND commit_id = $2', [REPO, commit]);
  const entryRows = async (commit: string): Promise<number> => scalar('SELECT count(*) AS n FROM cadenza_entries WHERE snapshot_id = $1', [await snapshotOf(commit)]);
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

    ws.write({ 'src/module1.ts': moduleText(1, 'discount1'), 'src/module2.ts': moduleText(2, 'discount2'), 'src/module3.ts': moduleText(3, 'discount3'), 'src/extra.ts': moduleText(99, 'refundExtra') });
    ws.remove('src/module4.ts');
    const before = await totals();
    const second = await index('b');
    const after = await totals();
    assert.equal(second.files, FILES, '40 - 1 deleted + 1 added');
    // Embedding: the four new contents' chunks, nothing of the 36 unchanged files re-read with new mtimes.
    assert.equal(embedded.length, 4, JSON.stringify(embedded));
    assert.ok(embedded.every((t) => /discount|refundExtra/.test(t)), JSON.stringify(embedded));
    // Rows: one entry per changed path (3 changed, 1 added, 1 deleted), one blob and its chunks per new content.
    assert.equal(await baseOf('b'), await snapshotOf('a'), 'b is a delta on a');
    assert.equal(await entryRows('b'), 5);
    assert.deepEqual(second.written, { entries: 5, blobs: 4, chunks: 4, vectors: 4 });
    assert.deepEqual({ blobs: after.blobs - before.blobs, chunks: after.chunks - before.chunks, vectors: after.vectors - before.vectors, entries: after.entries - before.entries }, { blobs: 4, chunks: 4, vectors: 4, entries: 5 });

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
    const stopped = await buildTeamIndex({ root: ws.root, repository: REPO, commit: 'f', model: MODEL, pool, embed: stopping, dimension: 64, batchSize: 2, concurrency: 1, signal: controller.signal });
    assert.notEqual(stopped.status, 'complete');
    const snapshot = await snapshotOf('f');
    const partial = await entryRows('f');
    assert.ok(partial < 10, `the stopped run stored part of the change (${partial} of 10 files)`);
    const missing = (): Promise<number> => scalar('SELECT count(*) AS n FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.snapshot_id = $1 AND NOT EXISTS (SELECT 1 FROM cadenza_vectors v WHERE v.hash = c.hash)', [snapshot]);
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

  it('indexes every file of a checkout larger than the extension\'s file limit, and a run stopped by --max-files is not published as complete', async () => {
    const capped = await buildTeamIndex({ root: ws.root, repository: 'capped', commit: 'm1', model: MODEL, pool, embed, dimension: 64, maxFiles: 5 });
    assert.equal(capped.status, 'incomplete');
    assert.match(capped.stopReason ?? '', /stopped after 5 files/);
    assert.equal(await PgTeamIndex.open(pool, 'capped', MODEL), undefined, 'no complete snapshot to search');
    // Without --max-files the whole checkout is indexed, and the capped run's files are taken up again.
    // (The walker's own limit, the extension's 250,000 files, does not apply to the indexer: bench/team-index
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
      const stored = await scalar("SELECT count(*) AS n FROM cadenza_chunks c JOIN cadenza_entries e ON e.blob_id = c.blob_id JOIN cadenza_snapshots s ON s.id = e.snapshot_id WHERE s.repository = 'data' AND c.start_line = 5 AND c.end_line = 5");
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
      get: (target, prop) => prop !== 'connect' ? bind(target, prop) : async () => {
        const client = await target.connect();
        return new Proxy(client, {
          get: (c, p) => p !== 'query' ? bind(c, p) : (sql: unknown, params?: unknown[]) =>
            refuse && sql === CHUNKS_INSERT_SQL ? Promise.reject(new Error('could not extend file: No space left on device (test)')) : c.query(sql as string, params),
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
      for (const [word, path] of [['alphaRefusedOnce', 'refused/src/alpha.ts'], ['betaRefusedOnce', 'refused/src/beta.ts']]) {
        const hits = await team?.search({ text: word ?? '', vector: Float32Array.from(embedText(word ?? '', 64)) }, { k: 1 });
        assert.equal(hits?.[0]?.path, path);
      }
      assert.equal(await scalar("SELECT count(*) AS n FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.path LIKE 'refused/%' AND NOT EXISTS (SELECT 1 FROM cadenza_vectors v WHERE v.hash = c.hash)"), 0, 'every stored chunk has its vector');
    } finally {
      files.dispose();
    }
  });

  it('leaves out of the any-word pass a word that alone matches more chunks than a pass ranks, so a rarer word\'s chunk is not lost among them', async () => {
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
      assert.ok(keyword.some((hit) => hit.path === 'common/src/zz.ts'), keyword.map((hit) => hit.path).join(', '));
    } finally {
      repo.dispose();
    }
  });

  it('migrates a database of layout 1 (files and chunks per snapshot) in place: its snapshots stay searchable, readers keep access, the next commit is a delta on them', async () => {
    const admin = new Pool({ connectionString: pg.url, max: 1 });
    await admin.query('CREATE DATABASE legacy');
    await admin.end();
    const legacy = new Pool({ connectionString: pg.url.replace(/\/cadenza$/, '/legacy'), max: 2 });
    const old = new Fixture({ 'src/ledger.ts': moduleText(7, 'reconcileLegacyLedger'), 'src/tax.ts': moduleText(8, 'legacyTaxRate') });
    try {
      // Layout 1 as the previous release created and filled it.
      for (const sql of LAYOUT_1) await legacy.query(sql);
      await legacy.query('INSERT INTO cadenza_models (name, dimension) VALUES ($1, 64)', [MODEL]);
      await legacy.query("INSERT INTO cadenza_snapshots (repository, commit_id, model_id, chunker_version, complete) VALUES ('old', 'v1', 1, $1, true)", [chunkerVersion(undefined)]);
      for (const rel of ['src/ledger.ts', 'src/tax.ts']) {
        const prepared = await prepareFile(old.path(rel), statSync(old.path(rel)).mtimeMs, nodeFileSource, 1 << 20, undefined);
        assert.equal(prepared.kind, 'file');
        if (prepared.kind !== 'file') return;
        const key = `old/${rel}`;
        await legacy.query('INSERT INTO cadenza_files (snapshot_id, path, hash, size, mtime_ms) VALUES (1, $1, $2, $3, 0)', [key, prepared.file.hash, prepared.file.size]);
        for (const c of prepared.file.chunks) {
          await legacy.query('INSERT INTO cadenza_chunks (snapshot_id, path, start_line, end_line, hash, body, terms) VALUES (1, $1, $2, $3, $4, $5, $6::tsvector)', [key, c.startLine, c.endLine, c.hash, c.text, tsvectorLiteral(c.text)]);
          await legacy.query('INSERT INTO cadenza_vectors (model_id, hash, embedding) VALUES (1, $1, $2::vector) ON CONFLICT DO NOTHING', [c.hash, vectorLiteral(embedText(c.text, 64))]);
        }
      }
      await legacy.query('CREATE ROLE legacy_reader LOGIN');
      await legacy.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO legacy_reader');

      old.write({ 'src/tax.ts': moduleText(8, 'modernTaxRate') });
      embedded.length = 0;
      const run = await buildTeamIndex({ root: old.root, repository: 'old', commit: 'v2', model: MODEL, pool: legacy, embed, dimension: 64 });
      assert.equal(run.status, 'complete');
      const one = async (sql: string): Promise<unknown> => Object.values((await legacy.query(sql)).rows[0] ?? {})[0];
      assert.equal(await one("SELECT to_regclass('cadenza_files') IS NULL"), true, 'the layout-1 tables are gone');
      assert.equal(await one("SELECT value FROM cadenza_meta WHERE key = 'schema_version'"), String(SCHEMA_VERSION));
      assert.equal(await one(EMBEDDING_TYPE_SQL), 'halfvec', 'and on to layout 3');
      assert.equal(await one("SELECT has_table_privilege('legacy_reader', 'cadenza_entries', 'SELECT')"), true, 'readers keep access');
      assert.equal(await one("SELECT coalesce(base_id, 0) FROM cadenza_snapshots WHERE commit_id = 'v2'"), 1, 'v2 is a delta on the migrated v1');
      assert.deepEqual(run.written, { entries: 1, blobs: 1, chunks: 1, vectors: 1 });
      assert.equal(embedded.length, 1);
      const search = async (commit: string, text: string): Promise<string | undefined> =>
        (await (await PgTeamIndex.open(legacy, 'old', MODEL, commit))?.search({ text, vector: Float32Array.from(embedText(text, 64)) }, { k: 1 }))?.[0]?.path;
      assert.equal(await search('v1', 'reconcileLegacyLedger'), 'old/src/ledger.ts');
      assert.equal(await search('v1', 'legacyTaxRate'), 'old/src/tax.ts');
      assert.equal(await search('v2', 'modernTaxRate'), 'old/src/tax.ts');
      assert.equal(await search('v2', 'reconcileLegacyLedger'), 'old/src/ledger.ts');
    } finally {
      await legacy.end();
      old.dispose();
    }
  });
  it('migrates a database of layout 2 (full-precision vectors) to half precision: a reader searches it before and after, with the same results, and the vectors take half the space', async () => {
    const admin = new Pool({ connectionString: pg.url, max: 1 });
    await admin.query('CREATE DATABASE layout2');
    await admin.end();
    const db = new Pool({ connectionString: pg.url.replace(/\/cadenza$/, '/layout2'), max: 3 });
    const old = new Fixture({ 'src/ledger.ts': moduleText(7, 'reconcileLedger'), 'src/tax.ts': moduleText(8, 'taxRateOf'), 'src/fees.ts': moduleText(9, 'feesDue') });
    const one = async (sql: string): Promise<unknown> => Object.values((await db.query(sql)).rows[0] ?? {})[0];
    try {
      // Layout 2 as the previous release created and filled it: one full snapshot of three files.
      for (const sql of LAYOUT_2) await db.query(sql);
      await db.query('INSERT INTO cadenza_models (name, dimension) VALUES ($1, 64)', [MODEL]);
      await db.query("INSERT INTO cadenza_snapshots (repository, commit_id, model_id, chunker_version, complete) VALUES ('two', 'v1', 1, $1, true)", [chunkerVersion(undefined)]);
      for (const rel of ['src/ledger.ts', 'src/tax.ts', 'src/fees.ts']) {
        const prepared = await prepareFile(old.path(rel), statSync(old.path(rel)).mtimeMs, nodeFileSource, 1 << 20, undefined);
        assert.equal(prepared.kind, 'file');
        if (prepared.kind !== 'file') return;
        const blob = (await db.query<{ id: string }>('INSERT INTO cadenza_blobs (hash, chunker_version) VALUES ($1, $2) RETURNING id', [prepared.file.hash, chunkerVersion(undefined)])).rows[0]?.id;
        await db.query('INSERT INTO cadenza_entries (snapshot_id, path, blob_id, size, mtime_ms) VALUES (1, $1, $2, $3, 0)', [`two/${rel}`, blob, prepared.file.size]);
        for (const c of prepared.file.chunks) {
          await db.query('INSERT INTO cadenza_chunks (blob_id, start_line, end_line, hash, body, terms) VALUES ($1, $2, $3, $4, $5, $6::tsvector)', [blob, c.startLine, c.endLine, c.hash, c.text, tsvectorLiteral(c.text)]);
          await db.query('INSERT INTO cadenza_vectors (model_id, hash, embedding) VALUES (1, $1, $2::vector) ON CONFLICT DO NOTHING', [c.hash, vectorLiteral(embedText(c.text, 64))]);
        }
      }
      assert.equal(await one(EMBEDDING_TYPE_SQL), 'vector');
      const hits = async (commit: string, text: string): Promise<string[]> =>
        ((await (await PgTeamIndex.open(db, 'two', MODEL, commit))?.lists({ vector: Float32Array.from(embedText(text, 64)) }, 3))?.semantic ?? [])
          .map((h) => `${h.location.path} ${h.score.toFixed(3)}`);
      // A reader of this release searches the old layout before any writer has migrated it.
      const before = await hits('v1', 'reconcileLedger of the ledger');
      assert.equal(before.length, 3);
      assert.match(before[0] ?? '', /^two\/src\/ledger\.ts /);
      const vectorBytes = Number(await one('SELECT sum(pg_column_size(embedding)) FROM cadenza_vectors'));

      old.write({ 'src/fees.ts': moduleText(9, 'lateFeesDue') });
      const said: string[] = [];
      const logger = { ...silentLogger, warn: (message: string) => said.push(message) };
      const run = await buildTeamIndex({ root: old.root, repository: 'two', commit: 'v2', model: MODEL, pool: db, embed, dimension: 64, logger });
      assert.equal(run.status, 'complete');
      assert.match(said.join('\n'), /layout 3: 3 vectors rewritten in half precision/);
      assert.equal(await one("SELECT value FROM cadenza_meta WHERE key = 'schema_version'"), '3');
      assert.equal(await one(EMBEDDING_TYPE_SQL), 'halfvec');
      assert.ok(Number(await one('SELECT sum(pg_column_size(embedding)) FROM cadenza_vectors WHERE hash IN (SELECT hash FROM cadenza_chunks c JOIN cadenza_entries e ON e.blob_id = c.blob_id WHERE e.snapshot_id = 1)')) < vectorBytes * 0.6, 'half the bytes');
      assert.equal(await one("SELECT count(*) FROM pg_indexes WHERE tablename = 'cadenza_vectors' AND indexname = 'cadenza_vectors_hnsw_64'"), '1', 'the graph is still there');
      assert.deepEqual(await hits('v1', 'reconcileLedger of the ledger'), before, 'the same ranking and scores (to 3 places) in half precision');
      assert.match((await hits('v2', 'lateFeesDue'))[0] ?? '', /^two\/src\/fees\.ts /);
      // The vector list really walks the graph after the migration.
      const client = await db.connect();
      try {
        await client.query('BEGIN');
        await client.query("SELECT set_config('enable_seqscan', 'off', true)");
        const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${semanticSql(64)}`.replace(/\$(\d)/g, (_, n: string) => ['', '1', `'${vectorLiteral(embedText('fees', 64))}'`, '1', '0', '10', '3'][Number(n)] ?? ''))).rows.map((r) => r['QUERY PLAN']).join('\n');
        await client.query('ROLLBACK');
        assert.match(plan, /cadenza_vectors_hnsw_64/);
      } finally {
        client.release();
      }
    } finally {
      await db.end();
      old.dispose();
    }
  });

  it("walks the graph an earlier release built for 4,096-d vectors (m 16, then m 32 with ef_construction 128) until the next indexer run builds this release's (m 32, ef_construction 256), says so, and drops the old one", async () => {
    const admin = new Pool({ connectionString: pg.url, max: 1 });
    await admin.query('CREATE DATABASE wide');
    await admin.end();
    const db = new Pool({ connectionString: pg.url.replace(/\/cadenza$/, '/wide'), max: 3 });
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/module${i}.ts`] = moduleText(i);
    files['src/ledger.ts'] = moduleText(50, 'reconcileLedger');
    const repo = new Fixture(files);
    const embed4096 = (texts: readonly string[]): Promise<Float32Array[]> => Promise.resolve(texts.map((t) => Float32Array.from(embedText(t, 4096))));
    const graphs = async (): Promise<string[]> =>
      (await db.query<{ graph: string }>("SELECT c.relname || ' ' || coalesce(array_to_string(c.reloptions, ','), 'defaults') AS graph FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE i.indrelid = 'cadenza_vectors'::regclass AND c.relname LIKE 'cadenza_vectors_hnsw%' ORDER BY 1")).rows.map((r) => r.graph);
    /** The vector list's top 3 for a query, and the index its plan walks. */
    const search = async (text: string): Promise<{ hits: string[]; walks: string }> => {
      const team = await PgTeamIndex.open(db, 'wide', 'wide-model', 'w1');
      assert.ok(team);
      const vector = Float32Array.from(embedText(text, 4096));
      const hits = (await team.lists({ vector }, 3)).semantic.map((h) => `${h.location.path} ${h.score.toFixed(3)}`);
      const client = await db.connect();
      try {
        await client.query('BEGIN');
        await client.query("SELECT set_config('enable_seqscan', 'off', true)");
        const sql = `EXPLAIN ${semanticSql(4096)}`.replace(/\$(\d)/g, (_, n: string) => ['', String(team.snapshot.modelId), `'${vectorLiteral(vector)}'`, String(team.snapshot.id), '0', '160', '3'][Number(n)] ?? '');
        const plan = (await client.query<{ 'QUERY PLAN': string }>(sql)).rows.map((r) => r['QUERY PLAN']).join('\n');
        await client.query('ROLLBACK');
        return { hits, walks: /cadenza_vectors_hnsw_\w+/.exec(plan)?.[0] ?? 'no graph' };
      } finally {
        client.release();
      }
    };
    try {
      const first = await buildTeamIndex({ root: repo.root, repository: 'wide', commit: 'w1', model: 'wide-model', pool: db, embed: embed4096, dimension: 4096 });
      assert.equal(first.status, 'complete');
      assert.deepEqual(await graphs(), [`${GRAPH_4096} m=32,ef_construction=256`]);
      const now = await search('reconcileLedger of the ledger');
      assert.equal(now.walks, GRAPH_4096);
      assert.match(now.hits[0] ?? '', /^wide\/src\/ledger\.ts /);

      for (const [earlier, sql] of EARLIER_GRAPHS_4096) {
        // The database as an earlier release left it: the same folded graph with that release's settings.
        await db.query(`DROP INDEX ${GRAPH_4096}`);
        await db.query(sql);
        const before = await search('reconcileLedger of the ledger');
        assert.equal(before.walks, earlier, 'a reader walks the graph the database has');
        assert.deepEqual(before.hits, now.hits);

        const said: string[] = [];
        const logger = { ...silentLogger, warn: (message: string) => said.push(message) };
        const again = await buildTeamIndex({ root: repo.root, repository: 'wide', commit: 'w1', model: 'wide-model', pool: db, embed: embed4096, dimension: 4096, logger });
        assert.equal(again.status, 'complete');
        assert.match(said.join('\n'), /Building this release's search graph for the 13 vectors of wide-model/);
        assert.deepEqual(await graphs(), [`${GRAPH_4096} m=32,ef_construction=256`], `the new graph built, ${earlier} dropped`);
        const after = await search('reconcileLedger of the ledger');
        assert.equal(after.walks, GRAPH_4096);
        assert.deepEqual(after.hits, before.hits, 'the same ranking and scores');
      }
    } finally {
      await db.end();
      repo.dispose();
    }
  });
});

/** This release's graph for 4,096-d vectors. */
const GRAPH_4096 = 'cadenza_vectors_hnsw_4096_fold2048_m32_efc256';
const FOLD_4096 = '((subvector((embedding)::vector(4096), 1, 2048) + subvector((embedding)::vector(4096), 2049, 2048))::halfvec(2048))';
/** The graphs earlier releases built for 4,096-d vectors (pgSql.ts before m 32: pgvector's default settings; then m 32, ef_construction 128). */
const EARLIER_GRAPHS_4096: readonly (readonly [string, string])[] = [
  ['cadenza_vectors_hnsw_4096_fold2048', `CREATE INDEX cadenza_vectors_hnsw_4096_fold2048 ON cadenza_vectors USING hnsw (${FOLD_4096} halfvec_cosine_ops) WHERE vector_dims(embedding) = 4096`],
  ['cadenza_vectors_hnsw_4096_fold2048_m32', `CREATE INDEX cadenza_vectors_hnsw_4096_fold2048_m32 ON cadenza_vectors USING hnsw (${FOLD_4096} halfvec_cosine_ops) WITH (m = 32, ef_construction = 128) WHERE vector_dims(embedding) = 4096`],
];

const EMBEDDING_TYPE_SQL = "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'cadenza_vectors'::regclass AND attname = 'embedding'";

/** The schema of layout 2, as the previous release created it (pgSchema.ts before layout 3: full-precision vectors). */
const LAYOUT_2 = [
  'CREATE EXTENSION IF NOT EXISTS vector',
  'CREATE TABLE cadenza_meta (key text PRIMARY KEY, value text NOT NULL)',
  'CREATE TABLE cadenza_models (id serial PRIMARY KEY, name text NOT NULL UNIQUE, dimension integer NOT NULL CHECK (dimension > 0))',
  `CREATE TABLE cadenza_snapshots (id serial PRIMARY KEY, repository text NOT NULL, commit_id text NOT NULL,
     model_id integer NOT NULL REFERENCES cadenza_models (id), chunker_version bigint NOT NULL, complete boolean NOT NULL DEFAULT false,
     updated_at timestamptz NOT NULL DEFAULT now(), UNIQUE (repository, commit_id, model_id))`,
  'ALTER TABLE cadenza_snapshots ADD COLUMN base_id integer REFERENCES cadenza_snapshots (id)',
  'CREATE TABLE cadenza_blobs (id bigserial PRIMARY KEY, hash text NOT NULL, chunker_version bigint NOT NULL, UNIQUE (hash, chunker_version))',
  `CREATE TABLE cadenza_chunks (blob_id bigint NOT NULL REFERENCES cadenza_blobs (id) ON DELETE CASCADE, start_line integer NOT NULL, end_line integer NOT NULL,
     hash text NOT NULL, body text NOT NULL, terms tsvector NOT NULL, PRIMARY KEY (blob_id, start_line, end_line))`,
  `CREATE TABLE cadenza_entries (snapshot_id integer NOT NULL REFERENCES cadenza_snapshots (id) ON DELETE CASCADE, path text NOT NULL,
     blob_id bigint REFERENCES cadenza_blobs (id), size bigint NOT NULL, mtime_ms double precision NOT NULL, PRIMARY KEY (snapshot_id, path))`,
  'CREATE INDEX cadenza_entries_blob ON cadenza_entries (blob_id, snapshot_id)',
  'CREATE INDEX cadenza_chunks_terms ON cadenza_chunks USING gin (terms)',
  'CREATE INDEX cadenza_chunks_hash ON cadenza_chunks (hash)',
  'CREATE TABLE cadenza_vectors (model_id integer NOT NULL REFERENCES cadenza_models (id), hash text NOT NULL, embedding vector NOT NULL, PRIMARY KEY (model_id, hash))',
  "INSERT INTO cadenza_meta (key, value) VALUES ('schema_version', '2')",
  'CREATE INDEX cadenza_vectors_hnsw_64 ON cadenza_vectors USING hnsw (((embedding)::vector(64)) vector_cosine_ops) WHERE vector_dims(embedding) = 64',
];

/** The schema of layout 1, as the previous release created it (pgSql.ts before layout 2). */
const LAYOUT_1 = [
  'CREATE EXTENSION IF NOT EXISTS vector',
  'CREATE TABLE cadenza_models (id serial PRIMARY KEY, name text NOT NULL UNIQUE, dimension integer NOT NULL CHECK (dimension > 0))',
  `CREATE TABLE cadenza_snapshots (id serial PRIMARY KEY, repository text NOT NULL, commit_id text NOT NULL,
     model_id integer NOT NULL REFERENCES cadenza_models (id), chunker_version bigint NOT NULL, complete boolean NOT NULL DEFAULT false,
     updated_at timestamptz NOT NULL DEFAULT now(), UNIQUE (repository, commit_id, model_id))`,
  `CREATE TABLE cadenza_files (snapshot_id integer NOT NULL REFERENCES cadenza_snapshots (id) ON DELETE CASCADE, path text NOT NULL,
     hash text NOT NULL, size bigint NOT NULL, mtime_ms double precision NOT NULL, PRIMARY KEY (snapshot_id, path))`,
  `CREATE TABLE cadenza_chunks (snapshot_id integer NOT NULL, path text NOT NULL, start_line integer NOT NULL, end_line integer NOT NULL,
     hash text NOT NULL, body text NOT NULL, terms tsvector NOT NULL, PRIMARY KEY (snapshot_id, path, start_line, end_line),
     FOREIGN KEY (snapshot_id, path) REFERENCES cadenza_files (snapshot_id, path) ON DELETE CASCADE)`,
  'CREATE INDEX cadenza_chunks_terms ON cadenza_chunks USING gin (terms)',
  'CREATE INDEX cadenza_chunks_hash ON cadenza_chunks (snapshot_id, hash)',
  'CREATE TABLE cadenza_vectors (model_id integer NOT NULL REFERENCES cadenza_models (id), hash text NOT NULL, embedding vector NOT NULL, PRIMARY KEY (model_id, hash))',
  'CREATE INDEX cadenza_vectors_hnsw_64 ON cadenza_vectors USING hnsw (((embedding)::vector(64)) vector_cosine_ops) WHERE vector_dims(embedding) = 64',
];
