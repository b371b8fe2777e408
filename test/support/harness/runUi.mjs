#!/usr/bin/env node
// Runs the UI tests (test/ui/*.ui.mjs): the PACKAGED extension (cadenza.vsix) installed into a real
// VS Code 1.139 (code-server), the workbench driven by headless chromium through playwright, as a user
// would — clicks, the command palette, typing into input boxes — and a screenshot after every test in
// test-results/screenshots/.
//
//   npm run package && npx tsc -p tsconfig.json && node test/support/harness/runUi.mjs [--grep <pattern>] [--list]
//
// It builds nothing: it needs cadenza.vsix (npm run package) and the compiled emulator
// (out/test/support/emulator/emulator.js, from tsc). The emulator runs in this process; its address goes into the
// settings of a fresh user-data-dir before code-server starts, so the installed extension talks to it
// (the server's Machine settings: cadenza.* are machine-overridable, and code-server ignores such settings
// in User settings). Unlike runIntegration.mjs, there is no development payload: what runs is what ships.
//
// Each *.ui.mjs exports `tests`: an array of { name, run(ui) } run in file order, then array order, in one
// workbench session (later tests may rely on earlier ones); cadenza.ui.mjs runs first, the others follow by
// name. An entry without a `run` function, or marked `skip: true`, is counted as skipped, and a skip fails
// the tier (as does a file that exports no tests): it would hide a feature that no longer runs. `ui` is { page, webview (the chat view's content frame), emulator (the whole RunningEmulator:
// scriptChat, setChunkDelay, requests, ...), workspace (the scratch workspace's path), audioFile (a speech
// WAV at the workspace root, from the generated audio fixtures), log, shot(label, page = the window), session (one object
// shared by the run's tests: what an earlier test chose that a later one must expect) }. The last line printed
// is `N passed, N failed, N skipped`.
//
// Restricted Mode: with HARNESS_WORKSPACE_TRUST=untrusted the session runs only the *.untrusted.ui.mjs files,
// in a workspace VS Code really does not trust (workspace trust on, no startup prompt: the folder opens in
// Restricted Mode). A display language: with HARNESS_LOCALE=de it runs only the *.de.ui.mjs files, in a
// workbench started with `--locale de` and a German language pack installed. The usual session runs every
// other file, trusted, in English.
//
// Environment: VSIX (default cadenza.vsix), SHOTS (default test-results/screenshots), HARNESS_TMP,
// KEEP_TMP=1, CS_EXTRA_ARGS, UI_VIEWPORT (WIDTHxHEIGHT, default 1400x850), UI_THEME (a color theme id
// for the User settings, e.g. "Default Light Modern"; default: the browser's colour scheme decides).
// Besides the PNGs, SHOTS gets shots.json: each screenshot with its test, label and whether the test
// passed (scripts/screenshots.mjs picks the README's pictures from it).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
  cleanup,
  codeServerDirs,
  codeServerEnv,
  copyFixtureWorkspace,
  exitOnSignals,
  harnessEnv,
  installLanguagePack,
  installToolsFixture,
  launchBrowser,
  makeLog,
  onCleanup,
  quietWorkbenchSettings,
  repoRoot,
  scratchDir,
  startCodeServer,
  webviewFrame,
  workbenchUrl,
  writeSettings,
} from './workbench.mjs';

const log = makeLog('ui');
const args = process.argv.slice(2);
const grepAt = args.indexOf('--grep');
const grep = grepAt >= 0 ? new RegExp(args[grepAt + 1], 'i') : undefined;
/** --list: print the tests this session would run (its files and their names) and run none. */
const listOnly = args.includes('--list');
const vsix = path.resolve(process.env.VSIX || path.join(repoRoot, 'cadenza.vsix'));
const emulatorModule = path.join(repoRoot, 'out', 'test', 'support', 'emulator', 'emulator.js');
const fixturesModule = path.join(repoRoot, 'out', 'test', 'unit', 'audio', 'fixtures.js');
/** The audio fixture copied into the scratch workspace's root (ui.audioFile names it). */
const audioFixture = 'wav-pcm16-mono-16k.wav';
const shots = path.resolve(process.env.SHOTS || path.join(repoRoot, 'test-results', 'screenshots'));
const [viewportWidth, viewportHeight] = (process.env.UI_VIEWPORT || '1400x850').split('x').map(Number);
const themeSettings = process.env.UI_THEME ? { 'workbench.colorTheme': process.env.UI_THEME } : {};
const untrusted = process.env.HARNESS_WORKSPACE_TRUST === 'untrusted';
/** A display language other than English (HARNESS_LOCALE=de): the session runs only the *.<locale>.ui.mjs files. */
const locale = process.env.HARNESS_LOCALE;
/** Workspace trust on, and no prompt: a folder nobody trusted opens in Restricted Mode. */
const trustSettings = untrusted
  ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.untrustedFiles': 'open' }
  : {};

