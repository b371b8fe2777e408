import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/api/types';
import { languages } from '../../core/audio/languages';
import { acceptedAudioExtensions } from '../../core/audio/limits';
import { defaultLanguage, defaultTranscriptionModel } from '../../core/audio/transcriptionDefaults';
import type { ServiceConnection } from '../service/connection';
import { readAudioSettings } from '../settings';

const lastModelKey = 'cadenza.audio.lastModel';
const lastLanguageKey = 'cadenza.audio.lastLanguage';

/** Asks for audio files when a command was run without any (command palette). */
export async function pickAudioFiles(): Promise<vscode.Uri[]> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: vscode.l10n.t('Select audio'),
    filters: { [vscode.l10n.t('Audio')]: [...acceptedAudioExtensions] },
  });
  return picked ?? [];
}

/** The models that transcribe, from the live list (the capability table decides). */
export async function transcriptionModels(connection: ServiceConnection): Promise<readonly ModelInfo[]> {
  const models = await connection.ensureModels();
  return models.filter((model) => model.capabilities.includes('transcription'));
}

/** Picks the transcription model (the last one used first), or takes the one given. */
export async function pickTranscriptionModel(connection: ServiceConnection, memento: vscode.Memento, given?: string): Promise<ModelInfo | undefined> {
  const models = await transcriptionModels(connection);
  if (given)
    return (
      models.find((model) => model.id === given) ??
      connection.model(given) ?? {
        id: given,
        ownedBy: undefined,
        contextLength: undefined,
        maxCompletionTokens: undefined,
        pricing: undefined,
        capabilities: ['transcription'],
        family: undefined,
      }
    );
  if (models.length === 0) {
    void vscode.window
      .showErrorMessage(vscode.l10n.t('The service lists no model that transcribes audio. Check the service address and key.'), vscode.l10n.t('Open Settings'))
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'cadenza.baseUrl');
      });
    return undefined;
  }
  const last = memento.get<string>(lastModelKey);
  const ordered = [...models].sort((a, b) => Number(b.id === last) - Number(a.id === last));
  const picked =
    models.length === 1
      ? models[0]
      : (
          await vscode.window.showQuickPick(
            ordered.map((model) => ({
              label: model.id,
              description: model.id === last ? vscode.l10n.t('(last used)') : '',
              detail:
                model.family === 'speechToText'
                  ? vscode.l10n.t('Speech to text: files up to 25 MB; language = the language spoken')
                  : vscode.l10n.t('Audio instruct: files up to 30 s; language = the language of the result'),
              model,
            })),
            { title: vscode.l10n.t('Cadenza: transcription model') },
          )
        )?.model;
  if (picked) await memento.update(lastModelKey, picked.id);
  return picked;
}

/**
 * Picks the language: for the speech-to-text family it is the language spoken in the audio, for the
 * audio-instruct family the language of the result (docs/service.md#transcription-and-translation). Returns '' for "detect".
 */
export async function pickLanguage(memento: vscode.Memento, model: ModelInfo, mode: 'transcribe' | 'translate'): Promise<string | undefined> {
  const last = memento.get<string>(lastLanguageKey);
  const spoken = model.family !== 'audioInstruct';
  const title = spoken
    ? vscode.l10n.t('Cadenza: Language spoken in the audio')
    : mode === 'translate'
      ? vscode.l10n.t('Cadenza: Language of the translation')
      : vscode.l10n.t('Cadenza: Language of the transcript');
  const items = [
    { label: spoken ? vscode.l10n.t('Detect automatically') : vscode.l10n.t('Same as the audio'), description: '', code: '' },
    ...languages.map((language) => ({ label: language.name, description: language.code, code: language.code })),
  ].sort((a, b) => Number(b.code === last && last !== undefined) - Number(a.code === last && last !== undefined));
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true });
  if (!picked) return undefined;
  await memento.update(lastLanguageKey, picked.code);
  return picked.code;
}

/**
 * The last transcription model and language, for callers that reuse them without asking (the chat panel's
 * "transcribe into the prompt"): the model only while the service still offers it, the language only once
 * one was chosen ('' is "detect"). A part that is missing has to be asked for.
 */
export function lastTranscriptionChoice(
  memento: vscode.Memento,
  models: readonly ModelInfo[],
): { readonly model: ModelInfo | undefined; readonly language: string | undefined } {
  const lastModel = memento.get<string>(lastModelKey);
  return { model: models.find((model) => model.id === lastModel), language: memento.get<string>(lastLanguageKey) };
}

/** Remembers a model and language as the last used (the pickers list them first; the panel reuses them). */
export async function rememberTranscriptionChoice(memento: vscode.Memento, modelId: string, language: string): Promise<void> {
  await memento.update(lastModelKey, modelId);
  await memento.update(lastLanguageKey, language);
}

/** Whether a transcription asks: 'defaults' only when no model can be chosen, 'pickers' always (Transcribe with Options…). */
export type AudioAsk = 'defaults' | 'pickers';

/** The model and language of one transcription run ('' language: the service detects it, or keeps the audio's). */
export interface TranscriptionChoice {
  readonly model: ModelInfo;
  readonly language: string;
}

/**
 * The model and language for a transcribe or translate run, asked once before any file is sent. What the
 * caller gives wins; otherwise, with `ask` 'defaults', `cadenza.audio.transcriptionModel` (else the first
 * speech-to-text model listed) and `cadenza.audio.language` (else detect), with the model picker only when
 * no model can be chosen; with 'pickers', both pickers. Undefined when the user dismissed a picker or no
 * model transcribes.
 */
export async function chooseTranscription(
  connection: ServiceConnection,
  memento: vscode.Memento,
  mode: 'transcribe' | 'translate',
  given: { readonly model?: string; readonly language?: string },
  ask: AudioAsk,
): Promise<TranscriptionChoice | undefined> {
  const settings = readAudioSettings();
  let model: ModelInfo | undefined;
  if (given.model) model = await pickTranscriptionModel(connection, memento, given.model);
  else if (ask === 'defaults') {
    model = defaultTranscriptionModel(await transcriptionModels(connection), settings.transcriptionModel);
    if (!model && settings.transcriptionModel !== '') {
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t(
            'cadenza.audio.transcriptionModel is {0}, which the service does not list as a model that transcribes. Pick one for now, or change the setting.',
            settings.transcriptionModel,
          ),
          vscode.l10n.t('Open Settings'),
        )
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'cadenza.audio.transcriptionModel');
        });
    }
  }
  model ??= await pickTranscriptionModel(connection, memento);
  if (!model) return undefined;
  if (given.language !== undefined) return { model, language: defaultLanguage(given.language) };
  if (ask === 'defaults') return { model, language: defaultLanguage(settings.language) };
  const language = await pickLanguage(memento, model, mode);
  return language === undefined ? undefined : { model, language };
}
