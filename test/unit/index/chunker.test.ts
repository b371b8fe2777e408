import * as assert from 'node:assert/strict';
import { chunkerVersion, chunkText, estimateTokens, maxChunkLines } from '../../../src/core/index/chunker';
import { codeFile } from './helpers';

function lines(text: string): string[] {
  return text.split('\n');
}

describe('index/chunker', () => {
  it('estimates tokens as a quarter of the characters after indentation, plus one a line', () => {
    assert.equal(estimateTokens('abcd'), 2);
    assert.equal(estimateTokens('        abcdefgh'), 3);
    assert.equal(estimateTokens('a\n\nb'), 5);
  });

  it('keeps a small file in one chunk with its exact line range', () => {
    const text = '\n\nfunction a() {\n  return 1;\n}\n\n';
    const chunks = chunkText(text);
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]?.startLine, 3);
    assert.equal(chunks[0]?.endLine, 5);
    assert.equal(chunks[0]?.text, 'function a() {\n  return 1;\n}');
  });

  it('cuts at top-level declarations, keeping chunks within the size bounds and without overlap there', () => {
    const text = codeFile('alpha', 12);
    const chunks = chunkText(text, { targetTokens: 200 });
    assert.ok(chunks.length >= 4, `${chunks.length} chunks`);
    const all = lines(text);
    for (const chunk of chunks) {
      assert.ok(chunk.tokens <= 320, `chunk of ${chunk.tokens} tokens`);
      const first = all[chunk.startLine - 1] ?? '';
      assert.match(first, /^(export function|\/\/)/, `chunk starts at a declaration: ${first}`);
      assert.equal(chunk.text, all.slice(chunk.startLine - 1, chunk.endLine).join('\n'));
    }
    for (let i = 1; i < chunks.length; i++) assert.ok((chunks[i]?.startLine ?? 0) > (chunks[i - 1]?.endLine ?? 0), 'no overlap at clean cuts');
    const last = chunks[chunks.length - 1];
    assert.equal(last?.endLine, all.length - 1, 'covers the file to its last non-blank line');
  });

  it('overlaps a few lines when it must cut inside a structure', () => {
    const body = Array.from({ length: 300 }, (_, i) => `    total += values[${i}] * weight; // accumulate ${i}`);
    const text = ['function huge() {', ...body, '}'].join('\n');
    const chunks = chunkText(text, { targetTokens: 150, overlapLines: 2 });
    assert.ok(chunks.length > 3);
    for (let i = 1; i < chunks.length; i++) {
      assert.equal(chunks[i]?.startLine, (chunks[i - 1]?.endLine ?? 0) - 1, 'two lines of overlap');
    }
    assert.equal(chunks[0]?.startLine, 1);
    assert.equal(chunks[chunks.length - 1]?.endLine, 302);
  });

  it('prefers blank-line boundaries to arbitrary lines and keeps doc comments with their declaration', () => {
    const para = (n: number): string[] => Array.from({ length: 8 }, (_, i) => `  statement${n}_${i}(argument, another, third);`);
    const text = [
      '/** Documented. */',
      'export class Thing {',
      ...para(1),
      '',
      ...para(2),
      '',
      ...para(3),
      '}',
      '',
      '/** Next. */',
      'export function next() {',
      ...para(4),
      '}',
    ].join('\n');
    const chunks = chunkText(text, { targetTokens: 100 });
    const all = lines(text);
    chunks.forEach((chunk, i) => {
      const previous = chunks[i - 1];
      if (!previous) return assert.equal(chunk.startLine, 1);
      // Each cut is at a blank line (then the next chunk repeats two lines of text) or at a declaration.
      const cutAfter = chunk.startLine <= previous.endLine ? previous.endLine : chunk.startLine - 1;
      const startsDeclaration = (all[chunk.startLine - 1] ?? '').startsWith('/**');
      assert.ok(startsDeclaration || all[cutAfter] === '', `cut after line ${cutAfter}`);
      if (!startsDeclaration) assert.equal(all.slice(chunk.startLine - 1, previous.endLine).filter((l) => l !== '').length, 2);
    });
    assert.ok(
      chunks.some((c) => (all[c.startLine - 1] ?? '') === '/** Next. */'),
      'the doc comment starts the chunk of its function',
    );
  });

  it('splits an overlong line by characters', () => {
    const text = `const data = "${'x'.repeat(20000)}";\nconst after = 1;`;
    const chunks = chunkText(text, { targetTokens: 256 });
    assert.ok(chunks.length >= 10);
    assert.ok(chunks.every((c) => c.tokens <= 410));
    assert.equal(
      chunks
        .map((c) => c.text)
        .join('')
        .replace('\n', '').length,
      text.length - 1,
    );
    assert.equal(chunks[chunks.length - 1]?.endLine, 2);
  });

  it('is deterministic, hashes text only, and ignores CRLF line endings', () => {
    const text = codeFile('beta', 6);
    const a = chunkText(text);
    const b = chunkText(text.replace(/\n/g, '\r\n'));
    assert.deepEqual(a, b);
    assert.equal(new Set(a.map((c) => c.hash)).size, a.length);
    assert.deepEqual(chunkText(''), []);
    assert.deepEqual(chunkText('\n  \n\t\n'), []);
  });

  it('never repeats a chunk when the one before began at a blank line (long lines; found in pygments/lexers/testing.py)', () => {
    // The chunk of lines 5-7 starts at the blank line 5; its overlap stepped back to line 6, so the next
    // chunk was lines 6-7 again, the same text (the blank line is trimmed): embedded twice, and a
    // duplicate key in the team index.
    const lines = [
      'class Lexer:',
      `    v0 = ${'x'.repeat(60)}`,
      '',
      `    feature = '${'a'.repeat(450)}'`,
      `    element = '${'b'.repeat(1530)}'`,
      `    examples = '${'c'.repeat(390)}'`,
      `    steps = '${'d'.repeat(1420)}'`,
      '',
      '    tokens = {}',
    ];
    const chunks = chunkText(lines.join('\n'));
    const keys = chunks.map((c) => `${c.startLine}-${c.endLine} ${c.hash}`);
    assert.equal(new Set(keys).size, keys.length, keys.join('\n'));
    for (let line = 1; line <= lines.length; line++)
      if (lines[line - 1])
        assert.ok(
          chunks.some((c) => c.startLine <= line && line <= c.endLine),
          `line ${line} is in a chunk`,
        );
  });

  it('never spans more lines than maxChunkLines, whatever the lines (blank, one character, code)', () => {
    assert.equal(maxChunkLines(), 512);
    for (const options of [undefined, { targetTokens: 120 }]) {
      const most = maxChunkLines(options);
      for (const text of ['x\n\n'.repeat(3000), '}\n'.repeat(5000), `a\n${'\n'.repeat(4000)}b`, codeFile('m', 200)]) {
        const longest = Math.max(...chunkText(text, options).map((chunk) => chunk.endLine - chunk.startLine + 1));
        assert.ok(longest <= most, `${longest} lines > ${most}`);
      }
    }
  });

  it('changes its version when options change', () => {
    assert.equal(chunkerVersion(), chunkerVersion({ targetTokens: 320 }));
    assert.notEqual(chunkerVersion(), chunkerVersion({ targetTokens: 200 }));
    assert.notEqual(chunkerVersion(), chunkerVersion({ declarationsAtAnyDepth: true }));
  });

  it('with declarationsAtAnyDepth, cuts above a method (with its decorator) inside a class, without overlap', () => {
    const method = (name: string, decorated: boolean): string[] => [
      ...(decorated ? ['    @property'] : []),
      `    def ${name}(self, request):`,
      ...Array.from({ length: 14 }, (_, i) => `        value_${i} = self.validator.${name}_${i}(request)`),
      '        return value_0',
      '',
    ];
    const text = ['class Endpoint:', '', ...method('first', false), ...method('second', true), ...method('third', false)].join('\n');
    const all = text.split('\n');
    const starts = (chunks: readonly { startLine: number }[]): string[] => chunks.map((c) => all[c.startLine - 1]?.trim() ?? '');
    const nested = chunkText(text, { targetTokens: 120, declarationsAtAnyDepth: true });
    assert.deepEqual(starts(nested).slice(1), ['@property', 'def third(self, request):']);
    for (let i = 1; i < nested.length; i++) assert.equal(nested[i]?.startLine, (nested[i - 1]?.endLine ?? 0) + 2, 'no overlap, the blank line between');
    const flat = chunkText(text, { targetTokens: 120 });
    assert.ok(
      starts(flat).some((line) => !line.startsWith('def ') && !line.startsWith('@') && !line.startsWith('class')),
      `without it a cut falls elsewhere: ${starts(flat).join(' | ')}`,
    );
  });
});
