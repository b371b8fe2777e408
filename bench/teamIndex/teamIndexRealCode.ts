// The real-code checkout of bench/teamIndex/teamIndex (CORPUS=real): source files of real projects found on this
// machine (C headers, the Python standard library, npm packages, llama.cpp, the Python packages of the
// local model stack), copied once into TEAM_BENCH_DIR/realcode-base with a manifest, so every later run
// reads the same base. File i of the checkout is base file (i mod B) of "copy" floor(i / B): copy 0 is
// the file as it is; copy k renames the identifiers by a permutation of the base's own vocabulary (seeded
// by k, within bands of similar frequency, the 300 commonest words such as keywords left alone), so a
// checkout of any size keeps real code's structure, line lengths and Zipf-shaped vocabulary while its
// chunks stay distinct (a plain repeat would be deduplicated by content hash and embedded once).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { decodeFile } from '../../src/core/index/binaryDetect';
import { DEFAULT_GENERATED } from '../../src/core/index/ignoreRules';
import { rng } from './teamIndexCheckout';

/** Where the base is looked for on this machine (label: folder); missing folders are skipped. */
const SOURCES: readonly (readonly [string, string])[] = [
  ['c-headers', '/usr/include'],
  ['python-stdlib', '/usr/lib/python3.11'],
  ['python-dist', '/usr/lib/python3/dist-packages'],
  ['share', '/usr/share'],
  ['npm-global', '/usr/lib/node_modules'],
  ['npm', '/work/main/node_modules'],
  ['llama', '/root/.cache/cadenza-llama'],
  ['model-stack', '/root/.cache/cadenza-local-stack'],
];
const EXTENSIONS = new Set([
  '.c',
  '.h',
  '.cc',
  '.cpp',
  '.hpp',
  '.cu',
  '.py',
  '.js',
  '.mjs',
  '.cjs',
  '.ts',
  '.go',
  '.rs',
  '.java',
  '.rb',
  '.pl',
  '.pm',
  '.sh',
  '.lua',
  '.swift',
  '.kt',
  '.m',
  '.cs',
  '.php',
]);
const KEEP_COMMONEST = 300;
const MIN_BYTES = 512;
const MAX_BYTES = 200_000;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;

interface Base {
  readonly dir: string;
  /** Base files in checkout order (a seeded shuffle, so any prefix mixes the sources). */
  readonly files: readonly string[];
  /** Identifiers by descending frequency over the base. */
  readonly vocabulary: readonly string[];
  readonly rank: ReadonlyMap<string, number>;
}

const generatedNames = new Set(DEFAULT_GENERATED.filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1)));
/** A folder name the indexer skips by default (node_modules, dist, …) gets a suffix, so the walk sees every file the load wrote. */
const safeSegment = (segment: string): string => (generatedNames.has(segment) || segment.startsWith('.') ? `${segment.replace(/^\./, '')}_` : segment);

