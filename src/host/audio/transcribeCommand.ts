import * as vscode from 'vscode';
import { ApiError } from '../../core/api/errors';
import { transcriptCostOf } from '../../core/api/usage';
import { runBatch, type BatchResult } from '../../core/audio/batch';
import type { AudioFamily, AudioProblem } from '../../core/audio/limits';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';
import type { HostContext } from '../context';
import { readAudioSettings } from '../settings';
import { chooseTranscription, pickAudioFiles, type AudioAsk } from './audioPickers';
import { askToSplit, baseName, prepareUpload, transcribeParts } from './audioUpload';
import { formatCost } from '../../shared/cost';
import { clipboardSink, cursorSink, documentSink, type TranscriptDestination, type TranscriptSink } from './transcriptOutput';

/** Options a caller (another extension, a test) can pass instead of answering the pickers. */
export interface AudioCommandOptions {
  readonly model?: string;
  readonly language?: string;
  readonly prompt?: string;
  readonly output?: TranscriptDestination | 'none';
  /** Split over-long WAV audio into ≤30 s parts without asking. */
  readonly split?: boolean;
  /** Cancels the batch, for callers in the same extension host (arguments are passed by reference there). */
  readonly signal?: AbortSignal;
}

/** What the command returns for each file. */
export interface AudioFileResult {
  readonly file: string;
  readonly status: 'done' | 'failed' | 'canceled';
  readonly text?: string;
  readonly error?: string;
  readonly seconds?: number;
  /** USD at the model's price per audio hour, from the measured duration; absent when either is unknown. */
  readonly cost?: number;
}

/** What one file's transcription gives besides its status. */
interface FileOutcome {
  readonly text: string;
  readonly seconds: number | undefined;
  readonly cost: number | undefined;
}

function readOptions(value: unknown): AudioCommandOptions {
  if (typeof value !== 'object' || value === null || value instanceof vscode.Uri || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  const text = (key: string): string | undefined => (typeof record[key] === 'string' ? record[key] : undefined);
  const output = text('output');
  return {
    ...(text('model') !== undefined ? { model: text('model') as string } : {}),
    ...(text('language') !== undefined ? { language: text('language') as string } : {}),
    ...(text('prompt') !== undefined ? { prompt: text('prompt') as string } : {}),
    ...(output === 'document' || output === 'cursor' || output === 'clipboard' || output === 'none' ? { output } : {}),
    ...(typeof record['split'] === 'boolean' ? { split: record['split'] } : {}),
    ...(record['signal'] instanceof AbortSignal ? { signal: record['signal'] } : {}),
  };
}

/** Explorer passes (clicked, selected[]); the palette passes nothing; callers pass a Uri or Uri[]. */
export function urisFrom(first: unknown, second: unknown): vscode.Uri[] {
  if (Array.isArray(second) && second.every((entry) => entry instanceof vscode.Uri) && second.length > 0) return second;
  if (Array.isArray(first) && first.every((entry) => entry instanceof vscode.Uri)) return first;
  if (first instanceof vscode.Uri) return [first];
  return [];
}

/**
 * `cadenza.transcribeAudio` / `cadenza.translateAudio` (`ask` 'defaults': the configured or default model
 * and language, pickers only when no model can be chosen) and `cadenza.transcribeAudioWithOptions` (`ask`
 * 'pickers'). Checks every file before anything is uploaded, runs the files with bounded concurrency under
 * one cancellable progress notification, writes each result where `cadenza.audio.output` says, and returns
 * the per-file results (transcripts done before a cancel are kept). A batch asks at most once: the pickers
 * before it starts, the split question for over-long WAV once for all files. Arguments: (Uri | Uri[],
 * options?) or the explorer's (clicked, selected[]).
 */
export async function transcribeCommand(
  host: HostContext,
  connection: ServiceConnection,
  mode: 'transcribe' | 'translate',
  first?: unknown,
  second?: unknown,
  ask: AudioAsk = 'defaults',
): Promise<AudioFileResult[]> {
  const options = readOptions(Array.isArray(second) ? undefined : (second ?? (first instanceof vscode.Uri || Array.isArray(first) ? undefined : first)));
  let uris = urisFrom(first, second);
  if (uris.length === 0) uris = await pickAudioFiles();
  if (uris.length === 0) return [];
  const choice = await chooseTranscription(connection, host.extension.globalState, mode, options, ask);
  if (!choice) return [];
  const { model, language } = choice;
  const family: AudioFamily = model.family ?? 'speechToText';
  const settings = readAudioSettings();
  const destination = options.output ?? settings.output;
  const client = await connection.client();
  // One answer for the whole batch, even when several files reach the question at once.
  let splitDecision: Promise<boolean> | undefined = options.split === undefined ? undefined : Promise.resolve(options.split);
  const approveSplit = (uri: vscode.Uri, problem: Extract<AudioProblem, { kind: 'tooLong' }>): Promise<boolean> =>
    (splitDecision ??= askToSplit(uri, model.id, problem, uris.length));

  const one = async (uri: vscode.Uri, signal: AbortSignal): Promise<FileOutcome> => {
    const { audios, seconds } = await prepareUpload(uri, family, (problem) => approveSplit(uri, problem));
    const cost = transcriptCostOf(seconds, model);
    let sink: TranscriptSink | undefined;
    if (destination === 'document')
      sink = await documentSink({ fileName: vscode.workspace.asRelativePath(uri), model: model.id, language, seconds, mode, cost });
    try {
      const text = await transcribeParts(
        client,
        mode,
        { model: model.id, fileName: baseName(uri), language, prompt: options.prompt },
        audios,
        signal,
        sink ? (part) => sink.append(part) : undefined,
      );
      await sink?.finish(text);
      host.log.info(
        `${mode === 'translate' ? 'Translated' : 'Transcribed'} ${vscode.workspace.asRelativePath(uri)} with ${model.id}${seconds === undefined ? '' : ` (${seconds.toFixed(1)} s)`}${cost === undefined ? '' : `: ${formatCost(cost)}`}.`,
      );
      return { text, seconds, cost };
    } catch (error) {
      await sink?.fail(error instanceof Error ? error.message : String(error));
      throw error;
    }
  };

  const results = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: progressTitle(mode, uris.length),
      cancellable: true,
    },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      const external = options.signal;
      if (external?.aborted) controller.abort();
      external?.addEventListener('abort', () => controller.abort(), { once: true });
      let settled = 0;
      try {
        return await runBatch(uris, (uri, signal) => one(uri, signal), {
          concurrency: settings.concurrency,
          signal: controller.signal,
          onSettled: (index) => {
            settled += 1;
            progress.report({ increment: 100 / uris.length, message: `${settled}/${uris.length}: ${baseName(uris[index] as vscode.Uri)}` });
          },
        });
      } finally {
        subscription.dispose();
      }
    },
  );
  return finish(host, uris, results, destination, mode);
}

