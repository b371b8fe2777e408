// Upgrades of a team index database that an earlier release created, against a real PostgreSQL with pgvector
// (test/support/pg/setup.sh): layout 1 (chunks per snapshot) and layout 2 (full-precision vectors) are migrated in
// place, and an earlier release's search graph is walked until the indexer's next run replaces it.
import { strict as assert } from 'node:assert';
import { statSync } from 'node:fs';
import { Pool } from 'pg';
import { chunkerVersion } from '../../../../src/core/index/chunker';
import { nodeFileSource } from '../../../../src/core/index/fileSource';
import { tsvectorLiteral, vectorLiteral } from '../../../../src/core/index/pg/pgText';
import { prepareFile } from '../../../../src/core/index/prepareFile';
import { PgTeamIndex } from '../../../../src/core/index/pg/pgTeamIndex';
import { semanticSql } from '../../../../src/core/index/pg/pgSql';
import { SCHEMA_VERSION } from '../../../../src/core/index/pg/pgSchema';
import { buildTeamIndex } from '../../../../src/core/index/pg/teamIndexer';
import { embedText } from '../../../support/emulator/embeddings';
import { startPostgres, type TestPostgres } from '../../../support/pg/pgServer';
import { silentLogger } from '../../../../src/core/logger';
import { Fixture } from '../helpers';
import { EARLIER_GRAPHS_4096, EARLIER_GRAPHS_64, EMBEDDING_TYPE_SQL, GRAPH_4096, GRAPH_64, LAYOUT_1, LAYOUT_2 } from './earlierReleases';
import { MODEL, moduleText, recordingEmbed } from './teamFixtures';

