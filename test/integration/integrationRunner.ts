// The mocha runner that VS Code loads as `extensionTestsPath`: it runs inside the real extension host,
// with the extension under development already loaded. Both launchers use it unchanged:
// test/support/harness/runIntegration.mjs (code-server, offline) and scripts/test-desktop.mjs (@vscode/test-electron).
//
// Adding a suite = adding a `*.test.ts` file next to this one (TDD interface: suite/test/suiteSetup).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

/** One test's outcome as written to the results file. */
interface TestResult {
  readonly fullTitle: string;
  readonly state: 'passed' | 'failed' | 'pending';
  readonly durationMs?: number;
  readonly error?: string;
}

/** The results file the launchers read: counts decide the exit code, tests are listed in the log. */
interface ResultsFile {
  readonly environment: Readonly<Record<string, string>>;
  readonly passed: number;
  readonly failed: number;
  readonly pending: number;
  readonly durationMs: number;
  readonly tests: readonly TestResult[];
}

/** Where this VS Code is and what it runs on; logged so CI shows the suites ran inside a real VS Code. */
function environmentFacts(): Record<string, string> {
  return {
    vscode: vscode.version,
    appName: vscode.env.appName,
    appHost: vscode.env.appHost,
    uiKind: vscode.env.uiKind === vscode.UIKind.Web ? 'Web' : 'Desktop',
    remoteName: vscode.env.remoteName ?? '',
    node: process.version,
    platform: process.platform,
  };
}

/** The suite that must meet the profile as the harness made it (no key, no settings, nothing picked): it runs first. */
const firstRunSuite = 'firstRun.test.js';

/** Every `*.test.js` below this folder, sorted so the order is the same on every machine; the first-run suite first. */
function testFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort((a, b) => Number(b === firstRunSuite) - Number(a === firstRunSuite) || a.localeCompare(b))
    .map((file) => path.join(dir, file));
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Called by VS Code in the extension host. Resolves when every test passed, rejects otherwise (VS Code
 * then exits the extension host with a non-zero code). Writes the results JSON to `$HARNESS_RESULTS`
 * when that is set. `$MOCHA_GREP` limits the run to matching test titles.
 */
export function run(): Promise<void> {
  return runSuites(__dirname);
}

/** Runs every `*.test.js` below `dir` the same way; other tiers' runners (test/llama/host) call it. */
export function runSuites(dir: string): Promise<void> {
  const environment = environmentFacts();
  // console is the channel here: the workbench forwards extension-host console output to the launcher's log.
  console.log(`[cadenza-integration] environment ${JSON.stringify(environment)}`);

  // forbidOnly: a stray `.only` must not shrink the tier to one test. forbidPending: a skipped test
  // (`test.skip`, `this.skip()`, a test without a body) is reported as a failure, not as a quiet pass.
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000, reporter: 'spec', forbidOnly: true, forbidPending: true });
  const grep = process.env['MOCHA_GREP'];
  if (grep) mocha.grep(grep);
  for (const file of testFiles(dir)) mocha.addFile(file);

  const tests: TestResult[] = [];
  const started = Date.now();
  const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

  return new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const passed = tests.filter((test) => test.state === 'passed').length;
      const results: ResultsFile = {
        environment,
        passed,
        // Hook failures (suiteSetup and friends) are failures too; mocha reports them through `fail`.
        failed: Math.max(failures, tests.filter((test) => test.state === 'failed').length),
        pending: tests.filter((test) => test.state === 'pending').length,
        durationMs: Date.now() - started,
        tests,
      };
      const resultsPath = process.env['HARNESS_RESULTS'];
      if (resultsPath) fs.writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
      console.log(`[cadenza-integration] ${results.passed} passed, ${results.failed} failed, ${results.pending} pending`);
      if (results.failed > 0) reject(new Error(`${results.failed} integration test(s) failed`));
      else if (results.pending > 0) reject(new Error(`${results.pending} integration test(s) skipped; a skip is a failure here`));
      else if (results.passed === 0) reject(new Error('no integration test ran'));
      else resolve();
    });
    runner.on(EVENT_TEST_PASS, (test) => {
      tests.push({ fullTitle: test.fullTitle(), state: 'passed', durationMs: test.duration ?? 0 });
    });
    runner.on(EVENT_TEST_FAIL, (test, error: unknown) => {
      tests.push({ fullTitle: test.fullTitle(), state: 'failed', durationMs: test.duration ?? 0, error: describeError(error) });
    });
    runner.on(EVENT_TEST_PENDING, (test) => {
      tests.push({ fullTitle: test.fullTitle(), state: 'pending' });
    });
  });
}
