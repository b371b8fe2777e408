import * as vscode from 'vscode';
import type { Conversation, StoredUsage } from '../../core/chat/conversation';
import type { ModelChoice } from '../../core/chat/modelChoice';
import type { ImageAttachment } from '../../shared/protocol';
import type { ChatOptions } from '../../shared/views';
import type { HostContext } from '../context';
import type { PanelChannel } from '../panel/panelChannel';
import type { AgentService } from '../tools/agentService';
import { Answering } from './answering';
import { ChatTurns } from './chatTurns';
import { Condenser } from './condenser';
import type { ServiceConnection } from '../service/connection';
import type { MentionService } from './context/mentionService';
import { workspaceSearchProvider } from './context/systemProviders';
import { ConversationSession } from './conversationSession';
import { checkpointView } from './messageView';
import { effectiveModel, lastModelKey, resolveMessageModel } from './modelResolution';
import { ChatPanelState } from './panelState';
import type { ProjectInstructions } from './projectInstructions';
import type { MessageAudio, PanelSink, WorkspaceContextProvider } from './turnTypes';

/** What the chat panel's logic works with, built before it (activate() constructs in this order). */
export interface ChatDeps {
  /** The agent (tool loop, approvals, checkpoints, the VS Code tools). */
  readonly agent: AgentService;
  /** The project's instruction files (AGENTS.md, .cadenza/instructions.md…), applied to every conversation. */
  readonly instructions: ProjectInstructions;
  /** The composer's @-mentions, whose context a message carries. */
  readonly mentions: MentionService;
  /** The workspace index, used when a conversation's "workspace" toggle is on. */
  readonly workspaceContext: WorkspaceContextProvider;
}

/**
 * The chat panel's coordinator: it takes the panel's and the commands' requests (send, stop, regenerate,
 * edit, retry, switch, condense…) and hands each to the part that does it: the open conversation and its
 * storage (`ConversationSession`), what the panel is told (`ChatPanelState`), the running answer with its
 * context (`Answering`), condensing (`Condenser`). The user's text is saved before anything is sent, so no
 * error loses it.
 */
export class ChatController implements vscode.Disposable {
  private readonly session: ConversationSession;
  private readonly panel: ChatPanelState;
  private readonly answering: Answering;
  private readonly condenser: Condenser;
  private readonly turns: ChatTurns;
  private readonly sink: PanelSink;
  private readonly answered = new vscode.EventEmitter<StoredUsage>();
  private readonly disposables: vscode.Disposable[] = [];

  /** The agent (tool loop, approvals, checkpoints). */
  readonly agent: AgentService;
  /** Fires after each completed answer with its figures (the status bar sums the session's spend). */
  readonly onDidAnswer = this.answered.event;
  /** Fires when the open conversation's model changes (switch, select, new). */
  readonly onDidChangeModel: vscode.Event<string | undefined>;

  /** Where conversations are saved, one JSON file each (the integration suites look there). */
  get conversationsFolder(): string {
    return this.session.conversationsFolder;
  }

  constructor(private readonly host: HostContext, private readonly connection: ServiceConnection, channel: PanelChannel, deps: ChatDeps) {
    const sink: PanelSink = (message) => channel.post(message);
    this.sink = sink;
    this.agent = deps.agent;
    this.session = new ConversationSession(host);
    const panel = (this.panel = new ChatPanelState(host, this.session, connection, sink, deps.instructions));
    this.onDidChangeModel = panel.onDidChangeModel;
    const save = (conversation: Conversation): Promise<void> => this.session.save(conversation);
    const resolveModel = (conversation: Conversation, signal: AbortSignal): Promise<string | undefined> => this.resolveModel(conversation, signal);
    this.condenser = new Condenser({
      log: host.log, connection, sink, resolveModel, save,
      refresh: (conversation) => {
        if (conversation !== this.session.open) return;
        panel.conversation(conversation);
        panel.meter(conversation);
      },
    });
    this.answering = new Answering({
      log: host.log, connection, sink, resolveModel, save,
      agent: deps.agent,
      saveAtEnd: (conversation) => this.session.saveAtEnd(conversation),
      answered: (usage) => this.answered.fire(usage),
      meter: (conversation) => panel.meter(conversation),
      systemContext: (options) => [panel.instructions.provider(options), workspaceSearchProvider(deps.workspaceContext, options)],
      gathered: (options, gathered) => panel.instructions.remember(options, gathered.beforePrompt),
      autoCondense: (conversation, model, options, reserved, signal) => this.condenser.autoCondense(conversation, model, options, reserved, signal),
    });
    this.turns = new ChatTurns({ session: this.session, panel, answering: this.answering, connection, sink, mentions: deps.mentions, modelFor: (conversation) => this.effectiveModel(conversation)?.id });
    this.disposables.push(this.answered, panel);
    // Attachments left by conversations deleted in earlier sessions (or other windows) go a little after start.
    const collect = setTimeout(() => void this.session.collectAttachments(), 10_000);
    collect.unref();
    this.disposables.push({ dispose: () => clearTimeout(collect) });
  }

  /** Opens an instruction file the panel's chip names. */
  openInstructions(relativePath: string): Promise<void> {
    return this.panel.instructions.open(relativePath);
  }

  /** The open conversation, loading the last one (or starting a new one) on first use. */
  current(): Promise<Conversation> {
    return this.session.current();
  }

