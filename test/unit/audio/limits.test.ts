import assert from 'node:assert/strict';
import { inspectAudioFile } from '../../../src/core/audio/audioFile';
import { audioDataUrlLength, audioDataUrlPrefix, toAudioDataUrl } from '../../../src/core/audio/dataUrl';
import {
  acceptedAudioExtensions,
  audioInstructMaxSeconds,
  checkAudioForFamily,
  describeAudioProblem,
  speechToTextMaxBytes,
} from '../../../src/core/audio/limits';
import { fixture, type FixtureManifest, loadFixtures } from './fixtures';

describe('audio/limits', function () {
  let manifest: FixtureManifest;

  before(function () {
    this.timeout(15 * 60 * 1000);
    manifest = loadFixtures();
  });

  it('states the service rules, reading "25 MB" the strict way', function () {
    assert.equal(speechToTextMaxBytes, 25_000_000);
    assert.equal(audioInstructMaxSeconds, 30);
    assert.deepEqual([...acceptedAudioExtensions].sort(), ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'ogg', 'wav', 'webm']);
  });

  it('judges the generated files for each family', async function () {
    const check = async (name: string): Promise<[string | undefined, string | undefined]> => {
      const facts = await inspectAudioFile(fixture(manifest, name).path);
      return [checkAudioForFamily(facts, 'speechToText')?.kind, checkAudioForFamily(facts, 'audioInstruct')?.kind];
    };
    assert.deepEqual(await check('wav-pcm16-mono-16k.wav'), [undefined, undefined]);
    assert.deepEqual(await check('m4a-aac.m4a'), [undefined, undefined]);
    assert.deepEqual(await check('long-45s.wav'), [undefined, 'tooLong']);
    assert.deepEqual(await check('long-95s.ogg'), [undefined, 'tooLong']);
    assert.deepEqual(await check('large-26mb.wav'), ['tooLarge', 'tooLong']);
    assert.deepEqual(await check('notaudio-png.mp3'), ['notAudio', 'notAudio']);
    assert.deepEqual(await check('bad-random.wav'), ['notAudio', 'notAudio']);
    assert.deepEqual(await check('notaudio-empty.wav'), ['notAudio', 'notAudio']);
    assert.deepEqual(await check('bad-header-only.wav'), ['truncated', 'truncated']);
    assert.deepEqual(await check('bad-half.flac'), ['truncated', 'truncated']);
    assert.deepEqual(await check('bad-half-moov-at-end.m4a'), [undefined, 'unknownDuration']);
  });

  it('carries the measured numbers', async function () {
    const facts = await inspectAudioFile(fixture(manifest, 'large-26mb.wav').path);
    assert.deepEqual(checkAudioForFamily(facts, 'speechToText'), { kind: 'tooLarge', bytes: 26_880_044, limit: 25_000_000, format: 'wav' });
    assert.deepEqual(checkAudioForFamily(facts, 'audioInstruct'), { kind: 'tooLong', seconds: 140, limit: 30, format: 'wav' });
  });

  it('draws the lines exactly at the limits', function () {
    const at = { format: 'mp3', bytes: 25_000_000, seconds: 30 } as const;
    assert.equal(checkAudioForFamily(at, 'speechToText'), undefined);
    assert.equal(checkAudioForFamily(at, 'audioInstruct'), undefined);
    assert.equal(checkAudioForFamily({ ...at, bytes: 25_000_001 }, 'speechToText')?.kind, 'tooLarge');
    assert.equal(checkAudioForFamily({ ...at, seconds: 30.001 }, 'audioInstruct')?.kind, 'tooLong');
    // Speech-to-text has no duration limit, so an unmeasurable file is fine there.
    assert.equal(checkAudioForFamily({ format: 'webm', bytes: 1000 }, 'speechToText'), undefined);
    assert.equal(checkAudioForFamily({ format: 'webm', bytes: 1000 }, 'audioInstruct')?.kind, 'unknownDuration');
    assert.equal(checkAudioForFamily({ format: 'wav', bytes: 44, seconds: 0 }, 'speechToText')?.kind, 'empty');
    // A bitrate estimate just under the limit is not trusted; one far under or over is.
    assert.equal(checkAudioForFamily({ format: 'mp3', bytes: 1000, seconds: 28, estimated: true }, 'audioInstruct')?.kind, 'unknownDuration');
    assert.equal(checkAudioForFamily({ format: 'mp3', bytes: 1000, seconds: 20, estimated: true }, 'audioInstruct'), undefined);
    assert.equal(checkAudioForFamily({ format: 'mp3', bytes: 1000, seconds: 40, estimated: true }, 'audioInstruct')?.kind, 'tooLong');
  });

  it('tells the user what to do', function () {
    const long = describeAudioProblem({ kind: 'tooLong', seconds: 95, limit: 30, format: 'wav' });
    assert.match(long, /1 min 35 s/);
    assert.match(long, /split/);
    assert.match(describeAudioProblem({ kind: 'tooLong', seconds: 45, limit: 30, format: 'mp3' }), /Convert it to WAV.*or cut it/);
    assert.match(describeAudioProblem({ kind: 'tooLarge', bytes: 26_880_044, limit: 25_000_000, format: 'wav' }), /26\.9 MB.*25\.0 MB.*MP3 or Ogg/);
    assert.match(describeAudioProblem({ kind: 'notAudio' }), /flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm/);
    assert.match(describeAudioProblem({ kind: 'unknownDuration', format: 'webm', limit: 30 }), /WAV/);
    assert.match(describeAudioProblem({ kind: 'truncated', format: 'flac' }), /cut short/);
    assert.match(describeAudioProblem({ kind: 'empty' }), /no sound/);
  });

  it('does not offer to split audio attached to a chat message (it is sent whole)', function () {
    const attached = describeAudioProblem({ kind: 'tooLong', seconds: 45, limit: 30, format: 'wav' }, 'attach');
    assert.match(attached, /45\.0 s long/);
    assert.match(attached, /at most 30 s per message/);
    assert.match(attached, /-t 30 part\.wav/);
    assert.doesNotMatch(attached, /split/);
    assert.equal(describeAudioProblem({ kind: 'notAudio' }, 'attach'), describeAudioProblem({ kind: 'notAudio' }));
  });
});

describe('audio/dataUrl', function () {
  it('builds the data URL the service expects', function () {
    const bytes = Uint8Array.from([0x52, 0x49, 0x46, 0x46, 0xff, 0x00, 0x10]);
    const url = toAudioDataUrl(bytes, 'wav');
    assert.equal(url, 'data:audio/wav;base64,UklGRv8AEA==');
    assert.equal(audioDataUrlPrefix('mp3'), 'data:audio/mp3;base64,');
    assert.equal(url.length, audioDataUrlLength(bytes.length, 'wav'));
  });

  it('encodes only the view it is given, not the whole underlying buffer', function () {
    const backing = Buffer.from('xxxxHELLOyyyy');
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, 5);
    const url = toAudioDataUrl(view, 'ogg');
    assert.equal(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').toString(), 'HELLO');
    for (let n = 0; n < 10; n++) assert.equal(toAudioDataUrl(new Uint8Array(n), 'flac').length, audioDataUrlLength(n, 'flac'));
  });
});
