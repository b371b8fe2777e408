#!/usr/bin/env node
// Runs the integration suites (test/integration/**/*.test.ts, compiled to out/test/integration) inside
// the extension host of a real VS Code 1.139 — code-server — driven by headless chromium.
//
//   node test/support/harness/runIntegration.mjs [--no-build] [--grep <pattern>]
//
// How: code-server starts with --vscode-option enable-smoke-test-driver, which makes its built workbench
// honour the URL's `payload` (extensionDevelopmentPath = this repo, extensionTestsPath = the mocha runner
// out/test/integration/integrationRunner.js). VS Code loads the extension from the repo, calls the runner's run() in
// the extension host, and when it settles calls window.codeAutomationExit(code), which we expose through
// playwright. The runner also writes a results JSON to $HARNESS_RESULTS (the server's environment reaches
// the extension host).
//
// Exit code 0 only if the extension host exited 0 AND the results show ≥1 passed, 0 failed and 0 skipped
// (a skipped test is a failure here: it would hide a feature that no longer runs). The last line printed is
// always `N passed, N failed, N skipped` (a run that never produced results counts as 1 failed).
//
// Environment: HARNESS_TIMEOUT_MS (default 1200000: the whole tier, generous for a loaded 2-core machine; a hang still ends), SCREENSHOT=path.png (taken at the end), VERBOSE=1
// (echo the workbench and extension-host console), HARNESS_ECHO=<regexp> (echo only the console lines it matches,
// as they are: the real-model tier's `[realmodels] …` figures), HARNESS_RESULTS (default test-results/integration.json),
// HARNESS_TMP (scratch root), KEEP_TMP=1 (keep the scratch folder after a passing run), CS_EXTRA_ARGS.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import {
  cleanup,
  copyFixtureWorkspace,
  exitOnSignals,
  harnessEnv,
  installToolsFixture,
  launchBrowser,
  makeLog,
  remoteUri,
  repoRoot,
  scratchDir,
  startCodeServer,
  workbenchUrl,
} from './workbench.mjs';

const log = makeLog('integration');
const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const grepAt = args.indexOf('--grep');
const grep = grepAt >= 0 ? args[grepAt + 1] : process.env.MOCHA_GREP;
const timeoutMs = Number(process.env.HARNESS_TIMEOUT_MS || 1_200_000);
const resultsFile = path.resolve(process.env.HARNESS_RESULTS || path.join(repoRoot, 'test-results', 'integration.json'));
// HARNESS_TESTS_ENTRY lets another tier (test/llama/run.mjs) run its own suites in the same harness.
const testsEntry = process.env.HARNESS_TESTS_ENTRY
  ? path.resolve(process.env.HARNESS_TESTS_ENTRY)
  : path.join(repoRoot, 'out', 'test', 'integration', 'integrationRunner'); // VS Code appends .js

let tmp;
/** Prints the closing line (always last) and exits. */
function finish(code, reason, counts = { passed: 0, failed: 1, skipped: 0 }) {
  if (reason) console.log(`[integration] ${reason}`);
  if (tmp && (code !== 0 || process.env.KEEP_TMP)) console.log(`[integration] logs kept in ${tmp} (code-server.log, window.log, user-data/logs)`);
  else if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  process.exit(code);
}
exitOnSignals(finish);

