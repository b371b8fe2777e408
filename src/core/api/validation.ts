// Validation before sending: every request limit (docs/service.md#request-limits) checked on the client, so a bad
// request fails at once with a ValidationError naming the parameter, and not a byte goes out.
// Where newer service documents allow more (temperature up to 2, five images), the spec's
// limits win: they are the ones Cadenza and its emulator enforce.
import { inspectAudio } from '../audio/audioFile';
import { checkAudioForFamily, describeAudioProblem } from '../audio/limits';
import { type SniffResult } from '../audio/sniff';
import { ValidationError } from './errors';
import { type AudioFamily, type ChatMessage, type ChatRequest, type ContentPart } from './types';

/** Limits of the spec (docs/service.md#request-limits). */
const LIMITS = {
  maxStopSequences: 4,
  maxImages: 1,
  temperature: { min: 0, max: 1 },
  topP: { min: 0, max: 1 },
  topK: { min: 1, max: 100 },
} as const;

const IMAGE_DATA_URL = /^data:image\/(jpeg|png|webp|gif);base64,/;
const AUDIO_DATA_URL = /^data:audio\/[a-z0-9.+-]+;base64,/;
// Standard base64, padded: what the service decodes. Linear in the length, even for megabytes.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isBase64(data: string): boolean {
  return data.length > 0 && data.length % 4 === 0 && BASE64.test(data);
}

function checkRange(param: string, value: number | undefined, min: number, max: number, integer = false): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValidationError(param, `${param} must be a number`);
  if (integer && !Number.isInteger(value)) throw new ValidationError(param, `${param} must be an integer`);
  if (value < min || value > max) throw new ValidationError(param, `${param} must be between ${min} and ${max}, not ${value}`);
}

/** max_tokens: an integer of at least 1, and within the model's max_completion_tokens when that is known. */
function checkMaxTokens(value: number | undefined, modelMax: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 1) throw new ValidationError('max_tokens', `max_tokens must be an integer of at least 1, not ${value}`);
  if (modelMax !== undefined && value > modelMax) {
    throw new ValidationError('max_tokens', `max_tokens ${value} exceeds the model's maximum of ${modelMax} completion tokens`);
  }
}

/** An image part's data URL: base64 jpeg/png/webp/gif (the service refuses http URLs). */
function checkImageUrl(url: string, param: string): void {
  const match = IMAGE_DATA_URL.exec(url);
  if (match === null) {
    throw new ValidationError(param, 'An image must be a base64 data URL of type image/jpeg, image/png, image/webp or image/gif (data:image/png;base64,...)');
  }
  if (!isBase64(url.slice(match[0].length))) throw new ValidationError(param, 'The image data is not valid base64');
}

function checkAudioUrl(url: string, param: string): void {
  const match = AUDIO_DATA_URL.exec(url);
  if (match === null) throw new ValidationError(param, 'Audio must be a base64 data URL (data:audio/<format>;base64,...)');
  if (!isBase64(url.slice(match[0].length))) throw new ValidationError(param, 'The audio data is not valid base64');
}

function checkParts(parts: readonly ContentPart[], i: number, counter: { images: number }): void {
  parts.forEach((part, j) => {
    const param = `messages[${i}].content[${j}]`;
    if (part.type === 'image') {
      counter.images++;
      if (counter.images > LIMITS.maxImages) {
        throw new ValidationError('messages', `Only ${LIMITS.maxImages} image per request is allowed; send several images in separate requests`);
      }
      checkImageUrl(part.dataUrl, `${param}.image_url.url`);
    } else if (part.type === 'audio') {
      checkAudioUrl(part.dataUrl, `${param}.audio_content.content`);
    }
  });
}

function checkMessages(messages: readonly ChatMessage[]): void {
  if (!Array.isArray(messages) || messages.length === 0) throw new ValidationError('messages', 'messages must hold at least one message');
  const counter = { images: 0 };
  messages.forEach((message, i) => {
    if (message.role === 'user' && typeof message.content !== 'string') checkParts(message.content, i, counter);
    if (message.role === 'tool' && message.toolCallId === '')
      throw new ValidationError(`messages[${i}].tool_call_id`, 'A tool message needs the id of the call it answers');
  });
}

