import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../support/fixtures/repoRoot';

/**
 * Calls an export of scripts/checkDocs.mjs with JSON arguments and returns its JSON result. The script is
 * an ES module, as the static tier runs it, so it is called in a child Node (as startSettings.test.ts does).
 */
function call(name: string, ...args: unknown[]): unknown {
  const url = pathToFileURL(join(repoRoot(), 'scripts', 'checkDocs.mjs')).href;
  const script = `import * as docs from ${JSON.stringify(url)}; const out = await docs[${JSON.stringify(name)}](...${JSON.stringify(args)}); console.log(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as unknown;
}

/** A throwaway repository: each key a path, each value the file's text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cadenza-checkdocs-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('scripts/checkDocs.mjs: documents the code cites exist', () => {
  it("makes GitHub's heading anchors, numbering repeated headings", () => {
    assert.deepEqual(
      call(
        'anchorsOf',
        [
          '# Title',
          '## Self-hosted servers: llama-server differences',
          "### VS Code's own chat",
          '### `src/core/api`',
          '```',
          '# not a heading inside a fence',
          '```',
          '## Errors',
          '### Errors',
          '## **Bold** and [a link](x.md) — dash',
        ].join('\n'),
      ),
      ['title', 'self-hosted-servers-llama-server-differences', 'vs-codes-own-chat', 'srccoreapi', 'errors', 'errors-1', 'bold-and-a-link--dash'],
    );
  });

  it('reads comments only: not strings, template literals or regular expressions', () => {
    const source = [
      "const url = 'http://example.com/docs/inString.md'; // see docs/lineComment.md#part",
      'const t = `// docs/inTemplate.md ${1 + 1}`;',
      'const r = /\\/\\/ docs\\/inRegex.md/; const d = a / b; /* docs/block.md */',
      '/**',
      ' * ARCHITECTURE.md, "Layers"',
      ' */',
    ].join('\n');
    assert.deepEqual(call('citationsOf', source, 'src/a.ts'), [
      { line: 1, file: 'docs/lineComment.md', anchor: 'part' },
      { line: 3, file: 'docs/block.md' },
      { line: 5, file: 'ARCHITECTURE.md', heading: 'Layers' },
    ]);
  });

  it('knows the citation forms: a docs path with an anchor, a root document with a heading, a relative link', () => {
    const source = [
      '# docs/testing.md#the-local-stack and ARCHITECTURE "A wider build"',
      'x = 1  # CONTRIBUTING.md#code-conventions, then (../../docs/service.md#streaming)',
      '# docs/decisions/0003 to 0009 is no path; bench/results/team-index.md is one',
    ].join('\n');
    assert.deepEqual(call('citationsOf', source, 'scripts/x.sh'), [
      { line: 1, file: 'docs/testing.md', anchor: 'the-local-stack' },
      { line: 1, file: 'ARCHITECTURE.md', heading: 'A wider build' },
      { line: 2, file: 'CONTRIBUTING.md', anchor: 'code-conventions' },
      { line: 2, file: 'docs/service.md', anchor: 'streaming' },
      { line: 3, file: 'bench/results/team-index.md' },
    ]);
  });

  it('reports a missing document, a missing anchor, a missing heading and an ARCHITECTURE.md past its length', () => {
    const root = tree({
      'ARCHITECTURE.md': `# Map\n\n## Layers\n\n${'word '.repeat(8001)}\n`,
      'docs/service.md': '# Service\n\n## Streaming\n',
      'src/core/a.ts': [
        '// docs/service.md#streaming and ARCHITECTURE.md, "Layers" exist',
        '// docs/service.md#no-such-part',
        '/* docs/missing.md */',
        "const s = 'docs/notInAComment.md';",
        '// ARCHITECTURE.md#gone, ARCHITECTURE.md, "Gone too"',
      ].join('\n'),
      'test/b.md': 'See [the service](../docs/service.md#streaming).\n',
    });
    try {
      const result = call('checkDocs', root) as { words: number; citations: number; problems: string[] };
      assert.equal(result.words, 8005);
      assert.equal(result.citations, 7);
      assert.deepEqual(result.problems, [
        'ARCHITECTURE.md has 8005 words; a map stays under 8000 (move measurements to docs/decisions/ or bench/results/)',
        'src/core/a.ts:2: cites docs/service.md#no-such-part, but docs/service.md has no such heading',
        'src/core/a.ts:3: cites docs/missing.md, which does not exist',
        'src/core/a.ts:5: cites ARCHITECTURE.md#gone, but ARCHITECTURE.md has no such heading',
        'src/core/a.ts:5: cites ARCHITECTURE.md, "Gone too", but ARCHITECTURE.md has no such heading',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('passes on this repository', () => {
    const result = call('checkDocs', repoRoot()) as { words: number; citations: number; problems: string[] };
    assert.deepEqual(result.problems, []);
    assert.ok(result.citations > 50, `only ${result.citations} citations found`);
  });
});
