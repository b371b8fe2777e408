import * as assert from 'node:assert/strict';
import { enclosingDeclarations, keywordDocuments, withContext } from '../../../src/core/index/chunkContext';
import { chunkText } from '../../../src/core/index/chunker';
import { contentHash } from '../../../src/core/index/hashing';

/** A Python module: a helper, then a class whose one long method spans several chunks. */
function pythonModule(): string {
  const body = Array.from({ length: 60 }, (_, i) => `        token_part_${i} = self.request_validator.value_${i}(request, scopes, expires_in)`);
  return [
    'import time',
    '',
    'def random_token_generator(request):',
    '    return generate_token()',
    '',
    '',
    'class BearerToken:',
    '    """A bearer token."""',
    '',
    '    def create_token(self, request, refresh_token=False):',
    ...body,
    '        return token',
    '',
  ].join('\n');
}

describe('index/chunkContext', () => {
  it('names the declarations a line sits in, outermost first (Python, TypeScript, Go)', () => {
    const py = pythonModule().split('\n');
    assert.deepEqual(enclosingDeclarations(py, [1, 4, 9, 30]), [[], ['random_token_generator'], ['BearerToken'], ['BearerToken', 'create_token']]);
    const ts = [
      'export class Store {',
      '  private x = 1;',
      '  async save(path: string): Promise<void> {',
      '    const y = 2;',
      '  }',
      '}',
      'export const load = async (p: string) => {',
      '  return p;',
      '};',
    ];
    assert.deepEqual(enclosingDeclarations(ts, [2, 4, 7, 8]), [['Store'], ['Store', 'save'], [], ['load']]);
    const go = ['func (s *Server) Serve(l net.Listener) error {', '\treturn nil', '}'];
    assert.deepEqual(enclosingDeclarations(go, [2]), [['Serve']]);
  });

  it('puts the enclosing class and method on a first line of each chunk inside them, and hashes that text', () => {
    const text = pythonModule();
    const raw = chunkText(text, { targetTokens: 200 });
    const chunks = withContext(text, raw);
    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    const inside = chunks.filter((c) => c.startLine > 11);
    assert.ok(inside.length >= 1);
    for (const c of inside) {
      assert.ok(c.text.startsWith('BearerToken > create_token\n'), c.text.slice(0, 80));
      assert.equal(c.hash, contentHash(c.text));
    }
    chunks.forEach((c, i) => {
      const r = raw[i];
      assert.ok(r);
      assert.equal(c.startLine, r.startLine);
      assert.equal(c.endLine, r.endLine);
      assert.ok(c.text.endsWith(r.text));
      if (c.text !== r.text) assert.notEqual(c.hash, r.hash, "a chunk with a header never shares the bare chunk's vector");
    });
    assert.equal(chunks[0]?.text, raw[0]?.text, 'a chunk at the top of the module has no header');
  });

  it('gives the keyword index the path before each chunk', () => {
    const docs = keywordDocuments('oauth2/rfc6749/tokens.py', [{ startLine: 3, endLine: 9, text: 'def f():\n    pass', hash: 'h', tokens: 9 }]);
    assert.deepEqual(docs, [{ startLine: 3, endLine: 9, text: 'oauth2/rfc6749/tokens.py\ndef f():\n    pass' }]);
  });
});