async function main() {
  const harness = harnessEnv();

  if (build) {
    // The extension is loaded from dist/ (package.json "main"); the suites from out/. tsc emits even when
    // another folder has type errors, so a non-zero tsc is reported but does not stop the run.
    log('building: node esbuild.js; npx tsc -p tsconfig.json');
    if (spawnSync('node', ['esbuild.js'], { cwd: repoRoot, stdio: 'inherit' }).status !== 0) return finish(1, 'esbuild failed');
    if (spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: repoRoot, stdio: 'inherit' }).status !== 0) {
      log('warning: tsc reported type errors (output was still emitted)');
    }
  }
  for (const required of [path.join(repoRoot, 'dist', 'extension.js'), `${testsEntry}.js`]) {
    if (!fs.existsSync(required)) return finish(1, `missing ${path.relative(repoRoot, required)}: build first (node esbuild.js && npx tsc -p tsconfig.json)`);
  }

  tmp = scratchDir('cadenza-it-');
  const workspace = copyFixtureWorkspace(tmp);
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.rmSync(resultsFile, { force: true });

  // The language model tools another extension registers, for vscodeTools.test.ts (an MCP server's are a real
  // server's, started from the workspace's .vscode/mcp.json by mcpServer.test.ts):
  // installed, since a second extensionDevelopmentPath replaces the first in this workbench.
  installToolsFixture(harness, tmp, log);
  const server = await startCodeServer({
    env: harness,
    tmp,
    workspace,
    smokeTestDriver: true,
    log,
    // A developer's CADENZA_API_KEY would be seeded into SecretStorage by the extension in development
    // and test mode, and the suites expect to start without a key: keep it (and the base URL) out.
    extraEnv: { HARNESS_RESULTS: resultsFile, CADENZA_API_KEY: undefined, CADENZA_BASE_URL: undefined, ...(grep ? { MOCHA_GREP: grep } : {}) },
  });

  const { page } = await launchBrowser(harness, { tmp, viewport: { width: 1280, height: 800 } });
  let resolveExit;
  const exited = new Promise((resolve) => {
    resolveExit = resolve;
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
  const echo = process.env.HARNESS_ECHO ? new RegExp(process.env.HARNESS_ECHO) : undefined;
  const windowLog = fs.createWriteStream(path.join(tmp, 'window.log'));
  await page.exposeFunction('codeAutomationLog', (type, parts) => {
    const line = util.format(...(parts ?? []));
    windowLog.write(`[${type}] ${line}\n`);
    if (process.env.VERBOSE) console.log(`[vscode ${type}]`, line);
    else if (echo?.test(line)) console.log(line);
  });

  const payload = [
    ['extensionDevelopmentPath', remoteUri(server, repoRoot)],
    ['extensionTestsPath', remoteUri(server, testsEntry)],
  ];
  log('opening the workbench with the extension-development payload');
  await page.goto(workbenchUrl(server, workspace, payload));

  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const code = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (process.env.SCREENSHOT) await page.screenshot({ path: path.resolve(process.env.SCREENSHOT) }).catch(() => {});
  await new Promise((resolve) => windowLog.end(resolve));
  await cleanup();
  if (code === 'timeout') return finish(124, `no result from the extension host within ${timeoutMs} ms`);
  log(`extension host exited with code ${code}`);

  let results;
  try {
    results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  } catch {
    const errors = fs
      .readFileSync(path.join(tmp, 'window.log'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('[error]'));
    if (errors.length) console.log(`[integration] last errors from the workbench / extension host:\n${errors.slice(-8).join('\n')}`);
    return finish(code || 1, `no results file at ${resultsFile}`);
  }

  const env = results.environment ?? {};
  console.log(`[integration] ran inside ${env.appName} ${env.vscode} (${env.appHost}, uiKind ${env.uiKind}), extension host Node ${env.node}`);
  for (const test of results.tests) {
    const mark = test.state === 'passed' ? 'ok  ' : test.state === 'pending' ? 'skip' : 'FAIL';
    console.log(`  ${mark} ${test.fullTitle} (${test.durationMs ?? 0} ms)`);
    if (test.error) console.log(test.error.replace(/^/gm, '       '));
  }
  const skipped = results.pending ?? 0;
  const ok = code === 0 && results.passed > 0 && results.failed === 0 && skipped === 0;
  const why = skipped ? `; ${skipped} skipped (a skip is a failure here)` : '';
  return finish(ok ? 0 : code || 1, `results: ${resultsFile}${why}`, { passed: results.passed, failed: results.failed, skipped });
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.stack : error);
  await cleanup();
  finish(1, 'harness error');
});
