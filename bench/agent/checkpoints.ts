// Benchmark of agent-turn checkpoints (core/chat/checkpoints.ts): what 100 agent turns that change files
// take on disk, and how long recording one takes. The workspace is this repository's own src/**/*.ts
// (real file sizes), held in memory; each turn makes the agent's real edit_file/create_file calls
// through the recorder's port (seeded random choice of files and lines), and the checkpoint goes to a
// real store in a temporary folder. Scenarios: spread edits (1-4 files a turn, one new file in ten turns),
// and the worst case for storage, the largest file edited in every turn. "Without dedupe" is what
// storing every before/after text per turn would take. Prints figures; asserts nothing.
//
//   npx tsc -p tsconfig.json && node out/bench/agent/checkpoints.js [--turns N]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { TurnRecorder } from '../../src/core/chat/checkpointRecorder';
import { CheckpointStore } from '../../src/core/chat/checkpoints';
import { changeTools } from '../../src/core/tools/changeTools';
import { ToolSession } from '../../src/core/tools/toolTypes';
import { repoRoot } from '../../test/support/fixtures/repoRoot';
import { MemoryPort } from '../../test/unit/tools/memoryPort';

const { values } = parseArgs({ options: { turns: { type: 'string', default: '100' } } });
const turns = Number(values.turns);
const signal = new AbortController().signal;

function sourceFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) files[relative(repoRoot(), full).split('\\').join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(join(repoRoot(), 'src'));
  return files;
}

/** A small deterministic generator (mulberry32), so runs compare. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Figures {
  readonly scenario: string;
  readonly storeBytes: number;
  readonly blobs: number;
  readonly naiveBytes: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly filesChanged: number;
}

async function scenario(name: string, pick: (port: MemoryPort, next: () => number, turn: number) => string[], createEvery: number): Promise<Figures> {
  const port = new MemoryPort(sourceFiles());
  const root = mkdtempSync(join(tmpdir(), 'cadenza-bench-checkpoints-'));
  const store = new CheckpointStore(root);
  const next = random(15);
  const times: number[] = [];
  let naive = 0;
  let filesChanged = 0;
  try {
    for (let turn = 0; turn < turns; turn += 1) {
      const recorder = new TurnRecorder(store, 'bench', [{ name: 'bench', fsPath: root }]);
      const tools = changeTools(recorder.wrap(port), { terminalTimeoutSeconds: 5 });
      const edit = tools.find((tool) => tool.definition.name === 'edit_file');
      const create = tools.find((tool) => tool.definition.name === 'create_file');
      if (!edit || !create) throw new Error('no change tools');
      const session = new ToolSession();
      const touched = pick(port, next, turn);
      for (const path of touched) {
        const text = port.files.get(path) ?? '';
        const lines = text.split('\n');
        // A line that occurs once, replaced by itself with a marker: a real, small, unique edit.
        const candidates = lines.filter((line) => line.trim().length > 12 && text.indexOf(line) === text.lastIndexOf(line));
        const line = candidates[Math.floor(next() * candidates.length)];
        if (line === undefined) continue;
        const prepared = await edit.prepare({ path, old_text: line, new_text: `${line} // turn ${turn}` }, { signal, session });
        await prepared.apply(signal);
      }
      if (createEvery > 0 && turn % createEvery === 0) {
        const prepared = await create.prepare(
          { path: `src/generated/turn${turn}.ts`, content: `export const turn = ${turn};\n`.repeat(20) },
          { signal, session },
        );
        await prepared.apply(signal);
      }
      const started = performance.now();
      const done = await recorder.finish(`message-${turn}`, async (path) => port.files.get(path));
      times.push(performance.now() - started);
      for (const file of done?.checkpoint.files ?? []) {
        filesChanged += 1;
        // Without dedupe: the text before and after of every changed file, every turn.
        const after = port.files.get(file.path) ?? '';
        naive += Buffer.byteLength(after) * 2;
      }
    }
    const usage = await store.usage();
    times.sort((a, b) => a - b);
    return {
      scenario: name,
      storeBytes: usage.bytes,
      blobs: usage.blobs,
      naiveBytes: naive,
      medianMs: times[Math.floor(times.length / 2)] ?? 0,
      p95Ms: times[Math.floor(times.length * 0.95)] ?? 0,
      filesChanged,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  const files = sourceFiles();
  const sizes = Object.values(files).map((text) => Buffer.byteLength(text));
  const largest = Object.entries(files).sort((a, b) => b[1].length - a[1].length)[0]?.[0] ?? '';
  console.log(
    `workspace: this repository's src/**/*.ts, ${sizes.length} files, ${kb(sizes.reduce((a, b) => a + b, 0))}; largest ${largest} (${kb(Buffer.byteLength(files[largest] ?? ''))})`,
  );
  console.log(`${turns} agent turns per scenario\n`);
  const paths = Object.keys(files);
  const results = [
    await scenario(
      'spread: 1-4 files a turn, a new file every 10th turn',
      (_port, next) => {
        const count = 1 + Math.floor(next() * 4);
        return Array.from({ length: count }, () => paths[Math.floor(next() * paths.length)] ?? '').filter((path, index, all) => all.indexOf(path) === index);
      },
      10,
    ),
    await scenario(`worst case: ${largest} edited every turn`, () => [largest], 0),
  ];
  console.log('| scenario | files changed | store on disk | per turn | blobs | without dedupe | record one turn (median / p95) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of results) {
    console.log(
      `| ${row.scenario} | ${row.filesChanged} | ${kb(row.storeBytes)} | ${kb(row.storeBytes / turns)} | ${row.blobs} | ${kb(row.naiveBytes)} | ${row.medianMs.toFixed(2)} ms / ${row.p95Ms.toFixed(2)} ms |`,
    );
  }
}

void main();
