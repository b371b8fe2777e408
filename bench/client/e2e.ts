// End-to-end streaming benchmark against a real llama-server serving a Qwen2.5-0.5B-shaped model (Q8_0,
// random weights: the speed of a real model of that shape, the text is noise). The same request is made
// side by side, interleaved round by round, by
//   curl    the raw stream: curl -N, timed by curl's own --trace-time log, from its first line (so
//           process start-up is not charged to it) to each received block of data;
//   openai  the official openai client (node);
//   cadenza Cadenza's InferenceClient.streamChat.
// It prints each one's time to first token (TTFT) and decode speed, and Cadenza's added TTFT and its
// tokens/s ratio against curl. Goal: within 2% of the raw stream.
//
// On a shared two-core machine the server's own speed swings several-fold from one request to the next
// (other work takes the cores), which drowns a client's cost in raw medians. So every request is also
// measured from the server's side, through llama-server's /metrics counters (prompt and generation time,
// read before and after each request): a runner's added TTFT is its TTFT minus the server's prompt time
// for that very request, and its decode ratio is the tokens/s it saw over the tokens/s the server
// produced. Comparing those between runners cancels the server's swings; the raw medians are printed too.
//
//   npx tsc -p tsconfig.json && node out/bench/client/e2e.js [rounds=5] [promptWords=400] [maxTokens=128]
//
// It runs test/llama/setup.sh bench first (builds llama-server and generates the 531 MB model once).
//
// --real: the same three runners against the REAL chat model of the local stack (scripts/local-stack:
// Qwen2.5-Coder-1.5B-Instruct Q4_K_M on the stack's llama-server with its template and thread rule), on real questions, one
// run: each question once per runner, so rounds = the number of questions (5).
//
//   npx tsc -p tsconfig.json && node out/bench/client/e2e.js --real [maxTokens=64]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION as openaiVersion } from 'openai/version';
import { InferenceClient } from '../../src/core/api/client';
import { repoRoot } from '../../test/support/fixtures/repoRoot';
import { cadenzaRunner, counters, curlRunner, openaiRunner, serverSide, type Asked, type Runner, type Sample, type ServerSide } from './e2eRunners';

const real = process.argv.includes('--real');
const args = process.argv.slice(2).filter((arg) => arg !== '--real');
/** Real questions for --real, each with a word the answer is expected to hold (printed, not asserted). */
const questions = [
  'What is the capital city of France?',
  'Which planet is known as the red planet?',
  'What is the largest ocean on Earth?',
  'Who wrote the play Romeo and Juliet?',
  'What gas do plants take in from the air to make food?',
];
const rounds = real ? questions.length : Number(args[0] ?? 5);
const promptWords = real ? 0 : Number(args[1] ?? 400);
const maxTokens = Number((real ? args[0] : args[2]) ?? (real ? 64 : 128));
const model = real ? 'qwen2.5-coder-1.5b' : 'qwen2.5-0.5b-shaped';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** The stack's rule (scripts/local-stack/stack.mjs llamaThreads): one thread when the cores are busy. */
function stackThreads(): number {
  const asked = Number(process.env['CADENZA_STACK_THREADS']);
  if (Number.isInteger(asked) && asked > 0) return asked;
  return (loadavg()[0] ?? 0) >= availableParallelism() ? 1 : Math.min(2, availableParallelism());
}

