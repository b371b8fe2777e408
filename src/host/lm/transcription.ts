import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/api/types';
import { findLanguage } from '../../core/audio/languages';
import { defaultTranscriptionModel as chooseDefaultModel } from '../../core/audio/transcriptionDefaults';
import { acceptedAudioExtensions } from '../../core/audio/limits';
import { transcriptionModels } from '../audio/audioPickers';
import { transcribeCommand } from '../audio/transcribeCommand';
import type { ServiceConnection } from '../service/connection';
import type { HostContext } from '../context';
import { readAudioSettings, readSettings } from '../settings';

/** A transcript, or why there is none. */
export type TranscriptOutcome =
  | { readonly status: 'done'; readonly text: string; readonly model: string; readonly seconds?: number }
  | { readonly status: 'failed'; readonly error: string }
  | { readonly status: 'canceled' };

/** Whether a file name has an audio extension the service accepts. */
export function isAudioPath(fileName: string): boolean {
  const extension = path.extname(fileName).slice(1).toLowerCase();
  return (acceptedAudioExtensions as readonly string[]).includes(extension);
}

/**
 * The transcription model used without asking (chat and agents cannot answer a quick pick): the one
 * `cadenza.audio.transcriptionModel` names, else (or when the service does not list it) the first
 * speech-to-text model, else any that transcribes: the same rule as `cadenza.transcribeAudio`.
 */
export async function defaultTranscriptionModel(connection: ServiceConnection): Promise<ModelInfo | undefined> {
  const models = await transcriptionModels(connection);
  return chooseDefaultModel(models, readAudioSettings().transcriptionModel) ?? chooseDefaultModel(models, '');
}

/** A path as an agent gives it: absolute, a file URI, or relative to a workspace folder (the first where it exists). */
export async function resolveAudioPath(given: string): Promise<vscode.Uri | undefined> {
  const text = given.trim();
  if (text === '') return undefined;
  const candidates: vscode.Uri[] = [];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) candidates.push(vscode.Uri.parse(text));
  else if (path.isAbsolute(text)) candidates.push(vscode.Uri.file(text));
  else for (const folder of vscode.workspace.workspaceFolders ?? []) candidates.push(vscode.Uri.joinPath(folder.uri, text));
  for (const uri of candidates) {
    try {
      if ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) return uri;
    } catch {
      // not there: try the next folder
    }
  }
  return undefined;
}

/** The language code a user or agent gave ('' = detect); a name such as "French" is accepted too. */
export function languageCode(given: string | undefined): string {
  if (given === undefined || given.trim() === '') return '';
  return findLanguage(given)?.code ?? given.trim().toLowerCase();
}

/** Where an upload goes, for confirmation messages. */
export function transcriptionEndpoint(): string {
  return `${readSettings().baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/audio/transcriptions`;
}

/**
 * Transcribes one file through the `cadenza.transcribeAudio` flow (checks before upload, 30 s WAV
 * splitting, bounded retries) without pickers or an output document: the caller shows the text.
 */
export async function transcribeFile(
  host: HostContext,
  connection: ServiceConnection,
  uri: vscode.Uri,
  language: string,
  signal: AbortSignal,
): Promise<TranscriptOutcome> {
  const model = await defaultTranscriptionModel(connection);
  if (!model)
    return { status: 'failed', error: vscode.l10n.t('The service lists no model that transcribes audio. Check the service address and the API key.') };
  const [result] = await transcribeCommand(host, connection, 'transcribe', uri, { model: model.id, language, output: 'none', split: true, signal });
  if (!result || result.status === 'canceled') return { status: 'canceled' };
  if (result.status === 'failed') return { status: 'failed', error: result.error ?? vscode.l10n.t('The transcription failed.') };
  return { status: 'done', text: result.text ?? '', model: model.id, ...(result.seconds !== undefined ? { seconds: result.seconds } : {}) };
}
