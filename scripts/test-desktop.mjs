#!/usr/bin/env node
// `npm run test:desktop`: the integration suites (test/integration) in DESKTOP VS Code (Electron), through
// @vscode/test-electron, on a machine that can download VS Code from update.code.visualstudio.com.
// The offline machines this project is built on cannot (no download): there, use
// test/support/harness/runIntegration.mjs, which runs the very same suites in code-server's VS Code.
//
//   node scripts/test-desktop.mjs [--version <stable|insiders|1.104.0>] [--no-build] [--grep <pattern>]
//
// The version defaults to VSCODE_VERSION or "stable"; run it once with the oldest supported version too
// (engines.vscode in package.json). On Linux without a display it re-runs itself under `xvfb-run -a` when
// that exists. The last line printed is `N passed, N failed, N skipped`; a skip fails the run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    version: { type: 'string', default: process.env.VSCODE_VERSION || 'stable' },
    'no-build': { type: 'boolean', default: false },
    grep: { type: 'string' },
  },
});

/** Prints the closing line and exits; a run without results counts as one failure. */
function finish(code, counts = { passed: 0, failed: 1, skipped: 0 }, reason) {
  if (reason) console.log(`[desktop] ${reason}`);
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  process.exit(code);
}

// Electron needs a display: re-exec under a virtual one when there is none.
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && !process.env.CADENZA_UNDER_XVFB) {
  const xvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' }).stdout.trim();
  if (xvfb) {
    const rerun = spawnSync(xvfb, ['-a', process.execPath, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, CADENZA_UNDER_XVFB: '1' },
    });
    process.exit(rerun.status ?? 1);
  }
  console.log('[desktop] no DISPLAY and no xvfb-run: Electron will probably fail to start (apt-get install xvfb)');
}

if (!options['no-build']) {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  if (spawnSync('node', ['esbuild.js'], { cwd: root, stdio: 'inherit' }).status !== 0) finish(1, undefined, 'esbuild failed');
  // tsc emits even when another folder has type errors; the suites only need to exist.
  if (spawnSync(npx, ['tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' }).status !== 0) console.log('[desktop] tsc reported type errors');
}
const testsEntry = path.join(root, 'out', 'test', 'integration', 'integrationRunner.js');
if (!fs.existsSync(testsEntry)) finish(1, undefined, `missing ${path.relative(root, testsEntry)}`);

// Same per-run isolation as the code-server harness: a scratch copy of the fixture workspace (suites write
// workspace settings), fresh user data and extensions folders, results in test-results/.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-desktop-'));
const workspace = path.join(tmp, 'workspace');
fs.cpSync(path.join(root, 'test', 'support', 'fixtures', 'workspace'), workspace, { recursive: true });
const resultsFile = path.join(root, 'test-results', 'integration-desktop.json');
fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
fs.rmSync(resultsFile, { force: true });

const { runTests } = createRequire(import.meta.url)('@vscode/test-electron');
let exitCode;
try {
  exitCode = await runTests({
    version: options.version,
    extensionDevelopmentPath: root,
    extensionTestsPath: testsEntry,
    extensionTestsEnv: {
      HARNESS_RESULTS: resultsFile,
      ...(options.grep ? { MOCHA_GREP: options.grep } : {}),
      // The extension seeds CADENZA_API_KEY into SecretStorage outside production; suites start keyless.
      CADENZA_API_KEY: undefined,
    },
    launchArgs: [
      workspace,
      '--disable-extensions', // other installed extensions stay out of the run
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      '--user-data-dir',
      path.join(tmp, 'user-data'),
      '--extensions-dir',
      path.join(tmp, 'extensions'),
    ],
  });
} catch (error) {
  // runTests rejects when VS Code exits non-zero (a failing test) or cannot be downloaded or started.
  console.log(`[desktop] ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
}

let results;
try {
  results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
} catch {
  fs.rmSync(tmp, { recursive: true, force: true });
  finish(exitCode || 1, undefined, `no results file at ${resultsFile}`);
}
const env = results.environment ?? {};
console.log(`[desktop] ran inside ${env.appName} ${env.vscode} (${env.appHost}), extension host Node ${env.node}`);
for (const test of results.tests) {
  console.log(`  ${test.state === 'passed' ? 'ok  ' : test.state === 'pending' ? 'skip' : 'FAIL'} ${test.fullTitle}`);
  if (test.error) console.log(test.error.replace(/^/gm, '       '));
}
fs.rmSync(tmp, { recursive: true, force: true });
const skipped = results.pending ?? 0;
const ok = exitCode === 0 && results.passed > 0 && results.failed === 0 && skipped === 0;
finish(
  ok ? 0 : exitCode || 1,
  { passed: results.passed, failed: results.failed, skipped },
  skipped ? `${skipped} skipped (a skip is a failure here)` : undefined,
);
