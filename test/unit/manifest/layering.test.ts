import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

describe('layers (house-style.md)', () => {
  it('finds the import scanner working on a known sample', () => {
    assert.deepEqual(importsOf(`import type * as v from 'vscode';\nimport {\n  a,\n} from './a';\n// text from "a comment"\nconst x = require("vscode");`), ['vscode', './a', 'vscode']);
  });

  for (const layer of ['core', 'shared', 'webview']) {
    it(`src/${layer} imports no vscode`, () => {
      const offenders = sourceFiles(join(root, 'src', layer))
        .filter((file) => importsOf(readFileSync(file, 'utf8')).includes('vscode'))
        .map((file) => relative(root, file));
      assert.deepEqual(offenders, []);
    });
  }

  it('src/shared imports nothing outside itself', () => {
    const offenders = sourceFiles(join(root, 'src', 'shared')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).filter((spec) => !spec.startsWith('./')).map((spec) => `${relative(root, file)}: ${spec}`));
    assert.deepEqual(offenders, []);
  });

  it('src/webview imports only shared and browser libraries', () => {
    const offenders = sourceFiles(join(root, 'src', 'webview')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).filter((spec) => spec.startsWith('.') && /(^|\/)(core|host)(\/|$)/.test(spec)).map((spec) => `${relative(root, file)}: ${spec}`));
    assert.deepEqual(offenders, []);
  });

  it('src/host has no import cycle (the chat turn\'s parts import nothing back from its coordinator)', () => {
    const files = sourceFiles(join(root, 'src', 'host')).filter((file) => file.endsWith('.ts'));
    const known = new Set(files);
    const edges = new Map(files.map((file) => [file, importsOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(file), spec) + '.ts')
      .filter((target) => known.has(target))]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].map((entry) => relative(root, entry)).join(' -> '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    assert.deepEqual(cycles, []);
  });

  it('src/core imports neither host nor webview', () => {
    const offenders = sourceFiles(join(root, 'src', 'core')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).filter((spec) => spec.startsWith('.') && /(^|\/)(host|webview)(\/|$)/.test(spec)).map((spec) => `${relative(root, file)}: ${spec}`));
    assert.deepEqual(offenders, []);
  });
});
