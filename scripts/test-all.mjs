#!/usr/bin/env node
// `npm test`: everything, in order, from a fresh clone. It installs what it needs (npm packages, the
// Debian packages and the offline VS Code the tiers use), then runs: type-check and lint, unit tests
// (plain Node), the chat panel in three themes (contrast, focus, overflow), integration tests (inside a real VS Code extension host), the same against a real
// llama-server (a self-hosted server none of us wrote), the same against real trained models (the local
// stack: Qwen2.5-Coder-1.5B, e5-small, Whisper base), UI tests (the real workbench in a real browser). It fails
// if any tier fails, runs no test or fewer than its floor (scripts/tierFloors.mjs), and ends with one line
// summing all tiers: `N passed, N failed`.
//   node scripts/test-all.mjs [--only '<tier>']   (--only: that tier alone, without the installs and set-ups;
//   the tiers after the static one use the build it leaves, so build first: see CONTRIBUTING.md)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { belowFloor, tierFloors } from './tierFloors.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

/** Runs a command, echoing its output live, and resolves with its exit code and captured output. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const forward = (stream, target) =>
      stream.on('data', (data) => {
        output += data;
        target.write(data);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
    child.on('error', (error) => {
      output += String(error);
      resolve({ code: 1, output });
    });
  });
}

/** The last `N passed, N failed` line a runner printed (our runners end with it). */
function countsFrom(output) {
  const matches = [...output.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/gm)];
  const last = matches.at(-1);
  return last ? { passed: Number(last[1]), failed: Number(last[2]), skipped: Number(last[3] ?? 0) } : undefined;
}

/** Mocha's spec reporter summary: `N passing`, `N failing`, `N pending`. */
function mochaCounts(output) {
  const number = (word) => Number(output.match(new RegExp(`^\\s*(\\d+) ${word}`, 'm'))?.[1] ?? 0);
  return { passed: number('passing'), failed: number('failing'), skipped: number('pending') };
}

const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
if (only !== undefined && !(only in tierFloors)) {
  process.stdout.write(`[test] no tier named ${JSON.stringify(only)}; the tiers: ${Object.keys(tierFloors).join(', ')}\n0 passed, 1 failed\n`);
  process.exit(1);
}
/** Whether to run tier `name` (all of them unless --only names one). */
const wanted = (name) => only === undefined || only === name;

const tiers = [];
let totalPassed = 0;
let totalFailed = 0;

function record(name, seconds, counts, exitCode) {
  const passed = counts?.passed ?? 0;
  const short = belowFloor(name, passed);
  if (short) process.stdout.write(`\n[test] ${short}\n`);
  const broken = exitCode !== 0 || !counts || passed === 0 || counts.failed > 0 || counts.skipped > 0 || short !== undefined;
  // A tier that breaks without counting a failure (crash, no test run, a skip) still counts as one.
  const failed = Math.max(counts?.failed ?? 0, broken ? 1 : 0);
  const skipped = counts?.skipped ? `, ${counts.skipped} skipped (a skip is a failure here)` : '';
  const line = `${name}: ${passed} passed, ${failed} failed${skipped} in ${seconds.toFixed(1)} s`;
  tiers.push({ name, broken, line });
  totalPassed += passed;
  totalFailed += failed;
  process.stdout.write(`\n[test] ${line}\n`);
  return !broken;
}

