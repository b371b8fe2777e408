// Tells an audio file's container from its first bytes, never from its name: a recording renamed to
// the wrong extension is still sent with the right type, and a text or image file is refused before
// it costs an upload.

import { asciiOf, hasMagic, u32be } from './byteSource';
import { readId, readVint } from './ebml';
import { findMpegStream, id3v2Size, skipId3v2 } from './mpegFrame';

/** The containers the service accepts, named as in its docs (`mpeg`/`mpga` are MPEG audio: `mp3`). */
export type AudioFormat = 'wav' | 'mp3' | 'flac' | 'ogg' | 'webm' | 'mp4' | 'm4a';

/** Result of {@link sniffAudio}: the container and its IANA media type. */
export interface SniffResult {
  readonly format: AudioFormat;
  readonly mime: string;
}

/** IANA media type of each format, for multipart uploads. */
export const audioMimeTypes: Readonly<Record<AudioFormat, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
  mp4: 'audio/mp4',
  m4a: 'audio/mp4',
};

/** Identifies the audio container from the leading bytes alone; `undefined` for anything else. */
export function sniffAudio(bytes: Uint8Array): SniffResult | undefined {
  const format = sniffFormat(bytes);
  return format === undefined ? undefined : { format, mime: audioMimeTypes[format] };
}

function sniffFormat(b: Uint8Array): AudioFormat | undefined {
  if (b.length < 4) return undefined;
  if ((hasMagic(b, 0, 'RIFF') || hasMagic(b, 0, 'RF64')) && hasMagic(b, 8, 'WAVE')) return 'wav';
  if (hasMagic(b, 0, 'fLaC')) return isFlacStreamInfo(b, 4) ? 'flac' : undefined;
  if (hasMagic(b, 0, 'OggS')) return isOggAudio(b) ? 'ogg' : undefined;
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return ebmlDocType(b);
  if (hasMagic(b, 4, 'ftyp')) return isoBrand(b);
  if (id3v2Size(b, 0) > 0) return afterId3(b);
  // Raw MPEG audio must start with a frame; a stray sync word deeper in is not evidence.
  return findMpegStream(b, 0, 0) !== undefined ? 'mp3' : undefined;
}

function afterId3(b: Uint8Array): AudioFormat | undefined {
  const end = skipId3v2(b);
  // A tag larger than what we were given (cover art) is still overwhelmingly an MP3.
  if (end + 4 > b.length) return 'mp3';
  if (hasMagic(b, end, 'fLaC')) return 'flac';
  // Encoders pad after the tag; allow a little slack before the first frame.
  return findMpegStream(b, end, 4096) !== undefined ? 'mp3' : undefined;
}

function isFlacStreamInfo(b: Uint8Array, o: number): boolean {
  // The first metadata block must be STREAMINFO (type 0) of 34 bytes.
  if (b.length < o + 4) return true;
  return ((b[o] ?? 0) & 0x7f) === 0 && b[o + 1] === 0 && b[o + 2] === 0 && b[o + 3] === 34;
}

/** The codec named by an Ogg stream's first packet, if it is one we know as audio. */
export function oggAudioCodec(packet: Uint8Array, o: number): 'vorbis' | 'opus' | 'flac' | 'speex' | undefined {
  if (hasMagic(packet, o, '\x01vorbis')) return 'vorbis';
  if (hasMagic(packet, o, 'OpusHead')) return 'opus';
  if (hasMagic(packet, o, '\x7fFLAC')) return 'flac';
  if (hasMagic(packet, o, 'Speex   ')) return 'speex';
  return undefined;
}

function isOggAudio(b: Uint8Array): boolean {
  // A multiplexed file starts with the first page (BOS) of every stream; look at each for audio.
  let o = 0;
  for (let page = 0; page < 16 && hasMagic(b, o, 'OggS'); page++) {
    if (b[o + 4] !== 0 || o + 27 > b.length) return false;
    const headerType = b[o + 5] ?? 0;
    if ((headerType & 0x02) === 0) return false;
    const segments = b[o + 26] ?? 0;
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += b[o + 27 + i] ?? 0;
    const body = o + 27 + segments;
    if (body > b.length) return false;
    if (oggAudioCodec(b, body) !== undefined) return true;
    o = body + bodyLength;
  }
  return false;
}

function ebmlDocType(b: Uint8Array): AudioFormat | undefined {
  // EBML header: its payload holds DocType (0x4282) as a string; read vint sizes carefully.
  const headerSize = readVint(b, 4);
  if (headerSize === undefined) return undefined;
  const end = Math.min(b.length, 4 + headerSize.length + headerSize.value);
  let o = 4 + headerSize.length;
  while (o + 3 <= end) {
    const id = readId(b, o);
    if (id === undefined) return undefined;
    const size = readVint(b, o + id.length);
    if (size === undefined) return undefined;
    const data = o + id.length + size.length;
    if (id.value === 0x4282) {
      const docType = asciiOf(b, data, Math.min(size.value, 16)).replace(/\0+$/, '');
      // Matroska audio (.mka) is the same container as WebM, and decoders treat them alike.
      return docType === 'webm' || docType === 'matroska' ? 'webm' : undefined;
    }
    o = data + size.value;
  }
  return undefined;
}

function isoBrand(b: Uint8Array): AudioFormat | undefined {
  const boxSize = u32be(b, 0);
  if (boxSize < 16 || boxSize > 4096 || b.length < 12) return undefined;
  const brands = [asciiOf(b, 8, 4)];
  for (let o = 16; o + 4 <= Math.min(boxSize, b.length); o += 4) brands.push(asciiOf(b, o, 4));
  // Apple's audio brand anywhere in the list marks an .m4a, even behind a generic major brand.
  if (brands.some((brand) => audioOnlyBrands.has(brand))) return 'm4a';
  return brands.some((brand) => mp4Brands.has(brand)) ? 'mp4' : undefined;
}

// Apple's audio brands mean an .m4a; the ISO and 3GPP brands mean the general MP4 family. QuickTime
// ('qt  '), HEIF images ('heic', 'mif1') and others are not accepted by the service.
const audioOnlyBrands = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ']);
const mp4Brands = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'dash',
  'MSNV',
  'NDAS',
  '3gp4',
  '3gp5',
  '3gp6',
  '3gp7',
  '3gp9',
  '3g2a',
  'f4v ',
  'cmfc',
  'cmf2',
]);
