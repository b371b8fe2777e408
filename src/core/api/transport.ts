// The connection layer: one undici dispatcher per client with keep-alive, a proxy when one is set
// (explicitly, from VS Code's http.proxy, or from HTTPS_PROXY/HTTP_PROXY/NO_PROXY), and a CA list
// that adds the user's extra certificates to the trusted roots.
//
// Time-outs: undici's own headersTimeout/bodyTimeout are switched off. A long generation can sit
// quietly for minutes; the client enforces its own first-byte, first-token and idle watchdogs (in
// http.ts and sse.ts), which know whether output already reached the caller.
//
// Certificates: without extra PEMs, the socket uses Node's default store, which is the bundled
// Mozilla roots plus NODE_EXTRA_CA_CERTS (Node reads that file once at start-up; see the test
// "NODE_EXTRA_CA_CERTS is honoured"). Passing `ca` to TLS *replaces* that store, so when extra PEMs
// are given we rebuild it: tls.rootCertificates (the bundled roots, which do NOT include
// NODE_EXTRA_CA_CERTS) + the NODE_EXTRA_CA_CERTS file + the extras. OS certificate stores are not
// read by Node 20; the host passes them in `extraCaCertificates` if it wants them.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';

/** Network settings from the host (http.proxy, http.noProxy, http.proxyStrictSSL, extra CAs). */
export interface TransportOptions {
  /** Proxy URL (`http.proxy`), e.g. http://proxy:3128; wins over the environment. */
  proxy?: string;
  /** Hosts that bypass the proxy (`http.noProxy`): names, `.suffix`, `host:port`, or `*`. */
  noProxy?: string[];
  /** `http.proxyStrictSSL`; false accepts self-signed certificates on proxied connections. Default true. */
  proxyStrictSSL?: boolean;
  /** Extra trusted CA certificates, PEM text. */
  extraCaCertificates?: string[];
  /** Read HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the environment when no proxy is set. Default true. */
  useEnvironment?: boolean;
}

/** The dispatcher and a description of it for the log (never contains credentials). */
export interface Transport {
  dispatcher: Dispatcher;
  /** e.g. "direct", "proxy http://proxy:3128 (no proxy: localhost)". */
  description: string;
  close(): Promise<void>;
}

const PROXY_ENV = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];
const NO_PROXY_ENV = ['no_proxy', 'NO_PROXY'];

function envValue(names: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** The CA list to trust, or undefined to keep Node's default store (see the header comment). */
export function buildCaList(extra: readonly string[] | undefined, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const extras = (extra ?? []).filter((pem) => pem.includes('-----BEGIN CERTIFICATE-----'));
  if (extras.length === 0) return undefined;
  const list = [...rootCertificates];
  const envFile = env['NODE_EXTRA_CA_CERTS'];
  if (envFile !== undefined && envFile !== '') {
    try {
      list.push(readFileSync(envFile, 'utf8'));
    } catch {
      // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS; so do we (by ignoring it).
    }
  }
  list.push(...extras);
  return list;
}

/** Hides user:password in a proxy URL before it is logged. */
function describeProxy(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username !== '' || parsed.password !== '') {
      parsed.username = '***';
      parsed.password = '';
    }
    return parsed.toString();
  } catch {
    return '(unparseable proxy URL)';
  }
}

/**
 * Creates the dispatcher for one InferenceClient; the client calls this once and closes it with
 * itself. Guarantees keep-alive, no undici body/headers time-outs, the proxy and CA settings.
 */
export function createTransport(options: TransportOptions = {}, connectTimeoutMs = 30_000, env: NodeJS.ProcessEnv = process.env): Transport {
  const ca = buildCaList(options.extraCaCertificates, env);
  const useEnv = options.useEnvironment !== false;
  const proxy = options.proxy !== undefined && options.proxy.trim() !== '' ? options.proxy.trim() : useEnv ? envValue(PROXY_ENV, env) : undefined;
  const tls = { ...(ca === undefined ? {} : { ca }) };
  const base = {
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    // Our own watchdogs replace these (header comment).
    headersTimeout: 0,
    bodyTimeout: 0,
    connectTimeout: connectTimeoutMs,
  };
  if (proxy === undefined) {
    const agent = new Agent({ ...base, connect: { ...tls, timeout: connectTimeoutMs } });
    return { dispatcher: agent, description: 'direct', close: () => agent.close() };
  }
  const noProxyList = [...(options.noProxy ?? [])];
  const envNoProxy = useEnv ? envValue(NO_PROXY_ENV, env) : undefined;
  if (envNoProxy !== undefined) noProxyList.push(...envNoProxy.split(/[,\s]+/));
  const noProxy = noProxyList
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .join(',');
  const strict = options.proxyStrictSSL !== false;
  const proxiedTls = { ...tls, ...(strict ? {} : { rejectUnauthorized: false }) };
  // EnvHttpProxyAgent gives us undici's NO_PROXY matching (exact host, subdomains of an entry,
  // host:port, "*") with explicit values that override the environment.
  const agent = new EnvHttpProxyAgent({
    ...base,
    httpProxy: proxy,
    httpsProxy: proxy,
    noProxy,
    // http:// targets are forwarded in absolute form, as proxies expect; https:// ones tunnel (CONNECT).
    proxyTunnel: false,
    connect: { ...tls, timeout: connectTimeoutMs },
    requestTls: proxiedTls,
    proxyTls: proxiedTls,
  });
  return {
    dispatcher: agent,
    description: `proxy ${describeProxy(proxy)}${noProxy === '' ? '' : ` (no proxy: ${noProxy})`}`,
    close: () => agent.close(),
  };
}
