// The audio operations on the wire: audio reasoning (JSON with the audio inline as an
// `audio_content` data URL, the instruction in a following user message, docs/service.md#audio-reasoning), and
// transcription/translation as multipart uploads built with the global FormData and Blob, with the
// fields of each model family (speech-to-text: no temperature/max_tokens; audio-instruct: both).
import { toWireMessage } from './chat';
import { ApiError } from './errors';
import { type HttpRequest } from './http';
import { type AudioFamily, type AudioReasoningRequest, type CallOptions, type ServiceUsage, type TranscriptionRequest } from './types';
import { readServiceUsage } from './usage';
import { validateAudio, validateAudioSampling } from './validation';
import { toAudioDataUrl } from '../audio/dataUrl';
import { wireLanguage } from '../audio/languages';
import { type SniffResult } from '../audio/sniff';

/** The JSON body of POST /v1/audio/reasoning; the client validates the audio first and passes its sniffed format. */
export function buildAudioReasoningBody(request: AudioReasoningRequest, sniffed: SniffResult, stream: boolean): Record<string, unknown> {
  // The service's own code labels audio data URLs by format (data:audio/mp3;base64,...).
  const dataUrl = toAudioDataUrl(request.audio, sniffed.format);
  const messages: Record<string, unknown>[] = (request.history ?? []).map(toWireMessage);
  messages.push({ role: 'user', content: [{ type: 'audio_content', audio_content: { content: dataUrl } }] });
  if (request.instruction !== undefined && request.instruction !== '') messages.push({ role: 'user', content: request.instruction });
  const body: Record<string, unknown> = { model: request.model, messages };
  if (request.temperature !== undefined) body['temperature'] = request.temperature;
  if (request.maxTokens !== undefined) body['max_tokens'] = request.maxTokens;
  if (stream) {
    body['stream'] = true;
    if (request.includeUsage !== false) body['stream_options'] = { include_usage: true };
  }
  return body;
}

/** A multipart body serialised once, so a retry can send the very same bytes. */
export interface MultipartBody {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Builds the multipart form of POST /v1/audio/transcriptions or /translations. Form booleans go
 * as the strings "true"/"false" (docs/service.md#transcription-and-translation); nested fields in the official clients'
 * bracket form (`stream_options[include_usage]`); the language in the form the family takes.
 */
export async function buildTranscriptionForm(
  request: TranscriptionRequest,
  sniffed: SniffResult,
  family: AudioFamily | undefined,
  stream: boolean,
): Promise<MultipartBody> {
  const form = new FormData();
  form.append('model', request.model);
  const fileName = request.fileName ?? `audio.${sniffed.format}`;
  // Copy into a plain ArrayBuffer-backed view: Blob must not hold a view on a shared or pooled buffer.
  form.append('file', new Blob([new Uint8Array(request.audio)], { type: sniffed.mime }), fileName);
  const language = wireLanguage(request.language ?? '', family);
  if (language !== '') form.append('language', language);
  if (request.prompt !== undefined && request.prompt !== '') form.append('prompt', request.prompt);
  form.append('response_format', request.responseFormat ?? 'json');
  // temperature and max_tokens exist only for the audio-instruct family; Whisper documents neither.
  if (family !== 'speechToText') {
    if (request.temperature !== undefined) form.append('temperature', String(request.temperature));
    if (request.maxTokens !== undefined) form.append('max_tokens', String(request.maxTokens));
  }
  if (stream) {
    form.append('stream', 'true');
    if (request.includeUsage !== false) form.append('stream_options[include_usage]', 'true');
  }
  // Response serialises the form with a proper boundary; the bytes are kept for retries.
  const response = new Response(form);
  const contentType = response.headers.get('content-type') ?? 'multipart/form-data';
  return { bytes: new Uint8Array(await response.arrayBuffer()), contentType };
}

/** The request of a transcription (or, with `translation`, a translation): the audio validated, then its multipart upload. */
export async function buildAudioUpload(
  translation: boolean,
  request: TranscriptionRequest,
  options: CallOptions,
  stream: boolean,
  family: AudioFamily | undefined,
  maxTokens: number | undefined,
): Promise<HttpRequest> {
  const sniffed = validateAudio(request.audio, family, 'file');
  if (family !== 'speechToText') validateAudioSampling(request.temperature, request.maxTokens, maxTokens);
  const form = await buildTranscriptionForm(request, sniffed, family, stream);
  return {
    method: 'POST',
    path: translation ? '/v1/audio/translations' : '/v1/audio/transcriptions',
    rateLimitKey: request.model,
    body: form.bytes,
    contentType: form.contentType,
    signal: options.signal,
    onRetry: options.onRetry,
    accept: stream ? 'text/event-stream' : request.responseFormat === 'text' ? 'text/plain' : 'application/json',
  };
}

/**
 * A transcription reply's text and usage. The json format is {"text": ...}; the text format is the bare
 * text. The body is trusted over the request's format.
 */
export function readTranscriptionReply(
  body: string,
  contentType: string | undefined,
  requested: TranscriptionRequest['responseFormat'],
): { text: string; service: ServiceUsage | undefined } {
  if (!(contentType ?? '').includes('json') && (requested === 'text' || !body.trimStart().startsWith('{'))) return { text: body, service: undefined };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (cause) {
    throw new ApiError('malformedResponse', 'The transcription reply is not JSON', { cause });
  }
  // llama-server's reply is {"type":"transcript.text.done","text":...,"usage":{"input_tokens":...}}:
  // the text field is the same, and its usage is read too.
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const field = record['text'];
  if (typeof field !== 'string') throw new ApiError('malformedResponse', 'The transcription reply has no text');
  return { text: field, service: readServiceUsage(record['usage']) };
}
