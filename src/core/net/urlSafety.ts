// What a base URL from the settings can give away: credentials written into it (`https://user:pass@host`)
// must never reach a log, and an `http://` address on another machine sends the API key in clear text.

/** The URL with any user name and password replaced by `***`; the text as given when it is not a URL. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '***';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    // Not a URL: still never print what looks like user-info.
    return url.replace(/\/\/[^/@\s]*@/, '//***@');
  }
}

/** Whether a host name is this machine (requests to it never cross a network). */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * A warning when `url` sends requests (and with them the API key) unencrypted to another machine, or
 * undefined for https and for loopback addresses.
 */
export function cleartextWarning(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' || isLoopback(parsed.hostname)) return undefined;
  return `Cadenza sends requests to ${redactUrl(url)} without encryption (http://), so your API key and messages can be read on the network. Use https:// unless this network is yours.`;
}
