import * as assert from 'node:assert/strict';
import { decodeFile } from '../../../src/core/index/binaryDetect';

describe('index/binaryDetect', () => {
  it('decodes UTF-8, with or without BOM', () => {
    const r = decodeFile(Buffer.from('\ufeffconst café = "ü";\n', 'utf8'));
    assert.deepEqual(r, { kind: 'text', text: 'const café = "ü";\n', encoding: 'utf-8', lossy: false });
  });

  it('calls NUL bytes and control-character soup binary', () => {
    assert.equal(decodeFile(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01])).kind, 'binary');
    assert.equal(decodeFile(Buffer.from(Array.from({ length: 100 }, (_, i) => (i % 7) + 1))).kind, 'binary');
  });

  it('decodes a Latin-1 file as Windows-1252 instead of dropping it', () => {
    const latin1 = Buffer.from('Résumé: naïve café façade\n'.repeat(3), 'latin1');
    const r = decodeFile(latin1);
    assert.equal(r.kind, 'text');
    if (r.kind === 'text') {
      assert.equal(r.encoding, 'windows-1252');
      assert.equal(r.lossy, true);
      assert.match(r.text, /Résumé: naïve café façade/);
    }
  });

  it('keeps a UTF-8 file with a stray bad byte as lenient UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from('x'.repeat(500) + '\n', 'utf8'), Buffer.from([0xff]), Buffer.from('\nend\n')]);
    const r = decodeFile(bytes);
    assert.equal(r.kind, 'text');
    if (r.kind === 'text') {
      assert.equal(r.encoding, 'utf-8');
      assert.equal(r.lossy, true);
    }
  });

  it('honours UTF-16 byte-order marks', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello world\n', 'utf16le')]);
    assert.deepEqual(decodeFile(le), { kind: 'text', text: 'hello world\n', encoding: 'utf-16le', lossy: false });
    const be = Buffer.from('hello\n', 'utf16le').swap16();
    assert.deepEqual(decodeFile(Buffer.concat([Buffer.from([0xfe, 0xff]), be])), { kind: 'text', text: 'hello\n', encoding: 'utf-16be', lossy: false });
  });

  it('skips minified text by its average line length', () => {
    const minified = 'var a=1;'.repeat(5000);
    const r = decodeFile(Buffer.from(minified));
    assert.equal(r.kind, 'minified');
    const normal = `${'x'.repeat(3000)}\n${'short line\n'.repeat(50)}`;
    assert.equal(decodeFile(Buffer.from(normal)).kind, 'text');
  });
});
