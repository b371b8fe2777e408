import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inspectAudio } from '../../../src/core/audio/audioFile';
import { audioDurationDetails } from '../../../src/core/audio/duration';
import { type AudioFormat, sniffAudio } from '../../../src/core/audio/sniff';
import { type FixtureManifest, loadFixtures } from './fixtures';

const formats: readonly AudioFormat[] = ['wav', 'mp3', 'flac', 'ogg', 'webm', 'mp4', 'm4a'];

/** xorshift32: the same "random" cases on every run, so a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

let slowest = 0;
let calls = 0;
/** Hang versus progress: a call takes a few milliseconds; this is a hundred times more. */
const hangMs = 10_000;

/** Runs every reader over `bytes` (whole, and as head/tail parts): nothing may throw or take long. */
function exercise(bytes: Uint8Array, label: string): void {
  const started = performance.now();
  sniffAudio(bytes);
  inspectAudio(bytes);
  const cut = Math.min(bytes.length, 4096);
  const parts = { head: bytes.subarray(0, cut), tail: bytes.subarray(bytes.length - cut), size: bytes.length };
  for (const format of formats) {
    for (const input of [{ head: bytes, tail: bytes, size: bytes.length }, parts]) {
      const got = audioDurationDetails(input, format);
      if (got !== undefined) assert.ok(Number.isFinite(got.seconds) && got.seconds >= 0, `${label} ${format}: ${got.seconds}`);
    }
  }
  const elapsed = performance.now() - started;
  slowest = Math.max(slowest, elapsed);
  calls += 1;
  // Not a speed check (bench/audio/audio prints the figures): a bound far above any real cost, which only a
  // reader stuck re-reading a malformed header (a hang in slow motion) can reach on a loaded machine.
  assert.ok(elapsed < hangMs, `${label} took ${elapsed.toFixed(0)} ms: a reader is stuck on this input`);
}

describe('audio robustness (fuzz-ish)', function () {
  let manifest: FixtureManifest;
  let samples: Array<{ name: string; bytes: Buffer }>;

  before(function () {
    this.timeout(15 * 60 * 1000);
    manifest = loadFixtures();
    // Small valid files of every kind; the long ones add time, not cases.
    samples = manifest.files
      .filter((f) => (f.kind === 'good' || f.kind === 'renamed') && f.bytes < 1_200_000)
      .map((f) => ({ name: f.name, bytes: readFileSync(f.path) }));
  });

  after(function () {
    // Printed for the record (a figure, not a pass mark): the worst single call.
    process.stdout.write(`      fuzz: ${calls} inputs, slowest ${slowest.toFixed(1)} ms\n`);
  });

  it('survives random bytes of every length', function () {
    const next = rng(1);
    for (let i = 0; i < 600; i++) {
      const n = Math.floor(next() * (i < 300 ? 64 : 8192));
      const b = new Uint8Array(n);
      for (let k = 0; k < n; k++) b[k] = Math.floor(next() * 256);
      exercise(b, `random#${i}`);
    }
  });

  it('survives random bytes behind every real magic number', function () {
    const next = rng(2);
    for (const s of samples) {
      for (let i = 0; i < 8; i++) {
        const keep = 4 + Math.floor(next() * 64);
        const b = new Uint8Array(keep + Math.floor(next() * 4096));
        b.set(s.bytes.subarray(0, keep));
        for (let k = keep; k < b.length; k++) b[k] = Math.floor(next() * 256);
        exercise(b, `${s.name} magic+random`);
      }
    }
  });

  it('survives every file cut at random lengths', function () {
    const next = rng(3);
    for (const s of samples) {
      for (let i = 0; i < 25; i++) {
        const n = i < 10 ? Math.floor(next() * Math.min(s.bytes.length, 600)) : Math.floor(next() * s.bytes.length);
        exercise(s.bytes.subarray(0, n), `${s.name}[0,${n})`);
      }
    }
  });

  it('survives damaged headers and tails', function () {
    const next = rng(4);
    for (const s of samples) {
      for (let i = 0; i < 12; i++) {
        const b = Uint8Array.from(s.bytes);
        const flips = 1 + Math.floor(next() * 24);
        for (let k = 0; k < flips; k++) {
          // Damage where the parsers look: the first and last few KiB.
          const region = Math.min(b.length, 4096);
          const at = next() < 0.6 ? Math.floor(next() * region) : b.length - 1 - Math.floor(next() * region);
          b[at] = next() < 0.5 ? 0xff : Math.floor(next() * 256);
        }
        exercise(b, `${s.name} damaged#${i}`);
      }
    }
  });

  it('survives hostile sizes: huge chunks, boxes and tags that point past the end', function () {
    const u32le = (v: number): Buffer => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(v >>> 0);
      return b;
    };
    const u32be = (v: number): Buffer => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(v >>> 0);
      return b;
    };
    const cases: Array<[string, Uint8Array]> = [
      ['wav fmt huge', Buffer.concat([Buffer.from('RIFF'), u32le(0xffffffff), Buffer.from('WAVEfmt '), u32le(0xfffffff0), Buffer.alloc(32)])],
      [
        'wav zero rate',
        Buffer.concat([Buffer.from('RIFF'), u32le(36), Buffer.from('WAVEfmt '), u32le(16), Buffer.alloc(16), Buffer.from('data'), u32le(8), Buffer.alloc(8)]),
      ],
      [
        'wav many empty chunks',
        Buffer.concat([Buffer.from('RIFF'), u32le(0), Buffer.from('WAVE'), ...Array.from({ length: 20000 }, () => Buffer.from('junk\0\0\0\0'))]),
      ],
      ['mp4 largesize', Buffer.concat([u32be(1), Buffer.from('moov'), u32be(0xffffffff), u32be(0xffffffff), Buffer.alloc(32)])],
      [
        'mp4 size 0 moov',
        Buffer.concat([u32be(24), Buffer.from('ftypM4A '), Buffer.alloc(12), u32be(0), Buffer.from('moov'), u32be(0), Buffer.from('mvhd'), Buffer.alloc(40)]),
      ],
      ['mp4 self loop', Buffer.concat([u32be(24), Buffer.from('ftypisom'), Buffer.alloc(12), u32be(8), Buffer.from('moov'), u32be(4), Buffer.from('free')])],
      ['id3 past end', Buffer.from([0x49, 0x44, 0x33, 4, 0, 0x10, 0x7f, 0x7f, 0x7f, 0x7f, 0xff, 0xfb])],
      [
        'ebml unknown sizes',
        Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x18, 0x53, 0x80, 0x67, 0xff, 0x1f, 0x43, 0xb6, 0x75, 0xff]),
      ],
      ['ogg segments past end', Buffer.concat([Buffer.from('OggS\0\x02'), Buffer.alloc(20), Buffer.from([255]), Buffer.alloc(40, 255)])],
      ['mp3 free-format frames', Buffer.alloc(10000, 0xff)],
    ];
    for (const [label, bytes] of cases) exercise(bytes, label);
  });
});
