import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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

/** Every module specifier a file imports or requires, including `import type` and dynamic imports. */
function importsOf(text: string): string[] {
  const specifiers: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) if (match[1]) specifiers.push(match[1]);
  return specifiers;
}

describe('layers (house-style.md)', () => {
  it('finds the import scanner working on a known sample', () => {
    assert.deepEqual(importsOf(`import type * as v from 'vscode';\nconst x = require("vscode");`), ['vscode', 'vscode']);
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
      importsOf(readFileSync(file, 'utf8')).filter((spec) => /(^|\/)(core|host)(\/|$)/.test(spec)).map((spec) => `${relative(root, file)}: ${spec}`));
    assert.deepEqual(offenders, []);
  });

  it('src/core imports neither host nor webview', () => {
    const offenders = sourceFiles(join(root, 'src', 'core')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).filter((spec) => /(^|\/)(host|webview)(\/|$)/.test(spec)).map((spec) => `${relative(root, file)}: ${spec}`));
    assert.deepEqual(offenders, []);
  });
});
