// Inline completions' quality on a held-out set of real code already on this machine: Python's standard
// library, JSDoc'd JavaScript in node_modules and TypeScript's lib*.d.ts. Each case removes a span from a
// function (one line, or a block: a header line and its body) and asks for it with the cursor where the span
// began (its indentation typed). Two variants on the REAL local model (Gemma 3 270M on llama-server, the
// local stack's build and weights):
//   cadenza  the product's prompt (prompt.ts: file, path, language, cursor marker, suffix, one budget) and its
//            streamed post-processing (fetchCompletion.ts: cleaned as it arrives, stopped when whole);
//   naive    the same kept prefix as the only message, the raw answer taken as is.
// Prints exact match (trailing whitespace ignored) and edit similarity (1 - Levenshtein / longer length) per
// variant and source, and the time per request. Results are cached on disk per case and variant, so a run
// that is stopped resumes where it was; a different model, budget or token cap starts a new cache file, and
// Cadenza's results are keyed by a hash of prompt.ts, postprocess.ts and fetchCompletion.ts (a product
// change asks those again; the naive ones stay). The variants can run in two processes at once.
//
//   npx tsc -p tsconfig.json && node out/bench/completionsQuality.js [--cases 520] [--budget 384]
//     [--max-tokens 64] [--concurrency 2] [--url http://127.0.0.1:PORT (a running llama-server)] [--limit N]
//     [--variants cadenza,naive] [--threads N (llama-server's; default 1 when the load average is at or
//     above the core count, else 2)] [--report (print the table of the cached results, ask nothing)]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, homedir, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { InferenceClient } from '../src/core/api/client';
import { fetchCompletion } from '../src/core/completions/fetchCompletion';
import { buildCompletionPrompt } from '../src/core/completions/prompt';
import { repoRoot } from '../test/fixtures/repoRoot';
import { mulberry32 } from '../src/core/index/vectorSearch';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '520' },
    budget: { type: 'string', default: '384' },
    'max-tokens': { type: 'string', default: '64' },
    concurrency: { type: 'string', default: '2' },
    url: { type: 'string' },
    limit: { type: 'string' },
    seed: { type: 'string', default: '16' },
    variants: { type: 'string', default: 'cadenza,naive' },
    threads: { type: 'string' },
    report: { type: 'boolean', default: false },
  },
});
const caseCount = Number(values.cases);
const budgetTokens = Number(values.budget);
const maxTokensCap = Number(values['max-tokens']);
const concurrency = Math.max(1, Number(values.concurrency));
const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
const variants = (values.variants ?? 'cadenza,naive').split(',').filter((name): name is Variant => name === 'cadenza' || name === 'naive');
// llama.cpp's threads meet at a barrier per layer: on a busy two-core machine one thread decodes several
// times faster than two (scripts/local-stack/stack.mjs llamaThreads), so the default follows the load.
const threads = values.threads !== undefined ? Number(values.threads) : (loadavg()[0] ?? 0) >= availableParallelism() ? 1 : Math.min(2, availableParallelism());
const model = 'gemma-3-270m';

type Source = 'python' | 'javascript' | 'd.ts';
type Variant = 'cadenza' | 'naive';
/** A case: lines [start, end] of a file removed. The file's lines are shared by its cases (the set is built lazily). */
interface Case {
  readonly id: string;
  readonly source: Source;
  readonly kind: 'line' | 'block';
  readonly path: string;
  readonly languageId: string;
  readonly lines: readonly string[];
  readonly start: number;
  readonly end: number;
}
interface Result {
  readonly key: string;
  readonly id: string;
  readonly variant: Variant;
  readonly text: string;
  readonly ms: number;
  readonly completionTokens: number;
}

// ---- a deterministic shuffle (mulberry32, core's) ----
function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

const indentOf = (line: string): number => (/^[ \t]*/.exec(line)?.[0] ?? '').length;
const blank = (line: string): boolean => line.trim() === '';

function makeCase(source: Source, kind: 'line' | 'block', path: string, languageId: string, lines: string[], start: number, end: number): Case {
  return { id: `${path}:${start + 1}-${end + 1}`, source, kind, path, languageId, lines, start, end };
}

