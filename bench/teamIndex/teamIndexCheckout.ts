// The checkout of bench/teamIndex/teamIndex, the same files every run, so a kept checkout and its database stay in
// step across runs. CORPUS=generated (the default): TypeScript-like files of documented functions from a
// seeded PRNG and a few hundred words. CORPUS=real: real code found on this machine (teamIndexRealCode.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { realCodeCheckout } from './teamIndexRealCode';

export const REPO = 'bench';
/** Where `--keep` keeps the cluster, each size's database and its checkout (PostgreSQL runs as `nobody`, who cannot enter /root). */
export const KEEP_DIR = process.env['TEAM_BENCH_DIR'] ?? '/var/cache/cadenza-team-bench';
const REAL = process.env['CORPUS'] === 'real';
if (process.env['CORPUS'] !== undefined && !REAL && process.env['CORPUS'] !== 'generated')
  throw new Error(`CORPUS is "generated" or "real", not "${process.env['CORPUS']}"`);
/** Names a size's kept database and checkout: bench_1000000 / checkout-1000000, or bench_real_1000000 / checkout-real-1000000. */
export const corpusName = (target: number, separator: string): string => (REAL ? `real${separator}${target}` : String(target));
export const CORPUS_LABEL = REAL ? 'real code from this machine, identifiers renamed per copy beyond the first' : 'generated TypeScript-like code';
const FUNCTIONS_PER_FILE = 6;

/** A small deterministic PRNG (xorshift32), so every run generates the same checkout. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

const VERBS =
  'parse read write load save send fetch retry cancel encode decode render validate merge split index search embed sort filter map reduce flush open close start stop resolve reject connect listen'.split(
    ' ',
  );
const NOUNS =
  'request response buffer token stream cache vector query socket timer config logger schema commit branch chunk file folder snapshot model user session header payload record batch queue worker channel message error limit window budget cursor document range'.split(
    ' ',
  );
const ADJ = 'pending active stale fresh remote local shared partial complete empty nested binary quoted signed'.split(' ');
const cap = (w: string): string => `${w[0]?.toUpperCase() ?? ''}${w.slice(1)}`;

/** One function of generated code: a doc comment and a body of a few statements, ~60-120 tokens. */
function fn(r: () => number, id: number, salt: string): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const verb = pick(VERBS);
  const noun = pick(NOUNS);
  const other = pick(NOUNS);
  const adj = pick(ADJ);
  const name = `${verb}${cap(adj)}${cap(noun)}${id}`;
  const lines = [
    `/** ${cap(verb)} the ${adj} ${noun} of a ${other}${salt}; returns the ${pick(ADJ)} ${pick(NOUNS)}. */`,
    `export function ${name}(${other}: ${cap(other)}, limit = ${Math.floor(r() * 100)}): ${cap(noun)} | undefined {`,
    `  const ${noun}s = ${other}.${pick(NOUNS)}s.filter((item) => item.${pick(ADJ)} && item.size < limit);`,
    `  if (${noun}s.length === 0) return undefined;`,
    `  const ${pick(NOUNS)}Map = new Map(${noun}s.map((item) => [item.${pick(NOUNS)}Id, item]));`,
    `  for (const [key, value] of ${noun}s.entries()) ${verb}${cap(pick(NOUNS))}(key, value, '${pick(VERBS)} ${pick(NOUNS)}');`,
    `  return ${noun}s.sort((a, b) => a.${pick(NOUNS)} - b.${pick(NOUNS)})[0];`,
    '}',
    '',
  ];
  return lines.join('\n');
}

function generatedText(i: number, salt = ''): string {
  const r = rng(i * 2654435761 + 12345);
  const parts = [`// ${REPO}/pkg${i % 500}/module${i}.ts\nimport type { ${cap(NOUNS[i % NOUNS.length] ?? 'x')} } from './types';\n`];
  for (let f = 0; f < FUNCTIONS_PER_FILE; f++) parts.push(fn(r, i * FUNCTIONS_PER_FILE + f, salt));
  return parts.join('\n');
}

const generatedRel = (i: number): string => `pkg${i % 500}/module${i}.ts`;
const real = REAL ? realCodeCheckout(path.join(KEEP_DIR, 'realcode-base'), (line) => process.stdout.write(`${line}\n`)) : undefined;
/** File i of the checkout: its path, and its text (with `salt` worked in: a changed file of a later commit). */
export const relOf = (i: number): string => (real ? real.relOf(i) : generatedRel(i));
export const fileText = (i: number, salt = ''): string => (real ? real.fileText(i, salt) : generatedText(i, salt));
/** Writes generated file i of the checkout (its folder too) and returns its path. */
export function writeFileAt(dir: string, i: number): string {
  const abs = path.join(dir, relOf(i));
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, fileText(i));
  return abs;
}

/** The benchmark's queries: four words of four or more letters from a random sampled chunk (seeded, so every run and tool asks the same), each with the index of the sample it came from. */
export function benchItems(texts: readonly string[], count: number): { source: number; query: string }[] {
  const r = rng(99);
  return Array.from({ length: count }, () => {
    const source = Math.floor(r() * texts.length);
    const words = (texts[source] ?? '').match(/[A-Za-z]{4,}/g) ?? [];
    return { source, query: Array.from({ length: 4 }, () => words[Math.floor(r() * words.length)] ?? '').join(' ') };
  });
}

/** The benchmark's queries alone (see benchItems). */
export const benchQueries = (texts: readonly string[], count: number): string[] => benchItems(texts, count).map((item) => item.query);
