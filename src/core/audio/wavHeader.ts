// RIFF/WAVE (and RF64) header parsing: where the samples are and how they are laid out. Shared by the
// duration reader (which may see only the head and tail of a file) and by the splitter.

import { type ByteSource } from './byteSource';

/** How a WAV file's samples are stored and where they are. */
export interface WavLayout {
  /** WAVE_FORMAT_* tag, with WAVE_FORMAT_EXTENSIBLE resolved to its sub-format. */
  readonly formatTag: number;
  readonly channels: number;
  readonly sampleRate: number;
  readonly bitsPerSample: number;
  /** Bytes per sample frame (all channels). */
  readonly blockAlign: number;
  readonly byteRate: number;
  /** Offset and byte length of the `fmt ` chunk body, copied verbatim into split segments. */
  readonly fmtOffset: number;
  readonly fmtSize: number;
  /** Offset of the first sample byte. */
  readonly dataOffset: number;
  /** Sample bytes actually present in the file (never past its end). */
  readonly dataBytes: number;
  /** True when the header promised more sample bytes than the file holds. */
  readonly truncated: boolean;
  /** Sample frames from a `fact` chunk, for compressed encodings. */
  readonly factFrames: number | undefined;
}

/** WAVE_FORMAT_PCM. */
export const wavePcm = 1;
/** WAVE_FORMAT_IEEE_FLOAT. */
export const waveFloat = 3;
const waveAlaw = 6;
const waveMulaw = 7;
const waveExtensible = 0xfffe;

// Writers that stream (ffmpeg to a pipe, some recorders) leave these in the size fields, meaning
// "until the end of the file".
const streamingSizes = new Set([0, 0xffffffff, 0x7ffff000, 0x7fffffff]);

/** The lowest and highest sample rates accepted (telephone ADPCM goes down to 2 kHz; studio up to 768 kHz). */
const minWavSampleRate = 1000;
const maxWavSampleRate = 768_000;
/** The most channels accepted (ambisonic and film formats use up to 64). */
const maxWavChannels = 64;

/** Whether the encoding is a plain sample-per-slot one that can be measured and cut by frames. */
export function isLinearWav(layout: WavLayout): boolean {
  return layout.formatTag === wavePcm || layout.formatTag === waveFloat || layout.formatTag === waveAlaw || layout.formatTag === waveMulaw;
}

/** Parses the RIFF chunks up to `data`; `undefined` when they are not all in the known bytes or are invalid. */
export function parseWav(src: ByteSource): WavLayout | undefined {
  const magic = src.ascii(0, 4);
  if ((magic !== 'RIFF' && magic !== 'RF64') || src.ascii(8, 4) !== 'WAVE') return undefined;
  let ds64Data: number | undefined;
  let fmt: Omit<WavLayout, 'dataOffset' | 'dataBytes' | 'truncated' | 'factFrames'> | undefined;
  let factFrames: number | undefined;
  let o = 12;
  // A bound on chunks keeps a crafted file of millions of empty chunks from spinning.
  for (let i = 0; i < 4096; i++) {
    const id = src.ascii(o, 4);
    const size = src.u32le(o + 4);
    if (id === undefined || size === undefined) return undefined;
    const body = o + 8;
    if (id === 'ds64') {
      ds64Data = src.u64le(body + 8);
    } else if (id === 'fmt ') {
      fmt = parseFmt(src, body, size);
      if (fmt === undefined) return undefined;
    } else if (id === 'fact' && size >= 4) {
      factFrames = src.u32le(body);
    } else if (id === 'data') {
      if (fmt === undefined) return undefined;
      const available = Math.max(0, src.size - body);
      let declared = size;
      if (magic === 'RF64' && size === 0xffffffff && ds64Data !== undefined) declared = ds64Data;
      const streaming = magic === 'RIFF' && streamingSizes.has(size) && available > 0;
      const dataBytes = streaming ? available : Math.min(declared, available);
      return { ...fmt, dataOffset: body, dataBytes, truncated: !streaming && declared > available, factFrames };
    }
    // Chunks are word-aligned: an odd-sized chunk is followed by one pad byte.
    o = body + size + (size & 1);
    if (o >= src.size) return undefined;
  }
  return undefined;
}

function parseFmt(src: ByteSource, body: number, size: number): Omit<WavLayout, 'dataOffset' | 'dataBytes' | 'truncated' | 'factFrames'> | undefined {
  if (size < 14) return undefined;
  let formatTag = src.u16le(body);
  const channels = src.u16le(body + 2);
  const sampleRate = src.u32le(body + 4);
  const byteRate = src.u32le(body + 8);
  const blockAlign = src.u16le(body + 12);
  const bitsPerSample = size >= 16 ? src.u16le(body + 14) : 8;
  if (
    formatTag === undefined ||
    channels === undefined ||
    sampleRate === undefined ||
    byteRate === undefined ||
    blockAlign === undefined ||
    bitsPerSample === undefined
  ) {
    return undefined;
  }
  if (formatTag === waveExtensible) {
    // WAVE_FORMAT_EXTENSIBLE keeps the real tag in the first two bytes of its sub-format GUID.
    if (size < 40) return undefined;
    const sub = src.u16le(body + 24);
    if (sub === undefined) return undefined;
    formatTag = sub;
  }
  if (channels === 0 || sampleRate === 0 || blockAlign === 0) return undefined;
  // Header numbers are the file's claims: a rate no recorder uses is a crafted or broken file, and
  // would turn into nonsense (a 3 GB file "0.75 s long" at a huge rate, 71,429 split parts at 1 Hz).
  if (sampleRate < minWavSampleRate || sampleRate > maxWavSampleRate || channels > maxWavChannels || bitsPerSample > 64) return undefined;
  const linear = formatTag === wavePcm || formatTag === waveFloat || formatTag === waveAlaw || formatTag === waveMulaw;
  if (linear && (bitsPerSample === 0 || blockAlign < channels * Math.ceil(bitsPerSample / 8))) return undefined;
  return { formatTag, channels, sampleRate, bitsPerSample, blockAlign, byteRate, fmtOffset: body, fmtSize: size };
}

/** Seconds of audio in the present sample bytes. */
export function wavSeconds(layout: WavLayout): number | undefined {
  if (isLinearWav(layout)) return Math.floor(layout.dataBytes / layout.blockAlign) / layout.sampleRate;
  // Compressed encodings (ADPCM, GSM...): the fact chunk counts frames; otherwise the byte rate.
  if (layout.factFrames !== undefined && !layout.truncated) return layout.factFrames / layout.sampleRate;
  return layout.byteRate > 0 ? layout.dataBytes / layout.byteRate : undefined;
}
