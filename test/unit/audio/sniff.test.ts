import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { audioMimeTypes, sniffAudio } from '../../../src/core/audio/sniff';
import { type FixtureManifest, loadFixtures } from './fixtures';

describe('audio/sniff', function () {
  let manifest: FixtureManifest;

  before(function () {
    this.timeout(15 * 60 * 1000);
    manifest = loadFixtures();
  });

  it('tells every generated file by its bytes, whatever its name', function () {
    const wrong: string[] = [];
    for (const f of manifest.files) {
      const got = sniffAudio(readFileSync(f.path));
      const expected = f.format === null ? undefined : { format: f.format, mime: audioMimeTypes[f.format] };
      if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push(`${f.name}: got ${JSON.stringify(got)}, want ${JSON.stringify(expected)}`);
    }
    assert.deepEqual(wrong, []);
    // The set covers every container, so a format that cannot be generated here shows up as a failure.
    const formats = new Set(manifest.files.map((f) => f.format));
    for (const format of ['wav', 'mp3', 'flac', 'ogg', 'webm', 'mp4', 'm4a'] as const) assert.ok(formats.has(format), format);
  });

  it('needs only the head: the first 64 KiB give the same answer', function () {
    for (const f of manifest.files) {
      const bytes = readFileSync(f.path);
      assert.deepEqual(sniffAudio(bytes.subarray(0, 64 * 1024)), sniffAudio(bytes), f.name);
    }
  });

  it('reports the real container of renamed files', function () {
    const renamed = manifest.files.filter((f) => f.kind === 'renamed');
    assert.ok(renamed.length >= 3);
    for (const f of renamed) {
      const got = sniffAudio(readFileSync(f.path));
      assert.equal(got?.format, f.format, f.name);
      assert.notEqual(f.ext, f.format, `${f.name} should carry a misleading extension`);
    }
  });

  it('refuses text, images, archives and near misses', function () {
    const cases: Array<[string, Uint8Array]> = [
      ['empty', new Uint8Array(0)],
      ['short', Uint8Array.from([0xff, 0xfb])],
      ['text', Buffer.from('RIFF is a word, WAVE too, but this is text')],
      ['json', Buffer.from('{"audio": "data:audio/wav;base64,UklGRg=="}')],
      ['pdf', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n')],
      ['gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
      ['jpeg', Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46])],
      ['zip', Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1')],
      ['riff avi', Buffer.from('RIFF\x10\x00\x00\x00AVI LIST', 'latin1')],
      ['quicktime', isoFile('qt  ', ['qt  '])],
      ['heic image', isoFile('heic', ['mif1', 'heic'])],
      ['ebml other doctype', ebmlFile('mkvx')],
      ['ogg theora only', oggBosPage('\x80theora')],
      ['id3 then text', Buffer.concat([id3Tag(20), Buffer.from('no audio frames here at all, only text '.repeat(20))])],
      ['one sync word then noise', Buffer.concat([Uint8Array.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(600, 0x20)])],
      ['flac magic without streaminfo', Buffer.from('fLaC\x04\x00\x00\x10', 'latin1')],
    ];
    for (const [name, bytes] of cases) assert.equal(sniffAudio(bytes), undefined, name);
  });

  it('accepts minimal valid headers of each container', function () {
    assert.equal(sniffAudio(isoFile('M4A ', ['M4A ', 'mp42', 'isom']))?.format, 'm4a');
    assert.equal(sniffAudio(isoFile('isom', ['isom', 'iso2', 'mp41']))?.format, 'mp4');
    // A generic major brand with Apple's audio brand among the compatible ones is still an .m4a.
    assert.equal(sniffAudio(isoFile('mp42', ['mp42', 'M4A ']))?.format, 'm4a');
    assert.equal(sniffAudio(ebmlFile('webm'))?.format, 'webm');
    assert.equal(sniffAudio(ebmlFile('matroska'))?.format, 'webm');
    assert.deepEqual(sniffAudio(oggBosPage('OpusHead\x01\x01\x38\x01\x80\xbb\x00\x00\x00\x00\x00')), { format: 'ogg', mime: 'audio/ogg' });
    // An ID3 tag longer than the bytes given (cover art) is taken as MP3.
    assert.equal(sniffAudio(id3Tag(500_000).subarray(0, 4096))?.format, 'mp3');
  });
});

function isoFile(major: string, compatible: string[]): Uint8Array {
  const size = 16 + 4 * compatible.length;
  const b = Buffer.alloc(size + 8);
  b.writeUInt32BE(size, 0);
  b.write('ftyp', 4, 'latin1');
  b.write(major, 8, 'latin1');
  compatible.forEach((brand, i) => b.write(brand, 16 + 4 * i, 'latin1'));
  b.writeUInt32BE(8, size);
  b.write('mdat', size + 4, 'latin1');
  return b;
}

function ebmlFile(docType: string): Uint8Array {
  const body = Buffer.concat([Uint8Array.from([0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x80 | docType.length]), Buffer.from(docType, 'latin1')]);
  return Buffer.concat([Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length]), body]);
}

function oggBosPage(packet: string): Uint8Array {
  const body = Buffer.from(packet, 'latin1');
  const header = Buffer.alloc(28);
  header.write('OggS', 0, 'latin1');
  header[5] = 0x02;
  header[26] = 1;
  header[27] = body.length;
  return Buffer.concat([header, body]);
}

function id3Tag(bodyLength: number): Buffer {
  const header = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  let n = bodyLength;
  for (let i = 9; i >= 6; i--) {
    header[i] = n & 0x7f;
    n >>= 7;
  }
  return Buffer.concat([header, Buffer.alloc(bodyLength)]);
}
