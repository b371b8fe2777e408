/**
 * A chat turn in the panel: sending, stopping, answering again, the streamed answer (zero or more
 * `chat/delta`s followed by exactly one `chat/done` for the same `messageId`), its save, and the context meter.
 */
import * as v from 'valibot';
import type { ChatOptions, ErrorView, MessageView, SourceView, UsageView } from '../views';
import { imageAttachment } from './attachments';
import { finite, hostToken, list, message, optional, record, request, text } from './schema';

/** The result of checking a JSON-mode answer: parsed, and conforming to the schema when one was given. */
export interface JsonCheckView {
  readonly valid: boolean;
  readonly pretty?: string;
  readonly problems: readonly string[];
}

/** The shape of per-conversation options; ranges are enforced again by the host before sending. */
const chatOptions: v.GenericSchema<unknown, ChatOptions> = record({
  temperature: optional(finite),
  topP: optional(finite),
  topK: optional(finite),
  maxTokens: optional(finite),
  stop: optional(v.pipe(v.array(text), v.readonly())),
  systemPrompt: optional(text),
  useWorkspace: optional(v.boolean()),
  useInstructions: optional(v.boolean()),
  reasoningEffort: optional(v.picklist(['low', 'medium', 'high'])),
  thinking: optional(v.boolean()),
  jsonMode: optional(v.picklist(['off', 'object', 'schema'])),
  schema: optional(text),
});

/** Checks the shape of per-conversation options (the webview also checks what it restores from its saved state). */
export function isChatOptions(value: unknown): value is ChatOptions {
  return v.is(chatOptions, value);
}

/** Host → webview. */
export type ChatToWebview =
  /** A message was added (the user's, or the assistant's placeholder before streaming starts). */
  | { readonly type: 'message/add'; readonly message: MessageView }
  /** More text for a streaming assistant message. Only the new text: the webview appends it. */
  | { readonly type: 'chat/delta'; readonly messageId: string; readonly text: string }
  /**
   * More of a reasoning model's thinking for a streaming answer (before or between answer text). Only the
   * new text. The panel shows it live in a "Thinking" section that collapses when the answer starts.
   */
  | { readonly type: 'chat/reasoning'; readonly messageId: string; readonly text: string }
  /**
   * The request is waiting before a retry (429, 5xx, network); `seconds` counts down in the panel.
   * `attempt` is 1 for the first retry. `reason` is the failed attempt's error reason (`rateLimited`,
   * `server`, `network`, `timeout`); without it the panel says "Rate limited".
   */
  | { readonly type: 'chat/retrying'; readonly messageId: string; readonly seconds: number; readonly attempt: number; readonly reason?: string }
  /**
   * The answer ended: complete, stopped by the user, or failed with an error and its fixing action. In an
   * agent answer each step (one request to the model) is its own message with its own `chat/done`;
   * `agentStop` says why the agent stopped early (the step limit) or why Cadenza asked for this step's answer
   * without tools (a call repeated, the last step of the limit).
   */
  | {
      readonly type: 'chat/done';
      readonly messageId: string;
      readonly stopped: boolean;
      readonly reasoningMs?: number;
      readonly usage?: UsageView;
      readonly error?: ErrorView;
      readonly jsonCheck?: JsonCheckView;
      readonly sources?: readonly SourceView[];
      readonly agentStop?: string;
      readonly saveError?: string;
    }
  /**
   * The answer to `chat/retrySave` for answer `messageId`: saved now (no `error`), or the save failed again
   * (the panel keeps offering Save again). A failed save at the end of an answer comes as `chat/done`'s `saveError`.
   */
  | { readonly type: 'chat/saveResult'; readonly messageId: string; readonly error?: string }
  /** How full the model's context is for the next request; `dropped` turns were left out. */
  | { readonly type: 'context/meter'; readonly usedTokens: number; readonly limitTokens: number; readonly droppedMessages: number };

/** Webview → host. */
export const chatFromWebview = [
  /**
   * Send a new user message using the conversation's options, with an optional image, or an optional audio
   * file named by the token of its `composer/audio` (the host answers a conversation with audio by audio
   * reasoning), and the tokens of its `composer/mention` chips (at most 40).
   */
  message('chat/send', { text, image: optional(imageAttachment), audio: optional(hostToken), mentions: optional(list(hostToken, 40)), options: chatOptions }),
  /** Stop the answer being streamed now; the partial answer stays, marked as stopped. */
  message('chat/stop', {}),
  /** Answer the last user message again, replacing the last answer. */
  message('chat/regenerate', { options: chatOptions }),
  /** Replace a user message's text, drop everything after it, and send again. */
  message('chat/editResend', { messageId: text, text, options: chatOptions }),
  /** Save the open conversation again after its save failed (the answer `messageId` says "not saved"). */
  request('chat/retrySave', { messageId: text }, 'chat/saveResult'),
  /** Retry the failed last request (after an error), optionally trimming the oldest turns first. */
  message('chat/retry', { trim: v.boolean(), options: chatOptions }),
] as const;
