// Shared helpers for the emulator's own tests: real loopback HTTP with the global fetch.
import { type RunningEmulator } from '../../support/emulator/emulator';
import { toneWav } from '../../support/fixtures/wav';

/** A model of each kind in the default catalogue. */
export const CHAT_MODEL = 'Meta-Llama-3.1-8B-Instruct';
export const VISION_MODEL = 'Llama-4-Maverick-17B-128E-Instruct';
export const AUDIO_MODEL = 'Qwen2-Audio-7B-Instruct';
export const STT_MODEL = 'Whisper-Large-v3';
export const EMBED_MODEL = 'E5-Mistral-7B-Instruct';

/** POSTs JSON with the emulator's key unless `key` says otherwise (null: no Authorization header). */
export function postJson(
  emu: RunningEmulator,
  path: string,
  body: unknown,
  options: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  const key = options.key === undefined ? emu.key : options.key;
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  return fetch(`${emu.baseUrl}${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** A minimal valid chat body, with overrides. */
export function chatBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: CHAT_MODEL, messages: [{ role: 'user', content: 'How do I retry a failed upload?' }], ...overrides };
}

/** Reads a JSON body, asserting nothing. */
export async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

/** The `error` object of a GeneralError body. */
export async function errorOf(response: Response): Promise<{ status: number; error: Record<string, unknown>; requestId: unknown }> {
  const body = await json(response);
  return { status: response.status, error: body['error'] as Record<string, unknown>, requestId: body['request_id'] };
}

/** One SSE event as the client would see it. */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

/** Splits a complete SSE body into events. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    events.push({ event, data: data.join('\n') });
  }
  return events;
}

/** The JSON chunks of a stream (everything but [DONE]). */
export function chunksOf(events: readonly SseEvent[]): Record<string, unknown>[] {
  return events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

/** The `choices[0]` of a chunk or completion. */
export function choice0(object: Record<string, unknown>): Record<string, unknown> {
  const choices = object['choices'] as Record<string, unknown>[];
  return choices[0] ?? {};
}

/** Concatenated delta.content of a stream. */
export function streamedText(chunks: readonly Record<string, unknown>[]): string {
  return chunks
    .filter((c) => (c['choices'] as unknown[]).length > 0)
    .map((c) => ((choice0(c)['delta'] as Record<string, unknown>)['content'] as string | undefined) ?? '')
    .join('');
}

/** A PCM WAV file of a quiet tone: 8 kHz, 16-bit mono (see test/support/fixtures/wav.ts). */
export function makeWav(seconds: number): Buffer {
  return Buffer.from(toneWav(seconds));
}

/** POSTs a multipart form to an audio endpoint with the global FormData. */
export function postForm(
  emu: RunningEmulator,
  path: string,
  fields: Record<string, string>,
  file?: { data: Buffer; name?: string; type?: string },
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file !== undefined) form.append('file', new Blob([file.data], { type: file.type ?? 'audio/wav' }), file.name ?? 'clip.wav');
  return fetch(`${emu.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${emu.key}` }, body: form });
}
