import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (/\.(ts|tsx|js|mjs)$/.test(name)) found.push(path);
  }
  return found;
}

/** Every module specifier a file imports, re-exports or requires, including `import type` and dynamic imports. */
function importsOf(text: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1] ?? ''));
}

/** The file a relative import names (`./a` as `a.ts`, `a.tsx`, `a/index.ts`, or a file with its extension), or undefined. */
function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(from, spec);
  const candidates = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts'), base];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Every import cycle of a graph (file -> the files it imports), each as `a -> b -> a`, found by depth-first search. */
function cyclesIn(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('layers (ARCHITECTURE.md#layers)', () => {
  it('finds the import scanner working on a known sample', () => {
    assert.deepEqual(importsOf(`import type * as v from 'vscode';\nimport {\n  a,\n} from './a';\n// text from "a comment"\nconst x = require("vscode");`), [
      'vscode',
      './a',
      'vscode',
    ]);
  });

  for (const layer of ['core', 'shared', 'webview']) {
    it(`src/${layer} imports no vscode`, () => {
      const offenders = sourceFiles(join(root, 'src', layer))
        .filter((file) => importsOf(readFileSync(file, 'utf8')).includes('vscode'))
        .map((file) => relative(root, file));
      assert.deepEqual(offenders, []);
    });
  }

  it("src/shared imports nothing outside itself but valibot (its messages' schemas)", () => {
    const shared = join(root, 'src', 'shared');
    const inside = (file: string, spec: string): boolean => spec.startsWith('.') && !relative(shared, resolve(dirname(file), spec)).startsWith('..');
    const offenders = sourceFiles(shared).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec !== 'valibot' && !inside(file, spec))
        .map((spec) => `${relative(root, file)}: ${spec}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('src/webview imports only shared and browser libraries', () => {
    const offenders = sourceFiles(join(root, 'src', 'webview')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.') && /(^|\/)(core|host)(\/|$)/.test(spec))
        .map((spec) => `${relative(root, file)}: ${spec}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('finds the cycles of a known import graph, and none in one without', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', []],
      ['e', ['e']],
    ]);
    assert.deepEqual(cyclesIn(graph), ['a -> b -> c -> a', 'e -> e']);
    assert.deepEqual(
      cyclesIn(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
      [],
    );
  });

  // The chat turn's parts import nothing back from its coordinator (src/host); no layer has a circle either.
  for (const layer of ['host', 'core', 'shared', 'webview', 'cli']) {
    it(`src/${layer} has no import cycle`, () => {
      const files = sourceFiles(join(root, 'src', layer)).filter((file) => /\.tsx?$/.test(file));
      const unresolved: string[] = [];
      const edges = new Map(
        files.map((file) => [
          relative(root, file),
          importsOf(readFileSync(file, 'utf8'))
            .filter((spec) => spec.startsWith('.'))
            .flatMap((spec) => {
              const target = resolveImport(dirname(file), spec);
              if (target === undefined) unresolved.push(`${relative(root, file)}: ${spec}`);
              return target === undefined ? [] : [relative(root, target)];
            }),
        ]),
      );
      // An import the check cannot follow would hide a cycle through it, so it fails the check too.
      assert.deepEqual(unresolved, []);
      assert.ok(edges.size > 0 && [...edges.values()].some((targets) => targets.length > 0), `src/${layer}'s import graph was read`);
      assert.deepEqual(cyclesIn(edges), []);
    });
  }

  it('src/core imports neither host nor webview', () => {
    const offenders = sourceFiles(join(root, 'src', 'core')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.') && /(^|\/)(host|webview)(\/|$)/.test(spec))
        .map((spec) => `${relative(root, file)}: ${spec}`),
    );
    assert.deepEqual(offenders, []);
  });
});
