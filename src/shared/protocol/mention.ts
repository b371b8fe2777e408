/** @-mentions in the composer: the `@` list's offers for what was typed, and a picked offer resolved into its chip. */
import { mentionCandidate, type MentionCandidate, type MentionChip } from '../mentionCandidates';
import { request, shortText } from './schema';
import * as v from 'valibot';

/** Host → webview. */
export type MentionToWebview =
  /** The offers of the `@` list for the query of `mention/query` with the same `requestId` (best first). */
  | { readonly type: 'mention/candidates'; readonly requestId: number; readonly query: string; readonly candidates: readonly MentionCandidate[] }
  /** A picked mention, resolved: the composer shows its chip (what it adds, its token cost) and sends its token with `chat/send`. */
  | { readonly type: 'composer/mention'; readonly mention: MentionChip };

/** Webview → host. */
export const mentionFromWebview = [
  /** What was typed after `@` (at most 500 characters). */
  request('mention/query', { requestId: v.number(), query: shortText(500) }, 'mention/candidates'),
  /** The user picked an offer of the `@` list: the host resolves it into a chip. */
  request('mention/attach', { candidate: mentionCandidate }, 'composer/mention'),
] as const;