async function timed(fn) {
  const started = performance.now();
  const result = await fn();
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

function finish() {
  process.stdout.write('\n[test] summary\n');
  for (const tier of tiers) process.stdout.write(`[test]   ${tier.broken ? 'FAIL' : 'ok  '} ${tier.line}\n`);
  process.stdout.write(`${totalPassed} passed, ${totalFailed} failed\n`);
  process.exit(tiers.some((tier) => tier.broken) || totalFailed > 0 ? 1 : 0);
}

// --- 0. install: npm packages when node_modules is missing or older than the lockfile -------------
const stamp = join(root, 'node_modules', '.package-lock.json');
if (only === undefined && (!existsSync(stamp) || statSync(stamp).mtimeMs < statSync(join(root, 'package-lock.json')).mtimeMs)) {
  process.stdout.write('[test] npm ci\n');
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (install.status !== 0) {
    process.stdout.write('[test] npm ci failed\n0 passed, 1 failed\n');
    process.exit(1);
  }
}

// --- 1. machine set-up: Debian packages, Node 24 + code-server, test tools (idempotent) ------------
const setups =
  only !== undefined
    ? []
    : [
        'test/support/harness/setup.sh',
        'test/unit/api/setup-apt.sh',
        'test/support/fixtures/audio/setup-audio-tools.sh',
        'test/llama/setup.sh',
        'test/support/pg/setup.sh',
      ].filter((file) => existsSync(file));
for (const script of setups) {
  const result = await timed(() => run('bash', [script]));
  if (result.code !== 0) {
    record(`setup ${script}`, result.seconds, undefined, result.code);
    finish();
  }
  process.stdout.write(`[test] ${script} done in ${result.seconds.toFixed(1)} s\n`);
}

// --- 2. build, type-check and lint -----------------------------------------------------------------
if (wanted('static')) {
  const checks = [
    // First: it builds the production bundle into dist/, which the development bundle below replaces.
    ['package (the .vsix a user installs)', 'node', ['scripts/checkPackage.mjs']],
    ['bundle (esbuild)', 'node', ['esbuild.js']],
    ['type-check (extension, core, tests)', 'npx', ['tsc', '-p', 'tsconfig.json']],
    ['type-check (webview)', 'npx', ['tsc', '-p', 'src/webview/tsconfig.json']],
    ['lint', 'npx', ['eslint', '.', '--max-warnings', '0']],
    ['format (Prettier: the code as `npm run format` leaves it)', 'npx', ['prettier', '--check', '.']],
    ['documents (ARCHITECTURE.md a map under 8,000 words; every document and heading the code cites exists)', 'node', ['scripts/checkDocs.mjs']],
    ['translations (every manifest string a key in every language; keys and placeholders intact)', 'node', ['scripts/checkL10n.mjs']],
  ];
  const started = performance.now();
  let passed = 0;
  let failed = 0;
  for (const [label, command, args] of checks) {
    process.stdout.write(`[test] ${label}\n`);
    const { code } = await run(command, args);
    if (code === 0) passed += 1;
    else {
      failed += 1;
      process.stdout.write(`[test] ${label} FAILED\n`);
    }
  }
  record('static', (performance.now() - started) / 1000, { passed, failed, skipped: 0 }, failed ? 1 : 0);
}

// --- 3. unit tests (plain Node) ----------------------------------------------------------------------
if (wanted('unit')) {
  const result = await timed(() => run('npx', ['mocha']));
  record('unit', result.seconds, mochaCounts(result.output), result.code);
}

// --- 3a. webview tier: the chat panel's bundle (built by the static tier) in three themes, in Chromium -
// Contrast, focus rings, no overflow at a narrow side bar, interactions and the CSP (test/webview).
if (!wanted('webview')) {
  /* --only another tier */
} else if (existsSync('test/webview/screenshots.mjs')) {
  const result = await timed(() => run('node', ['test/webview/screenshots.mjs']));
  record('webview', result.seconds, countsFrom(result.output), result.code);
} else {
  record('webview', 0, undefined, 1);
}

// --- 4. integration tests (inside a real VS Code extension host) ------------------------------------
if (!wanted('integration')) {
  /* --only another tier */
} else if (existsSync('test/support/harness/runIntegration.mjs')) {
  const result = await timed(() => run('node', ['test/support/harness/runIntegration.mjs', '--no-build']));
  record('integration', result.seconds, countsFrom(result.output), result.code);
} else {
  record('integration', 0, undefined, 1);
}

// --- 4a. the same extension host in a workspace VS Code really does not trust (Restricted Mode) ---
// Its suite asserts first that VS Code really opened the folder untrusted. A missing suite fails the tier.
if (!wanted('restricted mode')) {
  /* --only another tier */
} else if (existsSync('test/integration/agentTrust.test.ts')) {
  const result = await timed(() =>
    run('node', ['test/support/harness/runIntegration.mjs', '--no-build'], {
      env: { HARNESS_WORKSPACE_TRUST: 'untrusted', MOCHA_GREP: 'real workspace trust' },
    }),
  );
  record('restricted mode', result.seconds, countsFrom(result.output), result.code);
} else {
  record('restricted mode', 0, undefined, 1);
}

// --- 4b. llama tier: the client and the extension against a real llama-server (built from source) ---
if (!wanted('llama')) {
  /* --only another tier */
} else if (existsSync('test/llama/run.mjs')) {
  const result = await timed(() => run('node', ['test/llama/run.mjs', '--no-build']));
  record('llama', result.seconds, countsFrom(result.output), result.code);
} else {
  record('llama', 0, undefined, 1);
}

// --- 4c. real-model tier: the extension against real trained models on the local stack ------------
// (Qwen2.5-Coder-1.5B, multilingual-e5-small, Whisper base; scripts/local-stack). Its setup failing fails it.
if (!wanted('real models')) {
  /* --only another tier */
} else if (existsSync('test/real/run.mjs')) {
  const result = await timed(() => run('node', ['test/real/run.mjs', '--no-build']));
  record('real models', result.seconds, countsFrom(result.output), result.code);
} else {
  record('real models', 0, undefined, 1);
}

// --- 5. UI tests (the packaged .vsix in the real workbench, driven by a real browser) --------------
if (!wanted('ui')) {
  /* --only another tier */
} else if (existsSync('test/support/harness/runUi.mjs')) {
  const pack = await timed(() => run('npm', ['run', '--silent', 'package']));
  if (pack.code !== 0) record('package', pack.seconds, undefined, pack.code);
  else {
    const result = await timed(() => run('node', ['test/support/harness/runUi.mjs']));
    record('ui', result.seconds, countsFrom(result.output), result.code);
  }
} else {
  record('ui', 0, undefined, 1);
}

// --- 5a. the same in Restricted Mode: the *.untrusted.ui.mjs files in a workspace VS Code does not trust --
// (the agent's Deny there, clicked in the panel). It checks first that the workbench shows Restricted Mode;
// a missing file fails the tier.
if (!wanted('ui restricted mode')) {
  /* --only another tier */
} else if (existsSync('test/ui/agentRestricted.untrusted.ui.mjs') && existsSync('cadenza.vsix')) {
  // Its screenshots go to a folder of their own: in the UI tier's it would delete that tier's (runUi clears its folder first).
  const result = await timed(() =>
    run('node', ['test/support/harness/runUi.mjs'], { env: { HARNESS_WORKSPACE_TRUST: 'untrusted', SHOTS: 'test-results/screenshots-restricted' } }),
  );
  record('ui restricted mode', result.seconds, countsFrom(result.output), result.code);
} else {
  record('ui restricted mode', 0, undefined, 1);
}

// --- 5b. in another display language: the *.de.ui.mjs files in a German workbench (`--locale de` and a
// stand-in German language pack the harness builds): Cadenza's command titles, panel title bar and settings
// read from package.nls.de.json, the panel's words from l10n/bundle.l10n.de.json once they are localised.
// The usual UI tier never picks these files up. A missing file fails the tier.
if (!wanted('ui display language')) {
  /* --only another tier */
} else if (existsSync('test/ui/displayLanguage.de.ui.mjs') && existsSync('cadenza.vsix')) {
  // Its screenshots go to a folder of their own, as the Restricted Mode tier's do.
  const result = await timed(() => run('node', ['test/support/harness/runUi.mjs'], { env: { HARNESS_LOCALE: 'de', SHOTS: 'test-results/screenshots-de' } }));
  record('ui display language', result.seconds, countsFrom(result.output), result.code);
} else {
  record('ui display language', 0, undefined, 1);
}

finish();