/** The progress notification's title: what is done to how many files (one message per plural form). */
function progressTitle(mode: 'transcribe' | 'translate', files: number): string {
  if (mode === 'translate') return files === 1 ? vscode.l10n.t('Cadenza: translating 1 file') : vscode.l10n.t('Cadenza: translating {0} files', files);
  return files === 1 ? vscode.l10n.t('Cadenza: transcribing 1 file') : vscode.l10n.t('Cadenza: transcribing {0} files', files);
}

async function finish(
  host: HostContext,
  uris: readonly vscode.Uri[],
  results: readonly BatchResult<FileOutcome>[],
  destination: TranscriptDestination | 'none',
  mode: 'transcribe' | 'translate',
): Promise<AudioFileResult[]> {
  const out: AudioFileResult[] = results.map((result, index) => {
    const file = (uris[index] as vscode.Uri).fsPath || (uris[index] as vscode.Uri).toString();
    if (result.status === 'done') {
      const { text, seconds, cost } = result.value;
      return { file, status: 'done', text, ...(seconds !== undefined ? { seconds } : {}), ...(cost !== undefined ? { cost } : {}) };
    }
    if (result.status === 'canceled') return { file, status: 'canceled' };
    const message = ApiError.is(result.error) ? errorView(result.error).message : result.error instanceof Error ? result.error.message : String(result.error);
    host.log.warn(`${mode} failed for ${file}: ${message}`);
    return { file, status: 'failed', error: message };
  });
  const done = out.filter((result) => result.status === 'done');
  if (destination === 'cursor' || destination === 'clipboard') {
    const joined = done.length === 1 ? (done[0]?.text ?? '') : done.map((result) => `${result.file}:\n${result.text ?? ''}`).join('\n\n');
    if (done.length > 0) await (destination === 'cursor' ? cursorSink() : clipboardSink()).finish(joined);
  }
  const failed = out.filter((result) => result.status === 'failed');
  const canceled = out.filter((result) => result.status === 'canceled');
  if (failed.length > 0 || canceled.length > 0 || out.length > 1) {
    const summary = [vscode.l10n.t('{0} of {1} done', done.length, out.length)];
    const costs = done.flatMap((result) => (result.cost === undefined ? [] : [result.cost]));
    if (costs.length > 0) summary.push(formatCost(costs.reduce((sum, cost) => sum + cost, 0)));
    if (canceled.length > 0) summary.push(vscode.l10n.t('{0} canceled', canceled.length));
    for (const result of failed) summary.push(vscode.l10n.t('{0}: {1}', result.file.split('/').pop() ?? result.file, result.error ?? vscode.l10n.t('failed')));
    const show = failed.length > 0 ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    const text =
      mode === 'translate' ? vscode.l10n.t('Cadenza translate: {0}', summary.join(' · ')) : vscode.l10n.t('Cadenza transcribe: {0}', summary.join(' · '));
    void show(text, vscode.l10n.t('Show Log')).then((choice) => choice && host.log.show(true));
  }
  return out;
}
