// The held-out set of bench/completions/completionsQuality: spans cut from real code already on this machine (Python's
// standard library, JSDoc'd JavaScript in node_modules, TypeScript's lib*.d.ts), and how an answer is scored
// against the span (exact match, edit similarity).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { mulberry32 } from '../../src/core/index/vectorSearch';
import { repoRoot } from '../../test/support/fixtures/repoRoot';

export type Source = 'python' | 'javascript' | 'd.ts';
/** A case: lines [start, end] of a file removed. The file's lines are shared by its cases (the set is built lazily). */
export interface Case {
  readonly id: string;
  readonly source: Source;
  readonly kind: 'line' | 'block';
  readonly path: string;
  readonly languageId: string;
  readonly lines: readonly string[];
  readonly start: number;
  readonly end: number;
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
export function materialise(entry: Case): { prefix: string; suffix: string; expected: string } {
  const { lines, start, end } = entry;
  const indent = /^[ \t]*/.exec(lines[start] ?? '')?.[0] ?? '';
  return {
    prefix: `${lines.slice(0, start).join('\n')}\n${indent}`,
    suffix: `\n${lines.slice(end + 1).join('\n')}`,
    expected: lines
      .slice(start, end + 1)
      .join('\n')
      .slice(indent.length),
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
        if (stop - i >= 2 && stop - i <= 6 && /^(if|for|while|with|try)\b/.test(text))
          cases.push(makeCase('python', 'block', path, 'python', lines, i, stop - 1));
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
        if (stop < end && lines[stop]?.trim() === '}' && stop - i >= 2 && stop - i <= 6 && /^(if|for|while|try)\b/.test(text))
          cases.push(makeCase('javascript', 'block', path, 'javascript', lines, i, stop));
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
    else if (inside && /^[A-Za-z_[].*\(.*\).*;$/.test(text) && text.length <= 120 && i > 0)
      cases.push(makeCase('d.ts', 'line', path, 'typescript', lines, i, i));
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
  const candidates = readdirSync('/usr/lib')
    .filter((name) => /^python3\.\d+$/.test(name))
    .sort();
  const chosen = candidates.at(-1);
  if (!chosen) throw new Error('no Python standard library under /usr/lib');
  return join('/usr/lib', chosen);
}

/** The held-out set: `count` cases, about 40 % Python, 40 % JavaScript, 20 % d.ts, shuffled together. */
export function buildCases(count: number, seed: number): Case[] {
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
  const declarations = readdirSync(libDir)
    .filter((name) => /^lib\..*\.d\.ts$/.test(name))
    .sort()
    .flatMap((name) => declarationCases(join(libDir, name), `typescript/lib/${name}`));
  const dts = Math.floor(count * 0.2);
  const py = Math.floor((count - dts) / 2);
  const picked = [...perFile(python, 3).slice(0, py), ...perFile(javascript, 3).slice(0, count - dts - py), ...perFile(declarations, 4).slice(0, dts)];
  process.stdout.write(
    `Candidates: ${python.length} Python (${stdlib}), ${javascript.length} JavaScript (${jsFiles.length} JSDoc'd files in node_modules), ${declarations.length} d.ts members; picked ${picked.length}.\n`,
  );
  return shuffle(picked, random);
}

// ---- scoring ----
export const normalise = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');

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

export function similarity(expected: string, actual: string): number {
  const a = normalise(expected);
  const b = normalise(actual);
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - levenshtein(a, b) / longer;
}
