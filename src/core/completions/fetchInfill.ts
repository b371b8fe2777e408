// One completion over fill-in-the-middle (POST /infill): the same shared step as the chat path
// (fetchCompletion.ts `cleanStream`: cleaned as it arrives, stopped when whole, the same usage), with the
// raw text around the cursor sent instead of a chat prompt.
import type { CallOptions, InfillRequest, InfillStream } from '../api/types';
import { cleanStream, type CompletionAnswer, type CompletionEvent } from './fetchCompletion';
import { type InfillPrompt } from './infillPrompt';

/** The part of the client a fill-in-the-middle completion needs. */
export interface InfillPort {
  infill(request: InfillRequest, options?: CallOptions): InfillStream;
}

/** What one infill fetch takes. */
export interface FetchInfillInput {
  readonly port: InfillPort;
  readonly model: string;
  readonly prompt: InfillPrompt;
  readonly signal: AbortSignal;
  readonly onPartial?: ((text: string, ended: boolean) => void) | undefined;
  readonly now?: (() => number) | undefined;
}

/** Streams a fill-in-the-middle completion and cleans it; rejects like fetchCompletion. */
export async function fetchInfill(input: FetchInfillInput): Promise<CompletionAnswer> {
  const { prompt } = input;
  return cleanStream({
    open: (signal) =>
      infillEvents(
        input.port.infill(
          {
            model: input.model,
            prefix: prompt.prefix,
            suffix: prompt.suffix,
            extra: prompt.extra,
            maxTokens: prompt.maxTokens,
            temperature: 0.1,
          },
          { signal },
        ),
      ),
    cursor: { prefix: prompt.prefix, suffix: prompt.suffix },
    mode: prompt.mode,
    promptTokens: prompt.promptTokens,
    signal: input.signal,
    onPartial: input.onPartial,
    now: input.now,
  });
}

/** The server counts every chunk, so the counts so far come before each text: a stream stopped early is counted exactly. */
async function* infillEvents(stream: InfillStream): AsyncGenerator<CompletionEvent> {
  for await (const event of stream) {
    if (event.counts !== undefined) yield { type: 'counts', promptTokens: event.counts.promptTokens, completionTokens: event.counts.completionTokens };
    if (event.type === 'text') yield { type: 'text', text: event.text };
  }
}
