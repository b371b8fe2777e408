// The transport against real infrastructure on loopback: Debian's tinyproxy as the HTTP proxy
// (started per run with a generated config), no-proxy bypass, the environment's proxy variables,
// and TLS with a self-signed certificate made by openssl at test time (extra CA, NODE_EXTRA_CA_CERTS,
// proxyStrictSSL).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createNetServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InferenceClient } from '../../../src/core/api/client';
import { buildCaList } from '../../../src/core/api/transport';
import { clientFor, expectApiError, useEmulator } from './helpers';

const INSTALL_HINT = 'tinyproxy is not installed: run `bash test/unit/api/setup-apt.sh` (apt-get install -y tinyproxy) and try again';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, deadline: number): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Tinyproxy {
  url: string;
  log(): string;
  /** Lines of the log that show a request line (GET http://... or CONNECT host:port). */
  requests(): string[];
  stop(): Promise<void>;
}

async function startTinyproxy(dir: string): Promise<Tinyproxy> {
  const which = spawnSync('sh', ['-c', 'command -v tinyproxy'], { encoding: 'utf8' });
  assert.ok(which.status === 0 && which.stdout.trim() !== '', INSTALL_HINT);
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  const conf = join(dir, 'tinyproxy.conf');
  // No ConnectPort lines: tinyproxy then allows CONNECT to any port (the HTTPS test uses a high one).
  writeFileSync(
    conf,
    [`Port ${port}`, 'Listen 127.0.0.1', 'Timeout 30', `LogFile "${logFile}"`, 'LogLevel Info', 'MaxClients 20', 'Allow 127.0.0.1', ''].join('\n'),
  );
  const child: ChildProcess = spawn(which.stdout.trim(), ['-d', '-c', conf], { stdio: 'ignore' });
  await waitForPort(port, Date.now() + 5000);
  const log = (): string => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    requests: () =>
      log()
        .split('\n')
        .filter((line) => /Request \(file descriptor \d+\): /.test(line)),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

describe('api/transport: through a real proxy (tinyproxy)', function () {
  this.timeout(20_000);
  const ctx = useEmulator();
  let dir = '';
  let proxy: Tinyproxy | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cadenza-proxy-'));
    proxy = await startTinyproxy(dir);
  });
  after(async () => {
    await proxy?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const tp = (): Tinyproxy => {
    assert.ok(proxy !== undefined, INSTALL_HINT);
    return proxy;
  };

  it('sends the request through the proxy: tinyproxy logs it and the emulator receives it', async () => {
    const client = clientFor(ctx.emu, { transport: { proxy: tp().url, useEnvironment: false } });
    const before = tp().requests().length;
    const models = await client.listModels();
    assert.equal(models.length, 9);
    const lines = tp().requests().slice(before);
    assert.ok(
      lines.some((line) => line.includes(`GET ${ctx.emu.baseUrl}/v1/models`)),
      `tinyproxy log:\n${tp().log()}`,
    );
    const seen = ctx.emu.requests.find((r) => r.path === '/v1/models');
    assert.ok(seen !== undefined, 'the emulator got the request');
    assert.match(seen.headers['via'] ?? '', /tinyproxy/, 'the request came by way of tinyproxy');
    await client.close();
  });

  it('streams a chat answer through the proxy', async () => {
    const client = clientFor(ctx.emu, { transport: { proxy: tp().url, useEnvironment: false } });
    const result = await client.streamChat({ model: 'Meta-Llama-3.1-8B-Instruct', messages: [{ role: 'user', content: 'hi' }] }).result;
    assert.ok(result.text.length > 0);
    assert.ok(
      tp()
        .requests()
        .some((line) => line.includes(`POST ${ctx.emu.baseUrl}/v1/chat/completions`)),
    );
    await client.close();
  });

  it('bypasses the proxy for a no-proxy host', async () => {
    const client = clientFor(ctx.emu, { transport: { proxy: tp().url, noProxy: ['127.0.0.1'], useEnvironment: false } });
    const before = tp().requests().length;
    await client.listModels();
    assert.equal(tp().requests().length, before, 'tinyproxy saw nothing');
    const seen = ctx.emu.requests.find((r) => r.path === '/v1/models');
    assert.ok(seen !== undefined && seen.headers['via'] === undefined, 'the emulator got it directly');
    await client.close();
  });

  it('uses HTTP_PROXY from the environment, and NO_PROXY from it too', async () => {
    const saved = { HTTP_PROXY: process.env['HTTP_PROXY'], NO_PROXY: process.env['NO_PROXY'] };
    try {
      process.env['HTTP_PROXY'] = tp().url;
      delete process.env['NO_PROXY'];
      const proxied = clientFor(ctx.emu, { transport: {} });
      const before = tp().requests().length;
      await proxied.listModels();
      assert.equal(tp().requests().length, before + 1);
      await proxied.close();
      process.env['NO_PROXY'] = 'localhost,127.0.0.1';
      const direct = clientFor(ctx.emu, { transport: {} });
      await direct.listModels();
      assert.equal(tp().requests().length, before + 1);
      await direct.close();
      // useEnvironment: false ignores the variables.
      delete process.env['NO_PROXY'];
      const ignoring = clientFor(ctx.emu, { transport: { useEnvironment: false } });
      await ignoring.listModels();
      assert.equal(tp().requests().length, before + 1);
      await ignoring.close();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('fails with a network error when the proxy is down', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const client = clientFor(ctx.emu, { transport: { proxy: dead, useEnvironment: false }, maxRetries: 0 });
    await expectApiError(client.listModels(), 'network');
    await client.close();
  });
});

/** A self-signed certificate for 127.0.0.1/localhost, made now by openssl. */
function makeCertificate(dir: string, name: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.pem`);
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
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

describe('api/transport: TLS and extra CA certificates', function () {
  this.timeout(20_000);
  let dir = '';
  let server: Server | undefined;
  let baseUrl = '';
  let cert = { key: '', cert: '', certFile: '' };
  let other = { key: '', cert: '', certFile: '' };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cadenza-tls-'));
    cert = makeCertificate(dir, 'cadenza-test-ca');
    other = makeCertificate(dir, 'unrelated-ca');
    server = createHttpsServer({ key: cert.key, cert: cert.cert }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'tls-model', object: 'model' }] }));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the self-signed server without the extra CA', async () => {
    const client = new InferenceClient({ baseUrl, apiKey: 'k', timeoutMs: 15_000, maxRetries: 0, transport: { useEnvironment: false } });
    const error = await expectApiError(client.listModels(), 'network');
    assert.match(error.message, /self[- ]signed|certificate|verify/i);
    await client.close();
  });

  it('trusts it with the certificate in extraCaCertificates, keeping the public roots', async () => {
    const client = new InferenceClient({
      baseUrl,
      apiKey: 'k',
      timeoutMs: 15_000,
      maxRetries: 0,
      transport: { extraCaCertificates: [cert.cert], useEnvironment: false },
    });
    assert.deepEqual(
      (await client.listModels()).map((m) => m.id),
      ['tls-model'],
    );
    await client.close();
    const list = buildCaList([cert.cert], {});
    assert.ok(list !== undefined && list.length > 100, 'the bundled roots are still there');
    assert.equal(buildCaList([], {}), undefined, 'no extras: Node’s default store is kept as is');
  });

  // A time-out here is hang versus progress, not speed: three fresh Node processes each make a TLS
  // request, which on a loaded two-core machine took longer than the 3 s these once allowed.
  it('NODE_EXTRA_CA_CERTS is honoured, with and without extra certificates', async function () {
    this.timeout(90_000);
    // Node reads NODE_EXTRA_CA_CERTS once at start-up, so this needs a fresh process.
    const clientModule = join(__dirname, '..', '..', '..', 'src', 'core', 'api', 'client.js');
    const script = (extras: string[]): string => `
      const { InferenceClient } = require(${JSON.stringify(clientModule)});
      const client = new InferenceClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: 'k', timeoutMs: 15_000, maxRetries: 0,
        transport: { useEnvironment: false, extraCaCertificates: ${JSON.stringify(extras)} } });
      client.listModels().then((m) => { process.stdout.write('OK ' + m[0].id); return client.close(); },
        (e) => { process.stdout.write('FAIL ' + e.reason + ' ' + e.message); process.exitCode = 1; return client.close(); });`;
    // Asynchronous: the TLS server lives in this process and must keep answering meanwhile.
    const run = (extras: string[], env: NodeJS.ProcessEnv): Promise<string> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', script(extras)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout?.setEncoding('utf8').on('data', (text: string) => (out += text));
        child.once('error', reject);
        child.once('exit', () => resolve(out));
      });
    const base = { PATH: process.env['PATH'] ?? '' };
    assert.match(await run([], { ...base, NODE_EXTRA_CA_CERTS: cert.certFile }), /^OK tls-model/);
    // With extra certificates our CA list replaces Node's store; it must still carry NODE_EXTRA_CA_CERTS.
    assert.match(await run([other.cert], { ...base, NODE_EXTRA_CA_CERTS: cert.certFile }), /^OK tls-model/);
    assert.match(await run([], base), /^FAIL network/);
  });

  it('through the proxy: CONNECT to the TLS server, strict and with proxyStrictSSL off', async () => {
    const proxyDir = mkdtempSync(join(tmpdir(), 'cadenza-proxy-tls-'));
    const proxy = await startTinyproxy(proxyDir);
    try {
      const strict = new InferenceClient({ baseUrl, apiKey: 'k', timeoutMs: 15_000, maxRetries: 0, transport: { proxy: proxy.url, useEnvironment: false } });
      await expectApiError(strict.listModels(), 'network');
      await strict.close();
      const trusting = new InferenceClient({
        baseUrl,
        apiKey: 'k',
        timeoutMs: 15_000,
        maxRetries: 0,
        transport: { proxy: proxy.url, extraCaCertificates: [cert.cert], useEnvironment: false },
      });
      assert.equal((await trusting.listModels())[0]?.id, 'tls-model');
      await trusting.close();
      const lax = new InferenceClient({
        baseUrl,
        apiKey: 'k',
        timeoutMs: 15_000,
        maxRetries: 0,
        transport: { proxy: proxy.url, proxyStrictSSL: false, useEnvironment: false },
      });
      assert.equal((await lax.listModels())[0]?.id, 'tls-model');
      await lax.close();
      const host = baseUrl.replace('https://', '');
      assert.ok(proxy.requests().filter((line) => line.includes(`CONNECT ${host}`)).length >= 3, proxy.log());
    } finally {
      await proxy.stop();
      rmSync(proxyDir, { recursive: true, force: true });
    }
  });
});
