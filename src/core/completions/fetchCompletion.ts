// One completion request, on either path: a chat prompt over the chat API (fetchCompletion), or the raw
// text around the cursor as fill-in-the-middle (fetchInfill.ts). Both stream through `cleanStream` below:
// the answer is cleaned as it arrives and the stream stopped the moment the cleaned answer is whole (the
// end of the line or block), which saves both time and tokens. Usage is the server's when it reported it,
// else estimated (a stopped stream may have no usage chunk).
import { estimateTokens } from '../chat/contextBudget';
import type { CallOptions, ChatRequest, ChatStream } from '../api/types';
import { cleanCompletion, type CompletionMode, type CursorText } from './postprocess';
import { copiesExample, type CompletionPrompt } from './prompt';

/** The part of the client a completion needs. */
export interface StreamChatPort {
  streamChat(request: ChatRequest, options?: CallOptions): ChatStream;
}

/** Tokens of one completion request. */
export interface CompletionUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** True when counted by the client (the stream was stopped before the service's usage chunk). */
  readonly estimated: boolean;
}

/** The cleaned completion ('' for none), why it ended, and its usage. */
export interface CompletionAnswer {
  readonly text: string;
  /** `stopped`: cut early because it was whole; `finished`: the service ended it. */
  readonly end: 'stopped' | 'finished';
  readonly usage: CompletionUsage;
  /** Milliseconds from sending to the first text the service streamed (undefined if none came). */
  readonly firstTextMs: number | undefined;
}

/** What one fetch takes. */
export interface FetchCompletionInput {
  readonly port: StreamChatPort;
  readonly model: string;
  readonly prompt: CompletionPrompt;
  readonly signal: AbortSignal;
  /** Told the cleaned completion so far and whether it is whole. */
  readonly onPartial?: ((text: string, ended: boolean) => void) | undefined;
  readonly now?: (() => number) | undefined;
}

/** What either path's stream comes down to: text, and the server's token counts when it gives them. */
export type CompletionEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'counts'; readonly promptTokens: number | undefined; readonly completionTokens: number | undefined };

/** The shared step: a stream to open, where the cursor is, and how to clean and count. */
export interface CleanStreamInput {
  /** Starts the request; aborting `signal` must close its socket. */
  readonly open: (signal: AbortSignal) => AsyncIterable<CompletionEvent>;
  readonly cursor: CursorText;
  readonly mode: CompletionMode;
  /** The client's estimate of the prompt, used when the server reports none. */
  readonly promptTokens: number;
  /** A cleaned answer never to show (the chat prompt's worked example copied). */
  readonly refuse?: ((text: string) => boolean) | undefined;
  readonly signal: AbortSignal;
  readonly onPartial?: ((text: string, ended: boolean) => void) | undefined;
  readonly now?: (() => number) | undefined;
}

/**
 * Streams a completion and cleans it, stopping once whole. Rejects with the client's abort error when
 * `signal` aborts (the socket is closed at once), and with the client's typed errors otherwise.
 */
export async function cleanStream(input: CleanStreamInput): Promise<CompletionAnswer> {
  const { cursor, mode } = input;
  const now = input.now ?? (() => performance.now());
  const started = now();
  const own = new AbortController();
  const relay = (): void => own.abort(input.signal.reason);
  if (input.signal.aborted) relay();
  input.signal.addEventListener('abort', relay, { once: true });
  let raw = '';
  let firstTextMs: number | undefined;
  let serviceUsage: { prompt: number | undefined; completion: number | undefined } | undefined;
  let stopped = false;
  try {
    // Only iterated, never a stream's `result` (reading it would start a second iteration).
    for await (const event of input.open(own.signal)) {
      if (event.type === 'text') {
        firstTextMs ??= now() - started;
        raw += event.text;
        const partial = cleanCompletion(raw, cursor, mode, false);
        input.onPartial?.(partial.text, partial.ended);
        if (partial.ended) {
          stopped = true;
          own.abort();
          break;
        }
      } else {
        serviceUsage = { prompt: event.promptTokens, completion: event.completionTokens };
      }
    }
  } catch (error) {
    if (!stopped || input.signal.aborted) throw error;
  } finally {
    input.signal.removeEventListener('abort', relay);
  }
  if (input.signal.aborted) throw input.signal.reason instanceof Error ? input.signal.reason : new Error('aborted');
  const cleaned = cleanCompletion(raw, cursor, mode, true).text;
  const text = input.refuse?.(cleaned) === true ? '' : cleaned;
  const estimated = serviceUsage?.prompt === undefined || serviceUsage.completion === undefined;
  return {
    text,
    end: stopped ? 'stopped' : 'finished',
    usage: {
      promptTokens: serviceUsage?.prompt ?? input.promptTokens,
      completionTokens: serviceUsage?.completion ?? estimateTokens(raw),
      estimated,
    },
    firstTextMs,
  };
}

/** A completion over the chat API: the chat prompt streamed through `cleanStream`. */
export async function fetchCompletion(input: FetchCompletionInput): Promise<CompletionAnswer> {
  const { prompt } = input;
  return cleanStream({
    open: (signal) =>
      chatEvents(
        input.port.streamChat(
          {
            model: input.model,
            messages: prompt.messages,
            maxTokens: prompt.maxTokens,
            temperature: 0.1,
            includeUsage: true,
          },
          { signal },
        ),
      ),
    cursor: { prefix: prompt.prefix, suffix: prompt.suffix },
    mode: prompt.mode,
    promptTokens: prompt.promptTokens,
    refuse: copiesExample,
    signal: input.signal,
    onPartial: input.onPartial,
    now: input.now,
  });
}

async function* chatEvents(stream: ChatStream): AsyncGenerator<CompletionEvent> {
  for await (const event of stream) {
    if (event.type === 'text') yield { type: 'text', text: event.text };
    else if (event.type === 'usage') yield { type: 'counts', promptTokens: event.usage.promptTokens, completionTokens: event.usage.completionTokens };
  }
}
