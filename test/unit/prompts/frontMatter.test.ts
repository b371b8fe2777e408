// The front matter of a prompt file: the flat `key: value` and simple lists Copilot's prompt files use, read
// without a YAML library; anything else is refused with its line.
import assert from 'node:assert/strict';
import { readFrontMatter } from '../../../src/core/prompts/frontMatter';
import { PromptError } from '../../../src/core/prompts/promptError';

function failure(text: string): PromptError {
  try {
    readFrontMatter(text);
  } catch (error) {
    if (PromptError.is(error)) return error;
    throw error;
  }
  assert.fail('the front matter was accepted');
}

describe('prompts/frontMatter', () => {
  it('reads no front matter when the file does not open with ---, and the whole text is the body', () => {
    const read = readFrontMatter('Explain ${selection}.\n---\nnot front matter: here');
    assert.deepEqual(read.fields, {});
    assert.equal(read.body, 'Explain ${selection}.\n---\nnot front matter: here');
    assert.equal(read.bodyLine, 1);
  });

  it('reads plain, quoted, commented, inline-list and block-list values, and where the body starts', () => {
    const read = readFrontMatter(
      [
        '\uFEFF---',
        '# a comment line',
        'description: Review the selection # trailing comment',
        "name: 'code-review'",
        'argument-hint: "focus: a #tag"',
        'tools: [ readFile, "search" ]',
        'agent:',
        '',
        'model: Meta-Llama-3.3-70B-Instruct',
        'extra:',
        '  - one',
        "  - 'two'",
        '---',
        '',
        'Body line.',
      ].join('\r\n'),
    );
    assert.deepEqual(read.fields, {
      description: 'Review the selection',
      name: 'code-review',
      'argument-hint': 'focus: a #tag',
      tools: ['readFile', 'search'],
      agent: '',
      model: 'Meta-Llama-3.3-70B-Instruct',
      extra: ['one', 'two'],
    });
    assert.equal(read.body, 'Body line.');
    assert.equal(read.bodyLine, 15);
  });

  it('reads front matter closed on the last line as an empty body', () => {
    const read = readFrontMatter('---\ndescription: x\n---');
    assert.deepEqual(read.fields, { description: 'x' });
    assert.equal(read.body, '');
  });

  it('reports a line that is not `key: value` with its line number', () => {
    const error = failure('---\ndescription: fine\nthis is not a field\n---\nBody');
    assert.equal(error.reason, 'frontMatter');
    assert.equal(error.line, 3);
    assert.match(error.message, /line 3/i);
    // What the user is told is data the host words in their language: the fault and the line it found.
    assert.deepEqual(error.fault, { kind: 'notAField', found: 'this is not a field' });
  });

  it('reports front matter that never closes, a duplicate key, a list item without its key and a multi-line value', () => {
    const unclosed = failure('---\ndescription: x\nBody without the closing line');
    assert.equal(unclosed.line, 1);
    assert.deepEqual(unclosed.fault, { kind: 'unclosed' });
    const duplicate = failure('---\nmode: ask\nmode: agent\n---\n');
    assert.equal(duplicate.line, 3);
    assert.match(duplicate.message, /mode.*twice|twice.*mode/);
    assert.deepEqual(duplicate.fault, { kind: 'givenTwice', key: 'mode' });
    const stray = failure('---\n  - stray\n---\n');
    assert.equal(stray.line, 2);
    assert.deepEqual(stray.fault, { kind: 'itemWithoutKey' });
    const folded = failure('---\ndescription: >\n  long text\n---\n');
    assert.equal(folded.line, 2);
    assert.match(folded.message, /one line/);
    assert.deepEqual(folded.fault, { kind: 'multiLine', key: 'description' });
    const quote = failure('---\ntitle: "unclosed\n---\n');
    assert.equal(quote.line, 2);
    assert.deepEqual(quote.fault, { kind: 'openQuote', inList: false });
    assert.deepEqual(failure('---\ntools: [a, "b]\n---\n').fault, { kind: 'openQuote', inList: true });
    assert.deepEqual(failure('---\ntools: {a: b}\n---\n').fault, { kind: 'notPlain', key: 'tools' });
  });
});
