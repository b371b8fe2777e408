// POST /v1/embeddings with vectors that mean something: feature hashing of words, word bigrams,
// character trigrams and a small synonym table, so texts that share words (or synonyms) score
// closer than unrelated ones. Deterministic: the same text always gives the same vector.
import { type HandlerContext, type Reply } from './context';
import { invalidRequest, malformedJsonError, modelNotCompatible, modelNotFound, simpleError } from './errors';
import { findModel } from './models';
import { countTokens } from './tokens';
import { invalidType, isRecord, missing } from './validate';

// Words in one group share a "concept" feature, so "retry" lands near "backoff" and "upload" near "send file".
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['retry', 'retries', 'backoff', 'again', 'reattempt', 'repeat'],
  ['upload', 'send', 'transfer', 'transmit', 'post'],
  ['error', 'exception', 'failure', 'fail', 'crash', 'bug'],
  ['delete', 'remove', 'erase', 'drop'],
  ['search', 'find', 'lookup', 'query', 'locate'],
  ['auth', 'authentication', 'login', 'credential', 'password', 'apikey'],
  ['config', 'configuration', 'setting', 'settings', 'option', 'preference'],
  ['start', 'begin', 'launch', 'init', 'initialize', 'activate'],
  ['stop', 'halt', 'cancel', 'abort', 'terminate'],
  ['fast', 'quick', 'speed', 'performance', 'latency', 'slow'],
  ['audio', 'sound', 'speech', 'voice', 'recording'],
];
const CONCEPT = new Map<string, string>(SYNONYM_GROUPS.flatMap((group) => group.map((word) => [word, group[0] ?? word] as const)));

// Function words would make every pair of English sentences look alike; they count for little.
const STOP_WORDS = new Set('a an the and or of to in on for with is are was be it this that as at by from how do does what i you we'.split(' '));

/** FNV-1a, 32-bit: fast, dependency-free and stable across runs and platforms. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The deterministic, L2-normalised embedding of one text. */
export function embedText(text: string, dimensions: number): number[] {
  const vector = new Float64Array(dimensions);
  const add = (feature: string, weight: number): void => {
    const hash = fnv1a(feature);
    // Signed hashing keeps unrelated features from adding up to a spurious positive similarity.
    vector[hash % dimensions] = (vector[hash % dimensions] ?? 0) + ((hash & 0x80000000) === 0 ? weight : -weight);
  };
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  let previous: string | undefined;
  for (const word of words) {
    const base = stem(word);
    const weight = STOP_WORDS.has(word) ? 0.15 : 1;
    add(`w:${base}`, weight);
    const concept = CONCEPT.get(word) ?? CONCEPT.get(base);
    if (concept !== undefined) add(`c:${concept}`, 1.2);
    const padded = `^${base}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.25 * weight);
    if (previous !== undefined) add(`b:${previous} ${base}`, 0.4 * weight);
    previous = base;
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  const signal = Math.sqrt(norm);
  // A little fixed noise per text (seeded by its hash), ~5% of the signal, so vectors look real
  // and empty text still has a direction.
  const amplitude = (signal > 0 ? 0.05 * signal : 1) / Math.sqrt(dimensions);
  let seed = fnv1a(text, 0x9e3779b9) || 1;
  for (let d = 0; d < dimensions; d++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    vector[d] = (vector[d] ?? 0) + amplitude * (((seed >>> 0) / 0xffffffff) * 2 - 1) * Math.sqrt(3);
  }
  norm = 0;
  for (const v of vector) norm += v * v;
  const scale = 1 / Math.sqrt(norm);
  // Seven decimals keep the JSON compact while the norm stays 1 within 1e-6.
  return Array.from(vector, (v) => Math.round(v * scale * 1e7) / 1e7);
}

/** Handles POST /v1/embeddings. */
export function handleEmbeddings(ctx: HandlerContext): Reply {
  if (!isRecord(ctx.json)) throw malformedJsonError();
  const body = ctx.json;
  const modelId = body['model'];
  // The real embeddings endpoint answers a missing model with a string error envelope (docs/service.md#error-bodies).
  if (modelId === undefined || modelId === null || modelId === '') throw simpleError(400, 'Model name is required');
  if (typeof modelId !== 'string') return invalidType('model', 'a string', modelId);
  const model = findModel(ctx.models, modelId);
  if (model === undefined) throw modelNotFound(modelId);
  if (model.kind !== 'embeddings') throw modelNotCompatible(model.id, 'embeddings');

  const input = body['input'];
  if (input === undefined || input === null) missing('input');
  let texts: string[];
  if (typeof input === 'string') texts = [input];
  else if (Array.isArray(input)) {
    if (input.length === 0) {
      throw invalidRequest("Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'input', 'empty_array');
    }
    texts = input.map((entry, i) => (typeof entry === 'string' ? entry : invalidType(`input[${i}]`, 'a string', entry)));
  } else return invalidType('input', 'a string or an array of strings', input);

  let total = 0;
  const data = texts.map((text, index) => {
    const tokens = countTokens(text);
    if (tokens > model.contextLength) {
      throw invalidRequest(
        `Input ${index} is too long: it has ${tokens} tokens, but the model's maximum is ${model.contextLength} tokens. Please reduce the length of the input.`,
        'input',
        'context_length_exceeded',
      );
    }
    total += tokens;
    return { object: 'embedding', embedding: embedText(text, model.dimensions ?? 4096), index };
  });
  return { kind: 'json', body: { object: 'list', data, model: model.id, usage: { prompt_tokens: total, total_tokens: total } } };
}