/** The text around the hole: the span removed, the cursor after its first line's indentation. */
function materialise(entry: Case): { prefix: string; suffix: string; expected: string } {
  const { lines, start, end } = entry;
  const indent = /^[ \t]*/.exec(lines[start] ?? '')?.[0] ?? '';
  return {
    prefix: `${lines.slice(0, start).join('\n')}\n${indent}`,
    suffix: `\n${lines.slice(end + 1).join('\n')}`,
    expected: lines.slice(start, end + 1).join('\n').slice(indent.length),
  };
}

/** Python: spans inside `def` bodies (after the docstring), a statement line or a compound statement with 1-5 body lines. */
function pythonCases(file: string, path: string): Case[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const cases: Case[] = [];
  for (let d = 0; d < lines.length; d++) {
    const def = lines[d] ?? '';
    if (!/^\s*def \w+\(.*\).*:\s*$/.test(def)) continue;
    const base = indentOf(def);
    let end = d + 1;
    while (end < lines.length && (blank(lines[end] ?? '') || indentOf(lines[end] ?? '') > base)) end++;
    let first = d + 1;
    const opener = (lines[first] ?? '').trim();
    if (/^[rbu]?("""|''')/.test(opener)) {
      const quote = opener.includes('"""') ? '"""' : "'''";
      if (opener.split(quote).length < 3) while (first < end && !(lines[++first] ?? '').includes(quote));
      first++;
    }
    const body = lines.slice(first, end).filter((line) => !blank(line)).length;
    if (body < 3 || body > 40) continue;
    for (let i = first + 1; i < end; i++) {
      const line = lines[i] ?? '';
      const text = line.trim();
      if (blank(line) || text.startsWith('#') || text.length < 8 || text.length > 100 || /["']{3}/.test(text)) continue;
      if (text.endsWith(':')) {
        let stop = i + 1;
        while (stop < end && (blank(lines[stop] ?? '') || indentOf(lines[stop] ?? '') > indentOf(line))) stop++;
        while (stop - 1 > i && blank(lines[stop - 1] ?? '')) stop--;
        if (stop - i >= 2 && stop - i <= 6 && /^(if|for|while|with|try)\b/.test(text)) cases.push(makeCase('python', 'block', path, 'python', lines, i, stop - 1));
      } else if (!/[([{,\\]$/.test(text) && !/^(else|elif|except|finally)\b/.test(text)) {
        cases.push(makeCase('python', 'line', path, 'python', lines, i, i));
      }
    }
  }
  return cases;
}

/** JavaScript: spans inside function bodies, a statement line or a `{`-block of 1-5 lines closed at its own indentation. */
function javascriptCases(file: string, path: string): Case[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const cases: Case[] = [];
  for (let f = 0; f < lines.length; f++) {
    const header = lines[f] ?? '';
    if (!/(\bfunction\b[^;]*|^\s*(async\s+)?[A-Za-z_$][\w$]*\s*\([^;]*\)\s*)\{\s*$/.test(header) || /^\s*(if|for|while|switch|catch)\b/.test(header)) continue;
    const base = /^[ \t]*/.exec(header)?.[0] ?? '';
    let end = f + 1;
    while (end < lines.length && lines[end] !== `${base}}` && !(lines[end] ?? '').startsWith(`${base}}`)) end++;
    if (end >= lines.length || end - f < 4 || end - f > 50) continue;
    for (let i = f + 2; i < end; i++) {
      const line = lines[i] ?? '';
      const text = line.trim();
      if (blank(line) || /^(\/\/|\/\*|\*)/.test(text) || text.length < 8 || text.length > 100 || text.startsWith('}')) continue;
      if (text.endsWith('{')) {
        const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
        let stop = i + 1;
        while (stop < end && !(lines[stop] ?? '').startsWith(`${indent}}`)) stop++;
        if (stop < end && lines[stop]?.trim() === '}' && stop - i >= 2 && stop - i <= 6 && /^(if|for|while|try)\b/.test(text)) cases.push(makeCase('javascript', 'block', path, 'javascript', lines, i, stop));
      } else if (/[;)]$/.test(text)) {
        cases.push(makeCase('javascript', 'line', path, 'javascript', lines, i, i));
      }
    }
  }
  return cases;
}

/** lib*.d.ts: one member line of an interface (its JSDoc above stays). */
function declarationCases(file: string, path: string): Case[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const cases: Case[] = [];
  let inside = false;
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] ?? '').trim();
    if (/^(export\s+)?(declare\s+)?interface\s+\w+.*\{$/.test(text)) inside = true;
    else if (text === '}') inside = false;
    else if (inside && /^[A-Za-z_[].*\(.*\).*;$/.test(text) && text.length <= 120 && i > 0) cases.push(makeCase('d.ts', 'line', path, 'typescript', lines, i, i));
  }
  return cases;
}

function walk(dir: string, accept: (file: string) => boolean, out: string[], depth = 0): string[] {
  if (depth > 6) return out;
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = join(dir, name);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      continue;
    }
    if (stat.isDirectory()) {
      if (!/^(test|tests|__tests__|idlelib|lib2to3|site-packages|dist-packages|\.bin|esm|umd|browser)$/.test(name)) walk(full, accept, out, depth + 1);
    } else if (accept(full) && stat.size > 1_000 && stat.size < 200_000) {
      out.push(full);
    }
  }
  return out;
}

function pythonStdlib(): string {
  const candidates = readdirSync('/usr/lib').filter((name) => /^python3\.\d+$/.test(name)).sort();
  const chosen = candidates.at(-1);
  if (!chosen) throw new Error('no Python standard library under /usr/lib');
  return join('/usr/lib', chosen);
}

/** The held-out set: `count` cases, about 40 % Python, 40 % JavaScript, 20 % d.ts, shuffled together. */
function buildCases(count: number, seed: number): Case[] {
  const random = mulberry32(seed);
  const stdlib = pythonStdlib();
  const python = walk(stdlib, (file) => file.endsWith('.py'), []).flatMap((file) => pythonCases(file, relative('/usr/lib', file)));
  const modules = join(repoRoot(), 'node_modules');
  const jsFiles = walk(modules, (file) => file.endsWith('.js') && !file.endsWith('.min.js'), []).filter((file) => {
    const text = readFileSync(file, 'utf8');
    // JSDoc'd, hand-written source: doc comments, and not minified.
    return text.includes('/**') && text.length / Math.max(1, text.split('\n').length) < 60;
  });
  // At most a few cases per file, so one big package does not dominate.
  const perFile = (cases: Case[], max: number): Case[] => {
    const seen = new Map<string, number>();
    return shuffle(cases, random).filter((entry) => {
      const n = seen.get(entry.path) ?? 0;
      seen.set(entry.path, n + 1);
      return n < max;
    });
  };
  const javascript = jsFiles.flatMap((file) => javascriptCases(file, relative(repoRoot(), file)));
  const libDir = join(modules, 'typescript', 'lib');
  const declarations = readdirSync(libDir).filter((name) => /^lib\..*\.d\.ts$/.test(name)).sort().flatMap((name) => declarationCases(join(libDir, name), `typescript/lib/${name}`));
  const dts = Math.floor(count * 0.2);
  const py = Math.floor((count - dts) / 2);
  const picked = [
    ...perFile(python, 3).slice(0, py),
    ...perFile(javascript, 3).slice(0, count - dts - py),
    ...perFile(declarations, 4).slice(0, dts),
  ];
  process.stdout.write(`Candidates: ${python.length} Python (${stdlib}), ${javascript.length} JavaScript (${jsFiles.length} JSDoc'd files in node_modules), ${declarations.length} d.ts members; picked ${picked.length}.\n`);
  return shuffle(picked, random);
}

// ---- scoring ----
const normalise = (text: string): string => text.split('\n').map((line) => line.trimEnd()).join('\n').replace(/\n+$/, '');

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

function similarity(expected: string, actual: string): number {
  const a = normalise(expected);
  const b = normalise(actual);
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - levenshtein(a, b) / longer;
}

// Cadenza's answers depend on the product's prompt, streaming and cleaning, so their key carries a hash of
// those three sources: a change to any of them asks again, while the naive variant (the kept prefix alone,
// the raw answer) keeps its results.
const productFingerprint = createHash('sha256')
  .update(['prompt.ts', 'postprocess.ts', 'fetchCompletion.ts'].map((name) => readFileSync(join(repoRoot(), 'src', 'core', 'completions', name), 'utf8')).join('\n'))
  .digest('hex').slice(0, 8);
const resultKey = (id: string, variant: Variant): string => (variant === 'cadenza' ? `${id}#cadenza@${productFingerprint}` : `${id}#naive`);

// ---- the server ----
async function startLlama(): Promise<{ url: string; stop: () => void }> {
  const llamaHome = process.env['CADENZA_LLAMA_HOME'] ?? join(homedir(), '.cache', 'cadenza-llama');
  const stackHome = process.env['CADENZA_STACK_HOME'] ?? join(homedir(), '.cache', 'cadenza-local-stack');
  const binary = join(llamaHome, 'bin', 'llama-server');
  const weights = join(stackHome, 'models', 'gemma-3-270m-q4_k_m.gguf');
  for (const needed of [binary, weights]) if (!existsSync(needed)) throw new Error(`${needed} is missing: run bash scripts/local-stack/setup.sh`);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  // The stack's own arguments (scripts/local-stack/stack.mjs), with one slot per concurrent request.
  const child = spawn(binary, ['-m', weights, '--alias', model, '--jinja', '--chat-template-file', join(repoRoot(), 'scripts', 'local-stack', 'gemma3-chat.jinja'),
    '-c', String(4096 * concurrency), '-np', String(concurrency), '-t', String(threads), '--no-webui', '--host', '127.0.0.1', '--port', String(port)], { detached: true, stdio: 'ignore' });
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
  const settings = createHash('sha256').update(JSON.stringify({ model, budgetTokens, maxTokensCap, seed: values.seed, caseCount, v: 1 })).digest('hex').slice(0, 12);
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
  const todo = values.report ? [] : cases.flatMap((entry) => variants.map((variant) => ({ entry, variant, key: resultKey(entry.id, variant) }))).filter((job) => !done.has(job.key));
  process.stdout.write(`${cases.length} cases x 2 variants; ${done.size} results cached in ${cacheFile}, ${todo.length} to ask.\n`);
  const server = todo.length === 0 ? undefined : values.url !== undefined ? { url: values.url, stop: (): void => undefined } : await startLlama();
  const client = server ? new InferenceClient({ baseUrl: server.url, apiKey: 'local', maxRetries: 1, timeoutMs: 900_000, transport: { useEnvironment: false } }) : undefined;
  const started = performance.now();
  let asked = 0;
  const next = async (): Promise<void> => {
    for (let job = todo.shift(); job && client; job = todo.shift()) {
      const { entry, variant } = job;
      const { prefix, suffix } = materialise(entry);
      const built = buildCompletionPrompt({ path: entry.path, languageId: entry.languageId, prefix, suffix, budgetTokens });
      const t0 = performance.now();
      let text: string;
      let completionTokens: number;
      if (variant === 'cadenza') {
        const answer = await fetchCompletion({ port: client, model, prompt: { ...built, maxTokens: Math.min(built.maxTokens, maxTokensCap) }, signal: new AbortController().signal });
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
        process.stdout.write(`  ${asked} asked, ${(per / 1000).toFixed(1)} s each on average; ${todo.length} left (~${Math.round((todo.length * per) / 60_000)} min)\n`);
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
  rows.push(`## Completion quality: ${model} (llama-server, local stack), prompt budget ${budgetTokens} tokens, answer cap ${maxTokensCap} tokens`);
  rows.push('| cases | n | cadenza exact | naive exact | cadenza edit sim. | naive edit sim. | cadenza ms (median) | naive ms (median) |');
  rows.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  for (const [name, accept] of groups) {
    const scored = cases.filter(accept).flatMap((entry) => {
      const ours = done.get(resultKey(entry.id, 'cadenza'));
      const theirs = done.get(resultKey(entry.id, 'naive'));
      return ours && theirs ? [{ entry, ours, theirs }] : [];
    });
    if (scored.length === 0) continue;
    const exact = (pick: (row: (typeof scored)[number]) => Result): string => `${((100 * scored.filter((row) => normalise(pick(row).text) === normalise(materialise(row.entry).expected)).length) / scored.length).toFixed(1)} %`;
    const sim = (pick: (row: (typeof scored)[number]) => Result): string => (scored.reduce((sum, row) => sum + similarity(materialise(row.entry).expected, pick(row).text), 0) / scored.length).toFixed(3);
    rows.push(`| ${name} | ${scored.length} | ${exact((row) => row.ours)} | ${exact((row) => row.theirs)} | ${sim((row) => row.ours)} | ${sim((row) => row.theirs)} | ${median(scored.map((row) => row.ours.ms)).toFixed(0)} | ${median(scored.map((row) => row.theirs.ms)).toFixed(0)} |`);
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/completionsQuality: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
