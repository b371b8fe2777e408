// Duration of MPEG audio. In order of trust: a Xing/Info or VBRI header (frame count, written by the
// encoder), a walk over every frame (when the whole file is in memory), and last the first frame's
// bitrate over the audio bytes (exact for CBR, an estimate for VBR without a header).

import { asciiOf, type ByteSource, hasMagic, u16be, u32be } from './byteSource';
import { type DurationInfo } from './durationInfo';
import { findMpegStream, type MpegFrameHeader, parseMpegHeader, skipId3v2 } from './mpegFrame';

/** Duration of an MP3 (or MPEG layer I/II) file from its known parts. */
export function mp3Duration(src: ByteSource): DurationInfo | undefined {
  const head = src.headBytes;
  const tagEnd = skipId3v2(head);
  if (tagEnd >= head.length) return undefined;
  const first = findMpegStream(head, tagEnd, 64 * 1024);
  if (first === undefined) return undefined;
  const audioStart = first.offset;
  const audioEnd = audioEndOffset(src);
  if (audioEnd <= audioStart) return undefined;
  const audioBytes = audioEnd - audioStart;

  const vbr = readVbrHeader(head, audioStart, first.header);
  if (vbr !== undefined) {
    const samples = vbr.frames * first.header.samplesPerFrame - vbr.delay - vbr.padding;
    const declaredSeconds = Math.max(0, samples) / first.header.sampleRate;
    // The header counts the whole stream; a file cut short holds proportionally fewer frames.
    if (vbr.bytes !== undefined && vbr.bytes > 0 && audioBytes < vbr.bytes * 0.98) {
      return { seconds: (declaredSeconds * audioBytes) / vbr.bytes, estimated: true, truncated: true };
    }
    return { seconds: declaredSeconds, estimated: false, truncated: false };
  }
  if (src.whole) return walkFrames(src.all, audioStart, audioEnd, first.header);
  return bitrateEstimate(head, audioStart, audioBytes, first.header);
}

/** End of the audio: the file's end less trailing ID3v1 and APEv2 tags. */
function audioEndOffset(src: ByteSource): number {
  let end = src.size;
  if (src.ascii(end - 128, 3) === 'TAG') end -= 128;
  // An APEv2 footer: "APETAGEX", version, size (items + footer), count, flags (bit 31: has header).
  if (src.ascii(end - 32, 8) === 'APETAGEX') {
    const size = src.u32le(end - 20);
    const flags = src.u32le(end - 12);
    if (size !== undefined && flags !== undefined && size <= end) {
      end -= size + (flags & 0x80000000 ? 32 : 0);
    }
  }
  return Math.max(0, end);
}

interface VbrHeader {
  readonly frames: number;
  readonly bytes: number | undefined;
  /** Encoder delay and end padding in samples (LAME tag), to report the audio the user recorded. */
  readonly delay: number;
  readonly padding: number;
}

