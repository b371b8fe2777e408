// Writes a server-sent-event stream: `data: {json}\n\n` events, batched into large socket writes
// with 'drain' backpressure (the client benchmark pushes 100,000 chunks through here), and the
// stream faults (stall, mid-stream error, dropped socket) applied at chunk boundaries.
import { type ServerResponse } from 'node:http';
import { type StreamFault } from './faults';
import { newRequestId } from './errors';

/** A pause inside a stream: nothing is sent for `pauseMs` (a model thinking between two pieces). Not a chunk. */
export interface StreamPause {
  readonly pauseMs: number;
}

/** A stream of pre-serialised SSE events (each a complete `data: ...\n\n` string), with pauses. */
export type EventSource = Iterable<string | StreamPause>;

/** Options for one stream. */
export interface StreamOptions {
  chunkDelayMs: number;
  faults: readonly StreamFault[];
}

/** Formats one data event. */
export function dataEvent(json: string): string {
  return `data: ${json}\n\n`;
}

/** The terminator every real stream ends with. */
export const DONE_EVENT = 'data: [DONE]\n\n';

// Batches of this size keep syscalls few without holding much memory.
const BATCH_BYTES = 64 * 1024;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The in-stream error event of a streamError fault, in the chosen of the three observed forms. */
export function streamErrorEvent(fault: Extract<StreamFault, { kind: 'streamError' }>): string {
  const payload = JSON.stringify({
    error: {
      message: fault.message ?? 'The model server failed while generating the response.',
      type: fault.type ?? 'server_error',
      param: null,
      code: fault.code ?? 'internal_server_error',
    },
    request_id: newRequestId(),
  });
  switch (fault.as ?? 'error') {
    case 'error':
      return `event: error\ndata: ${payload}\n\n`;
    case 'error_event':
      return `event: error_event\ndata: ${payload}\n\n`;
    case 'dataError':
      return dataEvent(payload);
  }
}

/**
 * Streams `events` into `res` (headers must already be set). Resolves when the stream has ended,
 * been dropped, stalled (the socket then stays open until the client or close() ends it) or the
 * client went away.
 */
export async function writeEventStream(res: ServerResponse, events: EventSource, options: StreamOptions): Promise<void> {
  const { chunkDelayMs, faults } = options;
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  res.writeHead(res.statusCode);
  res.flushHeaders();

  let buffer = '';
  const flush = async (): Promise<void> => {
    if (buffer === '' || closed) return;
    const data = buffer;
    buffer = '';
    if (!res.write(data)) await waitForDrain(res);
  };
  // The earliest-acting fault wins; "chunks" are SSE events, the role chunk included.
  const sorted = [...faults].sort((a, b) => (a.afterChunks ?? 0) - (b.afterChunks ?? 0));
  const nextFault = sorted[0];
  const faultAt = nextFault?.afterChunks ?? -1;

  let count = 0;
  let lastData: string | undefined;
  for (const event of events) {
    if (closed) return;
    if (typeof event !== 'string') {
      await flush();
      await sleep(event.pauseMs);
      continue;
    }
    // A fault placed beyond the stream's length acts just before [DONE], so an injected fault always shows.
    if (nextFault !== undefined && (count === faultAt || (event === DONE_EVENT && count < faultAt))) {
      await applyFault(res, nextFault, buffer, lastData, () => closed);
      return;
    }
    buffer += event;
    count++;
    if (event.startsWith('data: {')) lastData = event;
    // The stream ends with [DONE]: no pause after it, so a client that stops reading there (they all do)
    // is not mistaken for one that went away mid-answer.
    if (event === DONE_EVENT) break;
    if (chunkDelayMs > 0) {
      await flush();
      await sleep(chunkDelayMs);
    } else if (buffer.length >= BATCH_BYTES) {
      await flush();
    }
  }
  if (closed) return;
  res.end(buffer);
}

/** A content chunk like the stream's last one (its id and model), carrying `text`. */
function contentChunk(template: string | undefined, text: string): string {
  let id = 'chatcmpl-endless';
  let model = 'unknown';
  try {
    const parsed = JSON.parse((template ?? '').slice('data: '.length)) as { id?: unknown; model?: unknown };
    if (typeof parsed.id === 'string') id = parsed.id;
    if (typeof parsed.model === 'string') model = parsed.model;
  } catch {
    // No template: the defaults above.
  }
  return dataEvent(
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
    }),
  );
}

async function applyFault(res: ServerResponse, fault: StreamFault, pending: string, lastData: string | undefined, closed: () => boolean): Promise<void> {
  switch (fault.kind) {
    case 'endless': {
      const interval = fault.intervalMs ?? 0;
      const one = contentChunk(lastData, 'la ');
      // Without an interval, 64 KB writes as fast as the client drains them.
      const batch = interval > 0 ? one : one.repeat(Math.ceil(BATCH_BYTES / one.length));
      if (pending !== '' && !res.write(pending)) await waitForDrain(res);
      while (!closed() && !res.destroyed) {
        if (!res.write(batch)) await waitForDrain(res);
        if (interval > 0) await sleep(interval);
      }
      return;
    }
    case 'stall':
      // Send what was promised, then keep the socket open without ending the response.
      if (pending !== '') res.write(pending);
      return;
    case 'drop':
      // Destroy only after the promised chunks reached the socket, so the client sees them first.
      if (pending !== '') await new Promise<void>((resolve) => res.write(pending, () => resolve()));
      res.socket?.destroy();
      res.destroy();
      return;
    case 'streamError':
      res.end(pending + streamErrorEvent(fault));
      return;
  }
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
