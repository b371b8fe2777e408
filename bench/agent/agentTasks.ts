// The agent on a real model, task by task (issue #35): each task of bench/agent/agentTaskSet.ts runs through
// Cadenza's own tool loop and tools (core's runToolLoop and workspaceToolset over a DiskPort on a fresh copy
// of bench/fixtures/agent-repo, every change approved) against an OpenAI-style server, and is checked
// mechanically. Prints per task: success, steps, tokens, time; then totals by kind and the failures grouped
// by cause (error, tool not needed, step limit, repeated call, wrong args, no answer, wrong answer, wrong
// change). Results are cached per task on disk, so a run that is stopped resumes where it was; the cache file
// is keyed by the model, the settings, and a hash of the loop, the tools, the task set and the fixture (a
// product change asks again).
//
//   npx tsc -p tsconfig.json && node out/bench/agent/agentTasks.js --url http://127.0.0.1:PORT
//     [--model qwen2.5-coder-1.5b] [--only id,id] [--limit N] [--max-steps 8] [--max-tokens 1024]
//     [--context 16384] [--temperature 0] [--report (print the cached results, ask nothing)]
//     [--check-tasks (prove each check fails on the untouched fixture, ask nothing)]
//     [--trace (print each step's calls with their arguments and the start of their results)]
// A server for the local model (Qwen2.5-Coder-1.5B-Instruct; its tool calls need the fenced template):
//   llama-server -m model.gguf --alias qwen2.5-coder-1.5b --jinja --chat-template-file fenced.jinja -c 16384 -np 1
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { InferenceClient } from '../../src/core/api/client';
import { runToolLoop, type ToolCallRecord, type ToolLoopResult } from '../../src/core/chat/toolLoop';
import { agentSystemPrompt } from '../../src/core/tools/definitions';
import { ToolSession } from '../../src/core/tools/toolTypes';
import { workspaceToolset } from '../../src/core/tools/toolset';
import { workspaceOverview } from '../../src/core/tools/workspaceOverview';
import { repoRoot as findRepoRoot } from '../../test/support/fixtures/repoRoot';
import { agentTasks, type AgentTask } from './agentTaskSet';
import { DiskPort } from './diskPort';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    model: { type: 'string', default: 'qwen2.5-coder-1.5b' },
    only: { type: 'string' },
    limit: { type: 'string' },
    'max-steps': { type: 'string', default: '8' },
    'max-tokens': { type: 'string', default: '1024' },
    context: { type: 'string', default: '16384' },
    temperature: { type: 'string', default: '0' },
    report: { type: 'boolean', default: false },
    'check-tasks': { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
  },
});
const model = values.model ?? 'qwen2.5-coder-1.5b';
const maxSteps = Number(values['max-steps']);
const maxTokens = Number(values['max-tokens']);
const contextTokens = Number(values.context);
const temperature = Number(values.temperature);
const repoRoot = findRepoRoot();
const fixture = join(repoRoot, 'bench', 'fixtures', 'agent-repo');

/** Why a task failed, first cause that applies (in this order). */
type Cause = 'error' | 'tool not needed' | 'step limit' | 'repeated call' | 'wrong args' | 'no answer' | 'wrong answer' | 'wrong change';

interface Result {
  readonly id: string;
  readonly ok: boolean;
  readonly cause?: Cause;
  readonly detail?: string;
  readonly steps: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly ms: number;
  /** name(status) of each call, in order. */
  readonly calls: readonly string[];
  readonly stop?: ToolLoopResult['stop'];
  readonly withoutTools?: string;
  readonly answer: string;
}

/** The files whose change changes the results: the loop, the tools, the task set and the fixture. */
function productHash(): string {
  const hash = createHash('sha256');
  const add = (path: string): void => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name));
    else if (!path.includes('__pycache__')) hash.update(path.slice(repoRoot.length)).update(readFileSync(path));
  };
  for (const path of [
    'src/core/chat/toolLoop.ts',
    'src/core/chat/callRepeats.ts',
    'src/core/tools',
    'bench/agent/agentTaskSet.ts',
    'bench/agent/diskPort.ts',
    'bench/fixtures/agent-repo',
  ])
    add(join(repoRoot, path));
  return hash.digest('hex').slice(0, 12);
}

/** A fresh copy of the fixture with the task's setup applied. */
function workspaceFor(task: AgentTask): string {
  const dir = mkdtempSync(join(tmpdir(), `cadenza-agent-${task.id}-`));
  cpSync(fixture, dir, { recursive: true, filter: (source) => !source.includes('__pycache__') });
  task.setup?.(dir);
  return dir;
}

