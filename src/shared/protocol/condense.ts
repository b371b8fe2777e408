/** Condensing: a model summarises a conversation's older turns, and the summary is sent instead of them. */
import { finite, message, optional, shortText } from './schema';

/** Webview → host (the panel is shown the summary with `conversation/show`). */
export const condenseFromWebview = [
  /** Condense the open conversation; `maxTokens` (the panel's option now) lets the summary run longer than the default. */
  message('chat/condense', { maxTokens: optional(finite) }),
  /** The user edited the open conversation's summary (at most 200,000 characters): it is sent from now on. */
  message('condense/edit', { summary: shortText(200_000) }),
] as const;
