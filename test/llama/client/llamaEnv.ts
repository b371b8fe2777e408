// Where the llama tier's servers are, and small helpers shared by the compatibility suites. The tier
// runner (test/llama/run.mjs) starts the servers and passes their addresses in the environment; run
// outside it, every suite FAILS with a pointer to the runner (a skipped check would count as a pass).
import { deflateSync } from 'node:zlib';
import { InferenceClient, type ClientOptions } from '../../../src/core/api/client';
import { ApiError, type ApiErrorReason } from '../../../src/core/api/errors';
import { toneWav as makeToneWav } from '../../support/fixtures/wav';

/** The four llama-server instances of the tier (see test/llama/servers.mjs). */
export interface LlamaServers {
  /** chat-scripted + a vision/audio projector. */
  chat: string;
  /** chat-scripted without a projector. */
  textOnly: string;
  /** MiniLM-shaped BERT with --embeddings. */
  embed: string;
  /** chat-thinking (thinks in `<think>`, then says "Hello!") with --reasoning-format deepseek. */
  thinking: string;
  /** The ids the servers list (`--alias`). */
  chatModel: string;
  embedModel: string;
  thinkingModel: string;
}

/** The servers' addresses from CADENZA_LLAMA_URL, CADENZA_LLAMA_TEXT_ONLY_URL, CADENZA_LLAMA_EMBED_URL, CADENZA_LLAMA_THINKING_URL. */
export function llamaServers(): LlamaServers {
  const read = (name: string): string => {
    const value = process.env[name];
    if (value === undefined || value === '') {
      throw new Error(`${name} is not set: these suites run inside the llama tier (node test/llama/run.mjs), which starts llama-server`);
    }
    return value;
  };
  return {
    chat: read('CADENZA_LLAMA_URL'),
    textOnly: read('CADENZA_LLAMA_TEXT_ONLY_URL'),
    embed: read('CADENZA_LLAMA_EMBED_URL'),
    thinking: read('CADENZA_LLAMA_THINKING_URL'),
    chatModel: process.env['CADENZA_LLAMA_CHAT_MODEL'] ?? 'cadenza-scripted-qwen2',
    embedModel: process.env['CADENZA_LLAMA_EMBED_MODEL'] ?? 'cadenza-minilm-embed',
    thinkingModel: process.env['CADENZA_LLAMA_THINKING_MODEL'] ?? 'cadenza-thinking-qwen3',
  };
}

/** A client for `baseUrl`. llama-server needs no key; any key is sent and ignored, as a user would have one set. */
export function clientFor(baseUrl: string, options: Partial<ClientOptions> = {}): InferenceClient {
  return new InferenceClient({ baseUrl, apiKey: 'no-key-needed', timeoutMs: 60_000, ...options });
}

/**
 * A client for the enclosing suite: made in `before` for the server `baseUrl()` names, closed in `after`.
 * Call it in a `describe` body; the getter works from the suite's tests.
 */
export function useClient(baseUrl: () => string): () => InferenceClient {
  let client: InferenceClient | undefined;
  before(() => {
    client = clientFor(baseUrl());
  });
  after(async () => {
    await client?.close();
  });
  return () => {
    if (!client) throw new Error('the client is made in before(): useClient() must be called in a describe body');
    return client;
  };
}

/** Runs `work`, expecting it to fail with an ApiError of `reason`; returns that error for further checks. */
export async function rejectsWith(work: () => Promise<unknown>, reason: ApiErrorReason): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (ApiError.is(error, reason)) return error;
    throw new Error(
      `expected an ApiError with reason ${reason}, got ${error instanceof Error ? `${error.name} ${(error as Partial<ApiError>).reason ?? ''}: ${error.message}` : String(error)}`,
    );
  }
  throw new Error(`expected an ApiError with reason ${reason}, but the call succeeded`);
}

/** A valid 16 kHz mono 16-bit PCM WAV of `seconds` of a 440 Hz tone: real audio for llama-server's decoder. */
export function toneWav(seconds: number): Uint8Array {
  return makeToneWav(seconds, 16_000, 8000);
}

/** A 32×32 PNG (a red square with a blue diagonal) as a base64 data URL, built with zlib: no fixture file needed. */
export function pngDataUrl(): string {
  const size = 32;
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    raw[y * (1 + size * 3)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const at = y * (1 + size * 3) + 1 + x * 3;
      const diagonal = x === y;
      raw[at] = diagonal ? 0 : 220;
      raw[at + 1] = 30;
      raw[at + 2] = diagonal ? 230 : 40;
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer): number => {
    let c = 0xffffffff;
    for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
