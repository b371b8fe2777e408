import * as vscode from 'vscode';
import type { Conversation, StoredUsage } from '../../core/chat/conversation';
import type { ModelChoice } from '../../core/chat/modelChoice';
import type { HostContext } from '../context';
import type { PanelChannel } from '../panel/panelChannel';
import type { AgentService } from '../tools/agentService';
import { Answering } from '../../core/chat/answer/answering';
import { ChatTurns } from './chatTurns';
import { Condenser } from './condenser';
import type { ServiceConnection } from '../service/connection';
import type { MentionService } from './context/mentionService';
import { workspaceSearchProvider } from './context/systemProviders';
import { ConversationSession } from './conversationSession';
import { effectiveModel, lastModelKey, resolveMessageModel } from './modelResolution';
import { ChatPanelState } from './panelState';
import type { ProjectInstructions } from './projectInstructions';
import type { PanelSink, PanelTurnDeps, TurnOverrides, WorkspaceContextProvider } from './turnTypes';
import { answerInPanel } from './panelTurn';

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
 * The chat panel's logic: it builds the parts and holds them together, and does what takes several of them
 * (the model of a message, a new, opened or deleted conversation). The parts: the open conversation and its
 * storage (`session`), what the panel is told (`panel`), the running answer with its context (`answering`),
 * the ways to start one (`turns`: send, regenerate, edit, retry; the user's text is saved before anything is
 * sent, so no error loses it), condensing (`condenser`). The panel's handlers and the commands reach the
 * parts directly; nothing here only passes a call on.
 */
export class ChatController implements vscode.Disposable {
  /** The open conversation and its storage. */
  readonly session: ConversationSession;
  /** What the panel is told about the state around the conversation. */
  readonly panel: ChatPanelState;
  /** The conversation's one running answer (stop). */
  readonly answering: Answering<TurnOverrides>;
  /** Condensing a conversation, and the user's edits of its summary. */
  readonly condenser: Condenser;
  /** The ways to start an answer: send, ask about audio, regenerate, edit and resend, retry. */
  readonly turns: ChatTurns;
  private readonly sink: PanelSink;
  private readonly answered = new vscode.EventEmitter<StoredUsage>();
  private readonly disposables: vscode.Disposable[] = [];

  /** Fires after each completed answer with its figures (the status bar sums the session's spend). */
  readonly onDidAnswer = this.answered.event;
  /** Fires when the open conversation's model changes (switch, select, new). */
  readonly onDidChangeModel: vscode.Event<string | undefined>;

  /** Where conversations are saved, one JSON file each (the integration suites look there). */
  get conversationsFolder(): string {
    return this.session.conversationsFolder;
  }

  constructor(
    private readonly host: HostContext,
    private readonly connection: ServiceConnection,
    channel: PanelChannel,
    deps: ChatDeps,
  ) {
    const sink: PanelSink = (message) => channel.post(message);
    this.sink = sink;
    this.session = new ConversationSession(host);
    const panel = (this.panel = new ChatPanelState(host, this.session, connection, sink, deps.instructions, () => deps.agent.port.isTrusted()));
    this.onDidChangeModel = panel.onDidChangeModel;
    const save = (conversation: Conversation): Promise<void> => this.session.save(conversation);
    const resolveModel = (conversation: Conversation, signal: AbortSignal): Promise<string | undefined> => this.resolveModel(conversation, signal);
    this.condenser = new Condenser({
      log: host.log,
      connection,
      sink,
      resolveModel,
      save,
      refresh: (conversation) => {
        if (conversation !== this.session.open) return;
        panel.conversation(conversation);
        panel.meter(conversation);
      },
    });
    const turnDeps: PanelTurnDeps = {
      log: host.log,
      connection,
      sink,
      resolveModel,
      save,
      agent: deps.agent,
      saveAtEnd: (conversation) => this.session.saveAtEnd(conversation),
      answered: (usage) => this.answered.fire(usage),
      meter: (conversation) => panel.meter(conversation),
      systemContext: (options) => [panel.instructions.provider(options), workspaceSearchProvider(deps.workspaceContext, options)],
      gathered: (options, gathered) => panel.instructions.remember(options, gathered.beforePrompt),
      autoCondense: (conversation, model, options, reserved, signal) => this.condenser.autoCondense(conversation, model, options, reserved, signal),
    };
    this.answering = new Answering<TurnOverrides>((conversation, signal, overrides) => answerInPanel(turnDeps, conversation, signal, overrides));
    this.turns = new ChatTurns({
      session: this.session,
      panel,
      answering: this.answering,
      connection,
      sink,
      mentions: deps.mentions,
      modelFor: (conversation) => this.effectiveModel(conversation)?.id,
    });
    this.disposables.push(this.answered, panel);
    // Attachments left by conversations deleted in earlier sessions (or other windows) go a little after start.
    const collect = setTimeout(() => void this.session.collectAttachments(), 10_000);
    collect.unref();
    this.disposables.push({ dispose: () => clearTimeout(collect) });
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

  /** Starts a new, empty conversation with the default model and options. */
  async newConversation(): Promise<void> {
    this.answering.stop();
    await this.session.show(this.session.fresh());
    await this.panel.showAll();
  }

  /** Opens a saved conversation. */
  async switchTo(id: string): Promise<void> {
    const loaded = await this.session.load(id);
    if (!loaded) return;
    this.answering.stop();
    await this.session.show(loaded);
    await this.panel.showAll();
  }

  /** Deletes a conversation after confirmation (skipped when `confirmed`). */
  async delete(id: string, confirmed = false): Promise<void> {
    const deleted = await this.session.delete(id, confirmed);
    if (deleted === 'no') return;
    void this.session.collectAttachments();
    if (deleted === 'open') this.answering.stop();
    await this.panel.showAll();
  }

  dispose(): void {
    this.answering.stop();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
