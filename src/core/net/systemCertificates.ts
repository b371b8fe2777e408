import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';

/**
 * The operating system's trusted CA certificates, as PEM texts, so a client on its own undici
 * dispatcher trusts what VS Code's patched `fetch` trusts (`http.systemCertificates`).
 *
 * Node 22.15+ / 23.9+ can read the OS store itself (`tls.getCACertificates('system')`); older Node
 * cannot, so on Linux the well-known bundle files are read, as VS Code's own proxy agent does.
 */
const linuxBundles = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Alpine
  '/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/ssl/cert.pem', // Alpine (older), macOS Homebrew layouts
];

type CaReader = (type: 'system') => string[];

/** Splits a PEM bundle into single certificates. */
export function splitPemBundle(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
}

/** The OS certificates, or an empty list when none can be read (the caller then keeps Node's roots). */
export function loadSystemCertificates(
  platform: NodeJS.Platform = process.platform,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): string[] {
  const reader = (tls as unknown as { getCACertificates?: CaReader }).getCACertificates;
  if (typeof reader === 'function') {
    try {
      const certificates = reader('system');
      if (certificates.length > 0) return certificates;
    } catch {
      // Fall through to the bundle files.
    }
  }
  if (platform !== 'linux') return [];
  for (const path of linuxBundles) {
    try {
      const certificates = splitPemBundle(readFile(path));
      if (certificates.length > 0) return certificates;
    } catch {
      // Not on this distribution; try the next.
    }
  }
  return [];
}
