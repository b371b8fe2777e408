// Splits a long WAV recording into parts the audio-instruct models accept (30 s each). Cuts fall on
// sample-frame boundaries and, when possible, in the quietest moment shortly before the limit, so a
// word is not sliced in two across parts.

import { ByteSource, wholeFile } from './byteSource';
import { audioInstructMaxSeconds } from './limits';
import { isLinearWav, parseWav, type WavLayout, waveFloat, wavePcm } from './wavHeader';

/** Why a buffer could not be split. */
export type WavSplitReason = 'notWav' | 'unsupportedEncoding';

/** Thrown by {@link splitWav} for input it cannot cut; carries a reason, never branch on the text. */
export class WavSplitError extends Error {
  readonly reason: WavSplitReason;

  constructor(reason: WavSplitReason, message: string) {
    super(message);
    this.name = 'WavSplitError';
    this.reason = reason;
  }

  /** Narrows an unknown caught value. */
  static is(value: unknown): value is WavSplitError {
    return value instanceof WavSplitError;
  }
}

/** Tuning for {@link splitWav}. */
export interface SplitWavOptions {
  /** Seconds kept under `maxSeconds`, so rounding on the server never tips a part over. Default 0.2. */
  readonly safetySeconds?: number;
  /** How far back from the limit to look for a quiet cut; 0 cuts exactly at the limit. Default 2. */
  readonly quietSearchSeconds?: number;
}

/**
 * Splits PCM or float WAV bytes into valid WAV files of at most `maxSeconds` (less a small safety
 * margin) each. A file already short enough comes back as the one original buffer.
 * @throws {WavSplitError} when the bytes are not WAV or hold compressed samples.
 */
export function splitWav(bytes: Uint8Array, maxSeconds: number = audioInstructMaxSeconds, options: SplitWavOptions = {}): Uint8Array[] {
  const layout = parseWav(ByteSource.from(wholeFile(bytes)) ?? failNotWav());
  if (layout === undefined) failNotWav();
  if (!isLinearWav(layout)) {
    throw new WavSplitError('unsupportedEncoding', `WAV encoding ${layout.formatTag} is compressed; only PCM, float, A-law and µ-law WAV can be split.`);
  }
  if (!(maxSeconds > 0) || !Number.isFinite(maxSeconds)) throw new RangeError(`maxSeconds must be a positive number, not ${maxSeconds}`);
  const safety = Math.min(options.safetySeconds ?? 0.2, maxSeconds / 10);
  const quiet = Math.max(0, Math.min(options.quietSearchSeconds ?? 2, maxSeconds / 4));
  const rate = layout.sampleRate;
  const totalFrames = Math.floor(layout.dataBytes / layout.blockAlign);
  const target = Math.max(1, Math.floor((maxSeconds - safety) * rate));
  if (totalFrames <= target && !layout.truncated) return [bytes];

  const parts: Uint8Array[] = [];
  let start = 0;
  while (totalFrames - start > target) {
    const limit = start + target;
    const cut = quiet > 0 ? quietestFrame(bytes, layout, limit - Math.floor(quiet * rate), limit) : limit;
    parts.push(wavSegment(bytes, layout, start, cut));
    start = cut;
  }
  parts.push(wavSegment(bytes, layout, start, totalFrames));
  return parts;
}

function failNotWav(): never {
  throw new WavSplitError('notWav', 'The bytes are not a RIFF/WAVE file with fmt and data chunks.');
}

/** Builds a canonical WAV (the original fmt chunk, a fact chunk if needed, data) for frames [from, to). */
function wavSegment(bytes: Uint8Array, layout: WavLayout, from: number, to: number): Uint8Array {
  // A non-PCM fmt chunk should carry cbSize (18 bytes); some writers stop at 16, so add it.
  const rawTag = (bytes[layout.fmtOffset] ?? 0) | ((bytes[layout.fmtOffset + 1] ?? 0) << 8);
  const fmtSize = layout.fmtSize === 16 && rawTag !== wavePcm ? 18 : layout.fmtSize;
  const fmtPad = fmtSize & 1;
  const dataLength = (to - from) * layout.blockAlign;
  const dataPad = dataLength & 1;
  // WAVE_FORMAT_IEEE_FLOAT and the other non-PCM tags are supposed to carry a fact chunk.
  const factLength = layout.formatTag === wavePcm ? 0 : 12;
  const total = 12 + 8 + fmtSize + fmtPad + factLength + 8 + dataLength + dataPad;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let o = 0;
  const tag = (text: string): void => {
    for (let i = 0; i < 4; i++) out[o + i] = text.charCodeAt(i);
    o += 4;
  };
  const u32 = (value: number): void => {
    view.setUint32(o, value, true);
    o += 4;
  };
  tag('RIFF');
  u32(total - 8);
  tag('WAVE');
  tag('fmt ');
  u32(fmtSize);
  out.set(bytes.subarray(layout.fmtOffset, layout.fmtOffset + layout.fmtSize), o);
  o += fmtSize + fmtPad;
  if (factLength > 0) {
    tag('fact');
    u32(4);
    u32(to - from);
  }
  tag('data');
  u32(dataLength);
  const dataStart = layout.dataOffset + from * layout.blockAlign;
  out.set(bytes.subarray(dataStart, dataStart + dataLength), o);
  return out;
}

/**
 * The frame in [from, to) at the middle of the quietest 10 ms window (by mean square of the first
 * channel); `to` when the encoding cannot be read cheaply. Ties go to the later window, keeping
 * parts long.
 */
function quietestFrame(bytes: Uint8Array, layout: WavLayout, from: number, to: number): number {
  const read = sampleReader(bytes, layout);
  if (read === undefined || to - from < 2) return to;
  const start = Math.max(1, from);
  const window = Math.max(1, Math.floor(layout.sampleRate / 100));
  let best = to;
  let bestEnergy = Number.POSITIVE_INFINITY;
  for (let w = start; w + window <= to; w += window) {
    let energy = 0;
    for (let f = w; f < w + window; f++) {
      const s = read(layout.dataOffset + f * layout.blockAlign);
      energy += s * s;
    }
    if (energy <= bestEnergy) {
      bestEnergy = energy;
      best = w + (window >> 1);
    }
  }
  return best;
}

function sampleReader(bytes: Uint8Array, layout: WavLayout): ((offset: number) => number) | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bits = layout.bitsPerSample;
  if (layout.formatTag === waveFloat) {
    if (bits === 32) return (o) => view.getFloat32(o, true);
    if (bits === 64) return (o) => view.getFloat64(o, true);
    return undefined;
  }
  if (layout.formatTag !== wavePcm) return undefined;
  // WAV stores 8-bit samples unsigned and wider ones signed, left-justified in their container.
  const container = Math.ceil(bits / 8);
  if (container === 1) return (o) => (view.getUint8(o) - 128) / 128;
  if (container === 2) return (o) => view.getInt16(o, true) / 32768;
  if (container === 3) return (o) => ((view.getUint8(o + 2) << 24) | (view.getUint8(o + 1) << 16) | (view.getUint8(o) << 8)) / 2147483648;
  if (container === 4) return (o) => view.getInt32(o, true) / 2147483648;
  return undefined;
}
