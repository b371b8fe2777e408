/** Prompt files in the composer: the `/` list of the prompts there are, run by `chat/send`'s `prompt`. */
import * as v from 'valibot';
import { request } from './schema';

/** A prompt file as the `/` list offers it. */
export interface PromptCandidate {
  /** What follows `/`. */
  readonly name: string;
  /** One line ('' when the file has none). */
  readonly description: string;
  /** Where the file is, as the user knows it (`.github/prompts/review.prompt.md`, `… in your profile`). */
  readonly source: string;
  /** What to type after `/name`, when the file says. */
  readonly argumentHint?: string;
  /** From a workspace the user has not trusted (Restricted Mode): it runs read-only, marked as such. */
  readonly untrusted: boolean;
}

/** Host → webview. */
export type PromptsToWebview =
  /** The prompt files there are now (sorted by name), for the `prompts/query` with the same `requestId`. */
  { readonly type: 'prompts/list'; readonly requestId: number; readonly prompts: readonly PromptCandidate[] };

/** Webview → host. */
export const promptsFromWebview = [
  /** The user typed `/` at the start of the message: the host reads the prompt files as they are now. */
  request('prompts/query', { requestId: v.number() }, 'prompts/list'),
] as const;