/** A call that ends as a text answer: fenced JSON of a function call, which a template left unparsed. */
const looksLikeCall = (text: string): boolean => /^\s*(```(json)?\s*)?\{\s*"name"\s*:/.test(text);

function judge(
  task: AgentTask,
  dir: string,
  answer: string,
  calls: readonly ToolCallRecord[],
  stop: ToolLoopResult['stop'],
  withoutTools: string | undefined,
): { ok: boolean; cause?: Cause; detail?: string } {
  const missing = (task.answer ?? []).filter((fact) => !fact.test(answer));
  const fileProblem = task.files?.(dir);
  const ok = missing.length === 0 && fileProblem === undefined && (task.kind !== 'noTool' || calls.length === 0);
  if (ok) return { ok };
  const what = fileProblem ?? (missing.length > 0 ? `missing ${missing.map(String).join(', ')}` : `called ${calls.map((call) => call.name).join(', ')}`);
  // The answer asked for without tools can still be a call the model wrote as text: said beside any cause.
  const detail = looksLikeCall(answer) ? `${what}; the answer is a function call written as text` : what;
  if (task.kind === 'noTool' && calls.length > 0) return { ok, cause: 'tool not needed', detail };
  if (stop === 'stepLimit') return { ok, cause: 'step limit', detail };
  if (withoutTools === 'repeatedCall' || calls.some((call) => call.status === 'skipped' && /^Not run: this exact call/.test(call.result ?? '')))
    return { ok, cause: 'repeated call', detail };
  if (calls.some((call) => call.status === 'invalid' || call.status === 'failed')) return { ok, cause: 'wrong args', detail };
  if (answer.trim() === '' || looksLikeCall(answer)) return { ok, cause: 'no answer', detail };
  return { ok, cause: task.files ? 'wrong change' : 'wrong answer', detail };
}

async function runTask(client: InferenceClient, task: AgentTask): Promise<Result> {
  const dir = workspaceFor(task);
  const port = new DiskPort(dir);
  const toolset = workspaceToolset(port, { terminalTimeoutSeconds: 60 });
  const calls: ToolCallRecord[] = [];
  let promptTokens = 0;
  let completionTokens = 0;
  let withoutTools: string | undefined;
  const started = performance.now();
  try {
    const result = await runToolLoop({
      streamChat: (request, options) => client.streamChat(request, options),
      // The system prompt as the product builds it: the instructions and the workspace's files.
      request: {
        model,
        messages: [
          { role: 'system', content: agentSystemPrompt(true, await workspaceOverview(port, new AbortController().signal)) },
          { role: 'user', content: task.prompt },
        ],
        maxTokens,
        temperature,
      },
      tools: toolset.tools,
      unavailable: toolset.unavailable,
      session: new ToolSession(),
      approve: () => Promise.resolve('approved'),
      maxSteps,
      maxToolResultTokens: 4000,
      contextLimitTokens: contextTokens - maxTokens,
      signal: new AbortController().signal,
      onEvent: (event) => {
        if (event.type === 'stepDone') {
          calls.push(...event.calls);
          if (values.trace)
            for (const call of event.calls)
              console.log(
                `    [${task.id} step ${event.step}] ${call.name}(${call.arguments}) ${call.status}: ${(call.result ?? '').replace(/\s+/g, ' ').slice(0, 300)}`,
              );
        }
        if (values.trace && event.type === 'answer' && event.result.text.trim() !== '')
          console.log(`    [${task.id} step ${event.step}] text: ${event.result.text.replace(/\s+/g, ' ').slice(0, 300)}`);
        if (event.type === 'step' && event.withoutTools) withoutTools = event.withoutTools;
        if (event.type === 'answer') {
          promptTokens += event.result.usage.promptTokens ?? 0;
          completionTokens += event.result.usage.completionTokens ?? 0;
        }
      },
    });
    const verdict = judge(task, dir, result.text, calls, result.stop, withoutTools);
    return {
      id: task.id,
      ...verdict,
      steps: result.steps,
      promptTokens,
      completionTokens,
      ms: performance.now() - started,
      calls: calls.map((call) => `${call.name}(${call.status})`),
      stop: result.stop,
      ...(withoutTools ? { withoutTools } : {}),
      answer: result.text.slice(0, 600),
    };
  } catch (error) {
    return {
      id: task.id,
      ok: false,
      cause: 'error',
      detail: error instanceof Error ? error.message : String(error),
      steps: 0,
      promptTokens,
      completionTokens,
      ms: performance.now() - started,
      calls: calls.map((call) => `${call.name}(${call.status})`),
      answer: '',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every check must find something wrong on the untouched fixture (with the task's setup), or it proves nothing. */
function checkTasks(): void {
  let weak = 0;
  for (const task of agentTasks) {
    const dir = workspaceFor(task);
    try {
      const fileProblem = task.files?.(dir);
      const unanswered = (task.answer ?? []).some((fact) => !fact.test(''));
      const fails = fileProblem !== undefined || (task.files === undefined && unanswered);
      if (!fails) weak += 1;
      console.log(`  ${fails ? 'ok  ' : 'WEAK'} ${task.id.padEnd(20)} ${fileProblem ?? (unanswered ? 'an empty answer fails' : 'passes untouched')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(weak === 0 ? `All ${agentTasks.length} checks fail on the untouched fixture.` : `${weak} checks pass on the untouched fixture.`);
  process.exitCode = weak === 0 ? 0 : 1;
}

function report(tasks: readonly AgentTask[], results: ReadonlyMap<string, Result>): void {
  const rows = tasks.flatMap((task) => {
    const result = results.get(task.id);
    return result ? [{ task, result }] : [];
  });
  console.log(`\n${'task'.padEnd(20)} ${'ok'.padEnd(4)} steps  tokens (prompt+answer)  time    calls / cause`);
  for (const { task, result } of rows) {
    const tokens = `${result.promptTokens}+${result.completionTokens}`;
    const tail = result.ok ? result.calls.join(' ') : `${result.cause}: ${result.detail ?? ''} [${result.calls.join(' ')}]`;
    console.log(
      `${task.id.padEnd(20)} ${(result.ok ? 'yes' : 'no').padEnd(4)} ${String(result.steps).padStart(5)}  ${tokens.padStart(21)}  ${(result.ms / 1000).toFixed(1).padStart(6)}s  ${tail}`,
    );
  }
  const passed = rows.filter(({ result }) => result.ok).length;
  const sum = (pick: (result: Result) => number): number => rows.reduce((total, { result }) => total + pick(result), 0);
  console.log(
    `\n${passed} of ${rows.length} tasks succeeded (${tasks.length} in the set); ${sum((result) => result.steps)} steps, ${sum((result) => result.promptTokens)}+${sum((result) => result.completionTokens)} tokens, ${(sum((result) => result.ms) / 60_000).toFixed(1)} min.`,
  );
  const kinds = [...new Set(rows.map(({ task }) => task.kind))];
  console.log(
    `By kind: ${kinds
      .map((kind) => {
        const of = rows.filter(({ task }) => task.kind === kind);
        return `${kind} ${of.filter(({ result }) => result.ok).length}/${of.length}`;
      })
      .join(', ')}`,
  );
  const failures = new Map<Cause, string[]>();
  for (const { task, result } of rows) if (!result.ok && result.cause) failures.set(result.cause, [...(failures.get(result.cause) ?? []), task.id]);
  if (failures.size > 0) {
    console.log('Failures by cause:');
    for (const [cause, ids] of [...failures].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${cause.padEnd(16)} ${ids.length}  ${ids.join(', ')}`);
  }
  const withheld = rows.filter(({ result }) => result.withoutTools !== undefined);
  if (withheld.length > 0)
    console.log(
      `Answers asked for without tools: ${withheld.map(({ task, result }) => `${task.id} (${result.withoutTools}, ${result.ok ? 'succeeded' : 'failed'})`).join(', ')}`,
    );
}

async function main(): Promise<void> {
  if (values['check-tasks']) return checkTasks();
  const only = values.only ? new Set(values.only.split(',')) : undefined;
  const tasks = agentTasks.filter((task) => !only || only.has(task.id)).slice(0, values.limit === undefined ? undefined : Number(values.limit));
  const settings = createHash('sha256')
    .update(JSON.stringify({ model, maxSteps, maxTokens, contextTokens, temperature, product: productHash(), v: 1 }))
    .digest('hex')
    .slice(0, 12);
  const cacheDir = join(homedir(), '.cache', 'cadenza-bench');
  mkdirSync(cacheDir, { recursive: true });
  const cacheFile = join(cacheDir, `agent-tasks-${settings}.jsonl`);
  const results = new Map<string, Result>();
  if (existsSync(cacheFile)) {
    for (const line of readFileSync(cacheFile, 'utf8').split('\n'))
      if (line.trim() !== '') results.set((JSON.parse(line) as Result).id, JSON.parse(line) as Result);
  }
  const todo = values.report ? [] : tasks.filter((task) => !results.has(task.id));
  console.log(`${tasks.length} tasks (${agentTasks.length} in the set); ${results.size} cached in ${cacheFile}, ${todo.length} to run on ${model}.`);
  if (todo.length > 0 && values.url === undefined)
    throw new Error('--url of an OpenAI-style server is needed to run tasks (or --report to print the cached results)');
  const client = new InferenceClient({
    baseUrl: values.url ?? 'http://127.0.0.1:1',
    apiKey: 'local',
    maxRetries: 1,
    timeoutMs: 900_000,
    transport: { useEnvironment: false },
  });
  try {
    for (const task of todo) {
      const result = await runTask(client, task);
      // An error of the server (not of the agent) is not cached, so the next run asks again.
      if (result.cause !== 'error') appendFileSync(cacheFile, `${JSON.stringify(result)}\n`);
      results.set(task.id, result);
      console.log(
        `  ${task.id}: ${result.ok ? 'ok' : `failed (${result.cause}: ${result.detail ?? ''})`}, ${result.steps} steps, ${(result.ms / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await client.close();
  }
  report(tasks, results);
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
