// Validation of a chat-completions (or audio-reasoning) body into a typed request. Order follows
// what a client most needs to see first: model, then messages, then sampling, then context length.
import { audioDurationSeconds, decodeDataUrl, sniffAudioFormat, type AudioFormat } from './audioFormat';
import { type EmulatorHttpError, invalidRequest, malformedJsonError, modelNotCompatible, modelNotFound } from './errors';
import { findModel, type EmulatorModel } from './models';
import { countTokens, MEDIA_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './tokens';
import { invalidType, isRecord, missing, optionalBoolean, optionalDecimal, optionalInteger, stopSequences, type Json } from './validate';

/** The longest audio clip the audio-instruct model takes (spec limit). */
export const MAX_AUDIO_SECONDS = 30;

/** A tool the request offers. */
export interface ToolSpec {
  name: string;
  parameters: unknown;
}

/** A validated chat request. */
export interface ChatRequest {
  model: EmulatorModel;
  /** Text of the last user message (what the default reply quotes). */
  lastUserText: string;
  /** Audio clips found in the messages (audio reasoning). */
  audio: { format: AudioFormat; bytes: number; seconds: number | undefined }[];
  promptTokens: number;
  maxTokens: number | undefined;
  stop: string[];
  stream: boolean;
  includeUsage: boolean;
  tools: ToolSpec[];
  /** The function the request forces: a name, 'required' (any), or undefined (auto/none). */
  forcedTool: string | undefined;
  responseFormat: { type: 'json_object' } | { type: 'json_schema'; schema: unknown } | undefined;
  /** `reasoning_effort` as sent (gpt-oss style); undefined when absent. */
  reasoningEffort: 'low' | 'medium' | 'high' | undefined;
  /** `chat_template_kwargs.enable_thinking` as sent; undefined when absent. */
  enableThinking: boolean | undefined;
  /** Audio reasoning with `response_format: "text"`: a non-streamed answer is the bare text. */
  plainText: boolean;
}

const ROLES = new Set(['system', 'user', 'assistant', 'function', 'tool', 'developer']);

/** Validates a chat body; throws an EmulatorHttpError with the real status/code on the first problem. */
export function parseChatRequest(json: unknown, models: readonly EmulatorModel[], operation: 'chat' | 'audioReasoning'): ChatRequest {
  if (!isRecord(json)) throw malformedJsonError();
  const body = json;
  const modelId = body['model'];
  if (modelId === undefined || modelId === null || modelId === '') throw invalidRequest('you must provide a model parameter', null, null);
  if (typeof modelId !== 'string') return invalidType('model', 'a string', modelId);
  const model = findModel(models, modelId);
  if (model === undefined) throw modelNotFound(modelId);
  // Qwen2-Audio also answers on /chat/completions: SambaNova's own code sent audio_content there (docs/service.md#audio-reasoning).
  const compatible = operation === 'chat' ? ['chat', 'vision', 'audioInstruct'].includes(model.kind) : model.kind === 'audioInstruct';
  if (!compatible) throw modelNotCompatible(model.id, operation === 'chat' ? 'chat completions' : 'audio reasoning');

  const messages = body['messages'];
  if (messages === undefined || messages === null) missing('messages');
  if (!Array.isArray(messages)) return invalidType('messages', 'an array', messages);
  if (messages.length === 0) {
    throw invalidRequest(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  }
  const scan = scanMessages(messages, model);

  optionalDecimal(body, 'temperature', 0, 1);
  optionalDecimal(body, 'top_p', 0, 1);
  optionalInteger(body, 'top_k', 1, 100);
  const maxTokens = parseMaxTokens(body, model);
  const stop = stopSequences(body);
  const stream = optionalBoolean(body, 'stream') ?? false;
  const includeUsage = parseStreamOptions(body, stream);
  // Audio reasoning takes the string "json" or "text" (docs/service.md#audio-reasoning), chat an object.
  const audioFormat = operation === 'audioReasoning' ? parseAudioResponseFormat(body['response_format']) : undefined;
  const responseFormat = operation === 'audioReasoning' ? undefined : parseResponseFormat(body['response_format']);
  const tools = parseTools(body['tools']);
  const forcedTool = parseToolChoice(body['tool_choice'], tools);
  const n = body['n'];
  if (typeof n === 'number' && n > 1 && tools.length > 0) throw invalidRequest('n > 1 is not supported together with tools.', 'n', null);

  const { reasoningEffort, enableThinking } = parseReasoningControls(body);

  const toolTokens = tools.length > 0 ? countTokens(JSON.stringify(body['tools'])) : 0;
  const promptTokens = scan.tokens + toolTokens;
  checkContext(model, promptTokens, maxTokens);
  return {
    model,
    lastUserText: scan.lastUserText,
    audio: scan.audio,
    promptTokens,
    maxTokens,
    stop,
    stream,
    includeUsage,
    tools,
    forcedTool,
    responseFormat,
    reasoningEffort,
    enableThinking,
    plainText: audioFormat === 'text',
  };
}

/** `reasoning_effort` (low/medium/high) and `chat_template_kwargs.enable_thinking` (docs/service.md#reasoning). */
function parseReasoningControls(body: Record<string, unknown>): { reasoningEffort: ChatRequest['reasoningEffort']; enableThinking: boolean | undefined } {
  const effort = body['reasoning_effort'];
  let reasoningEffort: ChatRequest['reasoningEffort'];
  if (effort !== undefined && effort !== null) {
    if (effort !== 'low' && effort !== 'medium' && effort !== 'high') {
      throw invalidRequest(`Invalid value: '${String(effort)}'. Supported values are: 'low', 'medium', and 'high'.`, 'reasoning_effort', 'invalid_value');
    }
    reasoningEffort = effort;
  }
  const kwargs = body['chat_template_kwargs'];
  let enableThinking: boolean | undefined;
  if (kwargs !== undefined && kwargs !== null) {
    if (!isRecord(kwargs)) return invalidType('chat_template_kwargs', 'an object', kwargs);
    const flag = kwargs['enable_thinking'];
    if (flag !== undefined && typeof flag !== 'boolean') return invalidType('chat_template_kwargs.enable_thinking', 'a boolean', flag);
    enableThinking = flag;
  }
  return { reasoningEffort, enableThinking };
}

function scanMessages(messages: unknown[], model: EmulatorModel): { tokens: number; lastUserText: string; audio: ChatRequest['audio'] } {
  let tokens = 0;
  let images = 0;
  let lastUserText = '';
  const audio: ChatRequest['audio'] = [];
  for (const [i, message] of messages.entries()) {
    if (!isRecord(message)) return invalidType(`messages[${i}]`, 'an object', message);
    const role = message['role'];
    if (typeof role !== 'string' || !ROLES.has(role)) {
      throw invalidRequest(
        `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `messages[${i}].role`,
        'invalid_value',
      );
    }
    const content = message['content'];
    tokens += MESSAGE_OVERHEAD_TOKENS;
    if (content === null || content === undefined) {
      // An assistant turn that only calls tools legitimately has no content (OpenAI shape).
      if (role === 'assistant' && Array.isArray(message['tool_calls'])) {
        tokens += countTokens(JSON.stringify(message['tool_calls']));
        continue;
      }
      // The real param really reads "messages.[5].content".
      throw invalidRequest("Invalid value for 'content': expected a string, got null.", `messages.[${i}].content`, null);
    }
    let text = '';
    if (typeof content === 'string') {
      text = content;
    } else if (Array.isArray(content)) {
      for (const [j, part] of content.entries()) {
        const where = `messages[${i}].content[${j}]`;
        if (!isRecord(part)) return invalidType(where, 'an object', part);
        const type = part['type'];
        if (type === 'text') {
          if (typeof part['text'] !== 'string') return invalidType(`${where}.text`, 'a string', part['text']);
          text += (text === '' ? '' : '\n') + part['text'];
        } else if (type === 'image_url') {
          images++;
          checkImage(part, where, model, images);
          tokens += MEDIA_TOKENS;
        } else if (type === 'audio_content') {
          audio.push(checkAudio(part, where, model));
          tokens += MEDIA_TOKENS;
        } else {
          throw invalidRequest(
            `Invalid value: '${String(type)}'. Supported values are: 'text', 'image_url' and 'audio_content'.`,
            `${where}.type`,
            'invalid_value',
          );
        }
      }
    } else {
      return invalidType(`messages[${i}].content`, 'a string or an array of content parts', content);
    }
    tokens += countTokens(text);
    if (role === 'user' && text !== '') lastUserText = text;
  }
  return { tokens, lastUserText, audio };
}

function checkImage(part: Json, where: string, model: EmulatorModel, count: number): void {
  if (model.kind !== 'vision') throw invalidRequest(`The model \`${model.id}\` does not support image input.`, 'model', 'model_not_compatible');
  if (count > 1) {
    // The spec allows one image per request (later Maverick docs say five; the spec wins). Real code: not documented.
    throw invalidRequest('Only one image per request is supported. Send several images in separate requests.', 'messages', null);
  }
  const imageUrl = part['image_url'];
  const url = isRecord(imageUrl) ? imageUrl['url'] : undefined;
  if (typeof url !== 'string') return invalidType(`${where}.image_url.url`, 'a string', url);
  if (!url.startsWith('data:image/')) {
    throw invalidRequest(
      'Invalid image URL: only base64-encoded images are supported, as data:image/<format>;base64,<data>.',
      `${where}.image_url.url`,
      'invalid_value',
    );
  }
  if (decodeDataUrl(url, 'image') === undefined) {
    // The real status and code for bad base64 are not documented; the spec only says "an error".
    throw invalidRequest('Invalid image: the base64 data could not be decoded.', `${where}.image_url.url`, 'invalid_value');
  }
}

function checkAudio(part: Json, where: string, model: EmulatorModel): ChatRequest['audio'][number] {
  if (model.kind !== 'audioInstruct') throw invalidRequest(`The model \`${model.id}\` does not support audio input.`, 'model', 'model_not_compatible');
  const audioContent = part['audio_content'];
  const url = isRecord(audioContent) ? audioContent['content'] : undefined;
  if (typeof url !== 'string') return invalidType(`${where}.audio_content.content`, 'a string', url);
  const bytes = decodeDataUrl(url, 'audio');
  if (bytes === undefined) {
    throw invalidRequest('Invalid audio: expected data:audio/<format>;base64,<data> with valid base64.', `${where}.audio_content.content`, 'invalid_value');
  }
  const format = sniffAudioFormat(bytes);
  if (format === undefined) {
    throw invalidRequest(
      'Invalid file format. Supported formats: flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm.',
      `${where}.audio_content.content`,
      'invalid_file_format',
    );
  }
  const seconds = audioDurationSeconds(bytes, format);
  if (seconds !== undefined && seconds > MAX_AUDIO_SECONDS) throw audioTooLong(seconds, `${where}.audio_content.content`);
  return { format, bytes: bytes.length, seconds };
}

/** 400 for audio over 30 s; the real status and wording are not documented (docs/service.md#not-known). */
export function audioTooLong(seconds: number, param: string): EmulatorHttpError {
  return invalidRequest(`Audio is ${seconds.toFixed(1)} seconds long; each file must not exceed ${MAX_AUDIO_SECONDS} seconds.`, param, 'audio_too_long');
}

function parseMaxTokens(body: Json, model: EmulatorModel): number | undefined {
  // max_completion_tokens is the newer alias; both are accepted (docs/service.md#request-limits).
  const param = body['max_tokens'] !== undefined && body['max_tokens'] !== null ? 'max_tokens' : 'max_completion_tokens';
  const value = optionalInteger(body, param, 1, Number.MAX_SAFE_INTEGER);
  if (value !== undefined && value > model.maxCompletionTokens) {
    throw invalidRequest(
      `${param} is too large: ${value}. This model supports at most ${model.maxCompletionTokens} completion tokens, whereas you provided ${value}.`,
      param,
      'integer_above_max_value',
    );
  }
  return value;
}

function parseStreamOptions(body: Json, stream: boolean): boolean {
  const options = body['stream_options'];
  if (options === undefined || options === null) return false;
  if (!isRecord(options)) return invalidType('stream_options', 'an object', options);
  if (!stream) throw invalidRequest("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options', null);
  return optionalBoolean(options, 'include_usage') ?? false;
}

function parseAudioResponseFormat(value: unknown): 'json' | 'text' {
  if (value === undefined || value === null) return 'json';
  if (typeof value !== 'string') return invalidType('response_format', 'a string', value);
  if (value === 'json' || value === 'text') return value;
  throw invalidRequest(`Invalid value: '${value}'. Supported values are: 'json' and 'text'.`, 'response_format', 'invalid_value');
}

function parseResponseFormat(value: unknown): ChatRequest['responseFormat'] {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) return invalidType('response_format', 'an object', value);
  switch (value['type']) {
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const spec = value['json_schema'];
      if (!isRecord(spec)) missing('response_format.json_schema');
      if (typeof spec['name'] !== 'string') missing('response_format.json_schema.name');
      return { type: 'json_schema', schema: spec['schema'] ?? { type: 'object' } };
    }
    case 'text':
      // The service's OpenAPI file calls it not supported yet in chat completions (docs/service.md#json-mode).
      throw invalidRequest(
        "response_format type 'text' is not supported yet in the chat completions api, if this behavior is desired do not set response format",
        'response_format',
        'invalid_value',
      );
    default:
      throw invalidRequest(
        `Invalid value: '${String(value['type'])}'. Supported values are: 'json_object' and 'json_schema'.`,
        'response_format.type',
        'invalid_value',
      );
  }
}

function parseTools(value: unknown): ToolSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return invalidType('tools', 'an array', value);
  if (value.length > 128) {
    throw invalidRequest(
      `Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length ${value.length} instead.`,
      'tools',
      'array_above_max_length',
    );
  }
  return value.map((tool, i) => {
    const fn = isRecord(tool) ? tool['function'] : undefined;
    if (!isRecord(tool) || tool['type'] !== 'function' || !isRecord(fn)) {
      throw invalidRequest(`Invalid 'tools[${i}]': expected an object with type 'function' and a 'function' object.`, `tools[${i}]`, 'invalid_value');
    }
    if (typeof fn['name'] !== 'string' || fn['name'] === '') missing(`tools[${i}].function.name`);
    return { name: fn['name'], parameters: fn['parameters'] };
  });
}

function parseToolChoice(value: unknown, tools: readonly ToolSpec[]): string | undefined {
  if (value === undefined || value === null || value === 'auto' || value === 'none') return undefined;
  if (tools.length === 0)
    throw invalidRequest("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice', null);
  if (value === 'required') return 'required';
  const fn = isRecord(value) ? value['function'] : undefined;
  const name = isRecord(fn) ? fn['name'] : undefined;
  if (!isRecord(value) || value['type'] !== 'function' || typeof name !== 'string') {
    throw invalidRequest(
      "Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or {type: 'function', function: {name}}.",
      'tool_choice',
      'invalid_value',
    );
  }
  if (!tools.some((t) => t.name === name))
    throw invalidRequest(`Invalid value for 'tool_choice': no function named '${name}' in 'tools'.`, 'tool_choice', 'invalid_value');
  return name;
}

function checkContext(model: EmulatorModel, promptTokens: number, maxTokens: number | undefined): void {
  const n = model.contextLength;
  if (maxTokens !== undefined && promptTokens + maxTokens > n) {
    throw contextExceeded(
      `This model's maximum context length is ${n} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
    );
  }
  if (promptTokens > n) {
    throw contextExceeded(
      `This model's maximum context length is ${n} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
    );
  }
}

function contextExceeded(message: string): EmulatorHttpError {
  // SambaNova's exact wording is not documented; this is OpenAI's, which the error-codes doc's code matches.
  return invalidRequest(message, 'messages', 'context_length_exceeded');
}
