// Audio headers are the file's own claims, and a crafted file lies: a 3 GB WAV declaring a huge sample
// rate passed as 0.75 s and was then read whole; one declaring 1 Hz was offered as 71,429 parts; an Ogg
// tail packed with fake page headers cost over a second of CPU per inspection. The size must agree with
// the duration, the header with what recorders produce, and the Ogg scan has a work budget.
import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import { Worker } from 'node:worker_threads';
import { inspectAudio } from '../../../src/core/audio/audioFile';
import { checkAudioForFamily, describeAudioProblem, maxAudioBytesPerSecond } from '../../../src/core/audio/limits';

/** A 44-byte PCM WAV header whose fmt chunk says `rate`, `channels`, `bits`, followed by `dataBytes` of samples. */
function wavHeader(rate: number, channels: number, bits: number, dataBytes: number): Uint8Array {
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  const ascii = (at: number, text: string): void => [...text].forEach((char, index) => view.setUint8(at + index, char.charCodeAt(0)));
  const blockAlign = channels * Math.ceil(bits / 8);
  ascii(0, 'RIFF');
  view.setUint32(4, Math.min(0xffffffff, 36 + dataBytes), true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, Math.min(0xffffffff, rate * blockAlign), true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bits, true);
  ascii(36, 'data');
  view.setUint32(40, Math.min(0xffffffff, dataBytes), true);
  return header;
}

/** A file of `size` bytes known by its head (`header` then zeros) and a zero tail, as readAudioParts would give it. */
function parts(header: Uint8Array, size: number): { head: Uint8Array; tail: Uint8Array; size: number } {
  const head = new Uint8Array(256 * 1024);
  head.set(header);
  return { head, tail: new Uint8Array(256 * 1024), size };
}

const GiB = 1024 * 1024 * 1024;

describe('audio header sanity', function () {
  it('does not take a 3 GB WAV for 0.75 s because its header declares a huge sample rate', function () {
    const size = 3 * GiB;
    // 0xffffffff bytes at 0x7fffffff Hz, 16-bit stereo: "0.75 s".
    const facts = inspectAudio(parts(wavHeader(0x7fffffff, 2, 16, size - 44), size));
    assert.equal(facts.format, 'wav');
    const problem = checkAudioForFamily(facts, 'audioInstruct');
    assert.notEqual(problem, undefined, `accepted as ${facts.seconds} s`);
    assert.equal(problem?.kind, 'unknownDuration');
    assert.equal(checkAudioForFamily(facts, 'speechToText')?.kind, 'tooLarge');
  });

  it('refuses a file far larger than the duration its (plausible) header claims, saying why', function () {
    const size = 3 * GiB;
    // 768 kHz, 64 channels, 64-bit: the largest header accepted, which makes 3 GB about 8 s.
    const facts = inspectAudio(parts(wavHeader(768_000, 64, 64, size - 44), size));
    assert.ok(facts.seconds !== undefined && facts.seconds < 30, String(facts.seconds));
    const problem = checkAudioForFamily(facts, 'audioInstruct');
    assert.equal(problem?.kind, 'implausible');
    assert.match(describeAudioProblem(problem ?? { kind: 'notAudio' }), /far more than the .* of audio its header claims/);
    // An honest 30 s recording at the highest byte rate still passes.
    const honest = 30 * maxAudioBytesPerSecond;
    assert.equal(checkAudioForFamily({ format: 'wav', bytes: honest, seconds: 30 }, 'audioInstruct'), undefined);
  });

  it('does not measure (or offer to split) a WAV declaring 1 Hz', function () {
    const dataBytes = 2_142_870;
    const facts = inspectAudio(parts(wavHeader(1, 1, 8, dataBytes), dataBytes + 44));
    assert.equal(facts.seconds, undefined, `measured as ${facts.seconds} s`);
    assert.equal(checkAudioForFamily(facts, 'audioInstruct')?.kind, 'unknownDuration');
  });

  describe('a crafted Ogg tail', function () {
    let worker: Worker | undefined;
    afterEach(async () => {
      await worker?.terminate();
      worker = undefined;
    });

    it('costs a bounded scan: the duration is given up, not computed over millions of fake pages', async function () {
      // In a worker, so the old unbounded scan (over a minute for this tail) fails on mocha's timeout
      // instead of blocking the run.
      const source = `
        const { parentPort, workerData } = require('node:worker_threads');
        const { audioDurationDetails } = require(workerData.module);
        const ascii = (b, at, text) => [...text].forEach((c, i) => { b[at + i] = c.charCodeAt(0); });
        // A real first page: Vorbis identification header, 44.1 kHz.
        const head = new Uint8Array(4096);
        ascii(head, 0, 'OggS'); head[5] = 2; head[26] = 1; head[27] = 30;
        ascii(head, 28, '\\x01vorbis'); head[39] = 2; new DataView(head.buffer).setUint32(40, 44100, true);
        // The tail: a fake page header every 32 bytes, each claiming a body of tens of kilobytes.
        const tail = new Uint8Array(4 * 1024 * 1024).fill(0xff);
        for (let o = 0; o + 32 <= tail.length; o += 32) { ascii(tail, o, 'OggS'); tail[o + 4] = 0; }
        const result = audioDurationDetails({ head, tail, size: 100 * 1024 * 1024 }, 'ogg');
        parentPort.postMessage(result === undefined ? 'unknown' : result.seconds);`;
      worker = new Worker(source, { eval: true, workerData: { module: nodePath.join(__dirname, '../../../src/core/audio/duration.js') } });
      const result = await new Promise<unknown>((resolve, reject) => {
        worker?.once('message', resolve);
        worker?.once('error', reject);
      });
      assert.equal(result, 'unknown');
    });
  });
});
