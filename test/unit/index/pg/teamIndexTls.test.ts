// The team index over TLS, end to end: a certificate made for the test by a CA made for the test (openssl),
// reached through the extension's own connection settings (pgConnect, with the host's reading of
// `sslrootcert`), a real TLS handshake, and a real PostgreSQL with pgvector (test/support/pg/setup.sh) behind it.
// That PostgreSQL is built without OpenSSL ("SSL is not supported by this build"), so the TLS end is a
// front in this file that speaks PostgreSQL's own TLS negotiation (SSLRequest, 'S', handshake) and relays
// the decrypted session to it, as a TLS-terminating proxy (pgbouncer, a cloud provider's) would. Like a
// `hostssl`-only server it refuses a session that does not ask for TLS, and it records each session's
// protocol as the server's view of it. verify-full checks the chain and the name, verify-ca the chain
// only, require encrypts without checking. The settings alone are checked in pgConnect.test.ts.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TLSSocket } from 'node:tls';
import { Pool } from 'pg';
import { teamPoolConfig, type TeamTls } from '../../../../src/core/index/pg/pgConnect';
import { PgTeamIndex } from '../../../../src/core/index/pg/pgTeamIndex';
import { buildTeamIndex } from '../../../../src/core/index/pg/teamIndexer';
import { embedText } from '../../../support/emulator/embeddings';
import { startPostgres, type TestPostgres } from '../../../support/pg/pgServer';
import { Fixture } from '../helpers';
import { MODEL, moduleText, recordingEmbed } from './teamFixtures';

const REPO = 'shop';

/** A CA (and, with `signs`, a server certificate for `names` signed by it) in `dir`, made by openssl. */
function makeCa(dir: string, name: string): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      `/CN=Cadenza test ${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    { stdio: 'pipe' },
  );
  return { cert, key };
}

function makeServerCert(dir: string, ca: { cert: string; key: string }, altNames: string): { cert: string; key: string } {
  const cert = path.join(dir, 'server.crt');
  const key = path.join(dir, 'server.key');
  const csr = path.join(dir, 'server.csr');
  const ext = path.join(dir, 'server.ext');
  writeFileSync(
    ext,
    `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=${altNames}\n`,
  );
  execFileSync(
    'openssl',
    ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', csr, '-subj', '/CN=localhost'],
    { stdio: 'pipe' },
  );
  execFileSync('openssl', ['x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext], {
    stdio: 'pipe',
  });
  return { cert, key };
}

/** PostgreSQL's SSLRequest code (the startup message a client sends to ask for TLS). */
const SSL_REQUEST = 80877103;

/** A FATAL ErrorResponse, as PostgreSQL sends before closing a session it refuses. */
function fatal(message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0C28000\0M${message}\0\0`);
  const head = Buffer.alloc(5);
  head.write('E');
  head.writeUInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

interface TlsFront {
  /** The TLS protocol of each session in order of arrival; null for a session that asked for none (refused). */
  readonly sessions: (string | null)[];
  readonly ports: Readonly<Record<string, number>>;
  close(): Promise<void>;
}