async function startServer(root: string, scratch: string): Promise<{ url: string; child: ChildProcess; threads: number }> {
  const home = process.env['CADENZA_LLAMA_HOME'] ?? join(homedir(), '.cache', 'cadenza-llama');
  const stackHome = process.env['CADENZA_STACK_HOME'] ?? join(homedir(), '.cache', 'cadenza-local-stack');
  execFileSync('bash', real ? [join(root, 'scripts', 'local-stack', 'setup.sh')] : [join(root, 'test', 'llama', 'setup.sh'), 'bench'], { stdio: 'inherit' });
  const port = await freePort();
  const logFile = join(scratch, 'llama-bench.log');
  const out = openSync(logFile, 'w');
  // One slot, 4096 context: a small self-hosted deployment. Two threads for the generated model (the
  // machine has two cores); the real model runs as the stack runs it. --metrics: the per-request
  // server-side figures (see the top of this file).
  const threads = real ? stackThreads() : 2;
  const weights = real
    ? [
        '-m',
        join(stackHome, 'models', 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'),
        '--chat-template-file',
        join(root, 'scripts', 'local-stack', 'qwen2.5-coder-tools.jinja'),
      ]
    : ['-m', join(home, 'models', 'chat-qwen05b.gguf')];
  // The real model runs on the server the stack chose (setup.sh's llama-server.env: prebuilt or source).
  const chosen = real ? /^LLAMA_SERVER=(.*)$/m.exec(readFileSync(join(stackHome, 'llama-server.env'), 'utf8'))?.[1] : undefined;
  const child = spawn(
    chosen ?? join(home, 'bin', 'llama-server'),
    [
      ...weights,
      '--alias',
      model,
      '--jinja',
      '-c',
      '4096',
      '-np',
      '1',
      '-t',
      String(threads),
      '--metrics',
      '--no-webui',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { detached: true, stdio: ['ignore', out, out] },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    const ok = await fetch(`${url}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { url, child, threads };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  stop(child);
  throw new Error(`llama-server did not become healthy; log:\n${readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n')}`);
}

/** Kills the server's whole process group. */
function stop(child: ChildProcess | undefined): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function main(): Promise<void> {
  const root = repoRoot();
  const scratch = mkdtempSync(join(tmpdir(), 'cadenza-bench-e2e-'));
  let server: { url: string; child: ChildProcess; threads: number } | undefined;
  const stopOnSignal = (): void => {
    stop(server?.child);
    process.exit(130);
  };
  process.on('SIGINT', stopOnSignal);
  process.on('SIGTERM', stopOnSignal);
  try {
    server = await startServer(root, scratch);
    const cadenza = new InferenceClient({ baseUrl: server.url, apiKey: 'none', maxRetries: 0, timeoutMs: 300_000 });
    const asked: Asked = { model, maxTokens };
    const runners: [string, Runner][] = [
      ['curl (raw stream)', curlRunner(server.url, scratch, asked)],
      [`openai ${openaiVersion}`, openaiRunner(server.url, asked)],
      ['cadenza', cadenzaRunner(cadenza, asked)],
    ];
    const vocabulary = 'the quick brown fox jumps over the lazy dog while a small model reads source code and runs tests'.split(' ');
    // Each request differs at the start of the user message, so llama-server's prompt cache reuses only
    // the chat template's fixed prefix, equally for every runner, and the prompt is processed every time.
    // --real: each runner asks the same question in the same round, told apart by a short tag so the
    // prompt cache cannot serve one runner from another's request (warm-up questions are tagged -1).
    const prompt = (round: number, runner: number): string =>
      real
        ? `(${round + 1}.${runner}) ${questions[(round + questions.length) % questions.length] ?? ''}`
        : `[round ${round} runner ${runner}] ` +
          Array.from({ length: promptWords }, (_, i) => vocabulary[(i * 7 + round + runner) % vocabulary.length]).join(' ');
    process.stdout.write(
      real
        ? `bench/client/e2e --real: llama-server ${server.url}, ${model} (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, the local stack's template, ${server.threads} thread(s)), ${questions.length} real questions once per runner, max_tokens ${maxTokens}; load average ${loadavg()
            .map((n) => n.toFixed(1))
            .join(' ')}\n`
        : `bench/client/e2e: llama-server ${server.url}, ${model} (Q8_0, 494 M parameters), ${promptWords}-word prompt, max_tokens ${maxTokens}, ${rounds} rounds; load average ${loadavg()
            .map((n) => n.toFixed(1))
            .join(' ')}\n`,
    );
    // Warm-up: connections, server caches. Each waits for the server's counters, so the first measured
    // request does not see the last warm-up's figures arrive late.
    for (const [, run] of runners) {
      const before = await counters(server.url);
      await run(prompt(-1, 0));
      await serverSide(server.url, before);
    }

    const samples = new Map<string, { client: Sample; server: ServerSide }[]>(runners.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      // Rotate the order each round so no runner always goes first after an idle gap.
      for (let k = 0; k < runners.length; k++) {
        const index = (round + k) % runners.length;
        const entry = runners[index];
        if (!entry) continue;
        const [name, run] = entry;
        const before = await counters(server.url);
        const result = await run(prompt(round, index));
        const side = await serverSide(server.url, before);
        samples.get(name)?.push({ client: result, server: side });
        process.stdout.write(
          `  round ${round + 1} ${name.padEnd(18)} TTFT ${result.ttftMs.toFixed(1).padStart(8)} ms (server prompt ${side.promptMs.toFixed(1).padStart(8)} ms)   ` +
            `${result.tokensPerSecond.toFixed(2).padStart(6)} tok/s (server ${side.tokensPerSecond.toFixed(2).padStart(6)})   ${result.chunks} chunks, ${result.tokens} tokens, ${(result.totalMs / 1000).toFixed(2)} s\n`,
        );
      }
    }
    await cadenza.close();

    const rows = [...samples].map(([name, list]) => ({
      name,
      ttft: median(list.map((s) => s.client.ttftMs)),
      rate: median(list.map((s) => s.client.tokensPerSecond)),
      // What the runner adds to the server's own prompt time, and what share of the server's speed it sees.
      addedTtft: median(list.map((s) => s.client.ttftMs - s.server.promptMs)),
      rateShare: median(list.map((s) => s.client.tokensPerSecond / s.server.tokensPerSecond)),
    }));
    process.stdout.write(
      `\n${'runner'.padEnd(20)}${'TTFT'.padStart(12)}${'tok/s'.padStart(9)}${'TTFT - server prompt'.padStart(23)}${'tok/s / server tok/s'.padStart(23)}   (medians of ${rounds})\n`,
    );
    for (const row of rows) {
      process.stdout.write(
        `${row.name.padEnd(20)}${`${row.ttft.toFixed(1)} ms`.padStart(12)}${row.rate.toFixed(2).padStart(9)}${`${row.addedTtft.toFixed(1)} ms`.padStart(23)}${row.rateShare.toFixed(4).padStart(23)}\n`,
      );
    }
    const raw = rows[0];
    const ours = rows[2];
    const sdk = rows[1];
    if (!raw || !ours || !sdk) throw new Error('missing runner rows');
    const added = ours.addedTtft - raw.addedTtft;
    const ttftRatio = (raw.ttft + added) / raw.ttft;
    const rateRatio = ours.rateShare / raw.rateShare;
    process.stdout.write(
      `\ncadenza's added time to first token vs curl: ${added >= 0 ? '+' : ''}${added.toFixed(1)} ms per request (openai: ${sdk.addedTtft - raw.addedTtft >= 0 ? '+' : ''}${(sdk.addedTtft - raw.addedTtft).toFixed(1)} ms)\n`,
    );
    process.stdout.write(
      `cadenza / curl, server swings removed: TTFT ratio ${ttftRatio.toFixed(4)}, tokens/s ratio ${rateRatio.toFixed(4)}  ` +
        `(goal: within 2% -> ${Math.abs(ttftRatio - 1) <= 0.02 && Math.abs(rateRatio - 1) <= 0.02 ? 'MET' : 'NOT MET'})\n`,
    );
    process.stdout.write(
      `cadenza / curl, raw medians:            TTFT ratio ${(ours.ttft / raw.ttft).toFixed(4)}, tokens/s ratio ${(ours.rate / raw.rate).toFixed(4)}\n`,
    );
    process.stdout.write(
      `load average after: ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}\n`,
    );
  } finally {
    stop(server?.child);
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/client/e2e: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
