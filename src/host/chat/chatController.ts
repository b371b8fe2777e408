import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { ModelInfo } from '../../core/api/types';
import { titleFromText, type Conversation, type StoredMessage, type StoredOptions, type StoredUsage } from '../../core/chat/conversation';
import type { ModelChoice } from '../../core/chat/modelChoice';
import { joinSections } from '../../core/chat/context/contextProvider';
import { buildChatRequest, normaliseOptions } from '../../core/chat/requestBuilder';
import type { ImageAttachment } from '../../shared/protocol';
import type { ChatOptions } from '../../shared/views';
import type { HostContext } from '../context';
import type { ServiceConnection } from './connection';
import type { AgentService } from '../tools/agentService';
import type { MessageAudio, PanelSink, WorkspaceContextProvider } from './turnTypes';
import type { Mentions } from './context/mentions';
import { instructionsProvider, workspaceSearchProvider } from './context/systemProviders';
import { applySystemContext, gatherContext, roomTokens } from './context/turnContext';
import { ConversationSession } from './conversationSession';
import { conversationView, toView } from './messageView';
import { errorView, modelView } from './presenters';
import { readAutoCondense, summariseOlderTurns } from './condenser';
import { needsCondensing } from '../../core/chat/condense';
import type { ProjectInstructions } from './projectInstructions';
import { effectiveModel, lastModelKey, resolveMessageModel } from './modelResolution';
import { runTurn } from './turnRunner';

export type { PanelSink, WorkspaceContext, WorkspaceContextProvider } from './turnTypes';

interface Running {
  readonly messageId: string;
  readonly controller: AbortController;
  readonly done: Promise<string>;
}

/**
 * The chat panel's logic: the open conversation, sending with the context budget, streaming answers
 * to the panel, stop/regenerate/edit/retry, and persistence. The user's text is saved before anything
 * is sent, so no error loses it.
 */
export class ChatController implements vscode.Disposable {
  private readonly session: ConversationSession;
  /** Where conversations are saved, one JSON file each (the integration suites look there). */
  get conversationsFolder(): string {
    return this.session.conversationsFolder;
  }
  private running: Running | undefined;
  private workspaceContext: WorkspaceContextProvider | undefined;
  private instructions: ProjectInstructions | undefined;
  private mentions: Mentions | undefined;
  /** The instructions' prompt section as last read, so the meter (which is synchronous) counts it. */
  private instructionsPrompt = '';
  private readonly disposables: vscode.Disposable[] = [];
  private readonly answered = new vscode.EventEmitter<StoredUsage>();
  private readonly modelChanged = new vscode.EventEmitter<string | undefined>();

  /** Fires after each completed answer with its figures (the status bar sums the session's spend). */
  readonly onDidAnswer = this.answered.event;
  /** Fires when the open conversation's model changes (switch, select, new). */
  readonly onDidChangeModel = this.modelChanged.event;

