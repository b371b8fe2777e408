// Shared pieces of the two real-VS-Code runners (runIntegration.mjs, runUi.mjs): finding the harness
// installed by setup.sh, a free loopback port, a per-run scratch folder, starting and stopping code-server,
// launching headless chromium, and making sure every process we start dies with us on every path.
//
// code-server 4.139 is a real VS Code 1.139 (server + web workbench). What this relies on, and why each flag
// is there: docs/testing.md#the-real-vs-code-harness.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in test/support/harness/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Where setup.sh installs Node 24 and code-server; outside the repo on purpose. */
export const harnessHome = process.env.CADENZA_HARNESS_HOME || path.join(os.homedir(), '.cache', 'cadenza-vscode-harness');

const started = Date.now();

/** Logs a line prefixed with the runner's name and the seconds since start. */
export function makeLog(name) {
  return (...parts) => console.log(`[${name} +${((Date.now() - started) / 1000).toFixed(1)}s]`, ...parts);
}

/**
 * Runs setup.sh (a no-op in well under a second on a warm machine) and returns the paths it wrote to
 * harness-env.sh: { NODE24, CODE_SERVER, CHROMIUM }. Values already in the environment win, so CI can
 * point at a pre-installed harness.
 */
export function harnessEnv() {
  const setup = spawnSync('bash', [path.join(repoRoot, 'test', 'support', 'harness', 'setup.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CADENZA_HARNESS_HOME: harnessHome },
  });
  if (setup.status !== 0) {
    process.stdout.write(setup.stdout ?? '');
    throw new Error(`test/support/harness/setup.sh failed (exit ${setup.status})`);
  }
  const fromFile = {};
  for (const line of fs.readFileSync(path.join(harnessHome, 'harness-env.sh'), 'utf8').split('\n')) {
    const match = /^export (\w+)="?([^"]*)"?$/.exec(line.trim());
    if (match) fromFile[match[1]] = match[2];
  }
  const pick = (key) => process.env[key] || fromFile[key];
  return { NODE24: pick('NODE24'), CODE_SERVER: pick('CODE_SERVER'), CHROMIUM: pick('CHROMIUM') || '/usr/bin/chromium' };
}

/** A TCP port that was free on 127.0.0.1 a moment ago (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A fresh scratch folder for one run (code-server's user data, extensions, XDG dirs, logs, workspace copy). */
export function scratchDir(prefix) {
  const root = process.env.HARNESS_TMP || os.tmpdir();
  fs.mkdirSync(root, { recursive: true });
  return fs.mkdtempSync(path.join(root, prefix));
}

/**
 * Copies the fixture workspace into the scratch folder, so tests that write workspace settings
 * (.vscode/settings.json) or files never touch the repository.
 */
export function copyFixtureWorkspace(tmp) {
  const target = path.join(tmp, 'workspace');
  fs.cpSync(path.join(repoRoot, 'test', 'support', 'fixtures', 'workspace'), target, { recursive: true });
  return target;
}

// --- process ownership ---------------------------------------------------------------------------
// Every child we start is registered here. A child started with `detached: true` leads its own process
// group, so killing the negative pid also takes the VS Code server, extension host, pty host and file
// watcher that code-server spawns. On normal exit, on errors and on SIGINT/SIGTERM/SIGHUP we kill them all.

const ownedGroups = new Set();
const asyncCleanups = [];

/** Registers an async clean-up step (close a browser, an emulator); run once, newest first. */
export function onCleanup(step) {
  asyncCleanups.push(step);
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

function groupAlive(pid) {
  return killGroup(pid, 0);
}

let cleaning;
/** Runs the clean-up steps, then stops every owned process group (TERM, then KILL after 3 s). */
export function cleanup() {
  cleaning ??= (async () => {
    for (const step of asyncCleanups.splice(0).reverse()) {
      try {
        await Promise.race([step(), new Promise((resolve) => setTimeout(resolve, 5000))]);
      } catch {
        // best effort: the process groups below are killed regardless
      }
    }
    for (const pid of ownedGroups) killGroup(pid, 'SIGTERM');
    for (let i = 0; i < 30 && [...ownedGroups].some(groupAlive); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const pid of ownedGroups) killGroup(pid, 'SIGKILL');
    ownedGroups.clear();
  })();
  return cleaning;
}

// Last resort: 'exit' handlers must be synchronous, so only a SIGKILL is possible here.
process.on('exit', () => {
  for (const pid of ownedGroups) killGroup(pid, 'SIGKILL');
});

/**
 * Makes SIGINT/SIGTERM/SIGHUP clean up and exit. `finish(code, reason)` lets the runner print its closing
 * line; it is called after the clean-up, so that line stays the last one.
 */
export function exitOnSignals(finish) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, async () => {
      await cleanup();
      finish(signal === 'SIGINT' ? 130 : 143, `interrupted by ${signal}`);
    });
  }
}

