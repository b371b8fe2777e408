// MP4/M4A duration: the movie header (`moov/mvhd`) holds a timescale and a duration, in 32 or 64 bits.
// `moov` is either before `mdat` ("fast start") or after it, so walking the top-level boxes touches
// only the head and the tail of the file.

import { type ByteSource } from './byteSource';
import { type DurationInfo } from './durationInfo';

interface Box {
  readonly type: string;
  readonly start: number;
  /** Offset of the box body. */
  readonly body: number;
  /** Offset just past the box (may lie beyond the file when it was cut). */
  readonly end: number;
}

function readBox(src: ByteSource, o: number, limit: number): Box | undefined {
  const size32 = src.u32be(o);
  const type = src.ascii(o + 4, 4);
  if (size32 === undefined || type === undefined) return undefined;
  let size = size32;
  let body = o + 8;
  if (size32 === 1) {
    const large = src.u64be(o + 8);
    if (large === undefined) return undefined;
    size = large;
    body = o + 16;
  } else if (size32 === 0) {
    size = limit - o;
  }
  if (size < body - o) return undefined;
  return { type, start: o, body, end: o + size };
}

/** Duration of an MP4/M4A file from its known parts. */
export function mp4Duration(src: ByteSource): DurationInfo | undefined {
  let moov: Box | undefined;
  let mdat: Box | undefined;
  let o = 0;
  for (let i = 0; i < 1024 && o + 8 <= src.size; i++) {
    const box = readBox(src, o, src.size);
    if (box === undefined) break;
    if (box.type === 'moov' && moov === undefined) moov = box;
    if (box.type === 'mdat' && mdat === undefined) mdat = box;
    o = box.end;
  }
  if (moov === undefined) return undefined;
  const movie = movieDuration(src, moov);
  if (movie === undefined) return undefined;
  if (moov.end > src.size) return undefined;
  // With moov first, a cut file still describes the whole movie; scale by the media bytes present.
  if (mdat !== undefined && mdat.end > src.size) {
    const present = Math.max(0, src.size - mdat.body);
    const whole = mdat.end - mdat.body;
    return { seconds: whole > 0 ? (movie * present) / whole : 0, estimated: true, truncated: true };
  }
  return { seconds: movie, estimated: false, truncated: false };
}

function movieDuration(src: ByteSource, moov: Box): number | undefined {
  let mvhdSeconds: number | undefined;
  let timescale = 0;
  let o = moov.body;
  for (let i = 0; i < 256 && o + 8 <= moov.end; i++) {
    const box = readBox(src, o, moov.end);
    if (box === undefined || box.end > moov.end) return undefined;
    if (box.type === 'mvhd') {
      const header = readTimeHeader(src, box.body);
      if (header === undefined) return undefined;
      timescale = header.timescale;
      if (header.duration > 0) mvhdSeconds = header.duration / header.timescale;
    } else if (box.type === 'mvex' && mvhdSeconds === undefined && timescale > 0) {
      // Fragmented files may leave mvhd's duration at 0 and give it in mvex/mehd instead.
      const mehd = readBox(src, box.body, box.end);
      if (mehd?.type === 'mehd') {
        const version = src.u8(mehd.body);
        const duration = version === 1 ? src.u64be(mehd.body + 4) : src.u32be(mehd.body + 4);
        if (duration !== undefined && duration > 0) return duration / timescale;
      }
    }
    o = box.end;
  }
  return mvhdSeconds;
}

/** The (version 0 or 1) full-box layout shared by mvhd and mdhd. */
function readTimeHeader(src: ByteSource, body: number): { timescale: number; duration: number } | undefined {
  const version = src.u8(body);
  if (version === 0) {
    const timescale = src.u32be(body + 12);
    const duration = src.u32be(body + 16);
    if (timescale === undefined || duration === undefined || timescale === 0) return undefined;
    // All ones means "unknown" in version 0.
    return { timescale, duration: duration === 0xffffffff ? 0 : duration };
  }
  if (version === 1) {
    const timescale = src.u32be(body + 20);
    const duration = src.u64be(body + 24);
    if (timescale === undefined || duration === undefined || timescale === 0) return undefined;
    return { timescale, duration };
  }
  return undefined;
}
