// Audio duration without decoding: each container's own headers (and, where needed, its last page,
// cluster or frame). Works on a whole buffer or on a file's head and tail, so a caller can measure a
// huge file by reading two small slices of it.

import { type AudioParts, ByteSource, wholeFile } from './byteSource';
import { type DurationInfo } from './durationInfo';
import { flacDuration } from './flacDuration';
import { mp3Duration } from './mp3Duration';
import { mp4Duration } from './mp4Duration';
import { oggDuration } from './oggDuration';
import { type AudioFormat } from './sniff';
import { parseWav, wavSeconds } from './wavHeader';
import { webmDuration } from './webmDuration';

export { type DurationInfo } from './durationInfo';

/**
 * How much of a file's head and tail the readers need. The tail must hold an Ogg page, a WebM cluster
 * or an MP4 `moov` header; the head the headers and the first MP3 frames after an ordinary ID3 tag.
 */
export const durationProbeBytes = { head: 256 * 1024, tail: 256 * 1024 } as const;

/** Duration in seconds of a whole in-memory file; `undefined` when it cannot be told. Never throws. */
export function audioDurationSeconds(bytes: Uint8Array, format: AudioFormat): number | undefined {
  return audioDurationDetails(wholeFile(bytes), format)?.seconds;
}

/** Duration in seconds from a file's head, tail and size; `undefined` when it cannot be told. Never throws. */
export function audioDurationFromParts(parts: AudioParts, format: AudioFormat): number | undefined {
  return audioDurationDetails(parts, format)?.seconds;
}

/**
 * Duration with how it was found: `estimated` (from a bitrate, not counted samples) and `truncated`
 * (the file ends before its headers say; `seconds` is then the part that is there). Never throws.
 */
export function audioDurationDetails(parts: AudioParts, format: AudioFormat): DurationInfo | undefined {
  const src = ByteSource.from(parts);
  if (src === undefined) return undefined;
  try {
    const info = measure(src, format);
    // Headers are attacker-controlled numbers: refuse anything that is not a sane duration.
    if (info === undefined || !Number.isFinite(info.seconds) || info.seconds < 0) return undefined;
    return info;
  } catch {
    // The readers are written not to throw; this is a last line so a bug never breaks an upload.
    return undefined;
  }
}

function measure(src: ByteSource, format: AudioFormat): DurationInfo | undefined {
  switch (format) {
    case 'wav': {
      const layout = parseWav(src);
      if (layout === undefined) return undefined;
      const seconds = wavSeconds(layout);
      return seconds === undefined ? undefined : { seconds, estimated: false, truncated: layout.truncated };
    }
    case 'mp3':
      return mp3Duration(src);
    case 'flac':
      return flacDuration(src);
    case 'ogg':
      return oggDuration(src);
    case 'webm':
      return webmDuration(src);
    case 'mp4':
    case 'm4a':
      return mp4Duration(src);
  }
}
