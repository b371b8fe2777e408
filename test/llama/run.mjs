#!/usr/bin/env node
// The llama tier: Cadenza against a real inference server none of us wrote, llama.cpp's llama-server.
//
//   node test/llama/run.mjs [--no-build] [--only compat|integration]
//
// 1. setup.sh: builds llama-server and the test models on a fresh machine; well under a second when warm.
// 2. (unless --no-build) bundles the extension and compiles the tests: node esbuild.js, npx tsc.
// 3. starts four llama-server instances on free 127.0.0.1 ports (servers.mjs): chat with a projector,
//    chat without one, embeddings, a thinking model.
// 4. runs the client-level compatibility suites in plain Node (mocha, out/test/llama/client), then the
//    extension-host suites (out/test/llama/host) through the offline VS Code harness, with
//    HARNESS_TESTS_ENTRY pointing the harness at that folder's runner.
// 5. stops every server on every path (process groups; also on errors and signals), checks with `ps`
//    that no llama-server is left, and prints `N passed, N failed` last (a skip counts as a failure).
// Exit code 0 only when both parts ran, at least one test passed, none failed and nothing was left behind.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { leftoverServers, modelIds, startServer, stopAll, stopOnExit } from './servers.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const started = Date.now();
const log = (...parts) => console.log(`[llama +${((Date.now() - started) / 1000).toFixed(1)}s]`, ...parts);

/** Children we started (mocha, the harness), each leading its own process group. */
const children = new Set();
stopOnExit();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // servers.mjs stops the servers on these signals; the runners get the signal too, so the harness
  // can close code-server and chromium itself.
  process.prependListener(signal, () => {
    for (const pid of children) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
  });
}

