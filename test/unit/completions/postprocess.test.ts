// Post-processing on real code: what chat models actually answer for a cursor, and the ghost text it must become.
import assert from 'node:assert/strict';
import { cleanCompletion, completionMode, type CursorText } from '../../../src/core/completions/postprocess';

/** Splits a sample at `|` into the text before and after the cursor. */
function at(sample: string): CursorText {
  const index = sample.indexOf('|');
  assert.ok(index >= 0, 'the sample marks the cursor with |');
  return { prefix: sample.slice(0, index), suffix: sample.slice(index + 1) };
}

const clean = (raw: string, cursor: CursorText): string => cleanCompletion(raw, cursor).text;

describe('completions/postprocess', () => {
  it('picks one line inside a line and a block at a line end', () => {
    assert.equal(completionMode(at('const x = foo(|);\n')), 'line');
    assert.equal(completionMode(at('function add(a, b) {|\n}\n')), 'block');
    assert.equal(completionMode(at('  return |   \n')), 'block');
  });

  it('strips Markdown fences and the sentence before them', () => {
    const cursor = at('function add(a: number, b: number): number {\n  |\n}\n');
    assert.equal(clean('Here is the completion:\n```typescript\nreturn a + b;\n```\nThis adds the numbers.', cursor), 'return a + b;');
    assert.equal(clean('```ts\n  return a + b;\n```', cursor), 'return a + b;', 'the typed indentation is not repeated');
    assert.equal(clean("Sure! Here's the code:\nreturn a + b;", cursor), 'return a + b;');
    assert.equal(clean('Here is the code:\n```\nreturn a + b;\n```', cursor), 'return a + b;', 'a bare opening fence after a sentence');
  });

  it('ends the code at a bare closing fence: the prompt leaves the fence of the code before the cursor open', () => {
    // Gemma 3 270M's raw answer for an empty add body (the real-model tier's model, prompt.ts's layout).
    const cursor = at('export function add(a: number, b: number): number {\n  |\n}\n');
    assert.equal(clean(" return a + b;\n}\n```\n\nI'm not sure what you're trying to do.", cursor), 'return a + b;');
    assert.equal(clean('return a + b;\n```', cursor), 'return a + b;', 'a fence at the very end');
    assert.equal(cleanCompletion('return a + b;\n```\n', cursor, 'block', false).ended, true, 'a stream can stop at the fence');
    const python = at('def area(self):\n    |\n');
    assert.equal(clean('if self.empty:\n        return 0\n```\nDone.', python), 'if self.empty:\n        return 0', 'a line ending in a colon is code');
  });

  it('does not indent the first line again when the indentation is typed', () => {
    const cursor = at('export function add(a: number, b: number): number {\n  |\n}\n');
    assert.equal(clean(' return a + b;', cursor), 'return a + b;', 'the space a Question/Answer template leaves after "Answer:"');
    assert.equal(clean('    return a + b;', cursor), 'return a + b;');
    const top = at('x = 1\n|\n');
    assert.equal(clean('    y = 2', top), '    y = 2', "nothing typed: the answer's indentation is kept");
  });

  it('drops an echo of the line before the cursor', () => {
    const cursor = at('def area(radius):\n    return math.pi * |\n');
    assert.equal(clean('return math.pi * radius ** 2', cursor), 'radius ** 2');
    assert.equal(clean('    return math.pi * radius ** 2', cursor), 'radius ** 2');
    assert.equal(clean('radius ** 2', cursor), 'radius ** 2', 'a clean answer stays');
  });

  it('drops what repeats the text after the cursor inside a line', () => {
    const call = at('  const total = items.reduce(|);\n');
    assert.equal(clean('(sum, item) => sum + item.price, 0);', call), '(sum, item) => sum + item.price, 0');
    assert.equal(clean('(sum, item) => sum + item.price, 0)', call), '(sum, item) => sum + item.price, 0');
    const argument = at('console.log(format(|));\n');
    assert.equal(clean('value)', argument), 'value', 'the closer of format( belongs to the suffix');
    assert.equal(clean('pad(value))', argument), 'pad(value)', 'a balanced inner call keeps its closer');
    const string = at('const greeting = "|";\n');
    assert.equal(clean('Hello, world";', string), 'Hello, world');
  });

  it('keeps a line completion to one line', () => {
    const cursor = at('if (|) {\n');
    assert.equal(clean('user.isAdmin\n  && user.active', cursor), 'user.isAdmin');
  });

  it('completes a block and stops at its end, without the code that already follows', () => {
    const cursor = at('function add(a, b) {|\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n');
    const raw = '\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';
    assert.equal(clean(raw, cursor), '\n  return a + b;');
    const open = at('function add(a, b) {|');
    assert.equal(clean('\n  return a + b;\n}\n\nconsole.log(add(1, 2));', open), '\n  return a + b;\n}', 'at the end of a file the closing brace is kept');
  });

  it('ends a Python block at the dedent', () => {
    const cursor = at('class Stack:\n    def push(self, item):|\n\n    def pop(self):\n        return self.items.pop()\n');
    const raw = '\n        self.items.append(item)\n\n    def pop(self):\n        return self.items.pop()';
    assert.equal(clean(raw, cursor), '\n        self.items.append(item)');
  });

  it('keeps an inner closing brace that matches the suffix only by text, not by indentation', () => {
    const cursor = at('function check(x) {\n  |\n}\n');
    const raw = 'if (x < 0) {\n    throw new RangeError("negative");\n  }\n  return Math.sqrt(x);\n}';
    assert.equal(clean(raw, cursor), 'if (x < 0) {\n    throw new RangeError("negative");\n  }\n  return Math.sqrt(x);');
  });

  it('balances brackets: a closer of a bracket opened before the cursor is cut when the suffix has it', () => {
    const cursor = at('const config = {\n  port: 8080,\n  |\n};\n');
    assert.equal(clean('host: "localhost",\n};', cursor), 'host: "localhost",');
    assert.equal(
      clean('host: "localhost", tags: ["a)", "b"] }', at('const config = { |\n};\n')),
      'host: "localhost", tags: ["a)", "b"]',
      'brackets in strings do not count',
    );
  });

  it('stops at a dozen-odd lines', () => {
    const cursor = at('const table = [|');
    const raw = `\n${Array.from({ length: 40 }, (_, i) => `  ${i},`).join('\n')}\n];`;
    assert.ok(clean(raw, cursor).split('\n').length <= 16);
  });

  it('says when a streamed answer is whole, and not before', () => {
    const line = at('const name = user.|;\n');
    assert.equal(cleanCompletion('firstN', line, 'line', false).ended, false);
    assert.deepEqual(cleanCompletion('firstName\nconst', line, 'line', false), { text: 'firstName', ended: true });
    const block = at('function add(a, b) {|\n}\n');
    assert.equal(cleanCompletion('\n  return a', block, 'block', false).ended, false);
    assert.equal(cleanCompletion('\n  return a + b;\n}\n\nfunc', block, 'block', false).ended, true);
    assert.equal(cleanCompletion('```ts\nx\n```', at('let y = |'), 'block', false).ended, true, 'a closing fence ends it');
  });

  it('holds back the first backticks of a fence still arriving, and keeps a final one that closes a template literal', () => {
    // A stream's first delta can be a lone "`": it is not code yet, and must not disagree with what the user typed meanwhile.
    const cursor = at('function circleArea(radius: number): number {\n  return| \n}\n');
    for (const partial of ['`', '``', '  `', '~~'])
      assert.deepEqual(cleanCompletion(partial, cursor, 'block', false), { text: '', ended: false }, JSON.stringify(partial));
    assert.equal(cleanCompletion('```ts\n  return Math.PI', cursor, 'block', false).text, ' Math.PI');
    assert.equal(clean('`', at('const s = `hello ${name}|\n')), '`', 'a whole answer of one backtick is code');
  });

  it('drops an echo of a line only one or two letters long, recognised by its indentation', () => {
    // Typed "  r", asked at once: the model writes the whole line again; the ghost text is the rest of it.
    const cursor = at('function circleArea(radius: number): number {\n  r|\n}\n');
    assert.equal(clean('```ts\n  return Math.PI * radius ** 2;\n```', cursor), 'eturn Math.PI * radius ** 2;');
    assert.equal(cleanCompletion('```ts\n  return Math', cursor, 'block', false).text, 'eturn Math', 'while streaming too');
    assert.deepEqual(cleanCompletion('```ts\n  ', cursor, 'block', false), { text: '', ended: false }, 'the indentation alone may still be the echo');
    assert.equal(clean('eturn Math.PI * radius ** 2;', cursor), 'eturn Math.PI * radius ** 2;', 'a continuation is kept');
    assert.equal(clean('a = 1;', at('{\n  a|\n}\n')), 'a = 1;', 'an unindented answer is no echo');
  });

  it('holds back a partial answer that may still be an echo of the current line', () => {
    const cursor = at('    return math.pi * |\n');
    assert.equal(cleanCompletion('return math', cursor, 'block', false).text, '');
    assert.equal(cleanCompletion('return math.pi * radius', cursor, 'block', false).text, 'radius');
  });

  it('holds back and drops a rewrite of the file from an earlier line, as a small base model writes it', () => {
    // What Gemma 3 270M streamed in the real-model tier: the file again from its first comment.
    const cursor = at('// Returns the sum of two numbers.\nfunction add(a, b) {\n  return |\n}\n');
    assert.deepEqual(cleanCompletion('// Returns the sum of two numbers.', cursor, 'block', false), { text: '', ended: false }, 'not yet: it may be a rewrite');
    assert.equal(cleanCompletion('// Returns the sum of two numbers.\nfunction add(a, b) {\n  ret', cursor, 'block', false).text, '');
    assert.equal(clean('// Returns the sum of two numbers.\nfunction add(a, b) {\n  return a + b;\n}\n', cursor), 'a + b;');
    assert.equal(clean('function add(a, b) {\n  return a + b;\n}', cursor), 'a + b;', 'from a later line too');
  });

  it('returns nothing for prose-only or empty answers', () => {
    const cursor = at('let x = |');
    assert.equal(clean('', cursor), '');
    assert.equal(clean('Here is the completion:', cursor), '');
    assert.equal(clean('```\n```', cursor), '');
  });
});
