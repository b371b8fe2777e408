// MPEG-1/2/2.5 audio frame headers (layers I-III) and the ID3v2 tags that often precede them. Shared by
// sniffing (is this MPEG audio?) and by the MP3 duration reader.

import { hasMagic } from './byteSource';

/** A decoded MPEG audio frame header. */
export interface MpegFrameHeader {
  /** 1 = MPEG-1, 2 = MPEG-2, 2.5 = MPEG-2.5. */
  readonly version: 1 | 2 | 2.5;
  readonly layer: 1 | 2 | 3;
  /** Bits per second. */
  readonly bitrate: number;
  readonly sampleRate: number;
  readonly channels: 1 | 2;
  /** Bytes in the whole frame, header included. */
  readonly frameLength: number;
  readonly samplesPerFrame: number;
  /** The header bits that must not change between frames of one stream (version, layer, rate). */
  readonly streamKey: number;
}

// Kilobits per second by [version 1 or 2][layer 1..3][index 1..14]; index 0 ("free") and 15 are invalid.
const bitratesV1 = [
  [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
];
const bitratesV2 = [
  [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
const sampleRatesV1 = [44100, 48000, 32000];

/** Decodes the 4-byte frame header at `o`, or `undefined` when it is not a valid one. */
export function parseMpegHeader(b: Uint8Array, o: number): MpegFrameHeader | undefined {
  if (o < 0 || o + 4 > b.length) return undefined;
  const b0 = b[o] ?? 0;
  const b1 = b[o + 1] ?? 0;
  const b2 = b[o + 2] ?? 0;
  const b3 = b[o + 3] ?? 0;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  const emphasis = b3 & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15) return undefined;
  if (rateIndex === 3 || emphasis === 2) return undefined;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const table = version === 1 ? bitratesV1 : bitratesV2;
  const kbps = table[layer - 1]?.[bitrateIndex - 1];
  const baseRate = sampleRatesV1[rateIndex];
  if (kbps === undefined || baseRate === undefined) return undefined;
  const sampleRate = version === 1 ? baseRate : version === 2 ? baseRate / 2 : baseRate / 4;
  const bitrate = kbps * 1000;
  const padding = (b2 >> 1) & 1;
  const channels = b3 >> 6 === 3 ? 1 : 2;
  let samplesPerFrame: number;
  let frameLength: number;
  if (layer === 1) {
    samplesPerFrame = 384;
    frameLength = (Math.floor((12 * bitrate) / sampleRate) + padding) * 4;
  } else {
    samplesPerFrame = layer === 3 && version !== 1 ? 576 : 1152;
    frameLength = Math.floor(((samplesPerFrame / 8) * bitrate) / sampleRate) + padding;
  }
  const streamKey = (b1 & 0xfe) * 4 + rateIndex;
  return { version, layer, bitrate, sampleRate, channels, frameLength, samplesPerFrame, streamKey };
}

/** Total size of the ID3v2 tag at `o` (header, body and footer), or 0 when there is none. */
export function id3v2Size(b: Uint8Array, o: number): number {
  if (!hasMagic(b, o, 'ID3') || o + 10 > b.length) return 0;
  const major = b[o + 3] ?? 0xff;
  const flags = b[o + 5] ?? 0;
  if (major === 0xff || (b[o + 4] ?? 0xff) === 0xff) return 0;
  let size = 0;
  for (let i = 6; i < 10; i++) {
    const byte = b[o + i] ?? 0x80;
    // The size is "syncsafe": seven bits per byte, so a set top bit means this is not a tag.
    if (byte & 0x80) return 0;
    size = size * 128 + byte;
  }
  return 10 + size + (major === 4 && flags & 0x10 ? 10 : 0);
}

/** Offset just past any ID3v2 tags at the start of `b` (there may be several back to back). */
export function skipId3v2(b: Uint8Array): number {
  let o = 0;
  for (let i = 0; i < 8; i++) {
    const n = id3v2Size(b, o);
    if (n === 0) break;
    o += n;
  }
  return o;
}

/**
 * Finds the first frame at or after `from` (within `window` bytes) that is followed by a second
 * matching frame, or that ends exactly at the end of `b`; one lone sync word is too easily found in
 * random data to count.
 */
export function findMpegStream(b: Uint8Array, from: number, window: number): { offset: number; header: MpegFrameHeader } | undefined {
  const last = Math.min(b.length - 4, from + window);
  for (let o = Math.max(0, from); o <= last; o++) {
    if (b[o] !== 0xff) continue;
    const header = parseMpegHeader(b, o);
    if (header === undefined) continue;
    const next = o + header.frameLength;
    if (next === b.length) return { offset: o, header };
    const second = parseMpegHeader(b, next);
    if (second !== undefined && second.streamKey === header.streamKey) return { offset: o, header };
    // When the buffer ends inside the second header we cannot confirm; accept only at the very start.
    if (next + 4 > b.length && next <= b.length && o === from) return { offset: o, header };
  }
  return undefined;
}