let tmp;
let counts = { passed: 0, failed: 0, skipped: 0 };
/** Prints the closing line (always last) and exits. */
function finish(code, reason) {
  if (reason) console.log(`[ui] ${reason}`);
  if (tmp && (code !== 0 || process.env.KEEP_TMP)) console.log(`[ui] logs kept in ${tmp} (code-server.log, user-data/logs)`);
  else if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  // A run that broke before or outside the tests still counts as one failure.
  const failed = code !== 0 && counts.failed === 0 && counts.skipped === 0 ? 1 : counts.failed;
  console.log(`${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped`);
  process.exit(code);
}
exitOnSignals(finish);

/** The UI test files and their tests, in a stable order. */
async function loadTests() {
  const dir = path.join(repoRoot, 'test', 'ui');
  // firstRun.ui.mjs first: it is a new user's first minutes in the truly fresh profile (no key, no settings,
  // nothing picked), and leaves the window without a key again; then cadenza.ui.mjs checks what a session
  // without a key shows; the others build on a session.
  const order = ['firstRun.ui.mjs', 'cadenza.ui.mjs'];
  const first = (file) => (order.includes(file) ? order.indexOf(file) : order.length);
  // A session's own files carry its kind in their name (agentRestricted.untrusted.ui.mjs, displayLanguage.de.ui.mjs);
  // the usual session runs the files whose name has no such part.
  const kind = untrusted ? 'untrusted' : locale;
  const files = fs
    .readdirSync(dir)
    .filter((file) => (kind ? file.endsWith(`.${kind}.ui.mjs`) : /^[^.]+\.ui\.mjs$/.test(file)))
    .sort((a, b) => first(a) - first(b) || a.localeCompare(b));
  const tests = [];
  for (const file of files) {
    const module = await import(pathToFileURL(path.join(dir, file)).href);
    const name = file.replace(/(\.[\w-]+)?\.ui\.mjs$/, '');
    // A file that exports no tests is a whole file skipped.
    if (!Array.isArray(module.tests) || module.tests.length === 0) tests.push({ name: '(the file exports no tests)', file: name, skip: true });
    for (const test of module.tests ?? []) tests.push({ ...test, file: name });
  }
  return grep ? tests.filter((test) => grep.test(`${test.file} ${test.name}`)) : tests;
}

const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