function* walk(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const abs = path.join(dir, name);
    let stat;
    try {
      stat = statSync(abs, { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (!stat) continue;
    if (stat.isDirectory()) yield* walk(abs);
    else if (stat.isFile() && EXTENSIONS.has(path.extname(name)) && stat.size >= MIN_BYTES && stat.size <= MAX_BYTES && !name.includes('.min.')) yield abs;
  }
}

/** Code-like text: valid UTF-8, no NUL, short average lines and no line longer than 2,000 characters (bundles and data are left out). */
function codeText(bytes: Buffer): string | undefined {
  const decoded = decodeFile(bytes);
  if (decoded.kind !== 'text' || decoded.lossy) return undefined;
  const lines = decoded.text.split('\n');
  if (decoded.text.length / lines.length > 160 || lines.some((line) => line.length > 2000)) return undefined;
  return decoded.text;
}

function harvest(dir: string, log: (line: string) => void): void {
  mkdirSync(dir, { recursive: true });
  const seen = new Set<string>();
  const files: string[] = [];
  const counts = new Map<string, number>();
  let bytes = 0;
  for (const [label, root] of SOURCES) {
    if (!existsSync(root)) continue;
    let kept = 0;
    for (const abs of walk(root)) {
      const content = readFileSync(abs);
      const text = codeText(content);
      if (text === undefined) continue;
      const digest = createHash('sha1').update(content).digest('hex');
      if (seen.has(digest)) continue;
      seen.add(digest);
      const rel = [label, ...path.relative(root, abs).split(path.sep).map(safeSegment)].join('/');
      mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), content);
      files.push(rel);
      bytes += content.length;
      kept++;
      for (const word of text.match(IDENT) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    log(`    real-code base: ${kept} files from ${root}`);
  }
  const r = rng(20261126);
  for (let i = files.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [files[i], files[j]] = [files[j] as string, files[i] as string];
  }
  const vocabulary = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ bytes, files, sources: SOURCES }));
  writeFileSync(path.join(dir, 'vocabulary.txt'), vocabulary.join('\n'));
  log(`    real-code base: ${files.length} distinct files, ${(bytes / 1e6).toFixed(0)} MB, ${vocabulary.length} distinct identifiers (in ${dir})`);
}

let cached: Base | undefined;
function base(dir: string, log: (line: string) => void): Base {
  if (cached) return cached;
  if (!existsSync(path.join(dir, 'manifest.json'))) harvest(dir, log);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: string[] };
  const vocabulary = readFileSync(path.join(dir, 'vocabulary.txt'), 'utf8').split('\n');
  cached = { dir, files: manifest.files, vocabulary, rank: new Map(vocabulary.map((word, i) => [word, i])) };
  return cached;
}

/** Copy k's renaming: word rank → rank, a seeded shuffle inside bands [300, 600), [600, 1200), … (the commonest 300 stay). */
const permutations = new Map<number, Int32Array>();
function permutation(b: Base, copy: number): Int32Array {
  let p = permutations.get(copy);
  if (p) return p;
  p = Int32Array.from({ length: b.vocabulary.length }, (_, i) => i);
  const r = rng(0x5eed + copy * 7919);
  for (let lo = KEEP_COMMONEST; lo < p.length; lo *= 2) {
    const hi = Math.min(p.length, lo * 2);
    for (let i = hi - 1; i > lo; i--) {
      const j = lo + Math.floor(r() * (i - lo + 1));
      const t = p[i] as number;
      p[i] = p[j] as number;
      p[j] = t;
    }
  }
  permutations.set(copy, p);
  return p;
}

const commentFor = (rel: string): string => (/\.(py|sh|pl|pm|rb)$/.test(rel) ? '#' : '//');

/** The real-code checkout over the base in `dir` (harvested on first use). */
export function realCodeCheckout(
  dir: string,
  log: (line: string) => void = () => undefined,
): {
  relOf(i: number): string;
  fileText(i: number, salt?: string): string;
} {
  const at = (i: number): { copy: number; rel: string } => {
    const b = base(dir, log);
    return { copy: Math.floor(i / b.files.length), rel: b.files[i % b.files.length] as string };
  };
  return {
    relOf: (i) => {
      const { copy, rel } = at(i);
      return `copy${copy}/${rel}`;
    },
    fileText: (i, salt = '') => {
      const b = base(dir, log);
      const { copy, rel } = at(i);
      const text = readFileSync(path.join(b.dir, rel), 'utf8');
      const renamed =
        copy === 0
          ? text
          : (() => {
              const p = permutation(b, copy);
              return text.replace(IDENT, (word) => {
                const r = b.rank.get(word);
                return r === undefined || r < KEEP_COMMONEST || word.length < 4 ? word : (b.vocabulary[p[r] as number] ?? word);
              });
            })();
      return salt ? `${renamed}\n${commentFor(rel)}${salt}\n` : renamed;
    },
  };
}
