#!/usr/bin/env node
// `npm run screenshots`: the README's pictures, made by the UI tier itself so they can never drift from
// the product. It packages the extension, compiles the emulator, runs the UI tests that show each feature
// (test/support/harness/runUi.mjs: the packaged .vsix in the real workbench, every answer from the project's
// emulator) in the light theme at a fixed window size, and copies the chosen moments to
// media/screenshots/. A moment whose test failed is never used: the command fails instead, and leaves the
// committed pictures as they were. The workspace is the fixture workspace in a scratch folder, so no
// personal path or name appears; the moments are chosen where no absolute path is on screen.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'media', 'screenshots');
/** The window: small enough that the panel's text stays readable where a gallery shrinks the picture. */
const viewport = '1100x700';
const theme = 'Default Light Modern';

/**
 * The README's pictures: the file in media/screenshots/, the test (by its file and the start of its
 * name) and the moment (a `shot(label)` taken mid-way, or null for the end of the test).
 */
const moments = [
  { file: 'first-run.png', test: 'firstRun: first run: the panel asks for a key', label: 'first answer' },
  { file: 'chat.png', test: 'chat: Select Model from the palette', label: null },
  { file: 'explain.png', test: 'chat: Explain Selection from the editor context menu', label: null },
  { file: 'reasoning.png', test: 'reasoning: a reasoning model', label: 'thinking opened again' },
  { file: 'agent.png', test: 'agent: a question makes the agent', label: 'edit waiting for approval' },
  { file: 'transcribe.png', test: 'audio: Explorer', label: 'transcript document' },
  { file: 'chat-audio.png', test: 'chatAudio: chat panel: pick', label: 'answer about the audio' },
  { file: 'search.png', test: 'search: Rebuild Index', label: 'search results' },
  { file: 'completions.png', test: 'completions: inline completions: ghost text', label: 'ghost text' },
  { file: 'instructions.png', test: 'instructions: project instructions', label: 'instruction chips' },
];
/** The UI test files those moments come from (each sets its own key; the chat tests build on each other). */
const files = [...new Set(moments.map((moment) => moment.test.split(':')[0]))];

function step(command, args, env = {}) {
  process.stdout.write(`[screenshots] ${command} ${args.join(' ')}\n`);
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status;
}

if (step('npm', ['run', '--silent', 'package']) !== 0) process.exit(1);
if (step('npx', ['tsc', '-p', 'tsconfig.json']) !== 0) process.exit(1);
const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-screenshots-'));
// The UI run's own exit code is not the verdict here: a flaky test that gives no picture should not stop
// the others. Each chosen moment's own test must have passed (checked below).
step('node', ['test/support/harness/runUi.mjs', '--grep', `^(${files.join('|')}) `], { SHOTS: shots, UI_VIEWPORT: viewport, UI_THEME: theme });

const indexFile = path.join(shots, 'shots.json');
if (!fs.existsSync(indexFile)) {
  process.stdout.write('[screenshots] the UI run wrote no shots.json; nothing changed\n');
  process.exit(1);
}
const taken = JSON.parse(fs.readFileSync(indexFile, 'utf8'));
const chosen = [];
const problems = [];
for (const moment of moments) {
  const entry = taken.find((shot) => shot.test.startsWith(moment.test) && shot.label === moment.label);
  if (!entry) problems.push(`${moment.file}: no screenshot "${moment.label ?? 'end'}" of "${moment.test}…"`);
  else if (!entry.passed) problems.push(`${moment.file}: its test failed: ${entry.test}`);
  else chosen.push({ ...moment, from: path.join(shots, entry.file) });
}
if (problems.length > 0) {
  process.stdout.write(`[screenshots] not updated (screenshots of this run kept in ${shots}):\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}

fs.mkdirSync(out, { recursive: true });
for (const file of fs.readdirSync(out)) if (file.endsWith('.png')) fs.rmSync(path.join(out, file));
let total = 0;
for (const moment of chosen) {
  fs.copyFileSync(moment.from, path.join(out, moment.file));
  const { size } = fs.statSync(path.join(out, moment.file));
  total += size;
  process.stdout.write(`[screenshots] media/screenshots/${moment.file} (${(size / 1024).toFixed(0)} KB)\n`);
}
fs.rmSync(shots, { recursive: true, force: true });
process.stdout.write(`[screenshots] ${chosen.length} screenshots, ${(total / 1024).toFixed(0)} KB in all, ${viewport}, ${theme}\n`);
