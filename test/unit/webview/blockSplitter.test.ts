import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { BlockSplitter, hasReferenceDefinitions } from '../../../src/webview/blockSplitter';

const md = new MarkdownIt({ html: false, linkify: true });

function splitWhole(text: string): string[] {
  const splitter = new BlockSplitter();
  splitter.append(text);
  splitter.finish();
  return [...splitter.blocks];
}

/** A deterministic generator, so a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function splitStreamed(text: string, seed: number): string[] {
  const next = random(seed);
  const splitter = new BlockSplitter();
  for (let offset = 0; offset < text.length;) {
    const size = 1 + Math.floor(next() * 12);
    splitter.append(text.slice(offset, offset + size));
    offset += size;
  }
  splitter.finish();
  return [...splitter.blocks];
}

const samples: Record<string, string> = {
  paragraphs: 'First paragraph\nwith two lines.\n\nSecond paragraph.\n\n\nThird after two blank lines.',
  fenceWithBlankLines: 'Code:\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nAfter the code.',
  tildeFence: '~~~python\ndef f():\n\n    return 1\n~~~\n\nText',
  longerClosingFence: '````md\n```\ninner fence\n```\n\nstill code\n`````\n\nout',
  unclosedFence: 'Intro\n\n```js\nlet x = 1;\n\nlet y = 2;',
  looseList: '- one\n\n- two\n\n- three\n\nParagraph after the list.',
  orderedList: '1. first\n\n2. second\n\n   continued in item two\n\n3. third\n',
  listWithCode: '1. Run this:\n\n   ```bash\n   npm test\n\n   npm run lint\n   ```\n\n2. Then this.\n',
  headingsAndTable: '# Title\n\nIntro text.\n\n| a | b |\n| --- | ---: |\n| 1 | 2 |\n\n## Next\n\n> quote\n>\n> more quote\n\n---\n\nEnd.',
  indentedCode: 'Text\n\n    indented code\n\n    more code\n\nText again',
  crlf: 'One\r\n\r\nTwo\r\n\r\n```\r\ncode\r\n\r\nmore\r\n```\r\n',
  backtickInInfo: '``` not`a fence\n\nNext paragraph',
};

describe('BlockSplitter', () => {
  for (const [name, text] of Object.entries(samples)) {
    it(`${name}: the blocks join back to the text`, () => {
      assert.equal(splitWhole(text).join(''), text);
    });

    it(`${name}: rendering block by block equals rendering the whole text`, () => {
      assert.equal(
        splitWhole(text)
          .map((block) => md.render(block))
          .join(''),
        md.render(text),
      );
    });

    it(`${name}: streaming in random pieces gives the same blocks`, () => {
      const whole = splitWhole(text);
      for (const seed of [1, 7, 42, 1234]) assert.deepEqual(splitStreamed(text, seed), whole);
    });
  }

  it('splits paragraphs at blank lines', () => {
    assert.deepEqual(splitWhole('a\n\nb\n\nc'), ['a\n\n', 'b\n\n', 'c']);
  });

  it('keeps blank lines inside a fence in one block', () => {
    assert.equal(splitWhole(samples['fenceWithBlankLines'] ?? '').length, 3);
  });

  it('keeps a loose list together and splits off the paragraph after it', () => {
    assert.deepEqual(splitWhole('- one\n\n- two\n\nAfter'), ['- one\n\n- two\n\n', 'After']);
  });

  it('never commits the partial last line', () => {
    const splitter = new BlockSplitter();
    splitter.append('First.\n\nSecond');
    assert.deepEqual(splitter.blocks, []);
    assert.equal(splitter.openBlock, 'First.\n\nSecond');
    splitter.append(' line.\n');
    assert.deepEqual(splitter.blocks, ['First.\n\n']);
    assert.equal(splitter.openBlock, 'Second line.\n');
  });

  it('reports how many blocks an append committed', () => {
    const splitter = new BlockSplitter();
    assert.equal(splitter.append('a\n\nb\n\nc\n'), 2);
    assert.equal(splitter.append('\n'), 0);
  });

  it('describes an open fence: the text before it, the language and the code so far', () => {
    const splitter = new BlockSplitter();
    splitter.append('Here:\n```ts {1}\nconst a = 1;\nconst b');
    assert.equal(splitter.inFence, true);
    assert.deepEqual(splitter.openFence, { before: 'Here:\n', info: 'ts', code: 'const a = 1;\nconst b' });
    splitter.append(' = 2;\n```\n');
    assert.equal(splitter.inFence, false);
    assert.equal(splitter.openFence, undefined);
  });

  it('gives the full text back at any point', () => {
    const splitter = new BlockSplitter();
    const text = samples['headingsAndTable'] ?? '';
    splitter.append(text.slice(0, 30));
    assert.equal(splitter.fullText, text.slice(0, 30));
    splitter.append(text.slice(30));
    assert.equal(splitter.fullText, text);
    splitter.finish();
    assert.equal(splitter.fullText, text);
  });

  it('finds reference-style link definitions', () => {
    assert.equal(hasReferenceDefinitions('See [the docs][1].\n\n[1]: https://example.com'), true);
    assert.equal(hasReferenceDefinitions('See [the docs](https://example.com).'), false);
  });
});
