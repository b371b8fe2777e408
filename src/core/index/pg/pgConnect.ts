import type { PoolConfig } from 'pg';
import { rootCertificates } from 'node:tls';

/** How a team-index connection is protected, from the connection string's `sslmode` (libpq's meanings). */
export type TeamTls = 'none' | 'unverified' | 'verify-ca' | 'verify-full';

/** Pool settings for the extension's read-only connection, and what they mean for the user. */
export interface TeamPoolConfig {
  readonly config: PoolConfig;
  readonly tls: TeamTls;
  /** `host:port/database`, never the user name or password: safe for logs and the status bar. */
  readonly target: string;
}

/** Where extra trust comes from (the HTTP client's parity): the OS store and NODE_EXTRA_CA_CERTS. */
export interface TeamTlsOptions {
  /** The operating system's CA certificates as PEM (host/network.ts reads them per `http.systemCertificates`). */
  readonly systemCertificates?: readonly string[] | undefined;
  /** Reads a file named by `sslrootcert` or NODE_EXTRA_CA_CERTS. */
  readonly readFile?: ((path: string) => string) | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** How long a connection attempt may take before the team index counts as unreachable. */
  readonly connectTimeoutMs?: number | undefined;
}

/** What is wrong with a connection string, with the names the message needs (the host words it for the user). */
export type TeamConnectionFault =
  | { readonly kind: 'notUrl' }
  /** It starts with another scheme than postgresql:// (`scheme` without its colon). */
  | { readonly kind: 'wrongScheme'; readonly scheme: string }
  /** Query parameters that could connect elsewhere or lift the session guard. */
  | { readonly kind: 'refusedParameters'; readonly names: readonly string[] }
  /** The `options` end with a backslash (it would swallow the guard's first switch). */
  | { readonly kind: 'optionsBackslash' }
  | { readonly kind: 'badHost'; readonly host: string }
  /** Another machine without sslmode: it would not be encrypted. */
  | { readonly kind: 'unencrypted'; readonly host: string }
  | { readonly kind: 'unknownSslMode'; readonly mode: string };

/**
 * A connection string Cadenza cannot use, with what to do instead: `fault` for the user (the host words it in
 * their language), the English message for the CLI and the log.
 */
export class TeamConnectionError extends Error {
  readonly reason = 'badConnectionString' as const;
  constructor(
    readonly fault: TeamConnectionFault,
    message: string,
  ) {
    super(message);
  }

  static is(error: unknown): error is TeamConnectionError {
    return error instanceof TeamConnectionError;
  }
}

const TLS_PARAMETERS = ['sslmode', 'sslrootcert', 'ssl', 'sslcert', 'sslkey', 'sslpassword', 'uselibpqcompat', 'sslnegotiation'];

/**
 * The query parameters a connection string may carry besides TLS's. The pg client copies every query
 * parameter over the pool's settings, so any other (`host`, `port`, `statement_timeout`, …) could connect
 * elsewhere than the target the status shows, or lift the session guard; libpq's `hostaddr` and `dbname`
 * would do the same for a libpq reader of the string. `options` is taken apart and merged (see below).
 */
const ALLOWED_PARAMETERS = new Set([...TLS_PARAMETERS, 'options', 'application_name', 'connect_timeout']);

/** Cadenza's session guard: read-only sessions and a bound on each statement, so a slow database cannot hold a search. */
const GUARD_OPTIONS = '-c default_transaction_read_only=on -c statement_timeout=15000';

/**
 * Turns a `postgresql://` connection string into the pool settings of the extension's read-only
 * connection. TLS follows `sslmode` as libpq defines it, and is set here rather than by the pg
 * client's own parsing (which verifies `verify-full` against Node's bundled roots only): `verify-ca`
 * and `verify-full` trust Node's roots plus the OS store plus NODE_EXTRA_CA_CERTS plus `sslrootcert`,
 * as the HTTP client does; `verify-full` also checks the host name. `require` encrypts without
 * verifying (libpq's meaning), unless `sslrootcert` is given (then it verifies the chain, like libpq).
 * Without `sslmode` the connection is unencrypted, so a host other than this machine needs one. Every
 * session is read-only (`default_transaction_read_only`), so even a role with more rights writes nothing;
 * the query may not name another host, port or session limit (see ALLOWED_PARAMETERS).
 */
