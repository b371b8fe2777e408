#!/usr/bin/env node
// The local stack as a new user meets it: from nothing to the first streamed answer, then its speed and
// memory. Into a scratch CADENZA_STACK_HOME (so the user's own stack is untouched): setup.sh (downloads,
// joins and checks the model, probes or builds llama-server), then the three servers, then one chat
// question streamed through Cadenza's own client; then prints each step's time, the chat model's tokens
// per second (llama-server's own timings) and the resident memory of every stack process, and writes the
// table to bench/results/localStack.md.
//
//   npx tsc -p tsconfig.json && node bench/stack/localStack.mjs [--keep] [--fresh-llama (also a scratch
//     CADENZA_LLAMA_HOME, so a CPU without AVX-512 builds llama-server too)]
//
// Not counted: npm ci, the extension build and opening the workbench (`npm start` does those too; see
// the closing note of the run that reports this).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-firstrun-'));
process.env.CADENZA_STACK_HOME = path.join(scratch, 'stack');
if (process.argv.includes('--fresh-llama')) process.env.CADENZA_LLAMA_HOME = path.join(scratch, 'llama');
// Imported after the environment is set: stack.mjs reads CADENZA_STACK_HOME when it loads.
const { startStack, stopStack, stackModels, chosenLlamaServer } = await import('../../scripts/local-stack/stack.mjs');
const { InferenceClient } = createRequire(import.meta.url)(path.join(repoRoot, 'out', 'src', 'core', 'api', 'client.js'));

const started = Date.now();
const seconds = (from) => ((Date.now() - from) / 1000).toFixed(1);
const rows = [];

function runSetup() {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(repoRoot, 'scripts', 'local-stack', 'setup.sh')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let last = Date.now();
    let longestSilence = 0;
    child.stdout.on('data', (data) => {
      longestSilence = Math.max(longestSilence, Date.now() - last);
      last = Date.now();
      process.stdout.write(data);
    });
    child.on('close', (code) => (code === 0 ? resolve(longestSilence) : reject(new Error(`setup.sh exited ${code}`))));
  });
}

/** Resident memory (kB) of every process in the process group led by `pid`. */
function groupRssKb(pid) {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pid) continue; // pgrp
      const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'));
      total += Number(rss?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return total;
}

let stack;
try {
  let t = Date.now();
  const silence = await runSetup();
  rows.push(['setup.sh (download, join and check, llama-server probe or build)', `${seconds(t)} s`]);
  rows.push(['longest gap between setup progress lines', `${(silence / 1000).toFixed(1)} s`]);
  const server = chosenLlamaServer();
  rows.push(['llama-server', `${server.kind}: ${server.why}`]);
  t = Date.now();
  stack = await startStack({ logDir: scratch });
  rows.push(['three servers healthy', `${seconds(t)} s`]);
  t = Date.now();
  const client = new InferenceClient({ baseUrl: stack.chat.url, apiKey: 'local-stack', maxRetries: 0, timeoutMs: 300_000 });
  await client.listModels();
  let firstText;
  let answer = '';
  const stream = client.streamChat({
    model: stackModels.chat,
    messages: [
      { role: 'user', content: 'In one sentence: what does a TypeScript function `greeting(name: string): string` that returns `Hello, ${name}!` do?' },
    ],
    maxTokens: 80,
    temperature: 0,
  });
  for await (const event of stream) {
    if (event.type === 'text') {
      firstText ??= Date.now();
      answer += event.text;
    }
  }
  await client.close();
  rows.push(['first streamed token of the first answer', `${((firstText - t) / 1000).toFixed(1)} s`]);
  rows.push(['from nothing to the first token (setup + servers + answer)', `${seconds(started)} s`]);
  rows.push(['the answer', JSON.stringify(answer.trim()).slice(0, 160)]);
  // One more request, not streamed, for llama-server's own timings of prompt and generation.
  const timed = await (
    await fetch(`${stack.chat.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: stackModels.chat,
        messages: [{ role: 'user', content: 'Write a Python function that returns the n-th Fibonacci number.' }],
        max_tokens: 96,
        temperature: 0,
        cache_prompt: false,
      }),
    })
  ).json();
  rows.push(['chat prompt speed', `${timed.timings.prompt_per_second.toFixed(1)} tokens/s (${timed.timings.prompt_n} tokens)`]);
  rows.push(['chat generation speed', `${timed.timings.predicted_per_second.toFixed(1)} tokens/s (${timed.timings.predicted_n} tokens)`]);
  let total = 0;
  for (const name of ['chat', 'embeddings', 'audio']) {
    const kb = groupRssKb(stack[name].pid);
    total += kb;
    rows.push([`resident memory: ${name}`, `${(kb / 1024).toFixed(0)} MB`]);
  }
  rows.push(['resident memory: the whole stack', `${(total / 1024 / 1024).toFixed(2)} GB`]);
} finally {
  stopStack();
  if (!process.argv.includes('--keep')) fs.rmSync(scratch, { recursive: true, force: true });
}

const load = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(' ');
const cpu = (/model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU').trim();
const header = `# bench/stack/localStack: from nothing to the first answer\n\n${new Date().toISOString().slice(0, 10)}, ${cpu}, ${os.availableParallelism()} cores, load average at the end ${load}.\nCommand: \`node bench/stack/localStack.mjs${process.argv
  .slice(2)
  .map((a) => ` ${a}`)
  .join('')}\`\n\n| step | figure |\n| --- | --- |\n`;
const table = rows.map(([step, figure]) => `| ${step} | ${String(figure).replace(/\|/g, '\\|')} |`).join('\n');
console.log(`\n${header}${table}`);
fs.mkdirSync(path.join(repoRoot, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(repoRoot, 'bench', 'results', 'localStack.md'), `${header}${table}\n`);