/** Runs a command in its own process group, echoing its output; resolves with exit code and output. */
function run(command, commandArgs, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child.pid);
    let output = '';
    child.stdout.on('data', (data) => {
      output += data;
      process.stdout.write(data);
    });
    child.stderr.on('data', (data) => {
      output += data;
      process.stderr.write(data);
    });
    child.on('error', (error) => {
      output += String(error);
    });
    child.on('close', (code, signal) => {
      children.delete(child.pid);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

const parts = [];
/** Where the servers write their logs (set once they start). */
let logDir;
/** Records one part's counts; a part that broke without counting a failure counts one. */
function record(name, counts, code, seconds) {
  const broken = code !== 0 || !counts || counts.passed === 0 || counts.failed > 0 || counts.skipped > 0;
  const failed = Math.max(counts?.failed ?? 0, broken ? 1 : 0);
  parts.push({ name, passed: counts?.passed ?? 0, failed, broken, seconds });
  log(
    `${name}: ${counts?.passed ?? 0} passed, ${failed} failed${counts?.skipped ? `, ${counts.skipped} skipped (a skip is a failure)` : ''} in ${seconds.toFixed(1)} s`,
  );
}

async function finish() {
  const wasRunning = leftoverServers().length;
  stopAll();
  // Let the event loop reap the killed servers, so not even a zombie outlives the tier.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const leftovers = leftoverServers();
  if (leftovers.length > 0) {
    parts.push({ name: 'cleanup', passed: 0, failed: 1, broken: true, seconds: 0 });
    log(`llama-server processes left behind:\n${leftovers.join('\n')}`);
  } else {
    log(`stopped ${wasRunning} llama-server process(es); none left behind`);
  }
  const passed = parts.reduce((sum, part) => sum + part.passed, 0);
  const failed = parts.reduce((sum, part) => sum + part.failed, 0);
  // The servers' logs are kept only when something failed.
  if (logDir !== undefined && (failed > 0 || parts.some((part) => part.broken))) log(`server logs kept in ${logDir}`);
  else if (logDir !== undefined) fs.rmSync(logDir, { recursive: true, force: true });
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(parts.some((part) => part.broken) || failed > 0 || passed === 0 ? 1 : 0);
}

async function main() {
  // --- 1. the server and the models ------------------------------------------------------------------
  let t = Date.now();
  const setup = await run('bash', [path.join('test', 'llama', 'setup.sh')]);
  if (setup.code !== 0) return record('setup', undefined, setup.code, (Date.now() - t) / 1000);
  log(`setup done in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  // --- 2. build ----------------------------------------------------------------------------------------
  if (build) {
    if ((await run('node', ['esbuild.js'])).code !== 0) return record('build', undefined, 1, 0);
    // tsc still emits when another folder has type errors; the static tier reports those.
    if ((await run('npx', ['tsc', '-p', 'tsconfig.json'])).code !== 0) log('warning: tsc reported type errors (output was still emitted)');
  }

  // --- 3. servers --------------------------------------------------------------------------------------
  t = Date.now();
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-llama-'));
  const [chat, textOnly, embed, thinking] = await Promise.all(['chat', 'textOnly', 'embed', 'thinking'].map((name) => startServer(name, { logDir })));
  log(
    `servers up in ${((Date.now() - t) / 1000).toFixed(1)} s: chat ${chat.url}, text-only ${textOnly.url}, embeddings ${embed.url}, thinking ${thinking.url} (logs in ${logDir})`,
  );
  const env = {
    CADENZA_LLAMA_URL: chat.url,
    CADENZA_LLAMA_TEXT_ONLY_URL: textOnly.url,
    CADENZA_LLAMA_EMBED_URL: embed.url,
    CADENZA_LLAMA_THINKING_URL: thinking.url,
    CADENZA_LLAMA_CHAT_MODEL: modelIds.chat,
    CADENZA_LLAMA_EMBED_MODEL: modelIds.embed,
    CADENZA_LLAMA_THINKING_MODEL: modelIds.thinking,
  };

  // --- 4a. client-level compatibility suites, plain Node ---------------------------------------------
  if (only === undefined || only === 'compat') {
    t = Date.now();
    // --no-config: the repo's .mocharc.json lists the unit suites, which must not run here.
    // --forbid-only / --forbid-pending: as in .mocharc.json, a stray `.only` or a skip fails the run.
    const compat = await run(
      'npx',
      [
        'mocha',
        '--no-config',
        '--forbid-only',
        '--forbid-pending',
        '--ui',
        'bdd',
        '--reporter',
        'spec',
        '--timeout',
        '60000',
        '--exit',
        'out/test/llama/client/**/*.test.js',
      ],
      env,
    );
    const number = (word) => Number(compat.output.match(new RegExp(`^\\s*(\\d+) ${word}`, 'm'))?.[1] ?? 0);
    record(
      'compat (client, plain Node)',
      { passed: number('passing'), failed: number('failing'), skipped: number('pending') },
      compat.code,
      (Date.now() - t) / 1000,
    );
  }

  // --- 4b. the real extension in a real VS Code extension host ----------------------------------------
  if (only === undefined || only === 'integration') {
    t = Date.now();
    // LLAMA_HARNESS_RUNNER: try a changed copy of the harness runner before it lands in the repo.
    const harness = process.env.LLAMA_HARNESS_RUNNER || path.join('test', 'support', 'harness', 'runIntegration.mjs');
    if (!fs.readFileSync(harness, 'utf8').includes('HARNESS_TESTS_ENTRY')) {
      log(`${harness} does not honour HARNESS_TESTS_ENTRY yet, so it cannot load test/llama/host (see test/llama/README.md)`);
      record('integration (extension host)', undefined, 1, 0);
    } else {
      const integration = await run('node', [harness, '--no-build'], {
        ...env,
        HARNESS_TESTS_ENTRY: path.join(repoRoot, 'out', 'test', 'llama', 'host', 'llamaRunner'),
        HARNESS_RESULTS: path.join(repoRoot, 'test-results', 'integration-llama.json'),
      });
      // The harness's last line: `N passed, N failed, N skipped`.
      const counts = [...integration.output.matchAll(/^(\d+) passed, (\d+) failed, (\d+) skipped\s*$/gm)].at(-1);
      record(
        'integration (extension host)',
        counts ? { passed: Number(counts[1]), failed: Number(counts[2]), skipped: Number(counts[3]) } : undefined,
        integration.code,
        (Date.now() - t) / 1000,
      );
    }
  }
}

main()
  .catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    parts.push({ name: 'runner', passed: 0, failed: 1, broken: true, seconds: 0 });
  })
  .finally(finish);
