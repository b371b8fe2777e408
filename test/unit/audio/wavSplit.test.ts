import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ByteSource, wholeFile } from '../../../src/core/audio/byteSource';
import { audioDurationSeconds } from '../../../src/core/audio/duration';
import { parseWav, type WavLayout } from '../../../src/core/audio/wavHeader';
import { splitWav, WavSplitError } from '../../../src/core/audio/wavSplit';
import { fixture, type FixtureManifest, loadFixtures } from './fixtures';

function layoutOf(bytes: Uint8Array): WavLayout {
  const src = ByteSource.from(wholeFile(bytes));
  const layout = src === undefined ? undefined : parseWav(src);
  assert.ok(layout !== undefined, 'segment is not a parsable WAV');
  return layout;
}

function soxi(flag: string, path: string): string {
  // soxi warns on stderr about headers it half-supports (64-bit float); only its answer matters.
  return execFileSync('soxi', [flag, path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

/** Splits, then checks every promise: count, length, headers (by soxi too), and not a sample lost. */
function checkSplit(bytes: Uint8Array, maxSeconds: number, dir: string, label: string): Uint8Array[] {
  const source = layoutOf(bytes);
  const totalFrames = Math.floor(source.dataBytes / source.blockAlign);
  const total = totalFrames / source.sampleRate;
  const parts = splitWav(bytes, maxSeconds);
  // Each part is at least the limit less the safety margin and the 2 s quiet search, but the last.
  const minCount = Math.ceil(total / maxSeconds);
  const maxCount = Math.ceil(total / (maxSeconds - 0.2 - Math.min(2, maxSeconds / 4)));
  assert.ok(parts.length >= minCount && parts.length <= maxCount, `${label}: ${parts.length} parts for ${total} s`);
  let frames = 0;
  parts.forEach((part, i) => {
    const layout = layoutOf(part);
    assert.equal(layout.truncated, false);
    for (const key of ['formatTag', 'channels', 'sampleRate', 'bitsPerSample', 'blockAlign'] as const)
      assert.equal(layout[key], source[key], `${label}#${i} ${key}`);
    const seconds = audioDurationSeconds(part, 'wav');
    assert.ok(seconds !== undefined && seconds <= maxSeconds - 0.2 + 1e-9 && seconds > 0, `${label}#${i}: ${seconds} s`);
    // The samples are the original's, in order, with none dropped or repeated.
    const data = part.subarray(layout.dataOffset, layout.dataOffset + layout.dataBytes);
    const from = source.dataOffset + frames * source.blockAlign;
    assert.ok(Buffer.from(data).equals(Buffer.from(bytes.subarray(from, from + data.length))), `${label}#${i} samples differ`);
    frames += layout.dataBytes / layout.blockAlign;
    const path = join(dir, `${label}-${i}.wav`);
    writeFileSync(path, part);
    assert.ok(Math.abs(Number(soxi('-D', path)) - (seconds ?? 0)) < 1e-6, `soxi disagrees on ${label}#${i}`);
    assert.equal(Number(soxi('-r', path)), source.sampleRate);
    assert.equal(Number(soxi('-c', path)), source.channels);
  });
  assert.equal(frames, totalFrames, `${label}: frames lost`);
  return parts;
}

describe('audio/wavSplit', function () {
  let manifest: FixtureManifest;
  let dir: string;

  before(function () {
    this.timeout(15 * 60 * 1000);
    manifest = loadFixtures();
    dir = mkdtempSync(join(tmpdir(), 'cadenza-split-'));
  });

  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('splits the 45 s and 95 s recordings into valid parts of at most 30 s', function () {
    assert.equal(checkSplit(readFileSync(fixture(manifest, 'long-45s.wav').path), 30, dir, 'long45').length, 2);
    assert.equal(checkSplit(readFileSync(fixture(manifest, 'long-95s.wav').path), 30, dir, 'long95').length, 4);
  });

  it('splits every linear encoding and layout: 8/16/24-bit, float, A-law, µ-law, RF64, streamed, odd chunks', function () {
    for (const name of [
      'wav-pcm16-mono-16k.wav',
      'wav-pcm16-stereo-44k.wav',
      'wav-u8-mono-8k.wav',
      'wav-pcm24-stereo-48k.wav',
      'wav-float32-mono-22k.wav',
      'wav-float64-mono-16k.wav',
      'wav-alaw-8k.wav',
      'wav-mulaw-8k.wav',
      'wav-rf64.wav',
      'wav-ffmpeg-stream.wav',
      'wav-ffmpeg-list-22k.wav',
      'wav-odd-chunks-8k.wav',
    ]) {
      checkSplit(readFileSync(fixture(manifest, name).path), 5, dir, name.replace('.wav', ''));
    }
  });

  // How fast is a figure in bench/audio/audio ("split the 26 MB WAV"); here only that it splits right.
  it('splits the 26 MB file into 5 valid parts of at most 30 s', function () {
    assert.equal(checkSplit(readFileSync(fixture(manifest, 'large-26mb.wav').path), 30, dir, 'large26').length, 5);
  });

  it('returns a short file unchanged', function () {
    const bytes = readFileSync(fixture(manifest, 'wav-pcm16-mono-16k.wav').path);
    const parts = splitWav(bytes);
    assert.equal(parts.length, 1);
    assert.equal(parts[0], bytes);
  });

  it('cuts in a pause rather than in a word', function () {
    // 40 s of tone with 300 ms of silence at 28.5 s: the cut must land in the silence.
    const rate = 16000;
    const frames = 40 * rate;
    const pcm = Buffer.alloc(frames * 2);
    for (let i = 0; i < frames; i++) {
      const t = i / rate;
      const quiet = t >= 28.5 && t < 28.8;
      pcm.writeInt16LE(quiet ? 0 : Math.round(12000 * Math.sin(2 * Math.PI * 440 * t)), i * 2);
    }
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(36 + pcm.length, 4);
    header.write('WAVEfmt ', 8, 'latin1');
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(rate, 24);
    header.writeUInt32LE(rate * 2, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36, 'latin1');
    header.writeUInt32LE(pcm.length, 40);
    const parts = splitWav(Buffer.concat([header, pcm]));
    const first = audioDurationSeconds(parts[0] ?? new Uint8Array(0), 'wav') ?? 0;
    assert.ok(first >= 28.5 && first <= 28.8, `cut at ${first} s`);
    // With the quiet search off, the cut is exactly at the limit less the safety margin.
    const exact = splitWav(Buffer.concat([header, pcm]), 30, { quietSearchSeconds: 0 });
    assert.equal(audioDurationSeconds(exact[0] ?? new Uint8Array(0), 'wav'), 29.8);
  });

  it('refuses what it cannot split, with a reason', function () {
    assert.throws(
      () => splitWav(readFileSync(fixture(manifest, 'wav-ima-adpcm-16k.wav').path), 5),
      (err: unknown) => WavSplitError.is(err) && err.reason === 'unsupportedEncoding',
    );
    assert.throws(
      () => splitWav(readFileSync(fixture(manifest, 'renamed-mp3.wav').path)),
      (err: unknown) => WavSplitError.is(err) && err.reason === 'notWav',
    );
    assert.throws(
      () => splitWav(new Uint8Array(0)),
      (err: unknown) => WavSplitError.is(err) && err.reason === 'notWav',
    );
    assert.throws(() => splitWav(readFileSync(fixture(manifest, 'long-45s.wav').path), 0), RangeError);
  });

  it('splits a file cut short into parts of what is there', function () {
    const bytes = readFileSync(fixture(manifest, 'bad-half.wav').path);
    const parts = splitWav(bytes, 5);
    const total = parts.reduce((sum, part) => sum + (audioDurationSeconds(part, 'wav') ?? 0), 0);
    assert.ok(Math.abs(total - (audioDurationSeconds(bytes, 'wav') ?? 0)) < 1e-6);
  });
});