  constructor(private readonly host: HostContext, private readonly connection: ServiceConnection, private readonly sink: PanelSink) {
    this.session = new ConversationSession(host);
    this.disposables.push(
      this.answered,
      this.modelChanged,
      connection.onDidChangeModels(() => this.postModels()),
      // The default model is a setting: a conversation that has not chosen one shows the new default at once.
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('cadenza.chat.model')) this.postModels();
      }),
    );
    // Attachments left by conversations deleted in earlier sessions (or other windows) go a little after start.
    const collect = setTimeout(() => void this.collectAttachments(), 10_000);
    collect.unref();
    this.disposables.push({ dispose: () => clearTimeout(collect) });
  }

  /** Removes attachment files no conversation references any more (see `ConversationStore.collectAttachments`). */
  async collectAttachments(): Promise<number> {
    try {
      const { removed } = await this.session.collectAttachments();
      if (removed.length > 0) this.host.log.info(`Removed ${removed.length} attachment file(s) no conversation uses any more.`);
      return removed.length;
    } catch (error) {
      this.host.log.warn(`Could not clean up conversation attachments: ${String(error)}`);
      return 0;
    }
  }

  /** The agent (tool loop, approvals); undefined until attached. */
  agent: AgentService | undefined;

  /** Connects the project's instruction files (AGENTS.md, .cadenza/instructions.md…), applied to every conversation. */
  attachInstructions(instructions: ProjectInstructions): void {
    this.instructions = instructions;
    this.disposables.push(instructions.onDidChange(() => void this.postInstructions()));
  }

  /** Opens an instruction file the panel's chip names. */
  async openInstructions(relativePath: string): Promise<void> {
    await this.instructions?.open(relativePath);
  }

  /** Tells the panel which instruction files apply and whether this conversation uses them; updates the meter. */
  private async postInstructions(): Promise<void> {
    if (!this.instructions) return;
    const applied = await this.instructions.current();
    this.instructionsPrompt = applied.prompt;
    const conversation = await this.current();
    this.sink({ type: 'state/instructions', files: applied.files.map((file) => ({ path: file.path, tokens: file.tokens, cut: file.cut })), enabled: conversation.options.useInstructions !== false, untrusted: applied.untrusted });
    this.postMeter(conversation);
  }

  /** The options with the project instructions as last read before the user's own system prompt, for the meter. */
  private withInstructions(options: StoredOptions, prompt: string): StoredOptions {
    if (options.useInstructions === false || prompt === '') return options;
    return { ...options, systemPrompt: joinSections([prompt, options.systemPrompt]) };
  }

  /** Connects the composer's @-mentions, whose context a message carries. */
  attachMentions(mentions: Mentions): void {
    this.mentions = mentions;
  }

  /** Connects the workspace index, used when a conversation's "workspace" toggle is on. */
  attachWorkspaceContext(provider: WorkspaceContextProvider): void {
    this.workspaceContext = provider;
  }

  /** The open conversation, loading the last one (or starting a new one) on first use. */
  current(): Promise<Conversation> {
    return this.session.current();
  }

  private get conversation(): Conversation | undefined {
    return this.session.open;
  }

  /** The model a message sent now would use, from what is known now (undefined while nothing can be chosen). */
  effectiveModel(conversation: Conversation | undefined = this.conversation): ModelChoice | undefined {
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
      if (conversation === this.conversation) this.postModels();
    }
    return choice.id;
  }

  /** Sends everything the panel needs after it (re)loads. */
  async showAll(): Promise<void> {
    const conversation = await this.current();
    this.sink({ type: 'conversation/show', conversation: conversationView(conversation) });
    await this.postConversations();
    this.postModels();
    this.postMeter(conversation);
    void this.postInstructions();
    void this.connection.ensureModels();
  }

  /** How full the open conversation would fill the model's context now (sent on load, switch and new). */
  private postMeter(conversation: Conversation): void {
    const { budget } = buildChatRequest(conversation, this.connection.model(conversation.model), this.withInstructions(conversation.options, this.instructionsPrompt));
    this.sink({ type: 'context/meter', usedTokens: budget.usedTokens, limitTokens: budget.limitTokens, droppedMessages: budget.droppedCount });
  }

  private async postConversations(): Promise<void> {
    this.sink({ type: 'state/conversations', ...(await this.session.list()) });
  }

  private postModels(): void {
    const state = this.connection.models;
    // The picker shows the model a message would use from the start, not an empty "choose" line.
    const selected = this.conversation?.model ?? this.effectiveModel()?.id;
    this.modelChanged.fire(selected);
    this.sink({
      type: 'state/models',
      models: state.models.map(modelView),
      selected,
      loading: state.loading,
      ...(state.error !== undefined ? { error: errorView(state.error) } : {}),
    });
    // A model the service no longer lists is reported, never silently replaced (models retire).
    if (selected && !state.loading && state.models.length > 0 && !state.models.some((model) => model.id === selected)) {
      this.sink({ type: 'notice', level: 'warning', text: `The model ${selected} is no longer offered by the service. Pick another model to continue this conversation.` });
    }
  }

  private save(conversation: Conversation): Promise<void> {
    return this.session.save(conversation);
  }

  /**
   * The save at the end of an answer: never throws, so the answer still reaches the panel when the disk is
   * full or the folder cannot be written; resolves with what to show under the answer (and Save again).
   */
  private async saveAtEnd(conversation: Conversation): Promise<string | undefined> {
    try {
      await this.save(conversation);
      return undefined;
    } catch (error) {
      const text = saveFailureText(error);
      this.host.log.error(`Could not save the conversation: ${error instanceof Error ? error.message : String(error)}`);
      return text;
    }
  }

  /** Saves the open conversation again after a failed save (the panel's Save again under answer `messageId`). */
  async retrySave(messageId: string): Promise<boolean> {
    const conversation = await this.current();
    const error = await this.saveAtEnd(conversation);
    this.sink({ type: 'chat/saveResult', messageId, ...(error !== undefined ? { error } : {}) });
    if (error === undefined) await this.postConversations();
    return error === undefined;
  }

  /**
   * Adds a user message (with an optional image, or audio, which makes the conversation one answered by
   * audio reasoning, and the context of the @-mentions named by their chips' tokens, stored with it) and
   * streams the answer; resolves with the answer text (empty on error).
   */
  async send(text: string, options: ChatOptions, image?: ImageAttachment, audio?: MessageAudio, mentions: readonly string[] = []): Promise<string> {
    const conversation = await this.current();
    const message: StoredMessage = { id: randomUUID(), role: 'user', text, createdAt: Date.now(), ...(image ? { imageDataUrl: image.dataUrl } : {}), ...(audio ? { audio } : {}) };
    if (!conversation.titleSetByUser && !conversation.messages.some((entry) => entry.role === 'user')) conversation.title = titleFromText(text.trim() || (audio?.name ?? ''));
    this.applyOptions(conversation, options);
    if (this.mentions && mentions.length > 0) {
      const room = roomTokens(this.connection.model(this.effectiveModel(conversation)?.id), conversation.options);
      const gathered = await gatherContext([this.mentions.provider(mentions)], text, room, this.sink, new AbortController().signal);
      if (gathered.message.length > 0) message.context = gathered.message;
    }
    conversation.messages.push(message);
    await this.save(conversation);
    this.sink({ type: 'message/add', message: toView(message) });
    await this.postConversations();
    return this.answer(conversation);
  }

  /**
   * Starts a conversation about an audio file with an audio-reasoning model, and streams the answer to
   * the question; later messages in the same conversation go on with the same audio.
   */
  async askAboutAudio(model: string, audio: { name: string; dataUrl: string }, question: string): Promise<string> {
    this.stop();
    const conversation = this.session.fresh();
    conversation.model = model;
    conversation.title = titleFromText(`${audio.name}: ${question}`);
    conversation.titleSetByUser = true;
    const message: StoredMessage = { id: randomUUID(), role: 'user', text: question, audio, createdAt: Date.now() };
    conversation.messages.push(message);
    await this.session.show(conversation);
    await this.save(conversation);
    await this.showAll();
    return this.answer(conversation);
  }

  /** Answers the last user message again, replacing the answer after it. */
  async regenerate(options: ChatOptions): Promise<string> {
    const conversation = await this.current();
    this.applyOptions(conversation, options);
    while (conversation.messages.at(-1)?.role === 'assistant') conversation.messages.pop();
    await this.save(conversation);
    this.postConversation(conversation);
    return this.answer(conversation);
  }

  /** Replaces a user message's text, drops everything after it, and answers again. */
  async editResend(messageId: string, text: string, options: ChatOptions): Promise<string> {
    const conversation = await this.current();
    const index = conversation.messages.findIndex((message) => message.id === messageId && message.role === 'user');
    const target = conversation.messages[index];
    if (!target) return '';
    target.text = text;
    conversation.messages.splice(index + 1);
    this.applyOptions(conversation, options);
    await this.save(conversation);
    this.postConversation(conversation);
    return this.answer(conversation);
  }

  /** Retries after an error (dropping the failed answer); `trim` first drops the oldest half of the history. */
  async retry(trim: boolean, options: ChatOptions): Promise<string> {
    const conversation = await this.current();
    while (conversation.messages.at(-1)?.role === 'assistant') conversation.messages.pop();
    if (trim) {
      const droppable = conversation.messages.length - 1;
      const drop = Math.max(1, Math.floor(droppable / 2));
      if (droppable > 0) conversation.messages.splice(0, drop);
    }
    this.applyOptions(conversation, options);
    await this.save(conversation);
    this.postConversation(conversation);
    return this.answer(conversation);
  }

  /** Stops the running answer at once; the partial text stays, marked as stopped. */
  stop(): void {
    this.running?.controller.abort();
  }

  private postConversation(conversation: Conversation): void {
    this.sink({ type: 'conversation/show', conversation: conversationView(conversation) });
  }

  private applyOptions(conversation: Conversation, options: ChatOptions): void {
    const { stop, ...rest } = options;
    const stored: StoredOptions = { ...rest, ...(stop ? { stop: [...stop] } : {}) };
    const { options: fixed, problems } = normaliseOptions(stored, this.connection.model(conversation.model));
    conversation.options = fixed;
    for (const problem of problems) this.sink({ type: 'notice', level: 'warning', text: problem.message });
  }

  /** Selects the conversation's model (from the panel or the quick pick). */
  async selectModel(modelId: string): Promise<void> {
    const conversation = await this.current();
    conversation.model = modelId;
    await this.host.extension.globalState.update(lastModelKey, modelId);
    await this.save(conversation);
    this.postModels();
    // The meter's limit is the model's: another model, another limit.
    this.postMeter(conversation);
  }

  private async answer(conversation: Conversation): Promise<string> {
    if (this.running) {
      this.running.controller.abort();
      await this.running.done.catch(() => undefined);
    }
    const controller = new AbortController();
    const resolving = this.resolveModel(conversation, controller.signal);
    // Stop works while the model list is awaited, too.
    this.running = { messageId: '', controller, done: resolving.then(() => '') };
    const modelId = await resolving;
    if (modelId === undefined || controller.signal.aborted) {
      if (this.running.controller === controller) this.running = undefined;
      return '';
    }
    const model: ModelInfo | undefined = this.connection.model(modelId);
    const reply: StoredMessage = { id: randomUUID(), role: 'assistant', text: '', createdAt: Date.now(), model: modelId };
    const done = this.stream(conversation, model, reply, controller);
    this.running = { messageId: reply.id, controller, done };
    try {
      return await done;
    } finally {
      if (this.running?.messageId === reply.id) this.running = undefined;
    }
  }

  /** Gathers the turn's system-prompt context (instructions, workspace search) and runs the answer. */
  private async stream(conversation: Conversation, model: ModelInfo | undefined, reply: StoredMessage, controller: AbortController): Promise<string> {
    const options = conversation.options;
    const question = [...conversation.messages].reverse().find((message) => message.role === 'user')?.text ?? '';
    const providers = [instructionsProvider(this.instructions, options), workspaceSearchProvider(this.workspaceContext, options)];
    const gathered = await gatherContext(providers, question, roomTokens(model, options), this.sink, controller.signal);
    if (options.useInstructions !== false) this.instructionsPrompt = gathered.beforePrompt.map((part) => part.text).join('\n\n');
    const turnHost = { log: this.host.log, connection: this.connection, sink: this.sink, agent: this.agent, save: (changed: Conversation) => this.save(changed), saveAtEnd: (changed: Conversation) => this.saveAtEnd(changed), answered: (usage: StoredUsage) => this.answered.fire(usage), postMeter: (changed: Conversation) => this.postMeter(changed), beforeRequest: (changed: Conversation, options: StoredOptions, reserved: number) => this.autoCondense(changed, model, options, reserved, controller.signal) };
    return runTurn(turnHost, conversation, model, reply, applySystemContext(options, gathered, reply), controller);
  }

  /**
   * Condenses the open conversation: a model summarises the older turns, the summary is stored with it and
   * sent instead of them from now on, and the panel shows it (editable) with the whole history. Resolves false
   * (with the reason shown) when there is nothing older to condense or the request failed.
   */
  async condense(conversation?: Conversation, signal: AbortSignal = new AbortController().signal): Promise<boolean> {
    const target = conversation ?? (await this.current());
    if (!target.model && (await this.resolveModel(target, signal)) === undefined) return false;
    this.sink({ type: 'notice', level: 'info', text: 'Condensing the older turns of this conversation…' });
    try {
      const condensed = await summariseOlderTurns(this.connection, target, signal);
      if (!condensed) {
        this.sink({ type: 'notice', level: 'info', text: 'Nothing to condense yet: only the newest two turns are there, and they are always sent whole.' });
        return false;
      }
      target.condensed = condensed;
      await this.save(target);
      if (target === this.conversation) {
        this.postConversation(target);
        this.postMeter(target);
      }
      this.host.log.info(`Condensed ${condensed.messageCount} messages with ${condensed.model} into ${condensed.summary.length} characters.`);
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      const view = errorView(error);
      this.host.log.warn(`Condensing failed (${view.reason}): ${view.message}`);
      this.sink({ type: 'notice', level: 'warning', text: `The conversation could not be condensed: ${view.message} The oldest turns are left out instead.` });
      return false;
    }
  }

  /** Replaces the open conversation's summary with the user's edit. */
  async editSummary(summary: string): Promise<void> {
    const conversation = await this.current();
    if (!conversation.condensed || summary.trim() === '') return;
    conversation.condensed.summary = summary.trim();
    conversation.condensed.edited = true;
    await this.save(conversation);
    this.postConversation(conversation);
    this.postMeter(conversation);
  }

  /** With `cadenza.chat.autoCondense`, condenses before a request that would drop turns or cross the threshold. */
  private async autoCondense(conversation: Conversation, model: ModelInfo | undefined, options: StoredOptions, reserved: number, signal: AbortSignal): Promise<void> {
    const auto = readAutoCondense();
    if (!auto.enabled || conversation.messages.some((message) => message.audio !== undefined)) return;
    const { budget } = buildChatRequest(conversation, model, options, reserved);
    if (needsCondensing(budget, auto.threshold)) await this.condense(conversation, signal);
  }

  /** Restores the files of an agent turn's checkpoint (asking first) and marks the turn as restored. */
  async restoreCheckpoint(id: string): Promise<boolean> {
    if (!this.agent || (await this.agent.checkpoints.restore(id)) !== 'restored') return false;
    const conversation = await this.current();
    const message = conversation.messages.find((entry) => entry.checkpoint?.id === id);
    if (message?.checkpoint) {
      message.checkpoint.restoredAt = Date.now();
      await this.save(conversation);
      this.sink({ type: 'checkpoint/update', messageId: message.id, checkpoint: message.checkpoint });
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
    if (await this.session.rename(id, title)) await this.postConversations();
  }

  /** Deletes a conversation after confirmation (skipped when `confirmed`). */
  async delete(id: string, confirmed = false): Promise<void> {
    const deleted = await this.session.delete(id, confirmed);
    if (deleted === 'no') return;
    void this.collectAttachments();
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

/** What the panel says when a conversation could not be saved: the cause in words, and that the answer is only in the panel. */
export function saveFailureText(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  const cause = code === 'ENOSPC' ? 'the disk is full'
    : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'the storage folder cannot be written'
    : error instanceof Error ? error.message : String(error);
  return `This conversation could not be saved (${cause}). The answer is shown here but not stored yet.`;
}