  /** The model a message sent now would use, from what is known now (undefined while nothing can be chosen). */
  effectiveModel(conversation: Conversation | undefined = this.session.open): ModelChoice | undefined {
    return effectiveModel(this.host, this.connection, conversation?.model);
  }

  /**
   * Resolves the conversation's model for a message (`modelResolution.ts`: its own choice, the setting, the
   * last model used, or the default among the listed chat models, waiting for the list if need be) and keeps
   * it with the conversation. Undefined, with the reason shown, only when no model can be chosen.
   */
  async resolveModel(conversation: Conversation, signal?: AbortSignal): Promise<string | undefined> {
    const choice = await resolveMessageModel(this.host, this.connection, this.sink, conversation.model, signal);
    if (!choice) return undefined;
    if (conversation.model !== choice.id) {
      conversation.model = choice.id;
      if (conversation === this.session.open) this.panel.models();
    }
    return choice.id;
  }

  /** Sends everything the panel needs after it (re)loads. */
  showAll(): Promise<void> {
    return this.panel.showAll();
  }

  /** Saves the open conversation again after a failed save (the panel's Save again under answer `messageId`). */
  async retrySave(messageId: string): Promise<boolean> {
    const error = await this.session.saveAtEnd(await this.current());
    this.sink({ type: 'chat/saveResult', messageId, ...(error !== undefined ? { error } : {}) });
    if (error === undefined) await this.panel.conversations();
    return error === undefined;
  }

  /** Adds a user message (image, audio, the @-mentions' context) and streams the answer (`chatTurns.ts`); resolves with its text. */
  send(text: string, options: ChatOptions, image?: ImageAttachment, audio?: MessageAudio, mentions: readonly string[] = []): Promise<string> {
    return this.turns.send(text, options, image, audio, mentions);
  }

  /** Starts a conversation about an audio file with an audio-reasoning model, and streams the answer to the question. */
  askAboutAudio(model: string, audio: MessageAudio, question: string): Promise<string> {
    return this.turns.askAboutAudio(model, audio, question);
  }

  /** Answers the last user message again, replacing the answer after it. */
  regenerate(options: ChatOptions): Promise<string> {
    return this.turns.regenerate(options);
  }

  /** Replaces a user message's text, drops everything after it, and answers again. */
  editResend(messageId: string, text: string, options: ChatOptions): Promise<string> {
    return this.turns.editResend(messageId, text, options);
  }

  /** Retries after an error (dropping the failed answer); `trim` first drops the oldest half of the history. */
  retry(trim: boolean, options: ChatOptions): Promise<string> {
    return this.turns.retry(trim, options);
  }

  /** Stops the running answer at once; the partial text stays, marked as stopped. */
  stop(): void {
    this.answering.stop();
  }

  /** Selects the conversation's model (from the panel or the quick pick). */
  async selectModel(modelId: string): Promise<void> {
    const conversation = await this.current();
    conversation.model = modelId;
    await this.host.extension.globalState.update(lastModelKey, modelId);
    await this.session.save(conversation);
    this.panel.models();
    // The meter's limit is the model's: another model, another limit.
    this.panel.meter(conversation);
  }

  /**
   * Condenses a conversation (the open one by default; `maxTokens`, the panel's, lets the summary run longer):
   * see `condenser.ts`; false, with the reason shown, when nothing was condensed.
   */
  async condense(conversation?: Conversation, signal?: AbortSignal, maxTokens?: number): Promise<boolean> {
    const target = conversation ?? (await this.current());
    return this.condenser.condense(target, signal, maxTokens ?? target.options.maxTokens);
  }

  /** Replaces the open conversation's summary with the user's edit. */
  async editSummary(summary: string): Promise<void> {
    await this.condenser.editSummary(await this.current(), summary);
  }

  /** Restores the files of an agent turn's checkpoint (asking first) and marks the turn as restored. */
  async restoreCheckpoint(id: string): Promise<boolean> {
    if ((await this.agent.checkpoints.restore(id)) !== 'restored') return false;
    const conversation = await this.current();
    const message = conversation.messages.find((entry) => entry.checkpoint?.id === id);
    if (message?.checkpoint) {
      message.checkpoint.restoredAt = Date.now();
      await this.session.save(conversation);
      this.sink({ type: 'checkpoint/update', messageId: message.id, checkpoint: checkpointView(message.checkpoint) });
    }
    return true;
  }

  /** Starts a new, empty conversation with the default model and options. */
  async newConversation(): Promise<void> {
    this.stop();
    await this.session.show(this.session.fresh());
    await this.showAll();
  }

  /** Opens a saved conversation. */
  async switchTo(id: string): Promise<void> {
    const loaded = await this.session.load(id);
    if (!loaded) return;
    this.stop();
    await this.session.show(loaded);
    await this.showAll();
  }

  /** Renames a conversation after asking for the title. */
  async rename(id: string, title?: string): Promise<void> {
    if (await this.session.rename(id, title)) await this.panel.conversations();
  }

  /** Deletes a conversation after confirmation (skipped when `confirmed`). */
  async delete(id: string, confirmed = false): Promise<void> {
    const deleted = await this.session.delete(id, confirmed);
    if (deleted === 'no') return;
    void this.session.collectAttachments();
    if (deleted === 'open') this.stop();
    await this.showAll();
  }

  /** The stored conversation, for export. */
  load(id: string): Promise<Conversation | undefined> {
    return this.session.load(id);
  }

  dispose(): void {
    this.stop();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
