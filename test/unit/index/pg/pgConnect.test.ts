import { strict as assert } from 'node:assert';
import { Pool } from 'pg';
import { isLoopbackTarget, teamPoolConfig, TeamConnectionError } from '../../../../src/core/index/pg/pgConnect';
import { startPostgres, type TestPostgres } from '../../../support/pg/pgServer';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----';
const OTHER = '-----BEGIN CERTIFICATE-----\nMIIBother\n-----END CERTIFICATE-----';

/** The fault a refused connection string carries (what the host words for the user). */
function faultOf(connectionString: string): unknown {
  try {
    teamPoolConfig(connectionString);
  } catch (error) {
    if (TeamConnectionError.is(error)) return error.fault;
    throw error;
  }
  throw new Error(`${connectionString} was accepted`);
}

describe('team index connection settings', () => {
  it("sslmode=verify-full verifies the chain and the host against Node's roots, the OS store, NODE_EXTRA_CA_CERTS and sslrootcert", () => {
    const files: Record<string, string> = { '/etc/extra.pem': OTHER, '/team/ca.pem': PEM };
    const { config, tls, target } = teamPoolConfig('postgresql://reader:s3cret@db.example.com:6543/idx?sslmode=verify-full&sslrootcert=/team/ca.pem', {
      systemCertificates: ['-----BEGIN CERTIFICATE-----\nMIIBsystem\n-----END CERTIFICATE-----'],
      readFile: (file) => files[file] ?? '',
      env: { NODE_EXTRA_CA_CERTS: '/etc/extra.pem' },
    });
    assert.equal(tls, 'verify-full');
    assert.equal(target, 'db.example.com:6543/idx');
    const ssl = config.ssl as { ca: string[]; rejectUnauthorized: boolean; checkServerIdentity?: unknown };
    assert.equal(ssl.rejectUnauthorized, true);
    assert.equal(ssl.checkServerIdentity, undefined, 'the host name is checked');
    assert.ok(ssl.ca.includes(PEM) && ssl.ca.includes(OTHER) && ssl.ca.some((c) => c.includes('MIIBsystem')));
    assert.ok(ssl.ca.length > 3, "Node's own roots are kept");
    // The pg client must not re-derive TLS from the string (it would verify against Node's roots only).
    assert.doesNotMatch(String(config.connectionString), /ssl/);
    assert.match(String(config.options), /default_transaction_read_only=on/);
  });

  it('verify-ca checks the chain but not the host name; require encrypts without verifying; no sslmode is no TLS', () => {
    const ca = teamPoolConfig('postgres://u@h/db?sslmode=verify-ca');
    assert.equal(ca.tls, 'verify-ca');
    assert.equal(typeof (ca.config.ssl as { checkServerIdentity?: unknown }).checkServerIdentity, 'function');
    const required = teamPoolConfig('postgres://u@h/db?sslmode=require');
    assert.equal(required.tls, 'unverified');
    assert.equal((required.config.ssl as { rejectUnauthorized: boolean }).rejectUnauthorized, false);
    const withRoot = teamPoolConfig('postgres://u@h/db?sslmode=require&sslrootcert=/ca.pem', { readFile: () => PEM });
    assert.equal(withRoot.tls, 'verify-ca', 'require with a root certificate verifies, as libpq does');
    const plain = teamPoolConfig('postgres://u@127.0.0.1/db');
    assert.equal(plain.tls, 'none');
    assert.equal(plain.config.ssl, false);
    const disabled = teamPoolConfig('postgres://u@h/db?sslmode=disable');
    assert.equal(disabled.tls, 'none', "an explicit sslmode=disable is the user's choice (the command warns)");
  });

  it('a host on another machine needs sslmode: without one the connection would not be encrypted', () => {
    assert.throws(
      () => teamPoolConfig('postgres://u@db.example.com/db'),
      (e: unknown) => TeamConnectionError.is(e) && /sslmode=verify-full/.test(e.message),
    );
    // What the user is told is data the host words in their language.
    assert.deepEqual(faultOf('postgres://u@db.example.com/db'), { kind: 'unencrypted', host: 'db.example.com' });
    assert.throws(() => teamPoolConfig('postgresql://alice:pw@10.0.0.5/db'), TeamConnectionError);
    for (const local of ['postgres://u@localhost/db', 'postgres://u@127.0.0.1:6543/db', 'postgres://u@[::1]/db'])
      assert.equal(teamPoolConfig(local).tls, 'none', local);
  });

  it('refuses parameters that would connect elsewhere than the target shown or lift the session guard', () => {
    for (const query of [
      'host=evil.example.com',
      'hostaddr=203.0.113.9',
      'port=6000',
      'statement_timeout=0',
      'lock_timeout=0',
      'idle_in_transaction_session_timeout=0',
      'replication=database',
      'dbname=other',
    ]) {
      assert.throws(
        () => teamPoolConfig(`postgresql://u@db.example.com/idx?sslmode=verify-full&${query}`),
        (e: unknown) => TeamConnectionError.is(e) && e.message.includes(query.split('=')[0] ?? ''),
        query,
      );
    }
    assert.deepEqual(faultOf('postgresql://u@db.example.com/idx?sslmode=verify-full&host=a&port=1&host=b'), {
      kind: 'refusedParameters',
      names: ['host', 'port'],
    });
    // pg copies every query parameter over the pool's settings: what reaches the client must still connect to the target shown.
    const { config, target } = teamPoolConfig('postgresql://u@db.example.com:6543/idx?sslmode=verify-full&application_name=team');
    assert.equal(target, 'db.example.com:6543/idx');
    const parsed = new URL(String(config.connectionString));
    assert.deepEqual([parsed.hostname, parsed.port, [...parsed.searchParams.keys()]], ['db.example.com', '6543', ['application_name']]);
  });

  it("the user's options come first and Cadenza's read-only guard and statement time-out after them, so they win", () => {
    const { config } = teamPoolConfig(
      'postgresql://u@db.example.com/idx?sslmode=verify-full&options=-c%20search_path%3Dteam%20-c%20default_transaction_read_only%3Doff',
    );
    assert.equal(config.options, '-c search_path=team -c default_transaction_read_only=off -c default_transaction_read_only=on -c statement_timeout=15000');
    assert.doesNotMatch(String(config.connectionString), /options/, "pg would put the string's options over the merged ones");
    // A trailing backslash would escape the space before Cadenza's first switch and swallow it.
    assert.throws(() => teamPoolConfig('postgresql://u@db.example.com/idx?sslmode=verify-full&options=-c%20search_path%3Dteam%5C'), TeamConnectionError);
    assert.deepEqual(faultOf('postgresql://u@db.example.com/idx?sslmode=verify-full&options=-c%20search_path%3Dteam%5C'), { kind: 'optionsBackslash' });
  });

  it('the target never carries the user or password, and bad strings are refused with what to write', () => {
    assert.equal(teamPoolConfig('postgresql://alice:pw@10.0.0.5/db?sslmode=require').target, '10.0.0.5:5432/db');
    assert.throws(
      () => teamPoolConfig('host=db user=x'),
      (e: unknown) => TeamConnectionError.is(e) && /postgresql:\/\//.test(e.message),
    );
    assert.throws(() => teamPoolConfig('mysql://db/x'), TeamConnectionError);
    assert.throws(() => teamPoolConfig('postgres://db/x?sslmode=sometimes'), /Unknown sslmode/);
    assert.deepEqual(faultOf('host=db user=x'), { kind: 'notUrl' });
    assert.deepEqual(faultOf('mysql://db/x'), { kind: 'wrongScheme', scheme: 'mysql' });
    assert.deepEqual(faultOf('postgres://db/x?sslmode=sometimes'), { kind: 'unknownSslMode', mode: 'sometimes' });
    assert.equal(isLoopbackTarget('127.0.0.1:5432/x'), true);
    assert.equal(isLoopbackTarget('localhost:5432/x'), true);
    assert.equal(isLoopbackTarget('db.example.com:5432/x'), false);
  });
});

describe('team index connection settings on a real PostgreSQL', function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  before(async () => {
    pg = await startPostgres();
  });
  after(() => pg.stop());

  it("a session opened with the user's options that switch the guard off is still read-only and time-limited", async () => {
    const { config } = teamPoolConfig(
      `${pg.url}?options=${encodeURIComponent('-c default_transaction_read_only=off -c statement_timeout=0 -c search_path=public')}`,
    );
    const pool = new Pool(config);
    try {
      const { rows } = await pool.query<{ readonly: string; timeout: string; path: string }>(
        "SELECT current_setting('default_transaction_read_only') AS readonly, current_setting('statement_timeout') AS timeout, current_setting('search_path') AS path",
      );
      assert.deepEqual(rows[0], { readonly: 'on', timeout: '15s', path: 'public' });
      await assert.rejects(pool.query('CREATE TABLE written (id int)'), /read-only transaction/);
    } finally {
      await pool.end();
    }
  });
});
