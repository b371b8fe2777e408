import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inspectAudioFile, readAudioParts } from '../../../src/core/audio/audioFile';
import { type AudioFormat } from '../../../src/core/audio/sniff';
import { audioDurationDetails, audioDurationFromParts, audioDurationSeconds } from '../../../src/core/audio/duration';
import { fixture, type FixtureFile, type FixtureManifest, loadFixtures, referenceSeconds } from './fixtures';

// How close each container's reading must be to soxi/ffprobe. Lossless containers count samples
// exactly; lossy ones differ from the tools by the codec's priming and padding (one MPEG frame is
// 26 ms at 44.1 kHz, 72 ms at 8 kHz; ffprobe includes LAME's padding, we subtract it).
const tolerance: Record<AudioFormat, number> = { wav: 0.001, flac: 0.001, ogg: 0.02, webm: 0.02, mp4: 0.02, m4a: 0.02, mp3: 0.2 };

describe('audio/duration', function () {
  let manifest: FixtureManifest;
  let measurable: FixtureFile[];

  before(function () {
    this.timeout(15 * 60 * 1000);
    manifest = loadFixtures();
    measurable = manifest.files.filter((f) => f.format !== null && (f.kind === 'good' || f.kind === 'long' || f.kind === 'large' || f.kind === 'renamed'));
  });

  it('matches soxi/ffprobe on every generated file (whole buffer)', function () {
    const report: string[] = [];
    for (const f of measurable) {
      const format = f.format ?? 'wav';
      const got = audioDurationSeconds(readFileSync(f.path), format);
      const want = referenceSeconds(manifest, f);
      if (got === undefined || Math.abs(got - want) > tolerance[format]) report.push(`${f.name}: got ${got}, want ${want} ± ${tolerance[format]}`);
    }
    assert.deepEqual(report, []);
  });

  it('gives what the speaker said for MP3: the LAME delay and padding are not audio', function () {
    for (const name of ['mp3-cbr128-info-id3.mp3', 'mp3-vbr-xing-id3.mp3', 'mp3-id3v1.mp3']) {
      const got = audioDurationSeconds(readFileSync(fixture(manifest, name).path), 'mp3');
      assert.ok(got !== undefined && Math.abs(got - manifest.sourceSeconds) < 0.001, `${name}: ${got}`);
    }
  });

  it('gives the same answer from a 64 KiB head and tail as from the whole file', function () {
    const report: string[] = [];
    for (const f of measurable) {
      const format = f.format ?? 'wav';
      const bytes = readFileSync(f.path);
      const whole = audioDurationDetails({ head: bytes, tail: bytes, size: bytes.length }, format);
      const n = 64 * 1024;
      const parts = audioDurationDetails({ head: bytes.subarray(0, n), tail: bytes.subarray(Math.max(0, bytes.length - n)), size: bytes.length }, format);
      if (f.name === 'mp3-big-id3.mp3') {
        // Its 600 KB tag hides the first frame from a 64 KiB head; readAudioParts reads past it.
        assert.equal(parts, undefined);
        continue;
      }
      if (whole === undefined || parts === undefined) {
        report.push(`${f.name}: whole ${JSON.stringify(whole)}, parts ${JSON.stringify(parts)}`);
      } else if (f.vbrNoHeader === true) {
        // Without a frame count, the head's mean bitrate is an estimate, and says so.
        if (!parts.estimated || Math.abs(parts.seconds - whole.seconds) > whole.seconds * 0.1) report.push(`${f.name}: ${JSON.stringify(parts)}`);
      } else if (Math.abs(parts.seconds - whole.seconds) > 0.001) {
        // (MP3 without a Xing header: whole files count frames, parts divide bytes by the bitrate.)
        report.push(`${f.name}: whole ${whole.seconds}, parts ${parts.seconds}`);
      }
    }
    assert.deepEqual(report, []);
  });

  it('reads files from disk by head and tail, past a large ID3 tag', async function () {
    const big = fixture(manifest, 'mp3-big-id3.mp3');
    const parts = await readAudioParts(big.path, { headBytes: 64 * 1024, tailBytes: 64 * 1024 });
    assert.ok(parts.head.length > 600 * 1024 && parts.head.length < big.bytes, `head ${parts.head.length}`);
    assert.ok(Math.abs((audioDurationFromParts(parts, 'mp3') ?? 0) - referenceSeconds(manifest, big)) < 0.01);
    const large = await inspectAudioFile(fixture(manifest, 'large-26mb.wav').path);
    assert.equal(large.format, 'wav');
    assert.equal(large.seconds, 140);
    assert.equal(large.bytes, 26_880_044);
  });

  it('flags files cut short and measures what is left', function () {
    const truncated = manifest.files.filter((f) => f.kind === 'truncated');
    assert.ok(truncated.length >= 8);
    const half = manifest.sourceSeconds / 2;
    for (const f of truncated) {
      const bytes = readFileSync(f.path);
      const got = audioDurationDetails({ head: bytes, tail: bytes, size: bytes.length }, f.format ?? 'wav');
      if (f.name === 'bad-half-moov-at-end.m4a') {
        // Its index (moov) was in the lost half: nothing can be told.
        assert.equal(got, undefined, f.name);
      } else if (f.name === 'bad-header-only.wav') {
        assert.deepEqual(got, { seconds: 0, estimated: false, truncated: true });
      } else {
        assert.ok(got?.truncated === true, `${f.name}: ${JSON.stringify(got)}`);
        assert.ok(Math.abs(got.seconds - half) < 1, `${f.name}: ${got.seconds} is not about half of ${manifest.sourceSeconds}`);
      }
    }
  });

  it('knows durations without a header: streamed FLAC, WebM and WAV', function () {
    for (const [name, format] of [
      ['flac-stream.flac', 'flac'],
      ['webm-opus-stream.webm', 'webm'],
      ['wav-ffmpeg-stream.wav', 'wav'],
    ] as const) {
      const got = audioDurationDetails(
        { head: readFileSync(fixture(manifest, name).path), tail: readFileSync(fixture(manifest, name).path), size: fixture(manifest, name).bytes },
        format,
      );
      assert.ok(got !== undefined && Math.abs(got.seconds - manifest.sourceSeconds) < 0.03 && !got.truncated, `${name}: ${JSON.stringify(got)}`);
    }
  });

  it('returns undefined for the wrong format and for inconsistent parts', function () {
    const wav = readFileSync(fixture(manifest, 'wav-pcm16-mono-16k.wav').path);
    for (const format of ['mp3', 'flac', 'ogg', 'webm', 'mp4', 'm4a'] as const) assert.equal(audioDurationSeconds(wav, format), undefined, format);
    assert.equal(audioDurationFromParts({ head: wav, tail: wav, size: 10 }, 'wav'), undefined);
    assert.equal(audioDurationFromParts({ head: wav, tail: wav, size: Number.NaN }, 'wav'), undefined);
    assert.equal(audioDurationFromParts({ head: wav, tail: wav, size: -1 }, 'wav'), undefined);
  });
});