async function main() {
  for (const [file, hint] of [
    [vsix, 'npm run package'],
    [emulatorModule, 'npx tsc -p tsconfig.json'],
    [fixturesModule, 'npx tsc -p tsconfig.json'],
  ]) {
    if (!fs.existsSync(file)) return finish(1, `missing ${path.relative(repoRoot, file)}: run \`${hint}\` first`);
  }
  const tests = await loadTests();
  if (tests.length === 0) return finish(1, 'no UI tests found');
  if (listOnly) {
    for (const test of tests) console.log(`  ${test.file}: ${test.name}`);
    console.log(`[ui] ${tests.length} tests in ${new Set(tests.map((test) => test.file)).size} files (--list: none run)`);
    process.exit(0);
  }
  const harness = harnessEnv();

  // The emulator is CommonJS (compiled by tsc); require it rather than import it.
  const { startEmulator } = createRequire(import.meta.url)(emulatorModule);
  const emulator = await startEmulator({});
  onCleanup(() => emulator.close());
  log(`emulator at ${emulator.baseUrl}`);

  tmp = scratchDir('cadenza-ui-');
  // cadenza.baseUrl is application-scoped (a user setting only), so it goes to the User settings.
  writeSettings(tmp, 'User', { ...quietWorkbenchSettings, ...themeSettings, ...trustSettings, 'cadenza.baseUrl': emulator.baseUrl });

  const workspace = copyFixtureWorkspace(tmp);
  // A real speech recording for the audio tests, from the generated audio fixtures (cached per machine;
  // the first run installs sox/ffmpeg/espeak-ng and generates them). It must be there before code-server
  // starts, so the Explorer lists it.
  const { fixture, loadFixtures } = createRequire(import.meta.url)(fixturesModule);
  fs.copyFileSync(fixture(loadFixtures(), audioFixture).path, path.join(workspace, audioFixture));

  log(`installing ${path.relative(repoRoot, vsix)} into a fresh extensions dir`);
  const installed = execFileSync(harness.NODE24, [harness.CODE_SERVER, ...codeServerDirs(tmp), '--install-extension', vsix], {
    env: codeServerEnv(tmp),
  });
  log(installed.toString().trim().split('\n').at(-1));

  // Tools another extension registers, for the tools menu's test (an MCP server's are a real server's, which
  // that test registers in the workspace's .vscode/mcp.json).
  installToolsFixture(harness, tmp, log);
  if (locale) installLanguagePack(tmp, harness, locale, log);
  const server = await startCodeServer({ env: harness, tmp, workspace, log, extraArgs: locale ? ['--locale', locale] : [] });
  const { page } = await launchBrowser(harness, { tmp, viewport: { width: viewportWidth, height: viewportHeight } });
  await page.goto(workbenchUrl(server, workspace));
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  log('workbench loaded');

  // Old screenshots would mix with this run's: remove them (only .png files, SHOTS may be any folder).
  fs.mkdirSync(shots, { recursive: true });
  for (const file of fs.readdirSync(shots)) if (file.endsWith('.png')) fs.rmSync(path.join(shots, file));
  // What earlier tests left behind that later ones must expect (the workbench session is shared too).
  const session = {};
  /** Every screenshot of this run: { test, label (null: the end of the test), file, passed }. */
  const taken = [];
  for (const [index, test] of tests.entries()) {
    const title = `${test.file}: ${test.name}`;
    const prefix = path.join(shots, `${String(index + 1).padStart(2, '0')}-${slug(test.name)}`);
    // `shot(label)` lets a test also capture a moment mid-way (a prompt that closes before the end);
    // `shot(label, other)` captures another page, a second window the test opened.
    const shot = async (label, target = page) => {
      await target.waitForTimeout(250); // a quick input fades in: capture it settled
      await target.screenshot({ path: `${prefix}-${slug(label)}.png` });
      taken.push({ test: title, label, file: path.basename(`${prefix}-${slug(label)}.png`) });
    };
    if (test.skip || typeof test.run !== 'function') {
      counts.skipped += 1;
      console.log(`  skip ${title} (a skip is a failure here)`);
      continue;
    }
    const ui = { page, webview: webviewFrame(page), emulator, workspace, audioFile: audioFixture, log, shot, session };
    const testStarted = Date.now();
    const failedBefore = counts.failed;
    try {
      await test.run(ui);
      counts.passed += 1;
      console.log(`  ok   ${title} (${Date.now() - testStarted} ms)`);
    } catch (error) {
      counts.failed += 1;
      console.log(`  FAIL ${title} (${Date.now() - testStarted} ms)\n${String(error?.stack ?? error).replace(/^/gm, '       ')}`);
    }
    await page.waitForTimeout(300); // let closing quick inputs and toasts finish their animation
    await page
      .screenshot({ path: `${prefix}.png` })
      .then(() => taken.push({ test: title, label: null, file: path.basename(`${prefix}.png`) }))
      .catch((error) => log(`screenshot failed: ${error.message}`));
    const passed = failedBefore === counts.failed;
    for (const entry of taken) if (entry.test === title) entry.passed = passed;
    // A failed test may leave a menu, quick input or dialog open over the workbench: close it, so the
    // next test fails (if at all) for its own reason.
    if (failedBefore !== counts.failed) for (let i = 0; i < 3; i++) await page.keyboard.press('Escape').catch(() => undefined);
  }
  fs.writeFileSync(path.join(shots, 'shots.json'), `${JSON.stringify(taken, null, 2)}\n`);
  log(`screenshots in ${path.relative(repoRoot, shots)}/`);
  await cleanup();
  return finish(
    counts.failed === 0 && counts.skipped === 0 && counts.passed > 0 ? 0 : 1,
    counts.skipped ? `${counts.skipped} skipped (a skip is a failure here)` : undefined,
  );
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.stack : error);
  await cleanup();
  finish(1, 'harness error');
});
