// What is wrong with an audio file, in the display language: the host's reading of core's typed
// AudioProblem (core/audio/limits.ts says the same in English for the service client's own validation).
import * as vscode from 'vscode';
import { acceptedAudioExtensions, type AudioProblem, type AudioUse } from '../../core/audio/limits';
import { formatFixed, numberLocale } from '../../shared/numbers';

/** A number with one decimal in the display language: `25.4` (en), `25,4` (de). */
const oneDecimal = (value: number): string => formatFixed(value, 1, numberLocale(vscode.env.language));

const megabytes = (bytes: number): string => vscode.l10n.t('{0} MB', oneDecimal(bytes / 1_000_000));

const duration = (value: number): string =>
  value >= 90 ? vscode.l10n.t('{0} min {1} s', Math.floor(value / 60), Math.round(value % 60)) : vscode.l10n.t('{0} s', oneDecimal(value));

/** A sentence for the user: what is wrong and what they can do about it (for that `use` of the audio). */
export function audioProblemText(problem: AudioProblem, use: AudioUse = 'transcribe'): string {
  switch (problem.kind) {
    case 'notAudio':
      return vscode.l10n.t('This file is not audio the service accepts. Use {0}.', acceptedAudioExtensions.join(', '));
    case 'empty':
      return vscode.l10n.t('This audio file holds no sound. Record or pick another file.');
    case 'truncated':
      return vscode.l10n.t(
        'This {0} file ends before its header says it should, so it is probably cut short or damaged. Re-export or re-record it.',
        problem.format.toUpperCase(),
      );
    case 'tooLarge':
      return vscode.l10n.t(
        'This file is {0}; the transcription model takes at most {1}. Compress it to MP3 or Ogg (for example `ffmpeg -i in.wav -ac 1 -b:a 64k out.mp3`) or cut it into parts.',
        megabytes(problem.bytes),
        megabytes(problem.limit),
      );
    case 'tooLong':
      if (use === 'attach')
        return vscode.l10n.t(
          'This recording is {0} long; audio models take at most {1} s per message. Attach a part of at most {1} s (for example `ffmpeg -i in.{2} -t {1} part.{2}`), or transcribe the recording into the prompt instead.',
          duration(problem.seconds),
          problem.limit,
          problem.format,
        );
      return problem.format === 'wav'
        ? vscode.l10n.t(
            'This recording is {0} long; this model takes at most {1} s per file. Cadenza can split it into parts of up to {1} s and send each.',
            duration(problem.seconds),
            problem.limit,
          )
        : vscode.l10n.t(
            'This recording is {0} long; this model takes at most {1} s per file. Convert it to WAV so Cadenza can split it into {1} s parts, or cut it with a tool (for example `ffmpeg -i in -f segment -segment_time {2} -c copy part%03d.{3}`).',
            duration(problem.seconds),
            problem.limit,
            problem.limit - 1,
            problem.format,
          );
    case 'implausible':
      return vscode.l10n.t(
        'This {0} file is {1}, far more than the {2} of audio its header claims can take, so the header is damaged or crafted. Re-export the audio and try again.',
        problem.format.toUpperCase(),
        megabytes(problem.bytes),
        duration(problem.seconds),
      );
    case 'unknownDuration':
      return vscode.l10n.t(
        'Cadenza could not tell how long this {0} file is, and this model takes at most {1} s. Convert it to WAV (for example `ffmpeg -i in -ac 1 -ar 16000 out.wav`) and try again.',
        problem.format.toUpperCase(),
        problem.limit,
      );
  }
}
