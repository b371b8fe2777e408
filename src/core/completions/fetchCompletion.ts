// One completion request over the chat API: stream the answer, clean it as it arrives, and stop the
// stream the moment the cleaned answer is whole (the end of the line or block), which saves both time and
// tokens. Usage is the service's when it reported it, else estimated (a stopped stream has no usage chunk).
import { estimateTokens } from '../chat/contextBudget';
import type { CallOptions, ChatRequest, ChatStream } from '../api/types';
import { cleanCompletion } from './postprocess';
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

/**
 * Streams a completion and cleans it. Rejects with the client's abort error when `signal` aborts (the
 * socket is closed at once), and with the client's typed errors otherwise.
 */
export async function fetchCompletion(input: FetchCompletionInput): Promise<CompletionAnswer> {
  const { prompt } = input;
  const now = input.now ?? (() => performance.now());
  const started = now();
  const own = new AbortController();
  const relay = (): void => own.abort(input.signal.reason);
  if (input.signal.aborted) relay();
  input.signal.addEventListener('abort', relay, { once: true });
  const cursor = { prefix: prompt.prefix, suffix: prompt.suffix };
  const stream = input.port.streamChat({
    model: input.model,
    messages: prompt.messages,
    maxTokens: prompt.maxTokens,
    temperature: 0.1,
    includeUsage: true,
  }, { signal: own.signal });
  // Only iterated, never `result` (reading it would start a second iteration); its rejection is handled by the stream.
  let raw = '';
  let firstTextMs: number | undefined;
  let serviceUsage: { prompt: number | undefined; completion: number | undefined } | undefined;
  let stopped = false;
  try {
    for await (const event of stream) {
      if (event.type === 'text') {
        firstTextMs ??= now() - started;
        raw += event.text;
        const partial = cleanCompletion(raw, cursor, prompt.mode, false);
        input.onPartial?.(partial.text, partial.ended);
        if (partial.ended) {
          stopped = true;
          own.abort();
          break;
        }
      } else if (event.type === 'usage') {
        serviceUsage = { prompt: event.usage.promptTokens, completion: event.usage.completionTokens };
      }
    }
  } catch (error) {
    if (!stopped || input.signal.aborted) throw error;
  } finally {
    input.signal.removeEventListener('abort', relay);
  }
  if (input.signal.aborted) throw input.signal.reason instanceof Error ? input.signal.reason : new Error('aborted');
  const cleaned = cleanCompletion(raw, cursor, prompt.mode, true).text;
  const text = copiesExample(cleaned) ? '' : cleaned;
  const estimated = serviceUsage?.prompt === undefined || serviceUsage.completion === undefined;
  return {
    text,
    end: stopped ? 'stopped' : 'finished',
    usage: {
      promptTokens: serviceUsage?.prompt ?? prompt.promptTokens,
      completionTokens: serviceUsage?.completion ?? estimateTokens(raw),
      estimated,
    },
    firstTextMs,
  };
}
