// Benchmark of the agent's tool loop. Prints:
//  1. The loop's own overhead per tool round trip, against the emulator with no latency (in a separate
//     process, so this process's CPU is the client's and the loop's alone). Each round trip is one streamed
//     request whose answer is a whole read_file call, run on an in-memory workspace, whose result goes into
//     the next request. Measured two ways: (a) the loop's run minus the same requests replayed through the
//     bare client (everything the loop adds, per-chunk event handling included); (b) the time the loop
//     spends outside the client's streams (parsing, validation, the tool, cutting the result, building the
//     next request). Goal: under 5 ms.
//  2. The tokens the tool schemas (and the agent's system prompt) add to every request of an agent turn:
//     the JSON of `tools` exactly as sent, counted by the context budget's estimate (4 characters a token),
//     by the emulator's tokenizer, and by a GPT-2/3 BPE (gpt-3-encoder, present as a dependency of vectra).
//     Peers spend 4,000 to 15,000 tokens on their system prompt and schemas.
// Prints figures; asserts nothing. The agent on a real model, task by task, is bench/agent/agentTasks.ts.
//
//   npx tsc -p tsconfig.json && node out/bench/agent/agent.js [--rounds N] [--runs N]
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildChatBody } from '../../src/core/api/chat';
import { InferenceClient } from '../../src/core/api/client';
import type { ChatRequest, ChatStream } from '../../src/core/api/types';
import { estimateTokens } from '../../src/core/chat/contextBudget';
import { runToolLoop, type StreamChat } from '../../src/core/chat/toolLoop';
import { agentSystemPrompt } from '../../src/core/tools/definitions';
import { ToolSession } from '../../src/core/tools/toolTypes';
import { workspaceToolset } from '../../src/core/tools/toolset';
import { startEmulator, type ScriptedChat } from '../../test/support/emulator/emulator';
import { countTokens } from '../../test/support/emulator/tokens';
import { MemoryPort } from '../../test/unit/tools/memoryPort';

const MODEL = 'Meta-Llama-3.3-70B-Instruct';
const FILE = Array.from({ length: 60 }, (_, index) => `export const value${index} = ${index}; // line ${index + 1} of a small module`).join('\n');

type Message = { type: 'ready'; baseUrl: string; key: string } | { type: 'scripted' };
type Command = { type: 'script'; replies: ScriptedChat[] } | { type: 'close' };

/** The emulator in its own process. */
class EmulatorProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    readonly key: string,
  ) {}

  static start(): Promise<EmulatorProcess> {
    const child = fork(__filename, ['--emulator-child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('message', (message: Message) => {
        if (message.type === 'ready') resolve(new EmulatorProcess(child, message.baseUrl, message.key));
      });
    });
  }

  script(replies: ScriptedChat[]): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('message', () => resolve());
      this.child.send({ type: 'script', replies } satisfies Command);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ type: 'close' } satisfies Command);
    });
  }
}

/** The scripted answers of one run: `rounds` read_file calls, then a short final answer. */
function replies(rounds: number): ScriptedChat[] {
  const calls: ScriptedChat[] = Array.from({ length: rounds }, (_, index) => ({
    toolCalls: [{ name: 'read_file', arguments: { path: 'src/module.ts', start_line: 1 + (index % 50), end_line: 10 + (index % 50) } }],
  }));
  return [...calls, { content: 'Read it all.' }];
}

/** Drains a stream and waits for its result, as the loop does, doing nothing else. */
async function drain(stream: ChatStream): Promise<void> {
  for await (const event of stream) void event;
  await stream.result;
}

interface Sample {
  loopMs: number;
  bareMs: number;
  outsideMs: number;
  requests: number;
}

