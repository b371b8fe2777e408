/**
 * The typed message protocol between the host (extension) and the webview (chat panel), assembled from its
 * features' declarations in `protocol/<feature>.ts`. `ToWebview` is sent by the host; `FromWebview` by the
 * webview, and checked at run time by `isFromWebview` from the same declarations (`protocol/schema.ts`).
 * Names are namespaced (`area/verb`). The webview sends `ready` first; the host queues everything until then.
 * A streamed answer is zero or more `chat/delta` messages followed by exactly one `chat/done` for the same
 * `messageId`. A new feature adds its file's two lists here, one line each.
 */
import * as v from 'valibot';
import { agentFromWebview, type AgentToWebview } from './protocol/agent';
import { attachmentsFromWebview, type AttachmentsToWebview } from './protocol/attachments';
import { chatFromWebview, type ChatToWebview } from './protocol/chat';
import { checkpointFromWebview, type CheckpointToWebview } from './protocol/checkpoint';
import { codeFromWebview, type CodeToWebview } from './protocol/code';
import { condenseFromWebview } from './protocol/condense';
import { conversationFromWebview, type ConversationToWebview } from './protocol/conversation';
import { instructionsFromWebview, type InstructionsToWebview } from './protocol/instructions';
import { mentionFromWebview, type MentionToWebview } from './protocol/mention';
import { modelFromWebview, type ModelToWebview } from './protocol/model';
import { panelFromWebview, type PanelToWebview } from './protocol/panel';
import { promptsFromWebview, type PromptsToWebview } from './protocol/prompts';

export type { ApprovalDecision } from './protocol/agent';
export type { AudioAttachment, ImageAttachment } from './protocol/attachments';
export { isChatOptions, type JsonCheckView } from './protocol/chat';
export type { InstructionView } from './protocol/instructions';
export type { ConnectionState, PanelAction } from './protocol/panel';
export type { PromptCandidate } from './protocol/prompts';

/** Host → webview. */
export type ToWebview =
  | PanelToWebview
  | ChatToWebview
  | ConversationToWebview
  | ModelToWebview
  | CodeToWebview
  | AttachmentsToWebview
  | MentionToWebview
  | AgentToWebview
  | CheckpointToWebview
  | InstructionsToWebview
  | PromptsToWebview;

/** Every message the webview may send, as one schema keyed on `type`. */
const fromWebview = v.variant('type', [
  ...panelFromWebview,
  ...chatFromWebview,
  ...conversationFromWebview,
  ...modelFromWebview,
  ...codeFromWebview,
  ...attachmentsFromWebview,
  ...mentionFromWebview,
  ...agentFromWebview,
  ...checkpointFromWebview,
  ...condenseFromWebview,
  ...instructionsFromWebview,
  ...promptsFromWebview,
]);

/** Webview → host. */
export type FromWebview = v.InferOutput<typeof fromWebview>;

/** One message the webview sends, by its type. */
export type FromWebviewOf<K extends FromWebview['type']> = Extract<FromWebview, { readonly type: K }>;

/** One message the host sends, by its type. */
export type ToWebviewOf<K extends ToWebview['type']> = Extract<ToWebview, { readonly type: K }>;

type Declaration = (typeof fromWebview.options)[number];

/**
 * The message that answers request `K` (`never` for a message that is not a request): a request's
 * declaration names it (`request(type, fields, reply)` in `protocol/schema.ts`).
 */
export type ReplyTo<K extends FromWebview['type']> =
  Extract<Declaration, { readonly entries: { readonly type: v.LiteralSchema<K, undefined> } }> extends { readonly reply: infer R extends ToWebview['type'] }
    ? ToWebviewOf<R>
    : never;

/** Type guard for everything that arrives from the webview: it is untrusted input. */
export function isFromWebview(value: unknown): value is FromWebview {
  return v.is(fromWebview, value);
}
