// The window's open conversation and the saved ones: which is active (per window, in workspace state: two
// windows sharing one active id both saved into the same file), loading, saving, the list, renaming and
// deleting. The controller asks this module for the conversation and never touches the store itself.
import * as vscode from 'vscode';
import { newConversation, type Conversation } from '../../core/chat/conversation';
import { ConversationStore } from '../../core/chat/conversationStore';
import type { ConversationSummary } from '../../shared/views';
import type { HostContext } from '../context';
import { readChatDefaults } from '../settings';
import { readAgentSettings } from '../tools/agentSettings';

const activeKey = 'cadenza.chat.activeConversation';

/** The open conversation and the store of saved ones. */
export class ConversationSession {
  private readonly store: ConversationStore;
  /** Where conversations are saved, one JSON file each. */
  readonly conversationsFolder: string;
  /** The open conversation once loaded or started. */
  open: Conversation | undefined;

  constructor(private readonly host: HostContext) {
    this.conversationsFolder = vscode.Uri.joinPath(host.extension.globalStorageUri, 'conversations').fsPath;
    this.store = new ConversationStore(this.conversationsFolder);
  }

  /** The open conversation, loading the last one (or starting a new one) on first use. */
  async current(): Promise<Conversation> {
    if (this.open) return this.open;
    const id = this.host.extension.workspaceState.get<string>(activeKey);
    this.open = (id ? await this.store.load(id) : undefined) ?? this.fresh();
    return this.open;
  }

  /**
   * A new conversation with the default options and mode (`cadenza.agent.defaultMode`). Its model is not fixed here: the model list may not
   * have arrived yet. It is resolved when a message is sent.
   */
  fresh(): Conversation {
    const conversation = newConversation(undefined);
    conversation.options = { ...readChatDefaults().options };
    conversation.mode = readAgentSettings().defaultMode;
    return conversation;
  }

  /** Makes `conversation` the open one (new, switched to, or about audio) and remembers it for this window. */
  async show(conversation: Conversation): Promise<void> {
    this.open = conversation;
    await this.host.extension.workspaceState.update(activeKey, conversation.id);
  }

  async save(conversation: Conversation): Promise<void> {
    conversation.updatedAt = Date.now();
    await this.store.save(conversation);
    await this.host.extension.workspaceState.update(activeKey, conversation.id);
  }

  /**
   * The save at the end of an answer: never throws, so the answer still reaches the panel when the disk is
   * full or the folder cannot be written; resolves with what to show under the answer (and Save again).
   */
  async saveAtEnd(conversation: Conversation): Promise<string | undefined> {
    try {
      await this.save(conversation);
      return undefined;
    } catch (error) {
      const text = saveFailureText(error);
      this.host.log.error(`Could not save the conversation: ${error instanceof Error ? error.message : String(error)}`);
      return text;
    }
  }

  /** Removes attachment files no conversation references any more (see `ConversationStore.collectAttachments`); how many. */
  async collectAttachments(): Promise<number> {
    try {
      const { removed } = await this.store.collectAttachments();
      if (removed.length > 0) this.host.log.info(`Removed ${removed.length} attachment file(s) no conversation uses any more.`);
      return removed.length;
    } catch (error) {
      this.host.log.warn(`Could not clean up conversation attachments: ${String(error)}`);
      return 0;
    }
  }

  /** The saved conversations, with the open one first when it is not saved yet. */
  async list(): Promise<{ conversations: ConversationSummary[]; activeId: string }> {
    const conversation = await this.current();
    const saved = await this.store.list();
    const conversations = saved.some((entry) => entry.id === conversation.id)
      ? saved
      : [{ id: conversation.id, title: conversation.title, updatedAt: conversation.updatedAt }, ...saved];
    return { conversations, activeId: conversation.id };
  }

  /** A conversation by id: the open one, or the stored one. */
  async load(id: string): Promise<Conversation | undefined> {
    return id === this.open?.id ? this.open : this.store.load(id);
  }

  /** Renames a conversation after asking for the title (unless given); whether it was renamed. */
  async rename(id: string, title?: string): Promise<boolean> {
    const conversation = await this.load(id);
    if (!conversation) return false;
    const next =
      title ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Rename conversation'),
        value: conversation.title,
        validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('The title cannot be empty.')),
      }));
    if (!next?.trim()) return false;
    conversation.title = next.trim();
    conversation.titleSetByUser = true;
    await this.save(conversation);
    return true;
  }

  /** Deletes a conversation after confirmation (skipped when `confirmed`); 'open' when it was the open one. */
  async delete(id: string, confirmed: boolean): Promise<'no' | 'other' | 'open'> {
    if (!confirmed) {
      const remove = vscode.l10n.t('Delete');
      const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Delete this conversation?'), { modal: true }, remove);
      if (answer !== remove) return 'no';
    }
    await this.store.delete(id);
    if (id !== this.open?.id) return 'other';
    this.open = this.fresh();
    return 'open';
  }
}

/** What the panel says when a conversation could not be saved: the cause in words, and that the answer is only in the panel. */
export function saveFailureText(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  const cause =
    code === 'ENOSPC'
      ? 'the disk is full'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? vscode.l10n.t('the storage folder cannot be written')
        : error instanceof Error
          ? error.message
          : String(error);
  return vscode.l10n.t('This conversation could not be saved ({0}). The answer is shown here but not stored yet.', cause);
}
