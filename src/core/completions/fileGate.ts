// Which files may be sent to the service for a completion: never those the index would skip (its ignore
// rules and generated folders are applied by the host through IgnoreRules), never secrets (`.env`, keys,
// credentials: they are often not git-ignored in a working copy), never binary, minified or huge files.
import ignore from 'ignore';
import { hasBinaryExtension } from '../index/walker';
import { MINIFIED_AVERAGE_LINE } from '../index/binaryDetect';

/** Files that hold secrets, in gitignore syntax; matched against the workspace-relative path. */
export const SECRET_FILES = [
  '.env', '.env.*', '*.env', '.envrc', '.netrc', '_netrc', '.npmrc', '.pypirc', '.git-credentials', '.htpasswd', '.pgpass',
  '*.pem', '*.key', '*.p12', '*.pfx', '*.jks', '*.keystore', '*.kdbx', '*.gpg', '*.asc', '*.ovpn', '*.tfvars', '*.tfstate',
  'id_rsa*', 'id_dsa*', 'id_ecdsa*', 'id_ed25519*', 'credentials', ...['json', 'yml', 'yaml', 'xml', 'ini', 'toml'].flatMap((ext) => [`credentials.${ext}`, `secrets.${ext}`]),
  '*.secret', '*.secrets',
  '.ssh/', '.aws/', '.gnupg/', '.docker/config.json', '.kube/config',
] as const;

const secrets = ignore({ ignorecase: true }).add(SECRET_FILES as unknown as string[]);

/** Why a file is never completed; undefined when it may be. */
export type CompletionSkip = 'secret' | 'binary' | 'minified' | 'tooLarge';

/** True for a path (workspace-relative or absolute, `/` or `\` separated) that names a secrets file. */
export function isSecretPath(path: string): boolean {
  const parts = path.replace(/\\/g, '/').split('/').filter((part) => part !== '' && part !== '.' && !/^[a-z]:$/i.test(part));
  // Test every tail, so `home/me/.ssh/config` and `app/.env` match rules written for a root.
  for (let start = 0; start < parts.length; start++) {
    if (secrets.ignores(parts.slice(start).join('/'))) return true;
  }
  return false;
}

/**
 * Whether a document may be completed, from its path and text: secrets, binary names or NUL bytes,
 * minified text (average line over 1,000 characters, as the index judges it) and files over `maxChars`
 * are skipped. The index's ignore rules are the host's part (they need the file system).
 */
export function completionSkip(path: string, text: { length: number; lineCount: number; sample: string }, maxChars: number): CompletionSkip | undefined {
  if (isSecretPath(path)) return 'secret';
  if (hasBinaryExtension(path.replace(/\\/g, '/').split('/').pop() ?? '') || text.sample.includes('\u0000')) return 'binary';
  if (text.length > maxChars) return 'tooLarge';
  if (text.length / Math.max(1, text.lineCount) > MINIFIED_AVERAGE_LINE) return 'minified';
  return undefined;
}