/** The TLS end in front of the PostgreSQL on `upstream`, listening on each of `hosts`. */
async function startTlsFront(upstream: number, hosts: readonly string[], cert: string, key: string): Promise<TlsFront> {
  const sessions: (string | null)[] = [];
  const sockets = new Set<Socket>();
  const serve = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', (first: Buffer) => {
      if (first.length !== 8 || first.readUInt32BE(4) !== SSL_REQUEST) {
        sessions.push(null);
        socket.end(fatal('this server accepts TLS sessions only (hostssl)'));
        return;
      }
      socket.pause();
      socket.write('S');
      const secure = new TLSSocket(socket, { isServer: true, cert: readFileSync(cert), key: readFileSync(key) });
      secure.on('error', () => socket.destroy());
      secure.once('secure', () => {
        sessions.push(secure.getProtocol());
        const db = connect(upstream, '127.0.0.1');
        sockets.add(db);
        db.on('error', () => secure.destroy());
        secure.pipe(db).pipe(secure);
      });
    });
  };
  const servers: Server[] = [];
  const ports: Record<string, number> = {};
  for (const host of hosts) {
    const server = createServer(serve);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const address = server.address();
    ports[host] = typeof address === 'object' && address ? address.port : 0;
    servers.push(server);
  }
  return {
    sessions,
    ports,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** The pool the extension opens, with `sslrootcert` read from disk as host/index/teamConnection reads it. */
function productPool(connectionString: string): { pool: Pool; tls: TeamTls } {
  const { config, tls } = teamPoolConfig(connectionString, { systemCertificates: [], readFile: (file) => readFileSync(file, 'utf8') });
  const pool = new Pool(config);
  pool.on('error', () => undefined);
  return { pool, tls };
}

const errorText = (error: unknown): string => `${(error as { code?: string }).code ?? ''} ${String((error as Error).message)}`;

describe('team index over TLS (a certificate made for the test)', function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  let front: TlsFront;
  let ws: Fixture;
  let dir: string;
  let ca: string;
  let otherCa: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadenza-pg-tls-'));
    chmodSync(dir, 0o700);
    const authority = makeCa(dir, 'ca');
    ca = authority.cert;
    otherCa = makeCa(dir, 'other-ca').cert;
    // The certificate names this machine as localhost and 127.0.0.1; the front also listens on 127.0.0.2,
    // an address of this machine the certificate does not name.
    const server = makeServerCert(dir, authority, 'DNS:localhost,IP:127.0.0.1');
    pg = await startPostgres();
    front = await startTlsFront(pg.port, ['127.0.0.1', '127.0.0.2'], server.cert, server.key);
    ws = new Fixture({ 'src/ledger.ts': moduleText(1, 'reconcileLedger'), 'src/invoice.ts': moduleText(2, 'quarantineInvoices') });
    const owner = new Pool({ connectionString: pg.url, max: 2 });
    try {
      const built = await buildTeamIndex({
        root: ws.root,
        repository: REPO,
        commit: 'c1',
        model: MODEL,
        pool: owner,
        embed: recordingEmbed([]),
        dimension: 64,
      });
      assert.equal(built.status, 'complete', JSON.stringify(built));
    } finally {
      await owner.end();
    }
  });

  after(async () => {
    await front?.close();
    pg?.stop();
    ws?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const url = (host: string, query: string): string => `postgresql://cadenza@${host}:${front.ports[host]}/cadenza?${query}`;

  /** Opens the team index through the extension's session and searches it; returns the protocols of the sessions it opened. */
  async function searchOver(connectionString: string, expected: TeamTls): Promise<(string | null)[]> {
    const { pool, tls } = productPool(connectionString);
    const first = front.sessions.length;
    try {
      assert.equal(tls, expected);
      const team = await PgTeamIndex.open(pool, REPO, MODEL);
      assert.ok(team, 'the snapshot opens');
      const hits = await team.search({ text: 'quarantineInvoices', vector: Float32Array.from(embedText('quarantineInvoices', 64)) }, { k: 2 });
      assert.equal(hits[0]?.path, `${REPO}/src/invoice.ts`);
      return front.sessions.slice(first);
    } finally {
      await pool.end();
    }
  }

  /** The extension's session cannot open the team index; the error is returned for its wording. */
  async function refused(connectionString: string): Promise<string> {
    const { pool } = productPool(connectionString);
    try {
      let message = '';
      await assert.rejects(PgTeamIndex.open(pool, REPO, MODEL), (error: unknown) => {
        message = errorText(error);
        return true;
      });
      return message;
    } finally {
      await pool.end();
    }
  }

  const UNTRUSTED = /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|self[- ]signed certificate|unable to verify/i;

  it("verify-full with the team's CA as sslrootcert connects encrypted and searches", async () => {
    const sessions = await searchOver(url('127.0.0.1', `sslmode=verify-full&sslrootcert=${ca}`), 'verify-full');
    assert.ok(sessions.length > 0, 'the search went through the TLS front');
    for (const protocol of sessions) assert.match(protocol ?? 'plain text', /^TLSv1\.[23]$/);
  });

  it('verify-full and verify-ca refuse a server whose certificate another CA signed, with a certificate error', async () => {
    for (const mode of ['verify-full', 'verify-ca']) {
      const message = await refused(url('127.0.0.1', `sslmode=${mode}&sslrootcert=${otherCa}`));
      assert.match(message, UNTRUSTED, `${mode}: ${message}`);
    }
    // Without sslrootcert only public CAs (and the OS store) are trusted: the test's CA is not among them.
    const message = await refused(url('127.0.0.1', 'sslmode=verify-full'));
    assert.match(message, UNTRUSTED, message);
  });

  it('verify-full refuses an address the certificate does not name; verify-ca, which checks the chain only, connects', async () => {
    const message = await refused(url('127.0.0.2', `sslmode=verify-full&sslrootcert=${ca}`));
    assert.match(message, /ERR_TLS_CERT_ALTNAME_INVALID|does not match certificate's altnames/, message);
    const sessions = await searchOver(url('127.0.0.2', `sslmode=verify-ca&sslrootcert=${ca}`), 'verify-ca');
    assert.ok(sessions.length > 0 && sessions.every((protocol) => protocol !== null), JSON.stringify(sessions));
  });

  it("require encrypts without checking the certificate (libpq's meaning); without sslmode a TLS-only server refuses the session", async () => {
    const sessions = await searchOver(url('127.0.0.2', 'sslmode=require'), 'unverified');
    assert.ok(sessions.length > 0 && sessions.every((protocol) => protocol !== null), `sslmode=require sent plain text: ${JSON.stringify(sessions)}`);
    const message = await refused(url('127.0.0.1', 'sslmode=disable'));
    assert.match(message, /accepts TLS sessions only/, message);
  });
});
