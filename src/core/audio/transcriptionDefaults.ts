// What Transcribe and Translate use when nobody is asked: the configured model and language
// (`cadenza.audio.transcriptionModel`, `cadenza.audio.language`), or the defaults the service's
// model list allows. The host asks with pickers only when this chooses nothing.
import { type ModelInfo } from '../api/types';
import { findLanguage } from './languages';

/**
 * The transcription model to use without asking: the configured id when the service lists it as a model
 * that transcribes; with nothing configured, the first listed speech-to-text model, else the first listed
 * model that transcribes. Undefined when none can be chosen (a configured model the service does not list
 * is not silently replaced).
 */
export function defaultTranscriptionModel(models: readonly ModelInfo[], configured: string): ModelInfo | undefined {
  const transcribing = models.filter((model) => model.capabilities.includes('transcription'));
  const id = configured.trim();
  if (id !== '') return transcribing.find((model) => model.id === id);
  return transcribing.find((model) => model.family === 'speechToText') ?? transcribing[0];
}

/** The configured language as an ISO-639-1 code ('' lets the service detect it); a name from the table is accepted, anything else kept as written (lowercase). */
export function defaultLanguage(configured: string): string {
  const text = configured.trim();
  if (text === '') return '';
  return findLanguage(text)?.code ?? text.toLowerCase();
}
