// Inline completions' quality on a held-out set of real code already on this machine (completionsCases.ts:
// Python's standard library, JSDoc'd JavaScript in node_modules and TypeScript's lib*.d.ts). Each case
// removes a span from a function (one line, or a block: a header line and its body) and asks for it with the
// cursor where the span began (its indentation typed). Variants, on a REAL local model on llama-server:
//   cadenza-fim   the product's fill-in-the-middle path: infillPrompt.ts (the text around the cursor, cut to
//                 the budget) sent to POST /infill through the client, streamed and cleaned by fetchInfill.ts;
//   cadenza-chat  the product's chat prompt (prompt.ts) and its streamed post-processing (fetchCompletion.ts);
//   naive         the same kept prefix as the only chat message, the raw answer taken as is.
// Prints exact match (trailing whitespace ignored) and edit similarity (1 - Levenshtein / longer length) per
// variant and source, and the time per request. Results are cached on disk per case and variant, so a run
// that is stopped resumes where it was; a different model, budget or token cap starts a new cache file, and
// each Cadenza variant's results are keyed by a hash of the product sources it runs through (a product change
// asks those again; the naive ones stay). The variants can run in two processes at once.
//
//   npx tsc -p tsconfig.json && node out/bench/completions/completionsQuality.js [--cases 520] [--budget 1500 (prompt.ts's default)]
//     [--max-tokens 64] [--concurrency 2] [--limit N] [--path fim|chat (default both)] [--variants
//     cadenza-fim,cadenza-chat,naive] [--model qwen2.5-coder-1.5b (the id the server serves)]
//     [--url http://127.0.0.1:PORT (a running llama-server; else one is started with --weights PATH, for
//     qwen2.5-coder-1.5b the local stack's)] [--threads N (llama-server's; default 1 when the load average is at
//     or above the core count, else 2)] [--report (print the table of the cached results, ask nothing)]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { InferenceClient } from '../../src/core/api/client';
import { fetchCompletion } from '../../src/core/completions/fetchCompletion';
import { fetchInfill } from '../../src/core/completions/fetchInfill';
import { buildInfillPrompt } from '../../src/core/completions/infillPrompt';
import { buildCompletionPrompt, DEFAULT_BUDGET_TOKENS } from '../../src/core/completions/prompt';
import { repoRoot } from '../../test/support/fixtures/repoRoot';
import { buildCases, materialise, normalise, similarity, type Case } from './completionsCases';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '520' },
    // The product's own budget (prompt.ts), so the default run measures what ships.
    budget: { type: 'string', default: String(DEFAULT_BUDGET_TOKENS) },
    'max-tokens': { type: 'string', default: '64' },
    concurrency: { type: 'string', default: '2' },
    url: { type: 'string' },
    limit: { type: 'string' },
    seed: { type: 'string', default: '16' },
    path: { type: 'string' },
    variants: { type: 'string' },
    model: { type: 'string', default: 'qwen2.5-coder-1.5b' },
    weights: { type: 'string' },
    threads: { type: 'string' },
    report: { type: 'boolean', default: false },
  },
});
const caseCount = Number(values.cases);
const budgetTokens = Number(values.budget);
const maxTokensCap = Number(values['max-tokens']);
const concurrency = Math.max(1, Number(values.concurrency));
const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
const allVariants = ['cadenza-fim', 'cadenza-chat', 'naive'] as const;
type Variant = (typeof allVariants)[number];
const pathChoice = values.path === 'fim' || values.path === 'chat' ? [`cadenza-${values.path}`, 'naive'] : allVariants;
if (values.path !== undefined && values.path !== 'fim' && values.path !== 'chat') throw new Error(`--path is fim or chat, not ${values.path}`);
const variants = (values.variants?.split(',') ?? pathChoice).filter((name): name is Variant => (allVariants as readonly string[]).includes(name));
// llama.cpp's threads meet at a barrier per layer: on a busy two-core machine one thread decodes several
// times faster than two (scripts/local-stack/stack.mjs llamaThreads), so the default follows the load.
const threads = values.threads !== undefined ? Number(values.threads) : (loadavg()[0] ?? 0) >= availableParallelism() ? 1 : Math.min(2, availableParallelism());
const model = values.model ?? 'qwen2.5-coder-1.5b';

interface Result {
  readonly key: string;
  readonly id: string;
  readonly variant: Variant;
  readonly text: string;
  readonly ms: number;
  readonly completionTokens: number;
}

