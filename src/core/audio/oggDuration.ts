// Ogg duration: the granule position of the stream's last page, in the codec's sample clock (the
// Vorbis/FLAC/Speex sample rate, or 48 kHz less the pre-skip for Opus). Only the last page is needed,
// so the tail of a file suffices; its CRC tells a real page from "OggS" inside compressed data.

import { type ByteSource, hasMagic, u16le, u32le } from './byteSource';
import { type DurationInfo } from './durationInfo';
import { parseStreamInfo } from './flacDuration';
import { oggAudioCodec } from './sniff';

interface OggClock {
  readonly serial: number;
  readonly rate: number;
  /** Samples at the start that decoders discard (Opus pre-skip). */
  readonly skip: number;
}

/** Duration of an Ogg audio file from its known parts. */
export function oggDuration(src: ByteSource): DurationInfo | undefined {
  const clock = firstStreamClock(src.headBytes);
  if (clock === undefined) return undefined;
  const tail = src.tailBytes;
  const tailStart = src.tailOffset;
  let lastPageEnd: number | undefined;
  // Every candidate costs a CRC over up to 64 KB: a crafted tail packed with fake "OggS" headers would
  // cost seconds of CPU per inspection. Real files find their last page within a few candidates, so
  // hashing more than a few times the tail means the duration cannot be told.
  let budget = 4 * tail.length + 256 * 1024;
  // Walk back over candidate pages: the newest valid one of our stream with a real granule wins.
  for (let o = tail.length - 27; o >= 0; o--) {
    if (tail[o] !== 0x4f || !hasMagic(tail, o, 'OggS') || tail[o + 4] !== 0) continue;
    const end = pageEnd(tail, o);
    if (end === undefined) continue;
    budget -= end - o;
    if (budget < 0) return undefined;
    if (!crcMatches(tail, o, end)) continue;
    lastPageEnd ??= tailStart + end;
    if (u32le(tail, o + 14) !== clock.serial) continue;
    const lo = u32le(tail, o + 6);
    const hi = u32le(tail, o + 10);
    // -1 means "no packet ends on this page"; values past 2^53 are nonsense for audio.
    if (hi >= 0x200000) continue;
    const granule = hi * 0x100000000 + lo;
    const seconds = Math.max(0, granule - clock.skip) / clock.rate;
    // A file that does not end exactly at a page boundary was cut (or has junk appended).
    return { seconds, estimated: false, truncated: lastPageEnd !== src.size };
  }
  return undefined;
}

function pageEnd(b: Uint8Array, o: number): number | undefined {
  const segments = b[o + 26];
  if (segments === undefined || o + 27 + segments > b.length) return undefined;
  let body = 0;
  for (let i = 0; i < segments; i++) body += b[o + 27 + i] ?? 0;
  const end = o + 27 + segments + body;
  return end <= b.length ? end : undefined;
}

function firstStreamClock(head: Uint8Array): OggClock | undefined {
  if (!hasMagic(head, 0, 'OggS') || head[4] !== 0) return undefined;
  const end = pageEnd(head, 0);
  if (end === undefined) return undefined;
  const segments = head[26] ?? 0;
  const body = 27 + segments;
  const serial = u32le(head, 14);
  switch (oggAudioCodec(head, body)) {
    case 'vorbis': {
      const rate = body + 16 <= end ? u32le(head, body + 12) : 0;
      return rate > 0 ? { serial, rate, skip: 0 } : undefined;
    }
    case 'opus': {
      // Opus granules always count at 48 kHz, whatever the input rate was.
      if (body + 12 > end) return undefined;
      return { serial, rate: 48000, skip: u16le(head, body + 10) };
    }
    case 'flac': {
      // "\x7fFLAC", version (2), header count (2), "fLaC", then a metadata block header (4).
      const info = hasMagic(head, body + 9, 'fLaC') ? parseStreamInfo(head, body + 17) : undefined;
      return info === undefined ? undefined : { serial, rate: info.sampleRate, skip: 0 };
    }
    case 'speex': {
      const rate = body + 40 <= end ? u32le(head, body + 36) : 0;
      return rate > 0 ? { serial, rate, skip: 0 } : undefined;
    }
    case undefined:
      return undefined;
  }
}

// Ogg's CRC-32: polynomial 0x04c11db7, not reflected, initial 0, computed with the CRC field zeroed.
const crcTable = ((): Uint32Array => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function crcMatches(b: Uint8Array, start: number, end: number): boolean {
  let crc = 0;
  for (let i = start; i < end; i++) {
    const byte = i >= start + 22 && i < start + 26 ? 0 : (b[i] ?? 0);
    crc = ((crc << 8) ^ (crcTable[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  }
  return crc === u32le(b, start + 22);
}
