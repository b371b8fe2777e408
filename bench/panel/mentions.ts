// Benchmark of the composer's @-mentions. Prints:
//  1. Time from `@` to the list on a 20,000-file workspace (plus 5,000 git-ignored files in node_modules and
//     a build folder): the first `@` of a session walks the workspace (`listWorkspace`, the index's walker and
//     ignore rules); every later keystroke filters the cached list (`filterListed`, fuzzy) and serialises the
//     50 offers as the `mention/candidates` message. Goal: a keystroke under 100 ms.
//  2. The tokens each context kind adds for the fixture workspace (test/support/fixtures/workspace), estimated as the
//     context budget counts them (4 characters a token), with the preamble the request carries.
// Prints figures; asserts nothing.
//
//   npx tsc -p tsconfig.json && node out/bench/panel/mentions.js [--files 20000]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { contextPart, contextPreamble, type ContextPart } from '../../src/core/chat/context/contextProvider';
import { filterListed, ListFilter, listWorkspace } from '../../src/core/chat/context/fileCatalog';
import { repoRoot } from '../../test/support/fixtures/repoRoot';

const { values } = parseArgs({ options: { files: { type: 'string', default: '20000' } } });
const fileCount = Number(values.files);

const words = [
  'chat',
  'index',
  'audio',
  'client',
  'stream',
  'budget',
  'context',
  'model',
  'tool',
  'agent',
  'render',
  'store',
  'search',
  'parse',
  'retry',
  'token',
];

function makeWorkspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-bench-mentions-'));
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\nbuild/\n');
  for (let index = 0; index < fileCount; index++) {
    const a = words[index % words.length] ?? 'a';
    const b = words[Math.floor(index / words.length) % words.length] ?? 'b';
    const dir = path.join(root, 'packages', `pkg-${index % 40}`, 'src', a, `${b}${Math.floor(index / 256) % 8}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${a}${b[0]?.toUpperCase() ?? ''}${b.slice(1)}${index}.ts`), 'x');
  }
  for (let index = 0; index < 5_000; index++) {
    const dir = path.join(root, index % 2 ? 'node_modules' : 'build', `dep${index % 100}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `file${index}.js`), 'x');
  }
  return root;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function latency(): Promise<void> {
  const root = makeWorkspace();
  try {
    const roots = [{ name: 'bench', path: root }];
    const coldStart = performance.now();
    const list = await listWorkspace(roots, {});
    const cold = performance.now() - coldStart;
    const files = list.filter((entry) => entry.kind === 'file').length;
    console.log(
      `\n1. @ to the list, ${files} files listed (${list.length - files} folders; 5,000 git-ignored files left out: ${list.some((entry) => entry.label.startsWith('node_modules')) ? 'NO' : 'yes'})`,
    );
    console.log(
      `   first @ of a session (walk + list): ${cold.toFixed(0)} ms; load average while measured: ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
    const typed = [
      '',
      'c',
      'ch',
      'cha',
      'chat',
      'chatS',
      'chatSt',
      'chatSto',
      'chatStor',
      'chatStore',
      'chatStore1',
      'pkg3/agent',
      'srcmodel',
      'tokenretry',
      'zzz',
    ];
    const rows: string[] = [];
    const all: number[] = [];
    for (const query of typed) {
      const times: number[] = [];
      let found = 0;
      let bytes = 0;
      for (let run = 0; run < 15; run++) {
        const start = performance.now();
        const best = filterListed(list, query, 50);
        const message = JSON.stringify({
          type: 'mention/candidates',
          requestId: run,
          query,
          candidates: best.map((entry) => ({ kind: entry.kind, id: `file://${root}/${entry.relPath}`, label: entry.label })),
        });
        times.push(performance.now() - start);
        found = best.length;
        bytes = message.length;
      }
      times.sort((x, y) => x - y);
      all.push(...times);
      rows.push(
        `   | @${query.padEnd(12)} | ${quantile(times, 0.5).toFixed(1).padStart(6)} | ${quantile(times, 0.95).toFixed(1).padStart(6)} | ${String(found).padStart(6)} | ${String(bytes).padStart(7)} |`,
      );
    }
    // As the catalog runs it: one ListFilter over a typing session, each keystroke extending the last query.
    const session: number[] = [];
    for (let run = 0; run < 15; run++) {
      const filter = new ListFilter();
      for (const query of typed.slice(0, 11)) {
        const start = performance.now();
        filter.filter(list, query, 50);
        session.push(performance.now() - start);
      }
    }
    session.sort((x, y) => x - y);
    all.sort((x, y) => x - y);
    console.log('   per keystroke (filter the cached list + serialise the offers), ms:');
    console.log('   | typed         | median |    p95 | offers |   bytes |');
    console.log('   | ------------- | ------ | ------ | ------ | ------- |');
    for (const row of rows) console.log(row);
    console.log(
      `   typing "chatStore1" one key at a time through ListFilter (what the catalog runs): median ${quantile(session, 0.5).toFixed(1)} ms, p95 ${quantile(session, 0.95).toFixed(1)} ms, max ${(session.at(-1) ?? 0).toFixed(1)} ms`,
    );
    console.log(
      `   each query alone over the whole list (filterListed): median ${quantile(all, 0.5).toFixed(1)} ms, p95 ${quantile(all, 0.95).toFixed(1)} ms, max ${(all.at(-1) ?? 0).toFixed(1)} ms (goal: under 100 ms)`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function tokens(): void {
  const fixture = path.join(repoRoot(), 'test', 'support', 'fixtures', 'workspace');
  const read = (relative: string): string => fs.readFileSync(path.join(fixture, relative), 'utf8');
  const greeting = read('src/greeting.ts');
  const greetingLines = greeting.split('\n');
  const parts: ContextPart[] = [
    contextPart('file', 'src/greeting.ts', greeting),
    contextPart('file', 'docs/notes.md', read('docs/notes.md')),
    contextPart(
      'folder',
      'src/',
      `Files in src/ (workspace-relative):\n${fs
        .readdirSync(path.join(fixture, 'src'))
        .map((name) => `src/${name}`)
        .join('\n')}`,
    ),
    contextPart('symbol', 'greeting() (src/greeting.ts:2-4)', `${greetingLines.slice(1, 4).join('\n')}\n`),
    contextPart('selection', 'selection (src/greeting.ts:3-3)', greetingLines[2] ?? ''),
    contextPart('problems', 'problems (src/greeting.ts)', 'src/greeting.ts:2:17 warning: Parameter name shadows a global (mentions test).'),
  ];
  // A git diff of the fixture: a one-line change to greeting.ts in a throwaway repository.
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-bench-git-'));
  try {
    fs.cpSync(fixture, repo, { recursive: true });
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    fs.appendFileSync(path.join(repo, 'src', 'greeting.ts'), 'export const farewell = (name: string): string => `Bye, ${name}!`;\n');
    parts.push(contextPart('git', 'git diff (one added line)', git('diff')));
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
  // @codebase on the fixture: the index returns every file of it as one excerpt each (as the integration test saw).
  const files = ['src/greeting.ts', 'docs/notes.md', 'README.md', 'data.json', 'src/math.py'];
  const excerpts = files.map((file, index) => `[${index + 1}] ${file}:1-${read(file).split('\n').length}\n\`\`\`\n${read(file).trimEnd()}\n\`\`\``);
  parts.push(
    contextPart(
      'codebase',
      `codebase: ${files.length} excerpts`,
      ["Workspace context: excerpts of the user's files that may be relevant. Cite one as [n] when you use it.", ...excerpts].join('\n\n'),
    ),
  );
  console.log('\n2. Tokens each context kind adds (fixture workspace; estimate: 4 characters a token)');
  console.log('   | kind      | mention                            | part | with its preamble |');
  console.log('   | --------- | ---------------------------------- | ---- | ----------------- |');
  for (const part of parts) {
    const sent = contextPart(part.kind, part.label, contextPreamble([part])).tokens;
    console.log(`   | ${part.kind.padEnd(9)} | ${part.label.padEnd(34)} | ${String(part.tokens).padStart(4)} | ${String(sent).padStart(17)} |`);
  }
  console.log('   terminal: the last command and its output as read through shell integration (`$ cmd`, output, exit code): its own length / 4.');
}

void (async () => {
  await latency();
  tokens();
})();