/**
 * Spawns a process as the leader of its own process group and registers the group, so clean-up stops
 * it together with everything it spawned.
 */
export function spawnOwned(command, args, options = {}) {
  const child = spawn(command, args, { ...options, detached: true });
  ownedGroups.add(child.pid);
  // The group stays registered after the leader exits: its children (extension host, watchers) may not.
  return child;
}

// --- code-server -----------------------------------------------------------------------------------

/**
 * Starts code-server on 127.0.0.1 (on `port`, else a free one) with its own config, user data, extensions
 * and XDG dirs (nothing is written under $HOME), waits for /healthz, and returns
 * { baseUrl, authority, port, child, logFile }. `extraEnv` reaches the extension host (undefined removes).
 * `extraArgs` go to code-server (`--locale de`). `smokeTestDriver` adds `--vscode-option enable-smoke-test-driver`,
 * without which the built workbench
 * silently ignores the extensionDevelopmentPath/extensionTestsPath URL payload.
 */
export async function startCodeServer({ env: harness, tmp, workspace, smokeTestDriver = false, extraEnv = {}, extraArgs = [], port: wanted, log }) {
  const port = wanted ?? (await freePort());
  const args = [
    harness.CODE_SERVER,
    ...codeServerDirs(tmp),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    // HARNESS_WORKSPACE_TRUST=untrusted leaves workspace trust on, so the folder opens in Restricted Mode
    // (test/integration/agentTrust.test.ts then checks the agent against the real thing).
    '--disable-telemetry',
    '--disable-update-check',
    ...(process.env.HARNESS_WORKSPACE_TRUST === 'untrusted' ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...extraArgs,
    ...(process.env.CS_EXTRA_ARGS ? process.env.CS_EXTRA_ARGS.split(' ').filter(Boolean) : []),
    workspace,
  ];
  const logFile = path.join(tmp, 'code-server.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawnOwned(harness.NODE24, args, { env: codeServerEnv(tmp, extraEnv), stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`code-server exited early with ${child.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error(`code-server did not answer /healthz within 60 s; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  log?.(`code-server is up at ${baseUrl}`);
  return { baseUrl, authority: `127.0.0.1:${port}`, port, child, logFile };
}

/** code-server's per-run folders: a fixed --config avoids it writing ~/.config/code-server/config.yaml. */
export function codeServerDirs(tmp) {
  const config = path.join(tmp, 'config.yaml');
  if (!fs.existsSync(config)) fs.writeFileSync(config, 'auth: none\ncert: false\n');
  return ['--config', config, '--user-data-dir', path.join(tmp, 'user-data'), '--extensions-dir', path.join(tmp, 'extensions')];
}

/** The environment for code-server: XDG dirs inside the scratch folder; it is inherited by the extension host. */
export function codeServerEnv(tmp, extraEnv = {}) {
  return {
    ...process.env,
    XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'),
    XDG_DATA_HOME: path.join(tmp, 'xdg-data'),
    XDG_CACHE_HOME: path.join(tmp, 'xdg-cache'),
    ...extraEnv,
  };
}

/**
 * Writes a settings.json that code-server reads at start: `User` (the browser-side user settings) or
 * `Machine` (the server's "Remote" settings). In code-server the extension host is remote, so settings with
 * scope `machine` or `machine-overridable` are ignored in User settings and must go to Machine; Cadenza's
 * base URLs are `application`-scoped and belong in User.
 */
export function writeSettings(tmp, target, settings) {
  const dir = path.join(tmp, 'user-data', target);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** Settings that keep the workbench quiet and deterministic for automation. */
export const quietWorkbenchSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

// --- browser -----------------------------------------------------------------------------------------

/** playwright-core is a devDependency of the project; resolve it from the repo root. */
function playwright() {
  return createRequire(path.join(repoRoot, 'package.json'))('playwright-core');
}

/**
 * Launches headless Debian chromium with a fresh profile and returns { browser, page }. The browser is
 * registered for clean-up; playwright's own signal handlers are off so ours decide the exit order.
 */
export async function launchBrowser(harness, { viewport = { width: 1400, height: 850 }, tmp }) {
  const { chromium } = playwright();
  const profile = path.join(tmp, 'chromium-profile');
  // Chromium writes crash-report and dconf folders under $HOME even with its own --user-data-dir.
  const home = path.join(tmp, 'browser-home');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: harness.CHROMIUM,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') },
    headless: true,
    viewport,
    // The workbench's clipboard is the browser's (navigator.clipboard): without these, Copy in the chat
    // panel and vscode.env.clipboard would fail quietly, and no test could check what was copied.
    permissions: ['clipboard-read', 'clipboard-write'],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--no-sandbox', // we run as root in a container
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  onCleanup(() => context.close());
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

/** The frame path to a webview's own content inside the workbench (outer iframe → #active-frame). */
export function webviewFrame(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** The workbench URL for a folder, with an optional extension-development payload. */
export function workbenchUrl(server, folder, payload) {
  let url = `${server.baseUrl}/?folder=${encodeURIComponent(folder)}`;
  if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/** A `vscode-remote://` URI for a path on the server: the payload's URIs must use the page's host:port. */
export function remoteUri(server, absolutePath) {
  return `vscode-remote://${server.authority}${absolutePath}`;
}

/**
 * Packages test/support/fixtures/toolsExtension (a test extension that registers language model tools) with vsce and
 * installs it into the scratch extensions dir, so the workbench has tools from "another extension" for the
 * agent's VS Code tools. Never part of Cadenza's own VSIX.
 */
export function installToolsFixture(harness, tmp, log) {
  const vsix = path.join(tmp, 'cadenza-test-tools.vsix');
  spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], {
    cwd: path.join(repoRoot, 'test', 'support', 'fixtures', 'toolsExtension'),
    stdio: 'ignore',
  });
  if (!fs.existsSync(vsix)) throw new Error('could not package test/support/fixtures/toolsExtension');
  const installed = spawnSync(harness.NODE24, [harness.CODE_SERVER, ...codeServerDirs(tmp), '--install-extension', vsix], { env: codeServerEnv(tmp) });
  if (installed.status !== 0) throw new Error(`could not install the tools fixture: ${installed.stderr}`);
  log('installed the tools fixture extension (test/support/fixtures/toolsExtension)');
}

/**
 * Makes `locale` an installed display language: packages test/support/fixtures/languagePack (a language pack
 * that contributes the locale and translates none of VS Code's own strings: the real packs come from the
 * Marketplace, which this machine cannot reach) and installs it. VS Code takes a display language only when
 * its user data's languagepacks.json names a pack for it; the server writes that record when a pack is
 * installed through it, but `--install-extension` runs the CLI, which creates the language-pack service lazily
 * and never does, so the record is written here as the server would (locale, extension, translations path).
 */
export function installLanguagePack(tmp, harness, locale, log) {
  const source = path.join(repoRoot, 'test', 'support', 'fixtures', 'languagePack');
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));
  const localization = manifest.contributes.localizations.find((entry) => entry.languageId === locale);
  if (!localization) throw new Error(`test/support/fixtures/languagePack has no display language ${locale}`);
  const vsix = path.join(tmp, 'cadenza-test-language-pack.vsix');
  const packed = spawnSync(
    path.join(repoRoot, 'node_modules', '.bin', 'vsce'),
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix],
    {
      cwd: source,
      encoding: 'utf8',
    },
  );
  if (!fs.existsSync(vsix)) throw new Error(`could not package test/support/fixtures/languagePack: ${packed.stderr || packed.stdout}`);
  const installed = spawnSync(harness.NODE24, [harness.CODE_SERVER, ...codeServerDirs(tmp), '--install-extension', vsix], { env: codeServerEnv(tmp) });
  if (installed.status !== 0) throw new Error(`could not install the language pack: ${installed.stderr}`);
  const id = `${manifest.publisher}.${manifest.name}`;
  const folder = fs.readdirSync(path.join(tmp, 'extensions')).find((name) => name.startsWith(`${id}-`));
  if (!folder) throw new Error(`the language pack ${id} is not in the extensions folder`);
  const translations = Object.fromEntries(localization.translations.map((entry) => [entry.id, path.join(tmp, 'extensions', folder, entry.path)]));
  const record = {
    [locale]: {
      hash: `${id}@${manifest.version}`,
      extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
      translations,
      label: localization.localizedLanguageName,
    },
  };
  fs.mkdirSync(path.join(tmp, 'user-data'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'user-data', 'languagepacks.json'), JSON.stringify(record));
  log(`installed a ${localization.languageName} display language (test/support/fixtures/languagePack)`);
}
