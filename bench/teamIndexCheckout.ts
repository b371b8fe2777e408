// The generated checkout of bench/team-index: TypeScript-like files of documented functions, the same
// files every run (a seeded PRNG), so a kept checkout and its database stay in step across runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const REPO = 'bench';
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

const VERBS = 'parse read write load save send fetch retry cancel encode decode render validate merge split index search embed sort filter map reduce flush open close start stop resolve reject connect listen'.split(' ');
const NOUNS = 'request response buffer token stream cache vector query socket timer config logger schema commit branch chunk file folder snapshot model user session header payload record batch queue worker channel message error limit window budget cursor document range'.split(' ');
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

export function fileText(i: number, salt = ''): string {
  const r = rng(i * 2654435761 + 12345);
  const parts = [`// ${REPO}/pkg${i % 500}/module${i}.ts\nimport type { ${cap(NOUNS[i % NOUNS.length] ?? 'x')} } from './types';\n`];
  for (let f = 0; f < FUNCTIONS_PER_FILE; f++) parts.push(fn(r, i * FUNCTIONS_PER_FILE + f, salt));
  return parts.join('\n');
}

export const relOf = (i: number): string => `pkg${i % 500}/module${i}.ts`;
/** Writes generated file i of the checkout (its folder too) and returns its path. */
export function writeFileAt(dir: string, i: number): string {
  const abs = path.join(dir, relOf(i));
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, fileText(i));
  return abs;
}

/** The benchmark's queries: four words of four or more letters from a random sampled chunk (seeded, so every run and tool asks the same). */
export function benchQueries(texts: readonly string[], count: number): string[] {
  const r = rng(99);
  return Array.from({ length: count }, () => {
    const words = (texts[Math.floor(r() * texts.length)] ?? '').match(/[A-Za-z]{4,}/g) ?? [];
    return Array.from({ length: 4 }, () => words[Math.floor(r() * words.length)] ?? '').join(' ');
  });
}