// Cadenza's answers depend on the product's code they run through, so their key carries a hash of those
// sources: a change to any of them asks again, while the naive variant (the kept prefix alone, the raw
// answer) keeps its results.
const fingerprint = (files: readonly string[]): string =>
  createHash('sha256')
    .update(files.map((name) => readFileSync(join(repoRoot(), 'src', 'core', name), 'utf8')).join('\n'))
    .digest('hex')
    .slice(0, 8);
const shared = ['completions/prompt.ts', 'completions/postprocess.ts', 'completions/fetchCompletion.ts'];
const productFingerprint: Record<Variant, string> = {
  'cadenza-chat': fingerprint(shared),
  'cadenza-fim': fingerprint([...shared, 'completions/infillPrompt.ts', 'completions/fetchInfill.ts', 'api/infill.ts']),
  naive: '',
};
const resultKey = (id: string, variant: Variant): string => (variant === 'naive' ? `${id}#naive` : `${id}#${variant}@${productFingerprint[variant]}`);

// ---- the server ----
async function startLlama(): Promise<{ url: string; stop: () => void }> {
  const llamaHome = process.env['CADENZA_LLAMA_HOME'] ?? join(homedir(), '.cache', 'cadenza-llama');
  const stackHome = process.env['CADENZA_STACK_HOME'] ?? join(homedir(), '.cache', 'cadenza-local-stack');
  // The local stack's model and the llama-server setup.sh chose for it (prebuilt or source build).
  const stackModel = model === 'qwen2.5-coder-1.5b';
  const chosen = existsSync(join(stackHome, 'llama-server.env'))
    ? /^LLAMA_SERVER=(.*)$/m.exec(readFileSync(join(stackHome, 'llama-server.env'), 'utf8'))?.[1]
    : undefined;
  const binary = stackModel && chosen !== undefined ? chosen : join(llamaHome, 'bin', 'llama-server');
  const weights = values.weights ?? (stackModel ? join(stackHome, 'models', 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf') : undefined);
  if (weights === undefined)
    throw new Error(`--weights PATH (a GGUF of ${model}) or --url of a running server is needed for a model other than the local stack's qwen2.5-coder-1.5b`);
  for (const needed of [binary, weights]) if (!existsSync(needed)) throw new Error(`${needed} is missing: run bash scripts/local-stack/setup.sh`);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  // The stack's own arguments (scripts/local-stack/stack.mjs), with one slot per concurrent request, and
  // its tool-call template for its model (completions do not use it; the chat variants see what users see).
  const template = stackModel ? ['--chat-template-file', join(repoRoot(), 'scripts', 'local-stack', 'qwen2.5-coder-tools.jinja')] : [];
  const child = spawn(
    binary,
    [
      '-m',
      weights,
      '--alias',
      model,
      '--jinja',
      ...template,
      '-c',
      String(4096 * concurrency),
      '-np',
      String(concurrency),
      '-t',
      String(threads),
      '--no-webui',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { detached: true, stdio: 'ignore' },
  );
  const stop = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return { url, stop };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  stop();
  throw new Error('llama-server did not become healthy in 2 minutes');
}

async function main(): Promise<void> {
  const cases = buildCases(caseCount, Number(values.seed)).slice(0, limit);
  const settings = createHash('sha256')
    .update(JSON.stringify({ model, budgetTokens, maxTokensCap, seed: values.seed, caseCount, v: 1 }))
    .digest('hex')
    .slice(0, 12);
  const cacheDir = join(homedir(), '.cache', 'cadenza-bench');
  mkdirSync(cacheDir, { recursive: true });
  const cacheFile = join(cacheDir, `completions-quality-${settings}.jsonl`);
  const done = new Map<string, Result>();
  if (existsSync(cacheFile)) {
    for (const line of readFileSync(cacheFile, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const result = JSON.parse(line) as Result;
      done.set(result.key, result);
    }
  }
  const todo = values.report
    ? []
    : cases.flatMap((entry) => variants.map((variant) => ({ entry, variant, key: resultKey(entry.id, variant) }))).filter((job) => !done.has(job.key));
  process.stdout.write(
    `${cases.length} cases x ${variants.length} variants (${variants.join(', ')}); ${done.size} results cached in ${cacheFile}, ${todo.length} to ask.\n`,
  );
  const server = todo.length === 0 ? undefined : values.url !== undefined ? { url: values.url, stop: (): void => undefined } : await startLlama();
  const client = server
    ? new InferenceClient({ baseUrl: server.url, apiKey: 'local', maxRetries: 1, timeoutMs: 900_000, transport: { useEnvironment: false } })
    : undefined;
  const started = performance.now();
  let asked = 0;
  const next = async (): Promise<void> => {
    for (let job = todo.shift(); job && client; job = todo.shift()) {
      const { entry, variant } = job;
      const { prefix, suffix } = materialise(entry);
      const input = { path: entry.path, languageId: entry.languageId, prefix, suffix, budgetTokens };
      const built = buildCompletionPrompt(input);
      const t0 = performance.now();
      let text: string;
      let completionTokens: number;
      if (variant === 'cadenza-chat') {
        const answer = await fetchCompletion({
          port: client,
          model,
          prompt: { ...built, maxTokens: Math.min(built.maxTokens, maxTokensCap) },
          signal: new AbortController().signal,
        });
        text = answer.text;
        completionTokens = answer.usage.completionTokens;
      } else if (variant === 'cadenza-fim') {
        // The product's fill-in-the-middle path: the same budget, sent to /infill (the server writes the FIM tokens).
        const infill = buildInfillPrompt(input);
        const answer = await fetchInfill({
          port: client,
          model,
          prompt: { ...infill, maxTokens: Math.min(infill.maxTokens, maxTokensCap) },
          signal: new AbortController().signal,
        });
        text = answer.text;
        completionTokens = answer.usage.completionTokens;
      } else {
        // The same text before the cursor that Cadenza's prompt kept, alone, and the raw answer.
        const answer = await client.chat({ model, messages: [{ role: 'user', content: built.prefix }], maxTokens: maxTokensCap, temperature: 0.1 });
        text = answer.text;
        completionTokens = answer.usage.completionTokens ?? 0;
      }
      const result: Result = { key: job.key, id: entry.id, variant, text, ms: performance.now() - t0, completionTokens };
      done.set(job.key, result);
      appendFileSync(cacheFile, `${JSON.stringify(result)}\n`);
      asked++;
      if (asked % 20 === 0) {
        const per = (performance.now() - started) / asked;
        process.stdout.write(
          `  ${asked} asked, ${(per / 1000).toFixed(1)} s each on average; ${todo.length} left (~${Math.round((todo.length * per) / 60_000)} min)\n`,
        );
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, () => next()));
  } finally {
    server?.stop();
  }
  report(cases, done);
}

function report(cases: Case[], done: Map<string, Result>): void {
  const rows: string[] = [];
  const groups: [string, (entry: Case) => boolean][] = [
    ['all', () => true],
    ['python', (entry) => entry.source === 'python'],
    ['javascript', (entry) => entry.source === 'javascript'],
    ['d.ts', (entry) => entry.source === 'd.ts'],
    ['line spans', (entry) => entry.kind === 'line'],
    ['block spans', (entry) => entry.kind === 'block'],
  ];
  rows.push(`## Completion quality: ${model} (llama-server), prompt budget ${budgetTokens} tokens, answer cap ${maxTokensCap} tokens`);
  rows.push(
    `| cases | n | ${variants.map((v) => `${v} exact`).join(' | ')} | ${variants.map((v) => `${v} edit sim.`).join(' | ')} | ${variants.map((v) => `${v} ms (median)`).join(' | ')} |`,
  );
  rows.push(`|---|---:|${variants.map(() => '---:|---:|---:|').join('')}`);
  const median = (list: number[]): number => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  for (const [name, accept] of groups) {
    // Only cases every variant has answered, so the columns compare the same cases.
    const scored = cases.filter(accept).flatMap((entry) => {
      const results = variants.map((variant) => done.get(resultKey(entry.id, variant)));
      return results.every((result) => result !== undefined) ? [{ entry, results: results as Result[] }] : [];
    });
    if (scored.length === 0) continue;
    const exact = (i: number): string =>
      `${((100 * scored.filter((row) => normalise(row.results[i]?.text ?? '') === normalise(materialise(row.entry).expected)).length) / scored.length).toFixed(1)} %`;
    const sim = (i: number): string =>
      (scored.reduce((sum, row) => sum + similarity(materialise(row.entry).expected, row.results[i]?.text ?? ''), 0) / scored.length).toFixed(3);
    const ms = (i: number): string => median(scored.map((row) => row.results[i]?.ms ?? Number.NaN)).toFixed(0);
    const columns = (cell: (i: number) => string): string => variants.map((_, i) => cell(i)).join(' | ');
    rows.push(`| ${name} | ${scored.length} | ${columns(exact)} | ${columns(sim)} | ${columns(ms)} |`);
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/completions/completionsQuality: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