/** Checks a chat request against the spec's limits; InferenceClient calls it before sending. `modelMax` is the known max_completion_tokens. */
export function validateChatRequest(request: ChatRequest, modelMax: number | undefined): void {
  if (typeof request.model !== 'string' || request.model === '') throw new ValidationError('model', 'A model is required');
  checkMessages(request.messages);
  checkRange('temperature', request.temperature, LIMITS.temperature.min, LIMITS.temperature.max);
  checkRange('top_p', request.topP, LIMITS.topP.min, LIMITS.topP.max);
  checkRange('top_k', request.topK, LIMITS.topK.min, LIMITS.topK.max, true);
  checkMaxTokens(request.maxTokens, modelMax);
  if (request.stop !== undefined) {
    const stops = typeof request.stop === 'string' ? [request.stop] : request.stop;
    if (stops.length > LIMITS.maxStopSequences)
      throw new ValidationError('stop', `At most ${LIMITS.maxStopSequences} stop sequences are allowed, not ${stops.length}`);
    if (stops.some((s) => typeof s !== 'string' || s === '')) throw new ValidationError('stop', 'Stop sequences must be non-empty strings');
  }
  const tools = request.tools ?? [];
  tools.forEach((tool, i) => {
    if (typeof tool.name !== 'string' || tool.name === '') throw new ValidationError(`tools[${i}].function.name`, 'Every tool needs a name');
  });
  const choice = request.toolChoice;
  if (typeof choice === 'object' && !tools.some((t) => t.name === choice.name)) {
    throw new ValidationError('tool_choice', `tool_choice names "${choice.name}", which is not among the tools`);
  }
  if (request.responseFormat?.type === 'json_schema' && (request.responseFormat.jsonSchema.name ?? '') === '') {
    throw new ValidationError('response_format.json_schema.name', 'A json_schema response format needs a name');
  }
}

/**
 * Checks an audio file for an upload or an audio part with the audio module's rules: a format the
 * service accepts (sniffed from the bytes), 25 MB for speech-to-text, 30 s for audio-instruct.
 * A duration that cannot be measured, or a file whose header promises more than it holds, is let
 * through: the server measures for itself, and refusing a file it would take is worse. Called by
 * the audio operations; returns the sniffed format for the data URL or the file part.
 */
export function validateAudio(bytes: Uint8Array, family: AudioFamily | undefined, param: string): SniffResult {
  if (!(bytes instanceof Uint8Array)) throw new ValidationError(param, 'The audio must be given as bytes');
  const facts = inspectAudio(bytes);
  const problem = family === undefined ? (facts.format === undefined ? { kind: 'notAudio' as const } : undefined) : checkAudioForFamily(facts, family);
  if (problem !== undefined && problem.kind !== 'unknownDuration' && problem.kind !== 'truncated') {
    throw new ValidationError(param, describeAudioProblem(problem));
  }
  if (facts.format === undefined || facts.mime === undefined) throw new ValidationError(param, describeAudioProblem({ kind: 'notAudio' }));
  if (bytes.length === 0) throw new ValidationError(param, describeAudioProblem({ kind: 'empty' }));
  return { format: facts.format, mime: facts.mime };
}

/** Temperature and max_tokens of an audio request (0-1, >= 1). */
export function validateAudioSampling(temperature: number | undefined, maxTokens: number | undefined, modelMax: number | undefined): void {
  checkRange('temperature', temperature, LIMITS.temperature.min, LIMITS.temperature.max);
  checkMaxTokens(maxTokens, modelMax);
}

/** Embedding input: at least one string, none empty. */
export function validateEmbeddingInput(input: readonly string[], model: string): void {
  if (typeof model !== 'string' || model === '') throw new ValidationError('model', 'A model is required');
  if (input.length === 0) throw new ValidationError('input', 'input must hold at least one text');
  input.forEach((text, i) => {
    if (typeof text !== 'string' || text === '') throw new ValidationError(`input[${i}]`, 'Embedding inputs must be non-empty strings');
  });
}
