import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../core/api/errors';
import { toAudioDataUrl } from '../../core/audio/dataUrl';
import { acceptedAudioExtensions, checkAudioForFamily } from '../../core/audio/limits';
import { audioProblemText } from './audioProblemText';
import type { AudioFormat } from '../../core/audio/sniff';
import type { AudioAttachment } from '../../shared/protocol';
import type { MessageAudio, PanelSink } from '../chat/turnTypes';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';
import type { HostContext } from '../context';
import type { PanelChannel } from '../panel/panelChannel';
import { chooseTranscription, lastTranscriptionChoice, rememberTranscriptionChoice, transcriptionModels } from './audioPickers';
import { askToSplit, baseName, inspectUri, prepareUpload, transcribeParts } from './audioUpload';

/** An attached file waiting in the host for the `chat/send` that names its token. */
interface HeldAudio {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly format: AudioFormat;
}

/** The audio a user message carries, as the conversation stores it. */
export type { MessageAudio } from '../chat/turnTypes';

/** Choices a caller (a test) gives instead of answering the pickers of "transcribe into the prompt". */
export interface TranscribeIntoPromptOptions {
  readonly model?: string;
  readonly language?: string;
}

// Picked and replaced, or picked and never sent: a few such files may wait; older ones are let go.
const maxHeld = 3;

/** VS Code's open dialog for one audio file (the service's extensions). */
async function pickAudioFile(openLabel: string): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel, filters: { [vscode.l10n.t('Audio')]: [...acceptedAudioExtensions] } });
  return picked?.[0];
}

function messageOf(error: unknown): string {
  return ApiError.is(error) ? errorView(error).message : error instanceof Error ? error.message : String(error);
}

/**
 * Audio in the chat panel. Attach (`audio/pick`): a file is picked, checked against the audio models'
 * limits, and kept here under a random token; the panel shows a chip and sends the token back with
 * `chat/send`, so the audio never travels through the webview. Transcribe into the prompt
 * (`audio/transcribeIntoPrompt`): a file is transcribed with the last transcription model and language (else
 * the transcription defaults) and the text goes into the composer. Each method takes the file the dialog would ask for (tests pass it).
 */
export class PanelAudio {
  private readonly held = new Map<string, HeldAudio>();

  private readonly post: PanelSink;

  constructor(
    private readonly host: HostContext,
    private readonly connection: ServiceConnection,
    channel: PanelChannel,
  ) {
    this.post = (message) => channel.post(message);
  }

  /**
   * `audio/pick`: asks for a file (unless `uri` is given), checks it for the audio-instruct family (sniffed
   * format, measured duration, at most 30 s) before reading it whole, and posts `composer/audio`, or a
   * `notice` saying what is wrong. Resolves with what was posted to attach, if anything.
   */
  async pick(uri?: vscode.Uri): Promise<AudioAttachment | undefined> {
    const file = uri ?? (await pickAudioFile(vscode.l10n.t('Attach audio')));
    if (!file) return undefined;
    const name = baseName(file);
    const facts = await inspectUri(file);
    const problem = checkAudioForFamily(facts, 'audioInstruct');
    if (problem || !facts.format || facts.seconds === undefined) {
      this.post({ type: 'notice', level: 'warning', text: vscode.l10n.t('{0}: {1}', name, audioProblemText(problem ?? { kind: 'notAudio' }, 'attach')) });
      return undefined;
    }
    const bytes = await vscode.workspace.fs.readFile(file);
    const token = randomUUID();
    this.held.set(token, { name, bytes, format: facts.format });
    for (const old of [...this.held.keys()].slice(0, Math.max(0, this.held.size - maxHeld))) this.held.delete(old);
    const audio: AudioAttachment = { token, name, bytes: bytes.byteLength, seconds: facts.seconds };
    this.post({ type: 'composer/audio', audio });
    return audio;
  }

  /**
   * The audio a `chat/send` names by `token`, for a conversation with `modelId`: taken out (a token is good
   * for one message) as the data URL the conversation stores. A sentence saying what to do instead when the
   * token is unknown or the model cannot listen to audio (then the token stays, so the user can switch model).
   */
  async take(token: string, modelId: string | undefined): Promise<MessageAudio | string> {
    const held = this.held.get(token);
    if (!held) return vscode.l10n.t('The attached audio is no longer here (it was sent already, or the window reloaded). Attach it again.');
    if (!modelId) return vscode.l10n.t('Choose a model that reasons about audio before sending audio.');
    const capabilities = this.connection.model(modelId)?.capabilities ?? (await this.connection.client()).capabilitiesOf(modelId);
    if (!capabilities.includes('audioReasoning'))
      return vscode.l10n.t('{0} cannot listen to audio. Pick a model with audio reasoning, or remove the audio.', modelId);
    this.held.delete(token);
    return { name: held.name, dataUrl: toAudioDataUrl(held.bytes, held.format) };
  }

  /**
   * `audio/transcribeIntoPrompt`: asks for a file (unless `uri` is given), transcribes it with the last
   * transcription model and language (else the defaults of `cadenza.audio.*`, then remembering), with the transcribe
   * command's checks before the upload, under a cancellable notification; posts `composer/insertText`,
   * or a `notice` naming the file. Resolves with the transcript (undefined when nothing was inserted).
   */
  async transcribeIntoPrompt(uri?: vscode.Uri, given: TranscribeIntoPromptOptions = {}): Promise<string | undefined> {
    const file = uri ?? (await pickAudioFile(vscode.l10n.t('Transcribe')));
    if (!file) return undefined;
    const memento = this.host.extension.globalState;
    // The last model and language of this panel, else the transcription defaults: nothing is asked unless no model can be chosen.
    const last = lastTranscriptionChoice(memento, await transcriptionModels(this.connection));
    const modelId = given.model ?? last.model?.id;
    const languageGiven = given.language ?? last.language;
    const choice = await chooseTranscription(
      this.connection,
      memento,
      'transcribe',
      { ...(modelId === undefined ? {} : { model: modelId }), ...(languageGiven === undefined ? {} : { language: languageGiven }) },
      'defaults',
    );
    if (!choice) return undefined;
    const { model, language } = choice;
    await rememberTranscriptionChoice(memento, model.id, language);
    const name = baseName(file);
    const controller = new AbortController();
    try {
      const text = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Cadenza: transcribing {0} into the prompt ({1})', name, model.id),
          cancellable: true,
        },
        async (_progress, token) => {
          const subscription = token.onCancellationRequested(() => controller.abort());
          try {
            const { audios } = await prepareUpload(file, model.family ?? 'speechToText', (problem) => askToSplit(file, model.id, problem));
            return await transcribeParts(
              await this.connection.client(),
              'transcribe',
              { model: model.id, fileName: name, language },
              audios,
              controller.signal,
            );
          } finally {
            subscription.dispose();
          }
        },
      );
      if (text === '') {
        this.post({ type: 'notice', level: 'info', text: `${name}: ${model.id} heard no speech to transcribe.` });
        return undefined;
      }
      this.post({ type: 'composer/insertText', text });
      return text;
    } catch (error) {
      if (controller.signal.aborted || ApiError.is(error, 'canceled')) {
        this.host.log.debug(`Transcribing ${name} into the prompt was canceled.`);
        return undefined;
      }
      const message = messageOf(error);
      this.host.log.warn(`Transcribing ${name} into the prompt failed: ${message}`);
      this.post({ type: 'notice', level: 'error', text: `${name}: ${message}` });
      return undefined;
    }
  }
}
