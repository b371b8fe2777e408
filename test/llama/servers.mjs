// Starts and stops the llama-server instances the llama tier tests against, built by setup.sh into
// $CADENZA_LLAMA_HOME (default ~/.cache/cadenza-llama). Each server binds 127.0.0.1 on a port the OS
// just handed out, leads its own process group (so a kill of the group takes every thread and helper
// with it), and is registered for stopAll(), which run.mjs calls on every exit path.
//
//   chat     chat-scripted.gguf + mmproj-tiny.gguf: chat, SSE, tools, JSON, images, transcription
//   textOnly chat-scripted.gguf without a projector: how llama-server refuses an image
//   embed    embed-minilm.gguf with --embeddings: /v1/embeddings
//   thinking chat-thinking.gguf with --reasoning-format deepseek: thinking streamed as reasoning_content
//
// CLI, for trying things by hand: `node test/llama/servers.mjs` starts all four, prints their URLs
// and stops them on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupAlive, killGroup } from '../support/harness/processGroups.mjs';
import { freePort } from '../support/harness/workbench.mjs';

/** The cache folder setup.sh fills. */
export const llamaHome = process.env.CADENZA_LLAMA_HOME || path.join(os.homedir(), '.cache', 'cadenza-llama');
/**
 * The llama-server binary (its libraries sit next to it). CADENZA_LLAMA_SERVER runs the tier against
 * another one, e.g. the local stack's prebuilt server, to check it before any test relies on it.
 */
export const llamaServerBin = process.env.CADENZA_LLAMA_SERVER || path.join(llamaHome, 'bin', 'llama-server');
const models = path.join(llamaHome, 'models');

/** The model ids the servers list (`--alias`), so tests do not depend on file paths. */
export const modelIds = { chat: 'cadenza-scripted-qwen2', embed: 'cadenza-minilm-embed', thinking: 'cadenza-thinking-qwen3' };

/** How each server is started. `-t 2`: the CI machine has two cores; more threads only contend. */
const presets = {
  chat: [
    '-m',
    path.join(models, 'chat-scripted.gguf'),
    '--mmproj',
    path.join(models, 'mmproj-tiny.gguf'),
    '--alias',
    modelIds.chat,
    '--jinja',
    '-c',
    '8192',
    '-np',
    '2',
    '-t',
    '2',
  ],
  textOnly: ['-m', path.join(models, 'chat-scripted.gguf'), '--alias', modelIds.chat, '--jinja', '-c', '4096', '-np', '1', '-t', '1'],
  embed: [
    '-m',
    path.join(models, 'embed-minilm.gguf'),
    '--alias',
    modelIds.embed,
    '--embeddings',
    '--pooling',
    'mean',
    '-c',
    '4096',
    '-b',
    '4096',
    '-ub',
    '512',
    '-np',
    '4',
    '-t',
    '2',
  ],
  // deepseek is also what this llama.cpp's default (auto) picks; said outright, since it is what the
  // tests are about: the thinking in `reasoning_content`, the answer alone in `content`.
  thinking: [
    '-m',
    path.join(models, 'chat-thinking.gguf'),
    '--alias',
    modelIds.thinking,
    '--jinja',
    '--reasoning-format',
    'deepseek',
    '-c',
    '2048',
    '-np',
    '1',
    '-t',
    '1',
  ],
};

/** Every process group we started and have not seen exit. */
const owned = new Map();
/** Every server this process ever started: the "nothing left behind" check looks at these only. */
const everStarted = new Set();

/**
 * Starts one server and resolves once /health answers 200 ("ok" means the model is loaded).
 * Rejects with the tail of its log when it exits or is not healthy within `timeoutMs`.
 * @param {keyof typeof presets} name
 * @param {{ logDir: string, timeoutMs?: number, extraArgs?: string[] }} options
 * @returns {Promise<{ name: string, url: string, pid: number, log: string }>}
 */
export async function startServer(name, { logDir, timeoutMs = 60_000, extraArgs = [] }) {
  if (!fs.existsSync(llamaServerBin)) throw new Error(`${llamaServerBin} is missing: run bash test/llama/setup.sh`);
  const port = await freePort();
  const log = path.join(logDir, `llama-${name}.log`);
  const out = fs.openSync(log, 'w');
  // --no-webui: no UI is served (nor was one downloaded at build time). --port is always explicit:
  // this llama.cpp announces that its default port will change.
  const args = [...presets[name], ...extraArgs, '--no-webui', '--host', '127.0.0.1', '--port', String(port)];
  const child = spawn(llamaServerBin, args, { detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  owned.set(child.pid, name);
  everStarted.add(child.pid);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = signal ?? `exit ${code}`;
    owned.delete(child.pid);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== null) break;
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return { name, url, pid: child.pid, log };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  killGroup(child.pid, 'SIGKILL');
  const tail = fs.readFileSync(log, 'utf8').split('\n').slice(-25).join('\n');
  throw new Error(`llama-server ${name} ${exited === null ? `not healthy within ${timeoutMs} ms` : `exited (${exited})`}; log ${log}:\n${tail}`);
}

/**
 * Stops every server this process started: SIGTERM to each process group, SIGKILL to what is left
 * after `graceMs`. Synchronous waits on purpose, so it also works from an 'exit' handler.
 */
export function stopAll(graceMs = 3000) {
  const pids = [...owned.keys()];
  for (const pid of pids) killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(groupAlive) && Date.now() < deadline) spawnSync('sleep', ['0.05']);
  for (const pid of pids) {
    if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
    owned.delete(pid);
  }
}

/** The llama-server processes this run started that are still running (for the "nothing left behind" check). */
export function leftoverServers() {
  // Only this run's servers: on a shared machine another engineer's llama-server, started from the same
  // cached binary, is not ours to report (nor to kill).
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return (ps.stdout ?? '')
    .split('\n')
    .filter((line) => line.includes(llamaServerBin) && everStarted.has(Number(line.trim().split(/\s+/, 1)[0])))
    .map((line) => line.trim());
}

/** Makes sure the servers die with us: normal exit, uncaught errors and termination signals. */
export function stopOnExit() {
  process.on('exit', () => stopAll(1000));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      stopAll(1000);
      process.exit(128 + (os.constants.signals[signal] ?? 1));
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  stopOnExit();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-llama-'));
  const running = await Promise.all(Object.keys(presets).map((name) => startServer(name, { logDir })));
  for (const server of running) console.log(`${server.name.padEnd(8)} ${server.url}  (pid ${server.pid}, log ${server.log})`);
  console.log(`models: ${JSON.stringify(modelIds)}; Ctrl-C stops them`);
  setInterval(() => {}, 1 << 30);
}
