// The three runners the end-to-end benchmark (e2e.ts) compares on one request, and llama-server's side of it:
// curl's raw stream (timed by its own --trace-time log), the official openai client and Cadenza's
// InferenceClient, each giving its time to first token and decode speed; the server's /metrics counters give
// its prompt time and speed for the same request.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import type { InferenceClient } from '../../src/core/api/client';

/** What every runner asks for. */
export interface Asked {
  readonly model: string;
  readonly maxTokens: number;
}

/** One streamed request as one runner saw it. */
export interface Sample {
  ttftMs: number;
  /** Content chunks (about one per token; a token holding part of a character waits for the rest). */
  chunks: number;
  /** Completion tokens as the reply's usage counted them. */
  tokens: number;
  /** Tokens after the first, per second of the time from the first content chunk to the last. */
  tokensPerSecond: number;
  totalMs: number;
}

/** The same request as llama-server measured it (from its /metrics counters). */
export interface ServerSide {
  promptMs: number;
  /** Generated tokens after the first, per second of generation time. */
  tokensPerSecond: number;
  tokens: number;
}

/** llama-server's cumulative counters. */
export interface Counters {
  promptSeconds: number;
  predictedSeconds: number;
  predictedTokens: number;
}

export async function counters(url: string): Promise<Counters> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string): number => Number(new RegExp(`^llamacpp:${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    promptSeconds: read('prompt_seconds_total'),
    predictedSeconds: read('tokens_predicted_seconds_total'),
    predictedTokens: read('tokens_predicted_total'),
  };
}

/** The server's side of the request that ran between `before` and now; waits for the counters to move. */
export async function serverSide(url: string, before: Counters): Promise<ServerSide> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const after = await counters(url);
    // The counters move when the slot is released, a moment after the last chunk was sent.
    if (after.predictedTokens > before.predictedTokens) {
      const tokens = after.predictedTokens - before.predictedTokens;
      const generationSeconds = after.predictedSeconds - before.predictedSeconds;
      return { promptMs: (after.promptSeconds - before.promptSeconds) * 1000, tokensPerSecond: (tokens - 1) / generationSeconds, tokens };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("llama-server's /metrics counters did not move");
}

export type Runner = (prompt: string) => Promise<Sample>;

function sample(start: number, first: number | undefined, last: number | undefined, chunks: number, tokens: number | undefined, end: number): Sample {
  if (first === undefined || last === undefined || chunks < 2) throw new Error(`the stream carried ${chunks} content chunk(s)`);
  const counted = tokens ?? chunks;
  return { ttftMs: first - start, chunks, tokens: counted, tokensPerSecond: (counted - 1) / ((last - first) / 1000), totalMs: end - start };
}

/** Seconds since midnight of a curl --trace-time stamp "HH:MM:SS.micro". */
function stampSeconds(stamp: string): number {
  const [h, m, rest] = stamp.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(rest);
}

/**
 * Reads curl's --trace-ascii --trace-time log: when curl started (its first line), and when each block
 * of received data carrying a content delta arrived, plus the completion tokens of the usage chunk.
 * Every time comes from curl's own clock, so its TTFT covers exactly what curl did, and nothing of
 * starting the process or of Node reading a pipe. (Its stamps are not comparable with other clocks:
 * curl aligns them to the wall clock only to the second.)
 */
function readCurlTrace(trace: string): { startS: number; contentS: number[]; tokens: number | undefined } {
  const stamp = /^(\d{2}:\d{2}:\d{2}\.\d{6}) (.*)$/;
  let startS: number | undefined;
  const contentS: number[] = [];
  let tokens: number | undefined;
  let block: { at: number; data: string[] } | undefined;
  const close = (): void => {
    if (block === undefined) return;
    const data = block.data.join('');
    if (/"delta":\{"content":"[^"]/.test(data)) contentS.push(block.at);
    const usage = /"completion_tokens":(\d+)/.exec(data);
    if (usage) tokens = Number(usage[1]);
    block = undefined;
  };
  for (const line of trace.split('\n')) {
    const head = stamp.exec(line);
    if (head) {
      close();
      const at = stampSeconds(head[1] ?? '');
      startS ??= at;
      // A run across midnight: keep the seconds increasing.
      const seconds = at < startS ? at + 86_400 : at;
      if ((head[2] ?? '').startsWith('<= Recv data')) block = { at: seconds, data: [] };
    } else if (block !== undefined) {
      // Dump lines are "0040: <up to 64 characters>"; a line break inside the data shows as "..".
      block.data.push(line.replace(/^[0-9a-f]{4}: /, ''));
    }
  }
  close();
  if (startS === undefined) throw new Error('curl wrote no trace');
  return { startS, contentS, tokens };
}

export function curlRunner(url: string, scratch: string, { model, maxTokens }: Asked): Runner {
  const bodyFile = join(scratch, 'body.json');
  const traceFile = join(scratch, 'curl-trace.txt');
  return (prompt) =>
    new Promise((resolve, reject) => {
      writeFileSync(
        bodyFile,
        JSON.stringify({ model, messages: [{ role: 'user', content: prompt }], max_tokens: maxTokens, stream: true, stream_options: { include_usage: true } }),
      );
      const spawnedAt = performance.now();
      const curl = spawn(
        'curl',
        [
          '-sSN',
          '--trace-ascii',
          traceFile,
          '--trace-time',
          '-o',
          '/dev/null',
          '-H',
          'content-type: application/json',
          '-H',
          'authorization: Bearer none',
          '--data-binary',
          `@${bodyFile}`,
          `${url}/v1/chat/completions`,
        ],
        { stdio: 'ignore' },
      );
      curl.on('error', reject);
      curl.on('close', (code) => {
        const endedAt = performance.now();
        if (code !== 0) return reject(new Error(`curl exited with ${String(code)}`));
        try {
          const trace = readCurlTrace(readFileSync(traceFile, 'utf8'));
          const first = trace.contentS[0];
          const last = trace.contentS.at(-1);
          if (first === undefined || last === undefined) throw new Error('curl received no content');
          // On curl's clock, in ms from curl's first trace line.
          const ms = (seconds: number): number => (seconds - trace.startS) * 1000;
          resolve(sample(0, ms(first), ms(last), trace.contentS.length, trace.tokens, endedAt - spawnedAt));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
}

export function openaiRunner(url: string, { model, maxTokens }: Asked): Runner {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'none', maxRetries: 0 });
  return async (prompt) => {
    const start = performance.now();
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: prompt }],
      max_tokens: maxTokens,
      stream: true,
      stream_options: { include_usage: true },
    });
    let first: number | undefined;
    let last: number | undefined;
    let chunks = 0;
    let tokens: number | undefined;
    for await (const chunk of stream) {
      tokens = chunk.usage?.completion_tokens ?? tokens;
      const content = chunk.choices[0]?.delta.content;
      if (typeof content === 'string' && content !== '') {
        const at = performance.now();
        first ??= at;
        last = at;
        chunks += 1;
      }
    }
    return sample(start, first, last, chunks, tokens, performance.now());
  };
}

export function cadenzaRunner(client: InferenceClient, { model, maxTokens }: Asked): Runner {
  return async (prompt) => {
    const start = performance.now();
    const stream = client.streamChat({ model, messages: [{ role: 'user', content: prompt }], maxTokens });
    let first: number | undefined;
    let last: number | undefined;
    let chunks = 0;
    for await (const event of stream) {
      if (event.type !== 'text') continue;
      const at = performance.now();
      first ??= at;
      last = at;
      chunks += 1;
    }
    const result = await stream.result;
    return sample(start, first, last, chunks, result.usage.completionTokens, performance.now());
  };
}