export function teamPoolConfig(connectionString: string, options: TeamTlsOptions = {}): TeamPoolConfig {
  let url: URL;
  try {
    url = new URL(connectionString.trim());
  } catch {
    throw new TeamConnectionError(
      { kind: 'notUrl' },
      'The team index connection is not a URL: use the form postgresql://user:password@host:5432/database?sslmode=verify-full',
    );
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new TeamConnectionError(
      { kind: 'wrongScheme', scheme: url.protocol.replace(/:$/, '') },
      `The team index connection must start with postgresql:// (it starts with ${url.protocol}//)`,
    );
  }
  const refused = [...new Set(url.searchParams.keys())].filter((name) => !ALLOWED_PARAMETERS.has(name));
  if (refused.length > 0) {
    throw new TeamConnectionError(
      { kind: 'refusedParameters', names: refused },
      `The team index connection cannot set ${refused.map((name) => `"${name}"`).join(', ')}: put the host, port and database in the address itself (postgresql://user:password@host:5432/database); the query may carry only sslmode, sslrootcert, options, application_name and connect_timeout.`,
    );
  }
  const own = url.searchParams.get('options')?.trim() ?? '';
  // Postgres reads a backslash in `options` as escaping the next character: a trailing one would swallow the space before the guard's first switch.
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(own))
    throw new TeamConnectionError({ kind: 'optionsBackslash' }, "The team index connection's options end with a backslash: remove it.");
  url.searchParams.delete('options');
  let hostname: string;
  try {
    hostname = decodeURIComponent(url.hostname);
  } catch {
    throw new TeamConnectionError({ kind: 'badHost', host: url.hostname }, `The team index connection's host is not a valid name: ${url.hostname}`);
  }
  const explicitTls = url.searchParams.has('sslmode') || url.searchParams.get('ssl') === 'true';
  if (!explicitTls && !isLoopbackHost(hostname)) {
    throw new TeamConnectionError(
      { kind: 'unencrypted', host: hostname },
      `The team index connection to ${hostname} would not be encrypted: add ?sslmode=verify-full to the connection string (or sslmode=disable if you mean it).`,
    );
  }
  const mode = url.searchParams.get('sslmode') ?? (url.searchParams.get('ssl') === 'true' ? 'require' : 'disable');
  const rootFile = url.searchParams.get('sslrootcert');
  for (const name of TLS_PARAMETERS) url.searchParams.delete(name);
  const read = options.readFile;
  const fileCertificates = (file: string | null | undefined): string[] => {
    if (!file || !read) return [];
    return read(file).match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  };
  const rootCertificatesOwn = fileCertificates(rootFile);
  const ca = (): string[] => [
    ...rootCertificates,
    ...(options.systemCertificates ?? []),
    ...fileCertificates((options.env ?? process.env)['NODE_EXTRA_CA_CERTS']),
    ...rootCertificatesOwn,
  ];
  let tls: TeamTls;
  let ssl: PoolConfig['ssl'];
  switch (mode) {
    case 'disable':
      tls = 'none';
      ssl = false;
      break;
    case 'allow':
    case 'prefer':
    case 'require':
      if (rootCertificatesOwn.length > 0) {
        tls = 'verify-ca';
        ssl = { ca: ca(), rejectUnauthorized: true, checkServerIdentity: () => undefined };
      } else {
        tls = 'unverified';
        ssl = { rejectUnauthorized: false };
      }
      break;
    case 'verify-ca':
      tls = 'verify-ca';
      ssl = { ca: ca(), rejectUnauthorized: true, checkServerIdentity: () => undefined };
      break;
    case 'verify-full':
      tls = 'verify-full';
      ssl = { ca: ca(), rejectUnauthorized: true };
      break;
    default:
      throw new TeamConnectionError({ kind: 'unknownSslMode', mode }, `Unknown sslmode "${mode}": use disable, require, verify-ca or verify-full.`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  const target = `${hostname}:${url.port || '5432'}/${database}`;
  return {
    tls,
    target,
    config: {
      connectionString: url.toString(),
      ssl,
      // One connection per ranked list, so a search reads its three lists at once (PgTeamIndex.lists).
      max: 3,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 4_000,
      // The user's switches first, the guard's after them: Postgres applies them in order, so the guard wins.
      options: own === '' ? GUARD_OPTIONS : `${own} ${GUARD_OPTIONS}`,
      application_name: 'cadenza-vscode',
    },
  };
}

/** Whether the host is this machine (a connection without TLS is then no exposure). */
export function isLoopbackTarget(target: string): boolean {
  return isLoopbackHost(target.slice(0, target.lastIndexOf(':')));
}

/** Whether a host name is this machine: the loopback names and addresses, or a Unix socket's directory. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host) || host.startsWith('/');
}
