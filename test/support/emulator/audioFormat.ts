// Audio format sniffing and duration, from the bytes alone: the real service decodes the file and
// ignores the declared name and MIME type, so the emulator must not trust them either.

/** Formats the service accepts (flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm), as sniffed. */
export type AudioFormat = 'wav' | 'mp3' | 'flac' | 'ogg' | 'mp4' | 'm4a' | 'webm';

function ascii(bytes: Buffer, from: number, length: number): string {
  return bytes.subarray(from, from + length).toString('latin1');
}

/** Identifies the container from magic bytes; undefined when it is none of the accepted formats. */
export function sniffAudioFormat(bytes: Buffer): AudioFormat | undefined {
  if (bytes.length < 4) return undefined;
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') return ascii(bytes, 8, 3) === 'M4A' ? 'm4a' : 'mp4';
  if (bytes.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (mpegFrameAt(bytes, 0) !== undefined) return 'mp3';
  return undefined;
}

/** Exact duration of a PCM WAV file from its `fmt ` and `data` chunks; undefined if the header is broken. */
export function wavDurationSeconds(bytes: Buffer): number | undefined {
  let byteRate: number | undefined;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = ascii(bytes, at, 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && body + 12 <= bytes.length) byteRate = bytes.readUInt32LE(body + 8);
    if (id === 'data') {
      if (byteRate === undefined || byteRate === 0) return undefined;
      // Streaming writers leave 0 or 0xFFFFFFFF as the size; then the data runs to the end of the file.
      const dataBytes = size === 0 || size === 0xffffffff ? bytes.length - body : size;
      return dataBytes / byteRate;
    }
    at = body + size + (size % 2); // chunks are word-aligned
  }
  return undefined;
}

// MPEG audio bitrates in kbit/s, indexed [version 1 ? 0 : 1][layer III,II,I][index].
const BITRATES: readonly (readonly (readonly number[])[])[] = [
  [
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  ],
  [
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  ],
];

/** The bitrate (bit/s) of an MPEG audio frame header at `at`, or undefined if none is there. */
function mpegFrameAt(bytes: Buffer, at: number): number | undefined {
  if (at + 4 > bytes.length) return undefined;
  const b1 = bytes[at + 1] ?? 0;
  const b2 = bytes[at + 2] ?? 0;
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const version = (b1 >> 3) & 3; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5, 1 reserved
  const layer = (b1 >> 1) & 3; // 1 = III, 2 = II, 3 = I, 0 reserved (ADTS AAC uses 0)
  const index = (b2 >> 4) & 15;
  if (version === 1 || layer === 0 || index === 0 || index === 15) return undefined;
  const kbps = BITRATES[version === 3 ? 0 : 1]?.[layer - 1]?.[index];
  return kbps === undefined ? undefined : kbps * 1000;
}

/**
 * Estimated duration of an MP3 from the first frame's bitrate (exact for constant bitrate, a guess
 * for VBR files, which would need the Xing header). undefined if no frame is found.
 */
export function mp3DurationSeconds(bytes: Buffer): number | undefined {
  let start = 0;
  if (ascii(bytes, 0, 3) === 'ID3' && bytes.length >= 10) {
    // ID3v2 size is "syncsafe": four 7-bit bytes.
    const size = (((bytes[6] ?? 0) & 0x7f) << 21) | (((bytes[7] ?? 0) & 0x7f) << 14) | (((bytes[8] ?? 0) & 0x7f) << 7) | ((bytes[9] ?? 0) & 0x7f);
    start = 10 + size + (((bytes[5] ?? 0) & 0x10) !== 0 ? 10 : 0);
  }
  for (let at = start; at < Math.min(bytes.length, start + 64 * 1024); at++) {
    const bitrate = mpegFrameAt(bytes, at);
    if (bitrate !== undefined) return ((bytes.length - at) * 8) / bitrate;
  }
  return undefined;
}

/**
 * Duration in seconds where it can be read: exact for WAV, estimated for MP3. Other containers
 * (FLAC, Ogg, MP4, WebM) would need real demuxing; they are not checked and pass the 30 s rule.
 */
export function audioDurationSeconds(bytes: Buffer, format: AudioFormat): number | undefined {
  if (format === 'wav') return wavDurationSeconds(bytes);
  if (format === 'mp3') return mp3DurationSeconds(bytes);
  return undefined;
}

/** Decodes a `data:audio/<fmt>;base64,<data>` URL; undefined when the form or the base64 is wrong. */
export function decodeDataUrl(url: string, mediaPrefix: 'audio' | 'image'): Buffer | undefined {
  const match = /^data:([a-z]+)\/[A-Za-z0-9.+-]+;base64,/.exec(url);
  if (match === null || match[1] !== mediaPrefix) return undefined;
  const data = url.slice(match[0].length);
  if (data.length === 0 || data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return undefined;
  return Buffer.from(data, 'base64');
}
