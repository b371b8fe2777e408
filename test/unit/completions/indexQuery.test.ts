// The index query of a completion: identifiers around the cursor, nearest first, no keywords.
import assert from 'node:assert/strict';
import { indexQueryFor } from '../../../src/core/completions/indexQuery';

describe('completions/indexQuery', () => {
  it('takes the names on the cursor line first, then the rest of that line, then the lines above', () => {
    const prefix = 'import { loadConfig } from "./config";\n\nexport async function start(port: number) {\n  const server = createServer(';
    const suffix = 'handler, port);\n}\n';
    const terms = indexQueryFor(prefix, suffix).split(' ');
    assert.deepEqual(terms.slice(0, 4), ['server', 'createServer', 'handler', 'port']);
    assert.ok(terms.includes('start') && terms.includes('loadConfig'));
    for (const keyword of ['const', 'export', 'async', 'function', 'import', 'from', 'number']) assert.ok(!terms.includes(keyword), keyword);
  });

  it('keeps each name once, drops one-letter names, and stops at the term limit', () => {
    assert.equal(indexQueryFor('for i in range(n):\n    total = total + values[i]', ''), 'total values range');
    const many = Array.from({ length: 30 }, (_, i) => `name${i}`).join(' + ');
    assert.equal(indexQueryFor(many, '', 6, 5).split(' ').length, 5);
    assert.equal(indexQueryFor('  ', '\n'), '');
  });
});
