// The extension's own session to the team index (pgConnect's pool settings, as host/index/teamConnection
// builds it) against what a user's database may do: a server that accepts and never answers, a search that
// blocks behind another session's lock, and a role that has been given more than SELECT. Each must end in an
// error the host falls back on (indexService.search catches it and the local index answers), never a hang,
// and never a write. Real PostgreSQL with pgvector (test/support/pg/setup.sh); TLS is in teamIndexTls.test.ts.
import { strict as assert } from 'node:assert';
import { createServer, type Server, type Socket } from 'node:net';
import { Pool, type PoolClient } from 'pg';
import { teamPoolConfig } from '../../../../src/core/index/pg/pgConnect';
import { PgTeamIndex } from '../../../../src/core/index/pg/pgTeamIndex';
import { buildTeamIndex } from '../../../../src/core/index/pg/teamIndexer';
import { embedText } from '../../../support/emulator/embeddings';
import { startPostgres, type TestPostgres } from '../../../support/pg/pgServer';
import { Fixture } from '../helpers';
import { MODEL, moduleText, recordingEmbed } from './teamFixtures';

const REPO = 'shop';

/** The pool the extension opens for `connectionString` (no test-only settings). */
const productPool = (connectionString: string): Pool => {
  const pool = new Pool(teamPoolConfig(connectionString).config);
  // As the host does: an idle client losing its server must not crash the process.
  pool.on('error', () => undefined);
  return pool;
};

const pgCode = (error: unknown): string | undefined => (error as { code?: string }).code;

describe("the extension's session to the team index", function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  let owner: Pool;
  let ws: Fixture;
  /** Another session holding a lock; released after each test, even one that timed out waiting on it. */
  let locker: PoolClient | undefined;

  before(async () => {
    pg = await startPostgres();
    owner = new Pool({ connectionString: pg.url, max: 3 });
    ws = new Fixture({ 'src/ledger.ts': moduleText(1, 'reconcileLedger'), 'src/invoice.ts': moduleText(2, 'quarantineInvoices') });
    const built = await buildTeamIndex({ root: ws.root, repository: REPO, commit: 'c1', model: MODEL, pool: owner, embed: recordingEmbed([]), dimension: 64 });
    assert.equal(built.status, 'complete', JSON.stringify(built));
    // A role given more than the GRANTs of docs/team-index.md: it may write every table and create new ones.
    for (const statement of [
      'CREATE ROLE cadenza_writer LOGIN',
      'GRANT CONNECT ON DATABASE cadenza TO cadenza_writer',
      'GRANT USAGE, CREATE ON SCHEMA public TO cadenza_writer',
      'GRANT ALL ON ALL TABLES IN SCHEMA public TO cadenza_writer',
      'GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO cadenza_writer',
    ])
      await owner.query(statement);
  });

  afterEach(async () => {
    await locker?.query('ROLLBACK').catch(() => undefined);
    locker?.release();
    locker = undefined;
  });

  after(async () => {
    await owner?.end();
    pg?.stop();
    ws?.dispose();
  });

  const search = (team: PgTeamIndex, text: string): ReturnType<PgTeamIndex['search']> =>
    team.search({ text, vector: Float32Array.from(embedText(text, 64)) }, { k: 3 });

  describe('a server that accepts and never answers', function () {
    // Far above the product's connect time-out (4 s): a failure here is a hang, not a slow machine.
    this.timeout(40_000);
    let silent: Server;
    const sockets: Socket[] = [];

    before(async () => {
      // Accepts the TCP connection, reads the startup (or TLS request) and says nothing, as a hung
      // server, a full backlog behind a proxy or a firewall that swallows packets would.
      silent = createServer((socket) => {
        sockets.push(socket);
        socket.on('error', () => undefined);
        socket.resume();
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });

    after(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    for (const mode of ['disable', 'require']) {
      it(`opening the team index gives up with a time-out error (sslmode=${mode}) instead of waiting for ever`, async () => {
        const address = silent.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        const accepted = sockets.length;
        const pool = productPool(`postgresql://cadenza_reader@127.0.0.1:${port}/cadenza?sslmode=${mode}`);
        try {
          // Without connectionTimeoutMillis this never settles and the test's time-out fails it.
          await assert.rejects(PgTeamIndex.open(pool, REPO, MODEL), (error: Error) => {
            assert.match(error.message, /connection timeout/, error.message);
            return true;
          });
          assert.ok(sockets.length > accepted, 'the silent server was reached (the failure is not a refused connection)');
        } finally {
          await pool.end();
        }
      });
    }
  });

  it("a search blocked behind another session's lock is cancelled by the statement time-out, and the next one answers", async function () {
    // Far above the product's statement time-out (15 s): a failure here is a hang, not a slow machine.
    this.timeout(60_000);
    const pool = productPool(`postgresql://cadenza_writer@127.0.0.1:${pg.port}/cadenza?sslmode=disable`);
    try {
      const team = await PgTeamIndex.open(pool, REPO, MODEL);
      assert.ok(team, 'the snapshot opens');
      assert.equal((await search(team, 'reconcileLedger'))[0]?.path, `${REPO}/src/ledger.ts`);
      // A migration, VACUUM FULL or a stuck session holding the table every list reads.
      locker = await owner.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE cadenza_entries IN ACCESS EXCLUSIVE MODE');
      // Without the session's statement_timeout the search waits as long as the lock is held (here: for ever).
      await assert.rejects(search(team, 'reconcileLedger'), (error: unknown) => {
        assert.equal(pgCode(error), '57014', String(error));
        assert.match(String((error as Error).message), /statement timeout/);
        return true;
      });
      await locker.query('ROLLBACK');
      locker.release();
      locker = undefined;
      // The pool's connections are usable again: the timed-out transactions were rolled back.
      assert.equal((await search(team, 'quarantineInvoices'))[0]?.path, `${REPO}/src/invoice.ts`);
    } finally {
      await pool.end();
    }
  });

  it("a role that may write still writes nothing through the extension's session, and searches", async () => {
    const url = `postgresql://cadenza_writer@127.0.0.1:${pg.port}/cadenza?sslmode=disable`;
    // The role itself can write: a plain session of it inserts and drops.
    const plain = new Pool({ connectionString: url, max: 1 });
    try {
      await plain.query('CREATE TABLE cadenza_writer_probe (x int)');
      await plain.query('DROP TABLE cadenza_writer_probe');
    } finally {
      await plain.end();
    }
    const models = async (): Promise<number> => Number((await owner.query<{ n: string }>('SELECT count(*) AS n FROM cadenza_models')).rows[0]?.n);
    const before = await models();
    const pool = productPool(url);
    try {
      const readOnly = (error: unknown): boolean => {
        assert.equal(pgCode(error), '25006', String(error));
        assert.match(String((error as Error).message), /read-only transaction/);
        return true;
      };
      await assert.rejects(pool.query("INSERT INTO cadenza_models (name, dimension) VALUES ('written-by-the-extension', 3)"), readOnly);
      await assert.rejects(pool.query('DELETE FROM cadenza_entries'), readOnly);
      await assert.rejects(pool.query('CREATE TABLE cadenza_written (x int)'), readOnly);
      const team = await PgTeamIndex.open(pool, REPO, MODEL);
      assert.ok(team);
      assert.equal((await search(team, 'quarantineInvoices'))[0]?.path, `${REPO}/src/invoice.ts`);
    } finally {
      await pool.end();
    }
    assert.equal(await models(), before, 'nothing was written');
    assert.ok(Number((await owner.query<{ n: string }>('SELECT count(*) AS n FROM cadenza_entries')).rows[0]?.n) > 0);
  });
});
