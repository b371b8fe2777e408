import * as vscode from 'vscode';
import type { InferenceClient } from '../../core/api/client';
import { inspectAudio, inspectAudioFile, type AudioInspection } from '../../core/audio/audioFile';
import { checkAudioForFamily, type AudioFamily, type AudioProblem } from '../../core/audio/limits';
import { formatFixed, numberLocale } from '../../shared/numbers';
import { audioProblemText } from './audioProblemText';
import { splitWav } from '../../core/audio/wavSplit';

/** The file name of a URI (its last path segment), as messages and uploads name it. */
export function baseName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.toString();
}

/** Sniffs and measures a file: a local one from its head and tail, so a 500 MB recording is refused without reading it. */
export async function inspectUri(uri: vscode.Uri): Promise<AudioInspection> {
  if (uri.scheme === 'file') return inspectAudioFile(uri.fsPath);
  return inspectAudio(await vscode.workspace.fs.readFile(uri));
}

/**
 * Asks (modal) whether an over-long WAV file may be cut into parts the model takes; true when the user
 * agrees. In a batch of `files` the answer holds for all of them, and the question says so.
 */
export async function askToSplit(uri: vscode.Uri, modelId: string, problem: Extract<AudioProblem, { kind: 'tooLong' }>, files = 1): Promise<boolean> {
  const split = vscode.l10n.t('Cadenza can cut it into parts of at most {0} s and join their transcripts.', problem.limit);
  const all = files > 1 ? vscode.l10n.t('The answer holds for every over-long WAV file of these {0}.', files) : undefined;
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      '{0} is {1} s long; {2} takes at most {3} s per file.',
      baseName(uri),
      formatFixed(problem.seconds, 1, numberLocale(vscode.env.language)),
      modelId,
      problem.limit,
    ),
    { modal: true, detail: all === undefined ? split : `${split} ${all}` },
    vscode.l10n.t('Split into {0} s parts', problem.limit),
  );
  return choice !== undefined;
}

/** The audio to upload for one file, checked: the whole file, or WAV parts within the family's limit. */
export interface PreparedUpload {
  readonly audios: readonly Uint8Array[];
  readonly seconds: number | undefined;
}

/**
 * The checks before a transcription upload: the file is sniffed and measured and judged by the model
 * family's limits before anything is sent. Over-long WAV for the audio-instruct family is cut at quiet
 * points when `approveSplit` agrees. Throws an `Error` whose message says what to do.
 */
export async function prepareUpload(
  uri: vscode.Uri,
  family: AudioFamily,
  approveSplit: (problem: Extract<AudioProblem, { kind: 'tooLong' }>) => Promise<boolean>,
): Promise<PreparedUpload> {
  const facts = await inspectUri(uri);
  const problem = checkAudioForFamily(facts, family);
  if (problem?.kind === 'tooLong' && problem.format === 'wav') {
    if (!(await approveSplit(problem))) throw new Error(audioProblemText(problem));
    return { audios: splitWav(await vscode.workspace.fs.readFile(uri)), seconds: facts.seconds };
  }
  if (problem) throw new Error(audioProblemText(problem));
  return { audios: [await vscode.workspace.fs.readFile(uri)], seconds: facts.seconds };
}

/** What every part's upload says besides its audio. */
export interface TranscriptionTarget {
  readonly model: string;
  readonly fileName: string;
  /** '' lets the model detect (speech-to-text) or keep (audio-instruct) the language. */
  readonly language: string;
  readonly prompt?: string | undefined;
}

/**
 * Transcribes (or translates) the parts in order, streaming, and returns their texts joined by a space;
 * `onText` sees the text as it arrives (with the joining space between parts).
 */
export async function transcribeParts(
  client: InferenceClient,
  mode: 'transcribe' | 'translate',
  target: TranscriptionTarget,
  audios: readonly Uint8Array[],
  signal: AbortSignal,
  onText?: (text: string) => void,
): Promise<string> {
  const texts: string[] = [];
  for (const [index, audio] of audios.entries()) {
    const request = {
      model: target.model,
      audio,
      fileName: target.fileName,
      ...(target.language ? { language: target.language } : {}),
      ...(target.prompt ? { prompt: target.prompt } : {}),
    };
    const stream = mode === 'translate' ? client.streamTranslation(request, { signal }) : client.streamTranscription(request, { signal });
    if (index > 0) onText?.(' ');
    for await (const event of stream) if (event.type === 'text') onText?.(event.text);
    texts.push((await stream.result).text.trim());
  }
  return texts.join(' ');
}
