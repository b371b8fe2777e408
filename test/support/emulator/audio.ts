// POST /v1/audio/transcriptions and /v1/audio/translations: multipart uploads, format sniffed from
// the bytes, the 25 MB (speech-to-text, the client's constant) and 30 s (audio-instruct) limits,
// ISO-639-1 languages for speech-to-text, json/text/stream answers.
import { speechToTextMaxBytes } from '../../../src/core/audio/limits';
import { audioDurationSeconds, sniffAudioFormat } from './audioFormat';
import { audioTooLong, MAX_AUDIO_SECONDS } from './chatRequest';
import { completionStream, newEnvelope, type Answer } from './completion';
import { type HandlerContext, type Reply } from './context';
import { invalidRequest, modelNotCompatible, modelNotFound, simpleError } from './errors';
import { findModel } from './models';
import { type MultipartForm } from './multipart';
import { splitPieces } from './replies';
import { countTokens, MEDIA_TOKENS, truncateTokens } from './tokens';
import { invalidType, missing, optionalDecimal, optionalInteger } from './validate';

/** The speech-to-text upload limit: the client's own constant, so the two can never disagree. */
export const MAX_AUDIO_BYTES = speechToTextMaxBytes;

/** Handles transcription and translation uploads. */
export function handleAudioFile(ctx: HandlerContext, operation: 'transcription' | 'translation'): Reply {
  const form = ctx.form;
  if (form === undefined) throw invalidRequest('Expected a multipart/form-data body with the fields model and file.', null, null);
  const modelId = form.fields['model'];
  // The real audio endpoints answer a missing model with a string error envelope (docs/service.md#error-bodies).
  if (modelId === undefined || modelId === '') throw simpleError(400, 'Model name is required');
  const model = findModel(ctx.models, modelId);
  if (model === undefined) throw modelNotFound(modelId);
  if (model.kind !== 'speechToText' && model.kind !== 'audioInstruct') throw modelNotCompatible(model.id, `audio ${operation}`);

  const file = form.files['file'];
  if (file === undefined) missing('file');
  if (model.kind === 'speechToText' && file.data.length > MAX_AUDIO_BYTES) {
    // The real status for >25 MB is not documented (400 and 413 are both plausible, docs/service.md#not-known);
    // chat and audio endpoints declare no 413, so this answers 400 with code file_too_large.
    throw invalidRequest(`File is too large: ${file.data.length} bytes. The maximum file size is 25 MB.`, 'file', 'file_too_large');
  }
  const format = sniffAudioFormat(file.data);
  if (format === undefined) {
    throw invalidRequest('Invalid file format. Supported formats: flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm.', 'file', 'invalid_file_format');
  }
  const seconds = audioDurationSeconds(file.data, format);
  if (model.kind === 'audioInstruct' && seconds !== undefined && seconds > MAX_AUDIO_SECONDS) throw audioTooLong(seconds, 'file');

  const fields = numericFields(form);
  optionalDecimal(fields, 'temperature', 0, 1);
  const maxTokens = optionalInteger(fields, 'max_tokens', 1, model.maxCompletionTokens);
  const responseFormat = form.fields['response_format'] ?? 'json';
  if (responseFormat !== 'json' && responseFormat !== 'text') {
    throw invalidRequest(`Invalid value: '${responseFormat}'. Supported values are: 'json' and 'text'.`, 'response_format', 'invalid_value');
  }
  const stream = formBoolean(form, 'stream') ?? false;
  const includeUsage = stream && includeUsageOf(form);
  const language = form.fields['language'];
  // Whisper takes ISO-639-1 codes only (its Python client restricts it to a list of codes, docs/service.md#transcription-and-translation).
  if (model.kind === 'speechToText' && language !== undefined && language !== '' && !/^[a-z]{2}$/.test(language)) {
    throw invalidRequest(`Invalid language '${language}'. Language parameter must be specified in ISO-639-1 format.`, 'language', 'invalid_value');
  }

  let text = ctx.nextTranscript() ?? defaultTranscript(file.data.length, format, seconds, language, operation, model.kind);
  if (maxTokens !== undefined) text = truncateTokens(text, maxTokens).text;
  if (stream) {
    const answer: Answer = {
      content: text,
      pieces: splitPieces(text),
      toolCalls: [],
      fragmented: false,
      // Transcription chunks only ever say "stop" (the service's OpenAPI file).
      finishReason: 'stop',
      promptTokens: MEDIA_TOKENS + countTokens(form.fields['prompt'] ?? ''),
      completionTokens: countTokens(text),
    };
    const env = newEnvelope(model.id, ctx.startMs, includeUsage, { customId: true, acceptanceRate: false });
    return { kind: 'sse', events: completionStream(answer, env) };
  }
  return responseFormat === 'text' ? { kind: 'text', body: text } : { kind: 'json', body: { text } };
}

function defaultTranscript(
  bytes: number,
  format: string,
  seconds: number | undefined,
  language: string | undefined,
  operation: 'transcription' | 'translation',
  kind: 'speechToText' | 'audioInstruct' | string,
): string {
  const length = seconds === undefined ? '' : `, ${seconds.toFixed(1)} seconds`;
  const body =
    `Transcript of a ${bytes}-byte ${format} recording${length}, declared language ${language ?? 'none'}. ` +
    'The Cadenza emulator does not recognise speech; this text is deterministic.';
  if (operation === 'transcription') return body;
  // Whisper translates into English and reads `language` as the input; the audio-instruct family reads it as the target.
  const target = kind === 'audioInstruct' ? (language ?? 'English') : 'English';
  return `[Translated to ${target}] ${body}`;
}

/** Form fields are strings; numbers are converted so the shared range checks give the real errors. */
function numericFields(form: MultipartForm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of ['temperature', 'max_tokens']) {
    const raw = form.fields[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    out[name] = Number.isFinite(value) ? value : raw;
  }
  return out;
}

/** `stream` and friends arrive as the strings "true"/"false" on the wire (docs/service.md#transcription-and-translation). */
function formBoolean(form: MultipartForm, name: string): boolean | undefined {
  const raw = form.fields[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return invalidType(name, 'a boolean', raw);
}

function includeUsageOf(form: MultipartForm): boolean {
  // The official clients send nested fields in bracket form. Whether the service reads `stream_options`
  // as one JSON string is not shown anywhere (docs/service.md#transcription-and-translation), so such a field is ignored here.
  return formBoolean(form, 'stream_options[include_usage]') === true;
}
