// What the chat panel is told about the state around the conversation: the conversation itself, the list
// of saved ones, the model picker, the context meter and the project-instructions chips, all at once after
// the panel (re)loads. The controller decides when; this module knows how each is posted.
import * as vscode from 'vscode';
import type { Conversation } from '../../core/chat/conversation';
import { buildChatRequest } from '../../core/chat/requestBuilder';
import type { HostContext } from '../context';
import type { ServiceConnection } from '../service/connection';
import type { ConversationSession } from './conversationSession';
import type { ProjectInstructions } from './projectInstructions';
import { InstructionChips } from './instructionChips';
import { conversationView } from './messageView';
import { postModelPicker } from './modelPicker';
import { effectiveModel } from './modelResolution';
import type { PanelSink } from './turnTypes';

/** Posts the panel's state for the open conversation of `session`. */
export class ChatPanelState implements vscode.Disposable {
  /** The project instructions' chips, and their prompt section as last read for the meter. */
  readonly instructions: InstructionChips;
  private readonly modelChanged = new vscode.EventEmitter<string | undefined>();
  private readonly disposables: vscode.Disposable[] = [this.modelChanged];

  /** Fires with the model the picker shows whenever it is posted (switch, select, new, a new list). */
  readonly onDidChangeModel = this.modelChanged.event;

  constructor(
    private readonly host: HostContext,
    private readonly session: ConversationSession,
    private readonly connection: ServiceConnection,
    private readonly sink: PanelSink,
    instructions: ProjectInstructions,
    /** Whether the workspace is trusted now (Restricted Mode keeps every conversation in Plan). */
    private readonly trusted: () => boolean,
  ) {
    this.instructions = new InstructionChips(sink, instructions);
    this.disposables.push(
      // The instruction files (or which apply) changed: the chips and the meter follow.
      instructions.onDidChange(() => void this.instructionChips()),
      connection.onDidChangeModels(() => this.models()),
      // Trust granted: the mode switch unlocks (Restricted Mode kept the conversation in Plan).
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        if (this.session.open) this.conversation(this.session.open);
      }),
      // The default model is a setting: a conversation that has not chosen one shows the new default at once.
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('cadenza.chat.model')) this.models();
      }),
    );
  }

  /** Sends everything the panel needs after it (re)loads. */
  async showAll(): Promise<void> {
    const conversation = await this.session.current();
    this.conversation(conversation);
    await this.conversations();
    this.models();
    this.meter(conversation);
    void this.instructionChips();
    void this.connection.ensureModels();
  }

  /** Shows a conversation (its messages, options and summary). */
  conversation(conversation: Conversation): void {
    this.sink({ type: 'conversation/show', conversation: conversationView(conversation, this.trusted()) });
  }

  /** The saved conversations, the open one marked. */
  async conversations(): Promise<void> {
    this.sink({ type: 'state/conversations', ...(await this.session.list()) });
  }

  /** The model picker; the picker shows the model a message would use from the start, not an empty "choose" line. */
  models(): void {
    const selected = this.session.open?.model ?? effectiveModel(this.host, this.connection, undefined)?.id;
    this.modelChanged.fire(selected);
    postModelPicker(this.sink, this.connection.models, selected);
  }

  /** How full the conversation would fill the model's context now (sent on load, switch and new). */
  meter(conversation: Conversation): void {
    const { budget } = buildChatRequest(conversation, this.connection.model(conversation.model), this.instructions.withInstructions(conversation.options));
    this.sink({ type: 'context/meter', usedTokens: budget.usedTokens, limitTokens: budget.limitTokens, droppedMessages: budget.droppedCount });
  }

  /** Which instruction files apply and whether the open conversation uses them; updates the meter. */
  async instructionChips(): Promise<void> {
    this.meter(await this.instructions.post(() => this.session.current()));
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
