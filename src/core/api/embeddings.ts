// POST /v1/embeddings: one call, and embedMany for the index, which splits thousands of chunks into
// batches (default 32, the service's own LangChain client's default) run with bounded concurrency.
// Every reply is checked: one vector per input, each index once, every vector of one dimension.
import { ApiError } from './errors';
import { type HttpCore } from './http';
import { type EmbeddingResult, type EmbedManyOptions } from './types';
import { validateEmbeddingInput } from './validation';
import { isRecord } from '../../shared/jsonObject';

function toVector(raw: unknown, position: number): Float32Array {
  if (Array.isArray(raw)) {
    const vector = new Float32Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const x: unknown = raw[i];
      if (typeof x !== 'number') throw new ApiError('malformedResponse', `Embedding ${position} holds a value that is not a number`);
      vector[i] = x;
    }
    return vector;
  }
  // encoding_format "base64" (newer servers): little-endian float32s.
  if (typeof raw === 'string') {
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.length % 4 !== 0) throw new ApiError('malformedResponse', `Embedding ${position} is not a whole number of floats`);
    const vector = new Float32Array(bytes.length / 4);
    for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
    return vector;
  }
  throw new ApiError('malformedResponse', `Embedding ${position} is missing`);
}

/**
 * Reads an embedding list into vectors in input order; throws malformedResponse when the count,
 * the indexes or the dimension do not match. `expectedDimension` carries the dimension across batches.
 */
function readEmbeddingList(value: unknown, inputCount: number, expectedDimension: number | undefined): EmbeddingResult {
  if (!isRecord(value) || !Array.isArray(value['data'])) throw new ApiError('malformedResponse', 'The embeddings reply has no data array');
  const data = value['data'];
  if (data.length !== inputCount) {
    throw new ApiError('malformedResponse', `The service returned ${data.length} embeddings for ${inputCount} inputs`);
  }
  const vectors: (Float32Array | undefined)[] = new Array<Float32Array | undefined>(inputCount).fill(undefined);
  let dimension = expectedDimension;
  data.forEach((entry, position) => {
    if (!isRecord(entry)) throw new ApiError('malformedResponse', `Embedding ${position} is not an object`);
    const index = typeof entry['index'] === 'number' ? entry['index'] : position;
    if (!Number.isInteger(index) || index < 0 || index >= inputCount || vectors[index] !== undefined) {
      throw new ApiError('malformedResponse', `Embedding ${position} has an invalid or repeated index ${String(index)}`);
    }
    const vector = toVector(entry['embedding'], position);
    dimension ??= vector.length;
    if (vector.length !== dimension || dimension === 0) {
      throw new ApiError('malformedResponse', `Embedding ${index} has ${vector.length} dimensions, expected ${dimension}`);
    }
    vectors[index] = vector;
  });
  const usage = isRecord(value['usage']) ? value['usage'] : {};
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  return {
    model: typeof value['model'] === 'string' ? value['model'] : '',
    // Every slot is filled: the count matched and no index repeated.
    embeddings: vectors as Float32Array[],
    promptTokens: num(usage['prompt_tokens']),
    totalTokens: num(usage['total_tokens']),
  };
}

/** One embeddings request with retries; InferenceClient.embed and embedMany's batches call it. */
export async function embedOnce(
  http: HttpCore,
  input: readonly string[],
  model: string,
  signal: AbortSignal | undefined,
  expectedDimension?: number,
): Promise<EmbeddingResult> {
  validateEmbeddingInput(input, model);
  const { value } = await http.fetchJson({
    method: 'POST',
    path: '/v1/embeddings',
    rateLimitKey: model,
    body: JSON.stringify({ model, input }),
    contentType: 'application/json',
    signal,
  });
  return readEmbeddingList(value, input.length, expectedDimension);
}

/**
 * Embeds many texts in batches with bounded concurrency; vectors come back in input order. The
 * batches share the client's RateLimitGate, so one 429 pauses them all; the first failure cancels
 * the batches still running. Called by the index builder.
 */
export async function embedMany(http: HttpCore, texts: readonly string[], model: string, options: EmbedManyOptions = {}): Promise<Float32Array[]> {
  const total = texts.length;
  if (total === 0) return [];
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 2));
  // Validate everything before the first batch goes out: a bad text late in the list must not
  // leave half an index behind.
  validateEmbeddingInput(texts, model);
  const results: Float32Array[] = new Array<Float32Array>(total);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options.signal?.reason);
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  let done = 0;
  let dimension: number | undefined;
  const worker = async (): Promise<void> => {
    while (next < total && !controller.signal.aborted) {
      const start = next;
      next += batchSize;
      const batch = texts.slice(start, start + batchSize);
      const reply = await embedOnce(http, batch, model, controller.signal, dimension);
      dimension ??= reply.embeddings[0]?.length;
      reply.embeddings.forEach((vector, i) => {
        results[start + i] = vector;
      });
      done += batch.length;
      options.onProgress?.(done, total);
    }
  };
  try {
    const workers = Array.from({ length: Math.min(concurrency, Math.ceil(total / batchSize)) }, () =>
      worker().catch((error: unknown) => {
        // Stop the siblings; the first error is the one reported.
        controller.abort(error);
        throw error;
      }),
    );
    const settled = await Promise.allSettled(workers);
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failure !== undefined) {
      const reason: unknown = controller.signal.reason;
      throw ApiError.is(reason) ? reason : failure.reason;
    }
    if (options.signal?.aborted === true) throw new ApiError('canceled', 'The request was canceled');
    return results;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
