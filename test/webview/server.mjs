#!/usr/bin/env node
// A static server for the chat panel sandbox: the real dist/webview.js and dist/webview.css inside a
// page with the same CSP as the extension's webview shell, VS Code's default webview styles and theme
// variables (dark, light, high contrast), a fake `acquireVsCodeApi` and a scripted host.
// Loopback only, on a free port. `&announceProgress=1` sets the progress announcements setting in the page as
// the host does (src/host/views/webviewHtml.ts); the page carries the panel's texts as the host writes them too,
// in English or, with `&lang=de` (any locale of l10n/), translated from that bundle by the same code
// (src/shared/panelTable.ts). Run it directly to open the sandbox in a browser:
//   node test/webview/server.mjs   →  prints http://127.0.0.1:PORT/?theme=dark&scenario=conversation
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importTypeScript } from '../../scripts/checkL10n.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

const themes = {
  dark: { className: 'vscode-dark', css: 'theme-dark.css' },
  light: { className: 'vscode-light', css: 'theme-light.css' },
  hc: { className: 'vscode-high-contrast', css: 'theme-hc.css' },
};

/** The launch options every helper uses for Debian's Chromium. */
export const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** The host's code for the panel's texts (src/shared/panelTable.ts), compiled once. */
const panelTable = importTypeScript(join(root, 'src', 'shared', 'panelTable.ts'));

/** The panel's texts for a display language, as the host builds them with `vscode.l10n.t` (English without a bundle). */
async function stringsScript(lang, nonce) {
  const { jsonForScript, localizePanelStrings, panelStringsElementId } = await panelTable;
  let bundle = {};
  if (lang !== 'en') bundle = JSON.parse(await readFile(join(root, 'l10n', `bundle.l10n.${lang}.json`), 'utf8'));
  const strings = localizePanelStrings((english) => bundle[english] ?? english);
  return `<script type="application/json" id="${panelStringsElementId}" nonce="${nonce}">${jsonForScript(strings)}</script>`;
}

const types = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.html': 'text/html' };

async function page(url) {
  const theme = themes[url.searchParams.get('theme') ?? 'dark'] ?? themes.dark;
  const nonce = randomBytes(16).toString('base64');
  const origin = `http://${url.host}`;
  // The same policy as src/host/views/webviewHtml.ts, with this server standing in for webview.cspSource.
  const csp = ["default-src 'none'", `style-src ${origin}`, `font-src ${origin}`, `img-src ${origin} data:`, `script-src 'nonce-${nonce}'`].join('; ');
  const asked = url.searchParams.get('lang') ?? 'en';
  const lang = /^[a-z]{2}(-[a-z]+)?$/.test(asked) ? asked : 'en';
  const strings = await stringsScript(lang, nonce);
  const html = `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="/sandbox/${theme.css}">
<link rel="stylesheet" href="/sandbox/vscode-defaults.css">
<link rel="stylesheet" href="/dist/webview.css">
<title>Cadenza sandbox</title>
</head>
<body class="${theme.className}">
<main id="app" aria-live="polite"${url.searchParams.get('announceProgress') === '1' ? ' data-announce-progress="true"' : ''}></main>
${strings}
<script nonce="${nonce}" src="/sandbox/fakeVscode.js"></script>
<script nonce="${nonce}" src="/sandbox/scenarios.js"></script>
<script nonce="${nonce}" src="/dist/webview.js"></script>
</body>
</html>`;
  return { html, csp };
}

async function handle(request, response) {
  const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
  try {
    if (url.pathname === '/' || url.pathname === '/index.html') {
      const { html, csp } = await page(url);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, 'cache-control': 'no-store' });
      response.end(html);
      return;
    }
    let file;
    if (url.pathname.startsWith('/dist/')) file = join(root, normalize(url.pathname));
    else if (url.pathname.startsWith('/sandbox/')) file = join(here, 'page', normalize(url.pathname.slice('/sandbox/'.length)));
    if (!file || !(file.startsWith(join(root, 'dist')) || file.startsWith(join(here, 'page')))) {
      response.writeHead(404).end();
      return;
    }
    const body = await readFile(file);
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    response.end(body);
  } catch {
    response.writeHead(404).end();
  }
}

/** Starts the sandbox on a free loopback port; resolves with its address and a close function. */
export function startSandbox() {
  return new Promise((resolve, reject) => {
    const server = createServer((request, response) => void handle(request, response));
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const { url } = await startSandbox();
  process.stdout.write(`Cadenza webview sandbox: ${url}?theme=dark&scenario=conversation (themes: dark, light, hc)\n`);
}
