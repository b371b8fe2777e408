// The one-call entry for callers holding a file path or a buffer: sniff, measure, and report the facts
// that `checkAudioForFamily` judges. Reading a file takes only its head and tail, so validating a huge
// recording costs two small reads, not a load.

import { open } from 'node:fs/promises';
import { type AudioParts, wholeFile } from './byteSource';
import { audioDurationDetails, durationProbeBytes } from './duration';
import { type AudioFacts } from './limits';
import { id3v2Size } from './mpegFrame';
import { sniffAudio } from './sniff';

/** Everything learned about a file without decoding it. */
export interface AudioInspection extends AudioFacts {
  /** IANA media type for uploads, when the bytes are audio. */
  readonly mime: string | undefined;
}

/** Sniffs and measures a whole buffer or a file's head and tail. Never throws. */
export function inspectAudio(input: Uint8Array | AudioParts): AudioInspection {
  const parts = input instanceof Uint8Array ? wholeFile(input) : input;
  const sniffed = sniffAudio(parts.head);
  if (sniffed === undefined) return { format: undefined, mime: undefined, bytes: parts.size, estimated: false };
  const duration = audioDurationDetails(parts, sniffed.format);
  return {
    format: sniffed.format,
    mime: sniffed.mime,
    bytes: parts.size,
    seconds: duration?.seconds,
    truncated: duration?.truncated,
    estimated: duration?.estimated ?? false,
  };
}

/** Sizes for {@link readAudioParts}. */
export interface ReadPartsOptions {
  readonly headBytes?: number;
  readonly tailBytes?: number;
  readonly signal?: AbortSignal;
}

// An ID3 tag with cover art can be megabytes; reading past it is worth it, up to a point.
const maxHeadBytes = 16 * 1024 * 1024;

/** Reads a file's head and tail (the whole file when small); the head grows past a large ID3 tag. */
export async function readAudioParts(path: string, options: ReadPartsOptions = {}): Promise<AudioParts> {
  const headWanted = options.headBytes ?? durationProbeBytes.head;
  const tailWanted = options.tailBytes ?? durationProbeBytes.tail;
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    options.signal?.throwIfAborted();
    if (size <= headWanted + tailWanted) {
      const all = await readAt(handle, 0, size);
      return wholeFile(all);
    }
    let head = await readAt(handle, 0, headWanted);
    const tag = id3v2Size(head, 0);
    if (tag + 64 * 1024 > head.length && tag > 0) {
      head = await readAt(handle, 0, Math.min(size, maxHeadBytes, tag + 64 * 1024));
    }
    options.signal?.throwIfAborted();
    const tailLength = Math.min(tailWanted, size - head.length);
    const tail = await readAt(handle, size - tailLength, tailLength);
    return { head, tail, size };
  } finally {
    await handle.close();
  }
}

/** Reads, sniffs and measures a file on disk. */
export async function inspectAudioFile(path: string, options: ReadPartsOptions = {}): Promise<AudioInspection> {
  return inspectAudio(await readAudioParts(path, options));
}

async function readAt(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}
