// Audio for the reasoning endpoint travels inline as a data URL (docs/service.md#audio-reasoning).
// The service's own examples name the container after
// `audio/` (`data:audio/mp3;base64,...`), so the format name is used rather than the IANA type.

import { type AudioFormat } from './sniff';

/** `data:audio/<format>;base64,<data>` for an `audio_content` part. */
export function toAudioDataUrl(bytes: Uint8Array, format: AudioFormat): string {
  return `${audioDataUrlPrefix(format)}${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

/** The `data:audio/<format>;base64,` prefix alone, for callers that stream the base64 body. */
export function audioDataUrlPrefix(format: AudioFormat): string {
  return `data:audio/${format};base64,`;
}

/** Length in characters of {@link toAudioDataUrl}'s result, to size a request before building it. */
export function audioDataUrlLength(byteLength: number, format: AudioFormat): number {
  return audioDataUrlPrefix(format).length + 4 * Math.ceil(byteLength / 3);
}
