// FLAC duration: STREAMINFO's total sample count over its sample rate. The last frame header in the
// tail (found by its CRC-8) says how far the samples really go, which catches files cut short and
// streams whose encoder never knew the total.

import { type ByteSource, hasMagic, u32be } from './byteSource';
import { type DurationInfo } from './durationInfo';
import { skipId3v2 } from './mpegFrame';

/** Fields of STREAMINFO needed for timing. */
export interface FlacStreamInfo {
  readonly sampleRate: number;
  readonly maxBlockSize: number;
  /** 0 when the encoder did not know it. */
  readonly totalSamples: number;
}

/** Parses a 34-byte STREAMINFO body at `o`. */
export function parseStreamInfo(b: Uint8Array, o: number): FlacStreamInfo | undefined {
  if (o + 18 > b.length) return undefined;
  const maxBlockSize = ((b[o + 2] ?? 0) << 8) | (b[o + 3] ?? 0);
  const sampleRate = ((b[o + 10] ?? 0) << 12) | ((b[o + 11] ?? 0) << 4) | ((b[o + 12] ?? 0) >> 4);
  const totalSamples = ((b[o + 13] ?? 0) & 0x0f) * 0x100000000 + u32be(b, o + 14);
  if (sampleRate === 0) return undefined;
  return { sampleRate, maxBlockSize, totalSamples };
}

/** Duration of a native FLAC file from its known parts. */
export function flacDuration(src: ByteSource): DurationInfo | undefined {
  const head = src.headBytes;
  const start = skipId3v2(head);
  if (!hasMagic(head, start, 'fLaC')) return undefined;
  const blockType = (head[start + 4] ?? 0xff) & 0x7f;
  if (blockType !== 0) return undefined;
  const info = parseStreamInfo(head, start + 8);
  if (info === undefined) return undefined;
  const declared = info.totalSamples;
  const last = lastFrameEnd(src.tailBytes, info);
  if (declared === 0) {
    return last === undefined ? undefined : { seconds: last / info.sampleRate, estimated: false, truncated: false };
  }
  // A cut file's last complete frame ends well before the declared total (one block of slack).
  if (last !== undefined && last + info.maxBlockSize < declared) {
    return { seconds: last / info.sampleRate, estimated: false, truncated: true };
  }
  return { seconds: declared / info.sampleRate, estimated: false, truncated: false };
}

/**
 * Sample position where the last frame in `tail` ends. A candidate counts only when the frame found
 * before it ends exactly where it starts: compressed data can imitate one header and its CRC-8, but
 * hardly two that agree.
 */
function lastFrameEnd(tail: Uint8Array, info: FlacStreamInfo): number | undefined {
  // Candidates seen so far (later in the file), by the sample where each starts.
  const endByStart = new Map<number, number>();
  for (let o = tail.length - 6; o >= 0 && endByStart.size < 64; o--) {
    if (tail[o] !== 0xff) continue;
    const b1 = tail[o + 1];
    if (b1 !== 0xf8 && b1 !== 0xf9) continue;
    const frame = parseFrameHeader(tail, o, info);
    if (frame === undefined) continue;
    const successorEnd = endByStart.get(frame.end);
    if (successorEnd !== undefined) return successorEnd;
    if (!endByStart.has(frame.start)) endByStart.set(frame.start, frame.end);
  }
  return undefined;
}

function parseFrameHeader(b: Uint8Array, o: number, info: FlacStreamInfo): { start: number; end: number } | undefined {
  const variable = b[o + 1] === 0xf9;
  const b2 = b[o + 2] ?? 0;
  const b3 = b[o + 3] ?? 0;
  const sizeCode = b2 >> 4;
  const rateCode = b2 & 0x0f;
  if (sizeCode === 0 || rateCode === 15 || b3 >> 4 > 10 || (b3 & 1) !== 0 || ((b3 >> 1) & 7) === 3) return undefined;
  // The frame (or sample) number is UTF-8-style coded in 1 to 7 bytes.
  let p = o + 4;
  const lead = b[p];
  if (lead === undefined) return undefined;
  let extra: number;
  let number: number;
  if (lead < 0x80) {
    extra = 0;
    number = lead;
  } else if (lead >= 0xc0 && lead < 0xe0) {
    extra = 1;
    number = lead & 0x1f;
  } else if (lead >= 0xe0 && lead < 0xf0) {
    extra = 2;
    number = lead & 0x0f;
  } else if (lead >= 0xf0 && lead < 0xf8) {
    extra = 3;
    number = lead & 0x07;
  } else if (lead >= 0xf8 && lead < 0xfc) {
    extra = 4;
    number = lead & 0x03;
  } else if (lead >= 0xfc && lead < 0xfe) {
    extra = 5;
    number = lead & 0x01;
  } else if (lead === 0xfe) {
    extra = 6;
    number = 0;
  } else return undefined;
  p += 1;
  for (let i = 0; i < extra; i++, p++) {
    const c = b[p];
    if (c === undefined || (c & 0xc0) !== 0x80) return undefined;
    number = number * 64 + (c & 0x3f);
  }
  let blockSize: number;
  if (sizeCode === 1) blockSize = 192;
  else if (sizeCode <= 5) blockSize = 576 << (sizeCode - 2);
  else if (sizeCode === 6) {
    blockSize = (b[p] ?? 0) + 1;
    p += 1;
  } else if (sizeCode === 7) {
    blockSize = (((b[p] ?? 0) << 8) | (b[p + 1] ?? 0)) + 1;
    p += 2;
  } else blockSize = 256 << (sizeCode - 8);
  if (rateCode === 12) p += 1;
  else if (rateCode === 13 || rateCode === 14) p += 2;
  if (p >= b.length || crc8(b, o, p) !== b[p]) return undefined;
  const start = variable ? number : number * info.maxBlockSize;
  return { start, end: start + blockSize };
}

/** CRC-8 (polynomial 0x07) of b[from, to), as FLAC frame headers use. */
function crc8(b: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) {
    crc ^= b[i] ?? 0;
    for (let k = 0; k < 8; k++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}