async function sample(emu: EmulatorProcess, client: InferenceClient, rounds: number): Promise<Sample> {
  const port = new MemoryPort({ 'src/module.ts': FILE });
  const toolset = workspaceToolset(port, { terminalTimeoutSeconds: 30 });
  const sent: ChatRequest[] = [];
  let insideMs = 0;
  // Wraps streamChat to time each stream from the call to its result: the rest is the loop's own time.
  const timed: StreamChat = (request, options) => {
    sent.push(request);
    const started = performance.now();
    const stream = client.streamChat(request, options);
    // `result` is read by the loop after it iterated the events; reading it earlier would drain the stream.
    return {
      [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
      get result() {
        return stream.result.then((value) => {
          insideMs += performance.now() - started;
          return value;
        });
      },
    };
  };
  await emu.script(replies(rounds));
  const loopStarted = performance.now();
  const result = await runToolLoop({
    streamChat: timed,
    request: {
      model: MODEL,
      messages: [
        { role: 'system', content: agentSystemPrompt(true) },
        { role: 'user', content: 'Read the module in pieces.' },
      ],
      maxTokens: 1024,
    },
    tools: toolset.tools,
    unavailable: toolset.unavailable,
    session: new ToolSession(),
    approve: () => Promise.resolve('approved'),
    maxSteps: rounds + 1,
    maxToolResultTokens: 4000,
    contextLimitTokens: 100_000,
    signal: new AbortController().signal,
  });
  const loopMs = performance.now() - loopStarted;
  if (result.stop !== 'answered' || result.steps !== rounds + 1) throw new Error(`unexpected end: ${result.stop} after ${result.steps} steps`);

  // The same requests through the bare client: what the service part of the run costs without the loop.
  await emu.script(replies(rounds));
  const bareStarted = performance.now();
  for (const request of sent) await drain(client.streamChat(request, {}));
  const bareMs = performance.now() - bareStarted;
  return { loopMs, bareMs, outsideMs: loopMs - insideMs, requests: sent.length };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The GPT-2/3 BPE counter, if the package is installed (it comes with vectra, a bench dependency). */
function bpeCounter(): ((text: string) => number) | undefined {
  try {
    const encoder = createRequire(__filename)('gpt-3-encoder') as { encode?: (text: string) => number[] };
    const encode = encoder.encode;
    return encode ? (text) => encode(text).length : undefined;
  } catch {
    return undefined;
  }
}

function schemaFigures(): void {
  const bpe = bpeCounter();
  const row = (label: string, text: string): string => {
    const figures = [
      `${text.length.toLocaleString('en-US')} chars`,
      `~${estimateTokens(text)} tokens (4 chars/token)`,
      `${countTokens(text)} (emulator tokenizer)`,
    ];
    if (bpe) figures.push(`${bpe(text)} (GPT-2/3 BPE)`);
    return `  ${label.padEnd(34)} ${figures.join(' · ')}`;
  };
  const port = new MemoryPort();
  const trusted = workspaceToolset(port, { terminalTimeoutSeconds: 60 });
  port.trusted = false;
  const restricted = workspaceToolset(port, { terminalTimeoutSeconds: 60 });
  const wireTools = (tools: typeof trusted.tools): string =>
    JSON.stringify(buildChatBody({ model: MODEL, messages: [], tools: tools.map((tool) => tool.definition) }, false)['tools']);
  const all = wireTools(trusted.tools);
  const prompt = agentSystemPrompt(true);
  console.log('Tokens the agent adds to every request of an agent turn:');
  console.log(row(`tools, all ${trusted.tools.length} functions`, all));
  console.log(row(`tools, Restricted Mode (${restricted.tools.length})`, wireTools(restricted.tools)));
  console.log(row('agent system prompt', prompt));
  console.log(row('tools + system prompt', all + prompt));
  const perTool = trusted.tools.map((tool) => [tool.definition.name, estimateTokens(JSON.stringify({ type: 'function', function: tool.definition }))] as const);
  console.log(`  per function (~tokens): ${perTool.map(([name, tokens]) => `${name} ${tokens}`).join(', ')}`);
  console.log('  (peers spend 4,000 to 15,000 tokens of system prompt and schemas)');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '50' }, runs: { type: 'string', default: '15' } } });
  const rounds = Math.max(1, Number(values.rounds));
  const runs = Math.max(1, Number(values.runs));
  schemaFigures();
  const emu = await EmulatorProcess.start();
  const client = new InferenceClient({ baseUrl: emu.baseUrl, apiKey: emu.key, maxRetries: 0, transport: { useEnvironment: false } });
  try {
    await sample(emu, client, 5); // warm-up: connections, JIT
    const samples: Sample[] = [];
    for (let run = 0; run < runs; run += 1) samples.push(await sample(emu, client, rounds));
    const perRound = (pick: (entry: Sample) => number): number[] => samples.map((entry) => pick(entry) / entry.requests);
    const show = (label: string, pick: (entry: Sample) => number, goal = ''): void => {
      const values = perRound(pick).sort((a, b) => a - b);
      const quartile = (q: number): number => values[Math.min(values.length - 1, Math.floor(q * (values.length - 1)))] ?? 0;
      console.log(`  ${label.padEnd(58)} ${median(values).toFixed(3)} ms  (quartiles ${quartile(0.25).toFixed(3)}..${quartile(0.75).toFixed(3)})${goal}`);
    };
    console.log(`\nTool loop against the emulator (no latency, separate process), ${rounds} round trips + 1 answer per run, ${runs} runs, per request:`);
    show('one round trip through the loop', (entry) => entry.loopMs);
    show('the same request through the bare client', (entry) => entry.bareMs);
    show('loop overhead (a): loop minus bare client', (entry) => entry.loopMs - entry.bareMs, '   goal < 5 ms');
    show("loop overhead (b): time outside the client's streams", (entry) => entry.outsideMs, '   goal < 5 ms');
  } finally {
    await client.close();
    await emu.close();
  }
}

// Last, so the classes above are initialised before either branch runs.
if (process.argv.includes('--emulator-child')) {
  void (async () => {
    const emu = await startEmulator({});
    process.on('message', (message: Command) => {
      if (message.type === 'script') {
        for (const reply of message.replies) emu.scriptChat(reply);
        process.send?.({ type: 'scripted' } satisfies Message);
      } else {
        void emu.close().then(() => process.exit(0));
      }
    });
    process.send?.({ type: 'ready', baseUrl: emu.baseUrl, key: emu.key } satisfies Message);
  })();
} else {
  void main();
}
