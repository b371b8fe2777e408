/** The conversations: the open one shown whole, the list of saved ones, and the list's actions. */
import type { ConversationSummary, ConversationView } from '../views';
import { message, text } from './schema';

/** Host → webview. */
export type ConversationToWebview =
  /** The list of saved conversations and which one is open. */
  | { readonly type: 'state/conversations'; readonly conversations: readonly ConversationSummary[]; readonly activeId: string }
  /** The open conversation, whole: sent on switch, load, and after edits that change history. */
  | { readonly type: 'conversation/show'; readonly conversation: ConversationView };

/** Webview → host: the conversation list's actions. */
export const conversationFromWebview = [
  /** Start a new, empty conversation. */
  message('conversation/new', {}),
  /** Open a saved conversation. */
  message('conversation/switch', { id: text }),
  /** Rename a conversation (the host asks for the title). */
  message('conversation/rename', { id: text }),
  /** Delete a conversation (the host asks first). */
  message('conversation/delete', { id: text }),
  /** Open a conversation as a Markdown document. */
  message('conversation/export', { id: text }),
  /** Copy a conversation to the clipboard as Markdown (as the export renders it); the host says so with a notice. */
  message('conversation/copyMarkdown', { id: text }),
] as const;
