// The team index against a real PostgreSQL with pgvector (test/support/pg/setup.sh, started per suite on a
// loopback port) and the emulator's embeddings: the command-line indexer on a checkout, incremental
// runs, a run killed half-way, search through the shared fusion, names full of SQL syntax stored as values
// (the SQL read as source: teamIndexSql.test.ts).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import * as path from 'node:path';
import { Pool, type PoolClient } from 'pg';
import { InferenceClient } from '../../../../src/core/api/client';
import { e5QueryText } from '../../../../src/core/index/search';
import { SEARCH_SETTINGS_SQL } from '../../../../src/core/index/pg/pgSql';
import { PgTeamIndex } from '../../../../src/core/index/pg/pgTeamIndex';
import { WorkspaceIndex } from '../../../../src/core/index/workspaceIndex';
import { startEmulator, type RunningEmulator } from '../../../support/emulator/emulator';
import { startPostgres, type TestPostgres } from '../../../support/pg/pgServer';
import { Fixture } from '../helpers';

const repoRoot = path.resolve(__dirname, '../../../../..');
const cliPath = path.join(repoRoot, 'out', 'src', 'cli', 'cadenzaIndex.js');
const MODEL = 'E5-Mistral-7B-Instruct';

interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe('team index on PostgreSQL with pgvector', function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  let emu: RunningEmulator;
  let pool: Pool;
  let client: InferenceClient;
  const fixtures: Fixture[] = [];

  before(async () => {
    pg = await startPostgres();
    emu = await startEmulator();
    pool = new Pool({ connectionString: pg.url, max: 2 });
    client = new InferenceClient({ baseUrl: emu.baseUrl, apiKey: emu.key });
  });

  after(async () => {
    await pool?.end();
    await emu?.close();
    pg?.stop();
    for (const f of fixtures) f.dispose();
  });

  /** Starts the CLI; `onLine` sees each stdout line and may kill the child. */
  function startCli(args: string[], onLine?: (line: string, kill: () => void) => void): Promise<CliRun> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [cliPath, ...args], {
        env: { ...process.env, CADENZA_DATABASE_URL: pg.url, CADENZA_API_KEY: emu.key, CADENZA_BASE_URL: emu.baseUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let partial = '';
      child.stdout.on('data', (data: Buffer) => {
        stdout += String(data);
        partial += String(data);
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) onLine?.(line, () => child.kill('SIGKILL'));
      });
      child.stderr.on('data', (data: Buffer) => (stderr += String(data)));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** Texts the emulator was asked to embed since the last reset. */
  function embeddedTexts(): string[] {
    const out: string[] = [];
    for (const r of emu.requests) {
      if (r.path !== '/v1/embeddings' || typeof r.body !== 'object' || r.body === null) continue;
      const input = (r.body as { input?: unknown }).input;
      if (Array.isArray(input)) for (const t of input) out.push(String(t));
      else if (typeof input === 'string') out.push(input);
    }
    return out;
  }

  async function scalar(sql: string, params: unknown[]): Promise<number> {
    const result = await pool.query<{ n: string }>(sql, params);
    return Number(result.rows[0]?.n ?? NaN);
  }

  /**
   * Wraps each connection `pool` hands out as a promise (a search's own checkouts; pool.query checks out with a
   * callback and gives it back itself, so those are left alone): `around` sees each statement and its result,
   * `on` each checkout and release.
   */
  function watchCheckouts(
    pool: Pool,
    around: (args: unknown[], run: () => Promise<{ rows: Record<string, unknown>[] }>) => Promise<unknown>,
    on: { checkout?: () => void; release?: () => void } = {},
  ): void {
    const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<PoolClient> | undefined;
    const watched = async (): Promise<PoolClient> => {
      const connection = (await connect()) as PoolClient;
      on.checkout?.();
      const query = connection.query.bind(connection) as (...args: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
      (connection as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => around(args, () => query(...args));
      const release = connection.release.bind(connection);
      connection.release = (error?: Error | boolean) => {
        on.release?.();
        release(error);
      };
      return connection;
    };
    (pool as unknown as { connect: (callback?: unknown) => Promise<PoolClient> | undefined }).connect = (callback?: unknown) =>
      callback ? connect(callback) : watched();
  }

  async function snapshotId(repository: string, commit: string): Promise<number> {
    return scalar('SELECT id AS n FROM cadenza_snapshots WHERE repository = $1 AND commit_id = $2', [repository, commit]);
  }

  /** Chunks of a snapshot's files whose hash has no vector: a consistent snapshot has none. */
  async function chunksWithoutVector(snapshot: number): Promise<number> {
    return scalar(
      'SELECT count(*) AS n FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.snapshot_id = $1 AND NOT EXISTS (SELECT 1 FROM cadenza_vectors v WHERE v.hash = c.hash)',
      [snapshot],
    );
  }

  /** A snapshot's own entry rows (all of a full snapshot's files; a delta's differences from its base). */
  async function entryRows(snapshot: number): Promise<number> {
    return scalar('SELECT count(*) AS n FROM cadenza_entries WHERE snapshot_id = $1', [snapshot]);
  }

  function workspaceCopy(): Fixture {
    const f = new Fixture();
    fixtures.push(f);
    cpSync(path.join(repoRoot, 'test', 'support', 'fixtures', 'workspace'), f.root, { recursive: true });
    return f;
  }

  /** A copy of the fixture workspace (with `files` written over it), indexed by the CLI as `repository`@`commit`. */
  async function indexedCopy(repository: string, commit: string, files: Record<string, string> = {}): Promise<Fixture> {
    const ws = workspaceCopy();
    ws.write(files);
    const run = await startCli(['--repository', repository, '--commit', commit, ws.root]);
    assert.equal(run.code, 0, run.stderr);
    return ws;
  }

  it('indexes the fixture workspace from the command line, embedding each distinct chunk once', async () => {
    const ws = workspaceCopy();
    emu.reset();
    const run = await startCli(['--repository', 'fixture', '--commit', 'c1', ws.root]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const snap = await snapshotId('fixture', 'c1');
    const files = await entryRows(snap);
    const chunks = await scalar('SELECT count(*) AS n FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.snapshot_id = $1', [snap]);
    const distinct = await scalar(
      'SELECT count(DISTINCT c.hash) AS n FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.snapshot_id = $1',
      [snap],
    );
    assert.equal(files, 5, 'every text file of the fixture');
    assert.ok(chunks >= files);
    assert.equal(embeddedTexts().length, distinct, 'one embedding per distinct chunk');
    assert.equal(await chunksWithoutVector(snap), 0);
    assert.equal(await scalar('SELECT count(*) AS n FROM cadenza_snapshots WHERE id = $1 AND complete', [snap]), 1);
    const summary = run.stdout.split('\n').find((l) => l.startsWith('summary:')) ?? '';
    assert.match(summary, new RegExp(`complete; fixture@c1 \\(${MODEL}\\): 5 files, ${chunks} chunks`));
    assert.match(summary, new RegExp(`${distinct} chunks embedded`));
    const tokens = Number(/(\d+) tokens embedded/.exec(summary)?.[1]);
    assert.ok(tokens > 0, summary);
    // The emulator lists E5 at $0.0000001 a token.
    assert.match(summary, new RegExp(`cost \\$${(tokens * 0.0000001).toFixed(6).replace('.', '\\.')}`));
    assert.match(run.stdout, /progress: /);
  });

  it('searches a snapshot with vectors and full-text ranking, fused like the local index', async () => {
    const ws = workspaceCopy();
    const first = await startCli(['--repository', 'search', '--commit', 's1', ws.root]);
    assert.equal(first.code, 0, first.stderr);
    const team = await PgTeamIndex.open(pool, 'search', MODEL);
    assert.ok(team, 'the snapshot is found');
    assert.equal(team.snapshot.commit, 's1');
    const local = (
      await WorkspaceIndex.open({
        roots: [{ name: 'search', path: ws.root }],
        storagePath: undefined,
        modelId: MODEL,
        embed: async (texts) => (await client.embed([...texts], MODEL)).embeddings,
      })
    ).index;
    try {
      await local.sync();
      for (const text of ['greeting for a name', 'arithmetic mean of numbers']) {
        const vector = (await client.embed(e5QueryText(text), MODEL)).embeddings[0];
        const fromTeam = await team.search({ text, vector }, { k: 3 });
        const fromLocal = local.search({ text, vector }, { k: 3 });
        assert.ok(fromTeam.length > 0, text);
        assert.equal(fromTeam[0]?.path, fromLocal[0]?.path, `same best file for "${text}"`);
        assert.equal(fromTeam[0]?.matched, 'both', 'found by meaning and by words');
      }
      const top = (await team.search({ text: 'greeting' }, { k: 1 }))[0];
      assert.equal(top?.path, 'search/src/greeting.ts');
      assert.equal(top?.startLine, 1);
    } finally {
      await local.close();
    }
  });

  it('embeds only the changed chunk on a second run, and keeps the first commit searchable', async () => {
    const ws = workspaceCopy();
    const first = await startCli(['--repository', 'incr', '--commit', 'a', ws.root]);
    assert.equal(first.code, 0, first.stderr);
    ws.write({ 'src/greeting.ts': 'export function farewell(name: string): string {\n  return `Goodbye, ${name}!`;\n}\n' });
    emu.reset();
    const second = await startCli(['--repository', 'incr', '--commit', 'b', ws.root]);
    assert.equal(second.code, 0, second.stderr);
    const texts = embeddedTexts();
    assert.equal(texts.length, 1, `only the new chunk: ${JSON.stringify(texts)}`);
    assert.match(texts[0] ?? '', /Goodbye/);
    const b = await PgTeamIndex.open(pool, 'incr', MODEL, 'b');
    const a = await PgTeamIndex.open(pool, 'incr', MODEL, 'a');
    assert.equal((await b?.search({ text: 'farewell goodbye' }, { k: 1 }))?.[0]?.path, 'incr/src/greeting.ts');
    assert.equal((await a?.search({ text: 'farewell goodbye' }, { k: 1 }))?.length, 0, 'commit a never had it');
    // Unchanged files of the same commit are not even re-read on a re-run.
    emu.reset();
    const again = await startCli(['--repository', 'incr', '--commit', 'b', ws.root]);
    assert.equal(again.code, 0);
    assert.equal(embeddedTexts().length, 0);
    assert.match(again.stdout, /0 files changed, 0 removed, 0 chunks embedded/);
  });

  it('leaves the database consistent when killed half-way, and the next run resumes', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++)
      files[`src/module${i}.ts`] = `/** Module ${i}. */\nexport function compute${i}(x: number): number {\n  return x * ${i} + ${i * 7};\n}\n`;
    const ws = new Fixture(files);
    fixtures.push(ws);
    emu.reset();
    emu.setLatency(150);
    let killedAt = 0;
    const killed = await startCli(['--repository', 'killed', '--commit', 'k', '--batch-size', '4', '--concurrency', '1', ws.root], (line, kill) => {
      const embedded = /embedded (\d+)\//.exec(line);
      if (embedded && Number(embedded[1]) >= 12 && killedAt === 0) {
        killedAt = Number(embedded[1]);
        kill();
      }
    });
    emu.setLatency(0);
    assert.equal(killed.code, null, 'the run was killed');
    assert.ok(killedAt >= 12);
    const snap = await snapshotId('killed', 'k');
    const recorded = await entryRows(snap);
    const storedBefore = await scalar('SELECT count(*) AS n FROM cadenza_vectors', []);
    assert.ok(recorded > 0 && recorded < 60, `part of the files recorded: ${recorded}`);
    assert.equal(await chunksWithoutVector(snap), 0, 'no recorded file lacks a vector');
    assert.equal(await scalar('SELECT count(*) AS n FROM cadenza_snapshots WHERE id = $1 AND complete', [snap]), 0);
    emu.reset();
    const resumed = await startCli(['--repository', 'killed', '--commit', 'k', ws.root]);
    assert.equal(resumed.code, 0, resumed.stderr);
    const embeddedNow = embeddedTexts().length;
    const storedAfter = await scalar('SELECT count(*) AS n FROM cadenza_vectors', []);
    assert.equal(storedAfter - storedBefore, embeddedNow, 'each vector paid for once');
    assert.ok(embeddedNow < 60, `the resumed run embeds only what was missing (${embeddedNow})`);
    assert.equal(await entryRows(snap), 60);
    assert.equal(await chunksWithoutVector(snap), 0);
    assert.equal(await scalar('SELECT count(*) AS n FROM cadenza_snapshots WHERE id = $1 AND complete', [snap]), 1);
  });

  it('lists the chunk holding every identifier of the query first, before chunks holding one of them', async () => {
    const files: Record<string, string> = { 'src/both.ts': 'export const handler = (r: Request) => fetchUserProfile(parseHttpRequest(r));\n' };
    for (let i = 0; i < 6; i++) files[`src/one${i}.ts`] = `export const step${i} = (r: Request) => parseHttpRequest(r);\n`;
    await indexedCopy('exact', 'e1', files);
    const team = await PgTeamIndex.open(pool, 'exact', MODEL);
    const lists = await team?.lists({ text: 'where is parseHttpRequest passed to fetchUserProfile' }, 4);
    assert.equal(lists?.exact[0]?.path, 'exact/src/both.ts');
    assert.equal(lists?.exact.length, 4, 'then chunks with one identifier, up to the depth asked');
    assert.ok(
      lists?.exact.slice(1).every((hit) => /exact\/src\/one\d\.ts/.test(hit.path)),
      JSON.stringify(lists?.exact),
    );
  });

  it('reads the vector, keyword and exact-identifier lists at once, each on a connection of its own', async () => {
    await indexedCopy('parallel', 'p1');
    // A pool that counts the connections held at the same time.
    const counting = new Pool({ connectionString: pg.url, max: 3 });
    let held = 0;
    let most = 0;
    watchCheckouts(
      counting,
      // Each statement takes at least 50 ms, so lists read at once overlap whatever the machine's load
      // (on a tiny database one list could otherwise finish before the next got its connection).
      async (_args, run) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return run();
      },
      { checkout: () => (most = Math.max(most, ++held)), release: () => held-- },
    );
    try {
      const team = await PgTeamIndex.open(counting, 'parallel', MODEL);
      const text = 'greeting for a name';
      const vector = (await client.embed(e5QueryText(text), MODEL)).embeddings[0];
      most = 0;
      const lists = await team?.lists({ text, vector }, 5);
      assert.ok((lists?.semantic.length ?? 0) > 0 && (lists?.keyword.length ?? 0) > 0, JSON.stringify(lists));
      assert.ok(most >= 2, `the lists were read one after another (${most} connection at a time)`);
      assert.equal(held, 0, 'every connection is given back');
    } finally {
      await counting.end();
    }
  });

  it("walks as wide as the reader's role asks (ALTER ROLE … SET hnsw.ef_search), never narrower than its own default", async () => {
    await indexedCopy('wide', 'w1');
    await pool.query('DROP ROLE IF EXISTS wide_reader');
    await pool.query('CREATE ROLE wide_reader LOGIN');
    await pool.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO wide_reader');
    const url = new URL(pg.url);
    url.username = 'wide_reader';
    /**
     * Sets the reader role's hnsw.ef_search (`value` as SQL, or RESET) from a new session, which has not loaded
     * pgvector, so nothing checks the value; then one search as that role: the walk width it set for itself,
     * as PostgreSQL reports it back.
     */
    const as = async (value: string | undefined): Promise<string[]> => {
      const admin = new Pool({ connectionString: pg.url, max: 1 });
      try {
        await admin.query(value === undefined ? 'ALTER ROLE wide_reader RESET hnsw.ef_search' : `ALTER ROLE wide_reader SET hnsw.ef_search = ${value}`);
      } finally {
        await admin.end();
      }
      const reader = new Pool({ connectionString: url.toString(), max: 3 });
      const set: string[] = [];
      watchCheckouts(reader, async (args, run) => {
        const result = await run();
        if (args[0] === SEARCH_SETTINGS_SQL) set.push(String(result.rows[0]?.['ef_search']));
        return result;
      });
      try {
        const team = await PgTeamIndex.open(reader, 'wide', MODEL);
        const text = 'greeting for a name';
        const hits = await team?.search({ text, vector: (await client.embed(e5QueryText(text), MODEL)).embeddings[0] }, { k: 5 });
        assert.equal(hits?.[0]?.path, 'wide/src/greeting.ts');
        return set;
      } finally {
        await reader.end();
      }
    };
    // E5-Mistral's 4,096 dimensions: the folded graph's default walk is 400 wide.
    assert.deepEqual(await as(undefined), ['400'], 'no role setting: the default walk');
    assert.deepEqual(await as('800'), ['800'], "the team's wider walk");
    assert.deepEqual(await as('50'), ['400'], 'never narrower than the default');
    assert.deepEqual(await as("'wide'"), ['400'], 'a typo in the setting breaks no search');
    await pool.query('ALTER ROLE wide_reader RESET hnsw.ef_search');
  });

  it("answers a deep search whose candidates exceed pgvector's widest walk (ef_search at most 1,000)", async () => {
    await indexedCopy('deep', 'd1');
    // One connection, used twice: PostgreSQL checks the setting's range only once pgvector's library is loaded in it.
    const single = new Pool({ connectionString: pg.url, max: 1 });
    try {
      const team = await PgTeamIndex.open(single, 'deep', MODEL);
      const text = 'greeting for a name';
      const vector = (await client.embed(e5QueryText(text), MODEL)).embeddings[0];
      await team?.lists({ text, vector }, 10);
      // 300 deep: more candidates are re-ranked than pgvector lets a walk hold (4 per result on E5's 4,096 dimensions).
      const lists = await team?.lists({ text, vector }, 300);
      assert.ok((lists?.semantic.length ?? 0) > 0, 'the vector list answered');
      assert.equal(lists?.semantic[0]?.location.path, 'deep/src/greeting.ts');
    } finally {
      await single.end();
    }
  });

  it('stores and finds names full of SQL syntax as plain values', async () => {
    const repository = "x'); DROP TABLE cadenza_files; --";
    await indexedCopy(repository, "c'1", { "src/o'brien.ts": 'export const quote = "\'; DROP TABLE cadenza_chunks; --";\n' });
    const team = await PgTeamIndex.open(pool, repository, MODEL);
    const hits = await team?.search({ text: 'DROP TABLE cadenza_chunks' }, { k: 1 });
    assert.equal(hits?.[0]?.path, `${repository}/src/o'brien.ts`);
    assert.equal(await scalar("SELECT count(*) AS n FROM information_schema.tables WHERE table_name IN ('cadenza_entries', 'cadenza_chunks')", []), 2);
  });
});