function readVbrHeader(b: Uint8Array, frame: number, h: MpegFrameHeader): VbrHeader | undefined {
  // The Xing/Info tag follows the side information, whose size depends on version and channels.
  const side = h.version === 1 ? (h.channels === 1 ? 17 : 32) : h.channels === 1 ? 9 : 17;
  const xing = frame + 4 + side;
  const tag = asciiOf(b, xing, 4);
  if ((tag === 'Xing' || tag === 'Info') && xing + 8 <= b.length) {
    const flags = u32be(b, xing + 4);
    let o = xing + 8;
    let frames: number | undefined;
    let bytes: number | undefined;
    if (flags & 1) {
      if (o + 4 > b.length) return undefined;
      frames = u32be(b, o);
      o += 4;
    }
    if (flags & 2) {
      bytes = o + 4 <= b.length ? u32be(b, o) : undefined;
      o += 4;
    }
    if (flags & 4) o += 100;
    if (flags & 8) o += 4;
    // Without a frame count an Info tag tells nothing about length; fall back to CBR arithmetic.
    if (frames === undefined || frames === 0) return undefined;
    let delay = 0;
    let padding = 0;
    const lame = asciiOf(b, o, 4);
    if ((lame === 'LAME' || lame === 'Lavf' || lame === 'Lavc') && o + 24 <= b.length) {
      const d = ((b[o + 21] ?? 0) << 16) | ((b[o + 22] ?? 0) << 8) | (b[o + 23] ?? 0);
      delay = d >> 12;
      padding = d & 0xfff;
      // The decoder adds its own delay of 529 samples on top of the encoder's (LAME convention).
      if (delay + padding >= frames * h.samplesPerFrame) {
        delay = 0;
        padding = 0;
      }
    }
    return { frames, bytes, delay, padding };
  }
  // VBRI (Fraunhofer) sits at a fixed 32 bytes after the header.
  const vbri = frame + 36;
  if (hasMagic(b, vbri, 'VBRI') && vbri + 18 <= b.length) {
    const delay = u16be(b, vbri + 6);
    const bytes = u32be(b, vbri + 10);
    const frames = u32be(b, vbri + 14);
    if (frames === 0) return undefined;
    return { frames, bytes, delay: Math.min(delay, frames * h.samplesPerFrame), padding: 0 };
  }
  return undefined;
}

/** Counts frames from start to end, resynchronising over junk; exact for any bitrate mix. */
function walkFrames(b: Uint8Array, start: number, end: number, first: MpegFrameHeader): DurationInfo | undefined {
  let o = start;
  let samples = 0;
  let truncated = false;
  while (o + 4 <= end) {
    const h = parseMpegHeader(b, o);
    if (h === undefined || h.streamKey !== first.streamKey) {
      // Junk between frames (a stray tag, a damaged byte): look for the next frame that is followed
      // by another, and give up after a long run of nothing.
      const next = resync(b, o + 1, end, first);
      if (next === undefined) break;
      o = next;
      continue;
    }
    if (o + h.frameLength > end) {
      // The last frame runs past the audio: the file was cut inside it.
      truncated = true;
      break;
    }
    samples += h.samplesPerFrame;
    o += h.frameLength;
  }
  if (samples === 0) return undefined;
  return { seconds: samples / first.sampleRate, estimated: false, truncated };
}

function resync(b: Uint8Array, from: number, end: number, first: MpegFrameHeader): number | undefined {
  const limit = Math.min(end - 4, from + 256 * 1024);
  for (let o = from; o <= limit; o++) {
    if (b[o] !== 0xff) continue;
    const h = parseMpegHeader(b, o);
    if (h === undefined || h.streamKey !== first.streamKey) continue;
    const next = o + h.frameLength;
    if (next >= end) return o;
    const h2 = parseMpegHeader(b, next);
    if (h2 !== undefined && h2.streamKey === first.streamKey) return o;
  }
  return undefined;
}

/** Audio bytes over the bitrate of the frames seen in the head (their mean when they differ). */
function bitrateEstimate(head: Uint8Array, start: number, audioBytes: number, first: MpegFrameHeader): DurationInfo {
  let o = start;
  let frames = 0;
  let bytes = 0;
  let samples = 0;
  let constant = true;
  while (frames < 2000 && o + 4 <= head.length) {
    const h = parseMpegHeader(head, o);
    if (h === undefined || h.streamKey !== first.streamKey || o + h.frameLength > head.length) break;
    if (h.bitrate !== first.bitrate) constant = false;
    frames += 1;
    bytes += h.frameLength;
    samples += h.samplesPerFrame;
    o += h.frameLength;
  }
  if (frames === 0 || !constant) {
    const bytesPerSecond = frames === 0 ? first.bitrate / 8 : (bytes * first.sampleRate) / samples;
    return { seconds: audioBytes / bytesPerSecond, estimated: true, truncated: false };
  }
  return { seconds: (audioBytes * 8) / first.bitrate, estimated: false, truncated: false };
}