describe("team index upgrades (an earlier release's database, migrated in place)", function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  const embedded: string[] = [];
  const embed = recordingEmbed(embedded);

  before(async () => {
    pg = await startPostgres();
  });

  after(() => {
    pg?.stop();
  });

  /** A pool on a new, empty database of the test server. */
  async function freshDatabase(name: string, max: number): Promise<Pool> {
    const admin = new Pool({ connectionString: pg.url, max: 1 });
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    return new Pool({ connectionString: pg.url.replace(/\/cadenza$/, `/${name}`), max });
  }

  it('migrates a database of layout 1 (files and chunks per snapshot) in place: its snapshots stay searchable, readers keep access, the next commit is a delta on them', async () => {
    const legacy = await freshDatabase('legacy', 2);
    const old = new Fixture({ 'src/ledger.ts': moduleText(7, 'reconcileLegacyLedger'), 'src/tax.ts': moduleText(8, 'legacyTaxRate') });
    try {
      // Layout 1 as the previous release created and filled it.
      for (const sql of LAYOUT_1) await legacy.query(sql);
      await legacy.query('INSERT INTO cadenza_models (name, dimension) VALUES ($1, 64)', [MODEL]);
      await legacy.query("INSERT INTO cadenza_snapshots (repository, commit_id, model_id, chunker_version, complete) VALUES ('old', 'v1', 1, $1, true)", [
        chunkerVersion(undefined),
      ]);
      for (const rel of ['src/ledger.ts', 'src/tax.ts']) {
        const prepared = await prepareFile(old.path(rel), statSync(old.path(rel)).mtimeMs, nodeFileSource, 1 << 20, undefined);
        assert.equal(prepared.kind, 'file');
        if (prepared.kind !== 'file') return;
        const key = `old/${rel}`;
        await legacy.query('INSERT INTO cadenza_files (snapshot_id, path, hash, size, mtime_ms) VALUES (1, $1, $2, $3, 0)', [
          key,
          prepared.file.hash,
          prepared.file.size,
        ]);
        for (const c of prepared.file.chunks) {
          await legacy.query(
            'INSERT INTO cadenza_chunks (snapshot_id, path, start_line, end_line, hash, body, terms) VALUES (1, $1, $2, $3, $4, $5, $6::tsvector)',
            [key, c.startLine, c.endLine, c.hash, c.text, tsvectorLiteral(c.text)],
          );
          await legacy.query('INSERT INTO cadenza_vectors (model_id, hash, embedding) VALUES (1, $1, $2::vector) ON CONFLICT DO NOTHING', [
            c.hash,
            vectorLiteral(embedText(c.text, 64)),
          ]);
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
  it("migrates a database of layout 2 (full-precision vectors) to half precision and its graph to this release's: a reader searches it before and after, with the same results, and the vectors take half the space", async () => {
    const db = await freshDatabase('layout2', 3);
    const old = new Fixture({
      'src/ledger.ts': moduleText(7, 'reconcileLedger'),
      'src/tax.ts': moduleText(8, 'taxRateOf'),
      'src/fees.ts': moduleText(9, 'feesDue'),
    });
    const one = async (sql: string): Promise<unknown> => Object.values((await db.query(sql)).rows[0] ?? {})[0];
    try {
      // Layout 2 as the previous release created and filled it: one full snapshot of three files.
      for (const sql of LAYOUT_2) await db.query(sql);
      await db.query('INSERT INTO cadenza_models (name, dimension) VALUES ($1, 64)', [MODEL]);
      await db.query("INSERT INTO cadenza_snapshots (repository, commit_id, model_id, chunker_version, complete) VALUES ('two', 'v1', 1, $1, true)", [
        chunkerVersion(undefined),
      ]);
      for (const rel of ['src/ledger.ts', 'src/tax.ts', 'src/fees.ts']) {
        const prepared = await prepareFile(old.path(rel), statSync(old.path(rel)).mtimeMs, nodeFileSource, 1 << 20, undefined);
        assert.equal(prepared.kind, 'file');
        if (prepared.kind !== 'file') return;
        const blob = (
          await db.query<{ id: string }>('INSERT INTO cadenza_blobs (hash, chunker_version) VALUES ($1, $2) RETURNING id', [
            prepared.file.hash,
            chunkerVersion(undefined),
          ])
        ).rows[0]?.id;
        await db.query('INSERT INTO cadenza_entries (snapshot_id, path, blob_id, size, mtime_ms) VALUES (1, $1, $2, $3, 0)', [
          `two/${rel}`,
          blob,
          prepared.file.size,
        ]);
        for (const c of prepared.file.chunks) {
          await db.query('INSERT INTO cadenza_chunks (blob_id, start_line, end_line, hash, body, terms) VALUES ($1, $2, $3, $4, $5, $6::tsvector)', [
            blob,
            c.startLine,
            c.endLine,
            c.hash,
            c.text,
            tsvectorLiteral(c.text),
          ]);
          await db.query('INSERT INTO cadenza_vectors (model_id, hash, embedding) VALUES (1, $1, $2::vector) ON CONFLICT DO NOTHING', [
            c.hash,
            vectorLiteral(embedText(c.text, 64)),
          ]);
        }
      }
      assert.equal(await one(EMBEDDING_TYPE_SQL), 'vector');
      const hits = async (commit: string, text: string): Promise<string[]> =>
        ((await (await PgTeamIndex.open(db, 'two', MODEL, commit))?.lists({ vector: Float32Array.from(embedText(text, 64)) }, 3))?.semantic ?? []).map(
          (h) => `${h.location.path} ${h.score.toFixed(3)}`,
        );
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
      assert.ok(
        Number(
          await one(
            'SELECT sum(pg_column_size(embedding)) FROM cadenza_vectors WHERE hash IN (SELECT hash FROM cadenza_chunks c JOIN cadenza_entries e ON e.blob_id = c.blob_id WHERE e.snapshot_id = 1)',
          ),
        ) <
          vectorBytes * 0.6,
        'half the bytes',
      );
      // The run built this release's graph (half precision, m 32, ef_construction 512) and dropped the earlier one.
      assert.equal(
        await one(
          "SELECT string_agg(c.relname || ' ' || array_to_string(c.reloptions, ','), '; ') FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE i.indrelid = 'cadenza_vectors'::regclass AND c.relname LIKE 'cadenza_vectors_hnsw%'",
        ),
        `${GRAPH_64} m=32,ef_construction=512`,
      );
      assert.deepEqual(await hits('v1', 'reconcileLedger of the ledger'), before, 'the same ranking and scores (to 3 places) in half precision');
      assert.match((await hits('v2', 'lateFeesDue'))[0] ?? '', /^two\/src\/fees\.ts /);
      // The vector list really walks the graph after the migration.
      assert.match(await vectorPlan(db, 64, ['1', `'${vectorLiteral(embedText('fees', 64))}'`, '1', '0', '10', '3']), new RegExp(GRAPH_64));
    } finally {
      await db.end();
      old.dispose();
    }
  });

  it("walks the full-precision graph an earlier release built for 64-d vectors until the next indexer run builds this release's (half precision, ef_construction 512), then drops it", async () => {
    const db = await freshDatabase('narrow', 3);
    const repo = ledgerRepository();
    const graphs = (): Promise<string[]> => graphsOf(db);
    /** The vector list's top 3 for a query, and the index the plan of the statement it sends walks. */
    const search = async (text: string): Promise<{ hits: string[]; walks: string; earlier: boolean }> => {
      const team = await PgTeamIndex.open(db, 'narrow', MODEL, 'n1');
      assert.ok(team);
      const vector = Float32Array.from(embedText(text, 64));
      const hits = (await team.lists({ vector }, 3)).semantic.map((h) => `${h.location.path} ${h.score.toFixed(3)}`);
      const plan = await vectorPlan(
        db,
        64,
        [String(team.snapshot.modelId), `'${vectorLiteral(vector)}'`, String(team.snapshot.id), '0', '40', '3'],
        team.walksEarlierGraph,
      );
      return { hits, walks: /cadenza_vectors_hnsw_\w+/.exec(plan)?.[0] ?? 'no graph', earlier: team.walksEarlierGraph };
    };
    try {
      const first = await buildTeamIndex({ root: repo.root, repository: 'narrow', commit: 'n1', model: MODEL, pool: db, embed, dimension: 64 });
      assert.equal(first.status, 'complete');
      assert.deepEqual(await graphs(), [`${GRAPH_64} m=32,ef_construction=512`]);
      const now = await search('reconcileLedger of the ledger');
      assert.deepEqual([now.walks, now.earlier], [GRAPH_64, false]);
      assert.match(now.hits[0] ?? '', /^narrow\/src\/ledger\.ts /);

      for (const [earlier, sql] of EARLIER_GRAPHS_64) {
        // The database as an earlier release left it: a graph on the vector in full precision.
        await db.query(`DROP INDEX ${GRAPH_64}`);
        await db.query(sql);
        const before = await search('reconcileLedger of the ledger');
        assert.deepEqual([before.walks, before.earlier], [earlier, true], 'a reader walks the graph the database has, with its expression');
        assert.deepEqual(before.hits, now.hits);

        const said: string[] = [];
        const logger = { ...silentLogger, warn: (message: string) => said.push(message) };
        const again = await buildTeamIndex({ root: repo.root, repository: 'narrow', commit: 'n1', model: MODEL, pool: db, embed, dimension: 64, logger });
        assert.equal(again.status, 'complete');
        assert.match(said.join('\n'), new RegExp(`Building this release's search graph for the 13 vectors of ${MODEL}`));
        assert.deepEqual(await graphs(), [`${GRAPH_64} m=32,ef_construction=512`], `the new graph built, ${earlier} dropped`);
        const after = await search('reconcileLedger of the ledger');
        assert.deepEqual([after.walks, after.earlier], [GRAPH_64, false]);
        assert.deepEqual(after.hits, before.hits, 'the same ranking and scores');
      }
    } finally {
      await db.end();
      repo.dispose();
    }
  });

  it("walks the graph an earlier release built for 4,096-d vectors (m 16, then m 32 with ef_construction 128) until the next indexer run builds this release's (m 32, ef_construction 256), says so, and drops the old one", async () => {
    const db = await freshDatabase('wide', 3);
    const repo = ledgerRepository();
    const embed4096 = (texts: readonly string[]): Promise<Float32Array[]> => Promise.resolve(texts.map((t) => Float32Array.from(embedText(t, 4096))));
    const graphs = (): Promise<string[]> => graphsOf(db);
    /** The vector list's top 3 for a query, and the index its plan walks. */
    const search = async (text: string): Promise<{ hits: string[]; walks: string }> => {
      const team = await PgTeamIndex.open(db, 'wide', 'wide-model', 'w1');
      assert.ok(team);
      const vector = Float32Array.from(embedText(text, 4096));
      const hits = (await team.lists({ vector }, 3)).semantic.map((h) => `${h.location.path} ${h.score.toFixed(3)}`);
      const plan = await vectorPlan(db, 4096, [String(team.snapshot.modelId), `'${vectorLiteral(vector)}'`, String(team.snapshot.id), '0', '160', '3']);
      return { hits, walks: /cadenza_vectors_hnsw_\w+/.exec(plan)?.[0] ?? 'no graph' };
    };
    try {
      const first = await buildTeamIndex({
        root: repo.root,
        repository: 'wide',
        commit: 'w1',
        model: 'wide-model',
        pool: db,
        embed: embed4096,
        dimension: 4096,
      });
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
        const again = await buildTeamIndex({
          root: repo.root,
          repository: 'wide',
          commit: 'w1',
          model: 'wide-model',
          pool: db,
          embed: embed4096,
          dimension: 4096,
          logger,
        });
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

/** Twelve modules and a ledger: the repository the graph upgrade tests index. */
function ledgerRepository(): Fixture {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`src/module${i}.ts`] = moduleText(i);
  files['src/ledger.ts'] = moduleText(50, 'reconcileLedger');
  return new Fixture(files);
}

/** The vectors table's HNSW graphs, each with its build settings. */
async function graphsOf(db: Pool): Promise<string[]> {
  return (
    await db.query<{ graph: string }>(
      "SELECT c.relname || ' ' || coalesce(array_to_string(c.reloptions, ','), 'defaults') AS graph FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE i.indrelid = 'cadenza_vectors'::regclass AND c.relname LIKE 'cadenza_vectors_hnsw%' ORDER BY 1",
    )
  ).rows.map((r) => r.graph);
}

/** The plan of the vector list's statement for `dimension`, its $1…$6 given as SQL literals, with sequential scans off as a search has them. */
async function vectorPlan(db: Pool, dimension: number, literals: readonly string[], earlierGraph = false): Promise<string> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT set_config('enable_seqscan', 'off', true)");
    const sql = `EXPLAIN ${semanticSql(dimension, earlierGraph)}`.replace(/\$(\d)/g, (_, n: string) => literals[Number(n) - 1] ?? '');
    return (await client.query<{ 'QUERY PLAN': string }>(sql)).rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
