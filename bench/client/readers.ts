// The readers the client benchmark (client.ts) compares on one streamed answer: our client, the official
// `openai` and `sambanova` clients, and a raw `fetch` and socket (the floor), each timed to its first token
// and to its end, with the CPU it used.
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { OpenAI } from 'openai';
import { SambaNova } from 'sambanova';
import { InferenceClient } from '../../src/core/api/client';

const MODEL = 'Meta-Llama-3.1-8B-Instruct';
const MESSAGES = [{ role: 'user' as const, content: 'Stream a long answer.' }];

/** Where the emulator answers. */
export interface Endpoint {
  baseUrl: string;
  key: string;
}

/** One reader's run over the whole answer. */
export interface Sample {
  totalMs: number;
  ttftMs: number;
  cpuMs: number;
  chunks: number;
  bytes: number;
}

const requestBody = JSON.stringify({ model: MODEL, messages: MESSAGES, stream: true, stream_options: { include_usage: true } });

/** A raw socket: when the first content delta's bytes arrive (performance.now()). The floor. */
export function rawSocketFirstToken(endpoint: Endpoint): Promise<number> {
  const url = new URL(endpoint.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let seen = '';
    socket.setEncoding('latin1');
    socket.once('connect', () => {
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${endpoint.key}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(requestBody)}\r\nConnection: close\r\n\r\n${requestBody}`,
      );
    });
    socket.on('data', (text: string) => {
      // The first chunk is the role chunk with empty content; the first token is a non-empty "content".
      seen += text;
      if (/"content":"[^"]/.test(seen)) {
        const at = performance.now();
        socket.destroy();
        resolve(at);
      }
    });
    socket.once('error', reject);
  });
}

export async function rawFetch(endpoint: Endpoint, chunkCount: number): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await fetch(`${endpoint.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.key}`, 'content-type': 'application/json' },
    body: requestBody,
  });
  let bytes = 0;
  let ttftMs = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const step = await reader?.read();
    if (step === undefined || step.done) break;
    if (ttftMs === 0) ttftMs = performance.now() - started;
    bytes += step.value.byteLength;
  }
  return { totalMs: performance.now() - started, ttftMs, cpuMs: cpuMs(cpu), chunks: chunkCount, bytes };
}

export async function ours(endpoint: Endpoint): Promise<Sample> {
  const client = new InferenceClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.key, maxRetries: 0 });
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    let ttftMs = 0;
    let chunks = 0;
    let chars = 0;
    for await (const event of client.streamChat({ model: MODEL, messages: MESSAGES })) {
      if (event.type !== 'text') continue;
      if (chunks === 0) ttftMs = performance.now() - started;
      chunks++;
      chars += event.text.length;
    }
    if (chars === 0) throw new Error('no text');
    return { totalMs: performance.now() - started, ttftMs, cpuMs: cpuMs(cpu), chunks, bytes: 0 };
  } finally {
    await client.close();
  }
}

export async function official(endpoint: Endpoint): Promise<Sample> {
  const client = new OpenAI({ baseURL: `${endpoint.baseUrl}/v1`, apiKey: endpoint.key, maxRetries: 0 });
  const cpu = process.cpuUsage();
  const started = performance.now();
  let ttftMs = 0;
  let chunks = 0;
  let chars = 0;
  const stream = await client.chat.completions.create({ model: MODEL, messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta.content;
    if (text === undefined || text === null || text === '') continue;
    if (chunks === 0) ttftMs = performance.now() - started;
    chunks++;
    chars += text.length;
  }
  if (chars === 0) throw new Error('no text');
  return { totalMs: performance.now() - started, ttftMs, cpuMs: cpuMs(cpu), chunks, bytes: 0 };
}

export async function sambanova(endpoint: Endpoint): Promise<Sample> {
  const client = new SambaNova({ baseURL: `${endpoint.baseUrl}/v1`, apiKey: endpoint.key, maxRetries: 0 });
  const cpu = process.cpuUsage();
  const started = performance.now();
  let ttftMs = 0;
  let chunks = 0;
  let chars = 0;
  const stream = await client.chat.completions.create({ model: MODEL, messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
  for await (const chunk of stream) {
    const text = chunk.choices?.[0]?.delta.content;
    if (text === undefined || text === null || text === '') continue;
    if (chunks === 0) ttftMs = performance.now() - started;
    chunks++;
    chars += text.length;
  }
  if (chars === 0) throw new Error('no text');
  return { totalMs: performance.now() - started, ttftMs, cpuMs: cpuMs(cpu), chunks, bytes: 0 };
}

/** The sambanova client: when the caller sees the first token (performance.now()); then it stops reading. */
export async function sambanovaFirstToken(endpoint: Endpoint): Promise<number> {
  const client = new SambaNova({ baseURL: `${endpoint.baseUrl}/v1`, apiKey: endpoint.key, maxRetries: 0 });
  let at = Number.NaN;
  const stream = await client.chat.completions.create({ model: MODEL, messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
  for await (const chunk of stream) {
    const text = chunk.choices?.[0]?.delta.content;
    if (text !== undefined && text !== null && text !== '') {
      at = performance.now();
      break;
    }
  }
  return at;
}

/** Our client: when the caller sees the first token (performance.now()); then it stops reading. */
export async function oursFirstToken(endpoint: Endpoint): Promise<number> {
  const client = new InferenceClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.key, maxRetries: 0 });
  let at = Number.NaN;
  for await (const event of client.streamChat({ model: MODEL, messages: MESSAGES })) {
    if (event.type === 'text') {
      at = performance.now();
      break;
    }
  }
  await client.close();
  return at;
}

/** The official client: when the caller sees the first token (performance.now()); then it stops reading. */
export async function officialFirstToken(endpoint: Endpoint): Promise<number> {
  const client = new OpenAI({ baseURL: `${endpoint.baseUrl}/v1`, apiKey: endpoint.key, maxRetries: 0 });
  let at = Number.NaN;
  const stream = await client.chat.completions.create({ model: MODEL, messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta.content;
    if (text !== undefined && text !== null && text !== '') {
      at = performance.now();
      break;
    }
  }
  return at;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
