// Files that usually hold secrets: environment files, private keys, credentials, tokens, Terraform state.
// One list for everything that sends a file's text to the service: the index never indexes them (nor a
// team index's hit naming one), completions never send them, and read_file asks before reading one that
// git ignores. They are often not git-ignored in a working copy, so the name alone decides.

/** The names, in gitignore syntax, matched anywhere in a path (so `app/.env` and `~/.ssh/config` match). */
const SECRET_FILES = [
  '.env',
  '.env.*',
  '*.env',
  '.envrc',
  '.netrc',
  '_netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.htpasswd',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.terraformrc',
  'terraform.rc',
  '.s3cfg',
  '.boto',
  '.dockercfg',
  'kubeconfig',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.jks',
  '*.keystore',
  '*.ppk',
  '*.kdbx',
  '*.gpg',
  '*.asc',
  '*.ovpn',
  '*.tfvars',
  '*.tfvars.json',
  '*.tfstate',
  '*.tfstate.*',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  'credentials',
  ...['json', 'yml', 'yaml', 'xml', 'ini', 'toml'].flatMap((ext) => [`credentials.${ext}`, `secret.${ext}`, `secrets.${ext}`]),
  // Cloud service-account keys (`prod-service-account.json`, `gcp_service_account_key.json`).
  '*service-account*.json',
  '*service_account*.json',
  '*serviceaccount*.json',
  '*.secret',
  '*.secrets',
  '.ssh/',
  '.aws/',
  '.azure/',
  '.gnupg/',
  '.password-store/',
  '.config/gcloud/',
  '.config/gh/hosts.yml',
  '.docker/config.json',
  '.kube/config',
] as const;

/**
 * One segment's globs, compiled to what is cheapest to test: names and extensions in sets, other prefixes
 * and suffixes as strings, and the rest as regular expressions tried only when their longest literal part
 * is in the segment.
 */
interface SegmentTest {
  readonly names: ReadonlySet<string>;
  readonly extensions: ReadonlySet<string>;
  readonly prefixes: readonly string[];
  readonly suffixes: readonly string[];
  readonly others: readonly { readonly literal: string; readonly regex: RegExp }[];
}

const escapeRegex = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

function segmentTest(globs: readonly string[]): SegmentTest {
  const names = new Set<string>();
  const extensions = new Set<string>();
  const prefixes: string[] = [];
  const suffixes: string[] = [];
  const others: { literal: string; regex: RegExp }[] = [];
  for (const glob of globs.map((entry) => entry.toLowerCase())) {
    const star = glob.indexOf('*');
    const single = star >= 0 && glob.indexOf('*', star + 1) < 0;
    if (star < 0) names.add(glob);
    else if (single && star === 0 && glob.lastIndexOf('.') === 1) extensions.add(glob.slice(2));
    else if (single && star === 0) suffixes.push(glob.slice(1));
    else if (single && star === glob.length - 1) prefixes.push(glob.slice(0, -1));
    else {
      const literal = glob.split('*').reduce((longest, part) => (part.length > longest.length ? part : longest), '');
      others.push({ literal, regex: new RegExp(`^${glob.split('*').map(escapeRegex).join('.*')}$`) });
    }
  }
  return { names, extensions, prefixes, suffixes, others };
}

/** Whether a lower-cased segment passes a test. */
function passes(test: SegmentTest, lower: string): boolean {
  if (test.names.has(lower)) return true;
  const dot = lower.lastIndexOf('.');
  if (dot >= 0 && test.extensions.has(lower.slice(dot + 1))) return true;
  for (const suffix of test.suffixes) if (lower.endsWith(suffix)) return true;
  for (const prefix of test.prefixes) if (lower.startsWith(prefix)) return true;
  for (const other of test.others) if (lower.includes(other.literal) && other.regex.test(lower)) return true;
  return false;
}

/** A pattern of several segments (`.config/gh/hosts.yml`), and whether its last segment must be a folder. */
interface LongPattern {
  readonly segments: readonly SegmentTest[];
  readonly folder: boolean;
}

/**
 * The list compiled once. Matching is gitignore's: a name matches a file or folder of that name anywhere,
 * and everything below such a folder; a pattern ending in `/` matches folders only; one with a `/` inside
 * matches those segments in a row. Names, prefixes and suffixes are tested as strings, so a path costs a
 * few string comparisons a segment (it is judged for every file of a walk).
 */
const compiled = (() => {
  const bare = (entry: string): string => entry.replace(/\/$/, '');
  const single = SECRET_FILES.filter((entry) => !bare(entry).includes('/'));
  const longer = SECRET_FILES.filter((entry) => bare(entry).includes('/')).map((entry): LongPattern => ({
    segments: bare(entry)
      .split('/')
      .map((glob) => segmentTest([glob])),
    folder: entry.endsWith('/'),
  }));
  return {
    anyName: segmentTest(single.filter((entry) => !entry.endsWith('/'))),
    folderName: segmentTest(single.filter((entry) => entry.endsWith('/')).map(bare)),
    longer,
  };
})();

/**
 * The segments of a path as Windows opens them: `name:stream` is the file `name` (`.env::$DATA` is
 * `.env`), trailing dots and spaces are dropped (`.env.` is `.env`), and a drive letter is no segment.
 * Judging these as well as the path as written closes the tricks on Windows and costs nothing elsewhere.
 */
export function windowsSegments(path: string): string[] {
  return path
    .split(/[\\/]+/)
    .filter((segment) => !/^[a-z]:$/i.test(segment))
    .map((segment) => segment.replace(/:.*$/, '').replace(/[. ]+$/, ''))
    .filter((segment) => segment !== '');
}

/**
 * True for a path (workspace-relative or absolute, `/` or `\` separated) that names a secrets file or
 * lies in a secrets folder; with `isDir`, for a folder that is one (`.ssh`).
 */
export function isSecretPath(path: string, isDir = false): boolean {
  const raw = path.includes('\\') ? path.split(/[\\/]+/) : path.split('/');
  // Most paths have no stream and no trailing dot or space: one pass over the segments as written.
  if (!windowsTrick(path)) return matches(raw, isDir);
  return matches(windowsSegments(path), isDir) || matches(raw, isDir);
}

/** Whether Windows would open `path` as another name: a `:stream`, or a segment ending in a dot or a space. */
function windowsTrick(path: string): boolean {
  return path.includes(':') || /[. ](?:[\\/]|$)/.test(path);
}

/**
 * The most segments a pattern of the list spans (`.config/gh/hosts.yml`): a walk that judged every folder
 * on its way need only judge the last this many segments of a path below them.
 */
export const SECRET_PATTERN_SEGMENTS = Math.max(...SECRET_FILES.map((entry) => entry.replace(/\/$/, '').split('/').length));

function matches(parts: readonly string[], isDir: boolean): boolean {
  const folders = isDir ? parts.length : parts.length - 1;
  const lower = parts.map((part) => part.toLowerCase());
  for (let i = 0; i < lower.length; i++) {
    const part = lower[i] ?? '';
    if (part !== '' && (passes(compiled.anyName, part) || (i < folders && passes(compiled.folderName, part)))) return true;
  }
  for (const pattern of compiled.longer) {
    const k = pattern.segments.length;
    for (let start = 0; start + k <= lower.length; start++) {
      if (pattern.folder && start + k > folders) break;
      let all = true;
      for (let j = 0; j < k && all; j++) all = passes(pattern.segments[j] as SegmentTest, lower[start + j] ?? '');
      if (all) return true;
    }
  }
  return false;
}
