// The service's audio rules (docs/service.md#audio-files-and-limits), checked on
// the client so a user hears what to fix before an upload is spent on a refusal.

import { type AudioFormat } from './sniff';

/** Model families with different audio limits. */
export type AudioFamily = 'speechToText' | 'audioInstruct';

/** File extensions the service lists for audio uploads. */
export const acceptedAudioExtensions = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm'] as const;

/**
 * Upload limit of the speech-to-text family. The docs say "25 MB" without saying whether that is
 * 10^6 or 2^20 bytes; the smaller reading (25,000,000) never lets through a file the server refuses.
 */
export const speechToTextMaxBytes = 25_000_000;

/** The most audio, in seconds, that an audio-instruct model takes per file. */
export const audioInstructMaxSeconds = 30;

/** What the checker knows about a file (see `inspectAudio` in audioFile.ts to build one). */
export interface AudioFacts {
  /** The sniffed container, or `undefined` when the bytes are not audio the service takes. */
  readonly format: AudioFormat | undefined;
  /** File size in bytes. */
  readonly bytes: number;
  /** Measured duration, when it could be measured. */
  readonly seconds?: number | undefined;
  /** The file ends before its headers say it should. */
  readonly truncated?: boolean | undefined;
  /** `seconds` is an estimate from an average bitrate (VBR MP3 without a header, read by head and tail). */
  readonly estimated?: boolean | undefined;
}

/**
 * The most bytes one second of audio takes in any accepted format: uncompressed 192 kHz, 8 channels,
 * 32-bit. A file much larger than its measured duration allows is lying in its header.
 */
export const maxAudioBytesPerSecond = 192_000 * 8 * 4;
/** Room for what is not audio: tags, cover art, chunk headers. */
const nonAudioAllowance = 16 * 1024 * 1024;

// An estimate can be off by several percent; one this close under the limit proves nothing.
const estimateMargin = 0.9;

/** Why a file cannot be sent as it is, with the numbers that were measured. */
export type AudioProblem =
  | { readonly kind: 'notAudio' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'truncated'; readonly format: AudioFormat }
  | { readonly kind: 'tooLarge'; readonly bytes: number; readonly limit: number; readonly format: AudioFormat }
  | { readonly kind: 'tooLong'; readonly seconds: number; readonly limit: number; readonly format: AudioFormat }
  | { readonly kind: 'unknownDuration'; readonly format: AudioFormat; readonly limit: number }
  /** The file is far larger than the duration its header claims allows: damaged or crafted. */
  | { readonly kind: 'implausible'; readonly bytes: number; readonly seconds: number; readonly format: AudioFormat };

/** Checks a file against one family's rules; `undefined` when it may be sent. */
export function checkAudioForFamily(facts: AudioFacts, family: AudioFamily): AudioProblem | undefined {
  const { format } = facts;
  if (format === undefined) return { kind: 'notAudio' };
  // A header with no samples behind it is a damaged file, not a silent one.
  if (facts.truncated === true && facts.seconds === 0) return { kind: 'truncated', format };
  if (facts.bytes === 0 || facts.seconds === 0) return { kind: 'empty' };
  if (family === 'speechToText' && facts.bytes > speechToTextMaxBytes) {
    return { kind: 'tooLarge', bytes: facts.bytes, limit: speechToTextMaxBytes, format };
  }
  if (family === 'audioInstruct') {
    // Judged on the duration, the file is read whole (or cut) next: a header claiming 0.75 s for 3 GB
    // must not get it read.
    if (facts.seconds !== undefined && facts.bytes > facts.seconds * maxAudioBytesPerSecond + nonAudioAllowance) {
      return { kind: 'implausible', bytes: facts.bytes, seconds: facts.seconds, format };
    }
    const unsure = facts.estimated === true && facts.seconds !== undefined && facts.seconds > audioInstructMaxSeconds * estimateMargin;
    if (facts.seconds === undefined || (unsure && facts.seconds <= audioInstructMaxSeconds)) {
      return { kind: 'unknownDuration', format, limit: audioInstructMaxSeconds };
    }
    // Any amount over counts: the server measures the same samples and does not round in our favour.
    if (facts.seconds > audioInstructMaxSeconds) {
      return { kind: 'tooLong', seconds: facts.seconds, limit: audioInstructMaxSeconds, format };
    }
  }
  // Checked last so the hard limits, which no re-export fixes by itself, are reported first.
  if (facts.truncated === true) return { kind: 'truncated', format };
  return undefined;
}

/**
 * What the audio is for: `transcribe` (Cadenza can cut over-long WAV into parts and join the transcripts)
 * or `attach` (one file goes with a chat message whole, so nothing is cut).
 */
export type AudioUse = 'transcribe' | 'attach';

/** A sentence for the user: what is wrong and what they can do about it (for that `use` of the audio). */
export function describeAudioProblem(problem: AudioProblem, use: AudioUse = 'transcribe'): string {
  switch (problem.kind) {
    case 'notAudio':
      return `This file is not audio the service accepts. Use ${acceptedAudioExtensions.join(', ')}.`;
    case 'empty':
      return 'This audio file holds no sound. Record or pick another file.';
    case 'truncated':
      return `This ${problem.format.toUpperCase()} file ends before its header says it should, so it is probably cut short or damaged. Re-export or re-record it.`;
    case 'tooLarge':
      return (
        `This file is ${megabytes(problem.bytes)}; the transcription model takes at most ${megabytes(problem.limit)}. ` +
        'Compress it to MP3 or Ogg (for example `ffmpeg -i in.wav -ac 1 -b:a 64k out.mp3`) or cut it into parts.'
      );
    case 'tooLong':
      if (use === 'attach') {
        return (
          `This recording is ${seconds(problem.seconds)} long; audio models take at most ${problem.limit} s per message. ` +
          `Attach a part of at most ${problem.limit} s (for example \`ffmpeg -i in.${problem.format} -t ${problem.limit} part.${problem.format}\`), or transcribe the recording into the prompt instead.`
        );
      }
      return (
        `This recording is ${seconds(problem.seconds)} long; this model takes at most ${problem.limit} s per file. ` +
        (problem.format === 'wav'
          ? `Cadenza can split it into parts of up to ${problem.limit} s and send each.`
          : `Convert it to WAV so Cadenza can split it into ${problem.limit} s parts, or cut it with a tool (for example \`ffmpeg -i in -f segment -segment_time ${problem.limit - 1} -c copy part%03d.${problem.format}\`).`)
      );
    case 'implausible':
      return `This ${problem.format.toUpperCase()} file is ${megabytes(problem.bytes)}, far more than the ${seconds(problem.seconds)} of audio its header claims can take, so the header is damaged or crafted. Re-export the audio and try again.`;
    case 'unknownDuration':
      return (
        `Cadenza could not tell how long this ${problem.format.toUpperCase()} file is, and this model takes at most ${problem.limit} s. ` +
        'Convert it to WAV (for example `ffmpeg -i in -ac 1 -ar 16000 out.wav`) and try again.'
      );
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function seconds(value: number): string {
  return value >= 90 ? `${Math.floor(value / 60)} min ${Math.round(value % 60)} s` : `${value.toFixed(1)} s`;
}
