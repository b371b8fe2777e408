// One answer of the chat panel with the agent, as the panel shows and stores it: the turn's events
// (../runTurn.ts runs the tool loop) become the panel's messages and the stored conversation. Each request
// to the model is its own assistant message (text streamed as `chat/delta`, its tool calls as `tool/call`
// cards, closed by `chat/done`), saved with its calls and their results so a reload shows the cards and the
// history sent again stays valid. What it needs of the agent (checkpoints, Restricted Mode, the words under
// a step) is a port the host gives (host/chat/agentTurn.ts).
import { randomUUID } from 'node:crypto';
import type { ModelInfo } from '../../api/types';
import type { CheckpointView, ToolCallView } from '../../../shared/views';
import type { Conversation, StoredMessage, StoredToolCall } from '../conversation';
import type { TurnEvent } from '../runTurn';
import type { ToolsWithheld } from '../toolLoop';
import type { AnswerDeps } from './answerDeps';
import { storedCall, toolCallView } from './storedCall';
import { storedUsage } from './storedUsage';

/** A turn's checkpoint as the conversation stores it. */
export type StoredCheckpoint = NonNullable<StoredMessage['checkpoint']>;

/** What an agent answer needs of the agent. */
export interface AgentAnswerRun {
  /** Said once before the turn when the workspace is restricted. */
  restrictedNotice(): string | undefined;
  /** Stores the checkpoint of the files the turn changed, under the message `messageId`; undefined when it changed none. */
  finishCheckpoint(messageId: string): Promise<StoredCheckpoint | undefined>;
  /** The checkpoint as the panel shows it. */
  checkpointView(checkpoint: StoredCheckpoint): CheckpointView;
  /** The text under an answer that hit the step limit. */
  stepLimitText(steps: number): string;
  /** The note under a step whose answer was asked for with no tools offered, and why. */
  withoutToolsText(reason: ToolsWithheld): string;
}

/** Shows and stores one agent answer from its events; never throws (errors and stops are shown on the step they hit). */
export class AgentAnswer {
  /** The step being streamed: the first is the reply already shown. */
  private current: StoredMessage;
  private pendingText = '';
  private pendingThought = '';
  private thinkingFrom: number | undefined;
  private readonly pendingCards = new Map<number, ToolCallView>();
  private readonly forming = new Map<number, ToolCallView>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: AnswerDeps,
    private readonly conversation: Conversation,
    reply: StoredMessage,
    private readonly model: ModelInfo | undefined,
    private readonly run: AgentAnswerRun,
  ) {
    this.current = reply;
  }

  /** The message of the step being streamed (approvals and retries are shown on it). */
  get messageId(): string {
    return this.current.id;
  }

  /** The turn starts: a restricted workspace is said first. */
  start(): void {
    const restricted = this.run.restrictedNotice();
    if (restricted) this.deps.sink({ type: 'notice', level: 'info', text: restricted });
  }

  /** Text and forming cards are coalesced for two frames (~32 ms), as in a plain answer. */
  private flush(): void {
    const { sink } = this.deps;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingThought !== '') sink({ type: 'chat/reasoning', messageId: this.current.id, text: this.pendingThought });
    this.pendingThought = '';
    if (this.pendingText !== '') sink({ type: 'chat/delta', messageId: this.current.id, text: this.pendingText });
    this.pendingText = '';
    for (const call of this.pendingCards.values()) sink({ type: 'tool/call', messageId: this.current.id, call });
    this.pendingCards.clear();
  }

  private later(): void {
    this.timer ??= setTimeout(() => this.flush(), 32);
  }

  private postCall(index: number, call: StoredToolCall): void {
    this.flush();
    this.deps.sink({ type: 'tool/call', messageId: this.current.id, call: toolCallView(call, index) });
  }

  private saveQuietly(): void {
    void this.deps.save(this.conversation).catch((error: unknown) => this.deps.log.warn(`Could not save the conversation: ${String(error)}`));
  }

  /** One event of the turn, before its end. */
  event(event: TurnEvent): void {
    const { sink } = this.deps;
    const conversation = this.conversation;
    switch (event.type) {
      case 'step':
        this.thinkingFrom = undefined;
        if (event.step === 1) return;
        {
          this.flush();
          const previous = this.current;
          const next: StoredMessage = {
            id: randomUUID(),
            role: 'assistant',
            text: '',
            createdAt: Date.now(),
            ...(conversation.model ? { model: conversation.model } : {}),
            ...(previous.mode ? { mode: previous.mode } : {}),
          };
          if (event.withoutTools) next.agentStop = this.run.withoutToolsText(event.withoutTools);
          this.current = next;
          conversation.messages.push(next);
          this.forming.clear();
          // The next step opens before the previous one closes, so the panel stays "streaming" throughout.
          sink({
            type: 'message/add',
            message: {
              id: next.id,
              role: 'assistant',
              text: '',
              streaming: true,
              ...(next.model ? { model: next.model } : {}),
              ...(next.mode ? { mode: next.mode } : {}),
            },
          });
          sink({
            type: 'chat/done',
            messageId: previous.id,
            stopped: false,
            ...(previous.usage ? { usage: previous.usage } : {}),
            ...(previous.reasoning ? { reasoningMs: previous.reasoning.ms } : {}),
            ...(previous.sources ? { sources: previous.sources } : {}),
          });
        }
        return;
      case 'text':
        if (this.thinkingFrom !== undefined && this.current.reasoning) this.current.reasoning.ms = Date.now() - this.thinkingFrom;
        this.thinkingFrom = undefined;
        this.pendingText += event.text;
        this.current.text += event.text;
        this.later();
        return;
      case 'thinking':
        // Each step keeps its own thinking, apart from its text; it is never sent back to the model.
        this.thinkingFrom ??= Date.now();
        this.current.reasoning = { text: (this.current.reasoning?.text ?? '') + event.text, ms: Date.now() - this.thinkingFrom };
        this.pendingThought += event.text;
        this.later();
        return;
      case 'toolCallForming': {
        const view: ToolCallView = { index: event.index, id: event.id ?? '', name: event.name ?? '', arguments: event.arguments, status: 'forming' };
        this.forming.set(event.index, view);
        this.pendingCards.set(event.index, view);
        this.later();
        return;
      }
      case 'usage':
        this.flush();
        this.current.text = event.result.text;
        this.current.usage = storedUsage(event.result.usage, this.model);
        this.deps.answered(this.current.usage);
        if (event.result.toolCalls.length > 0) {
          this.current.toolCalls = event.result.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments, status: 'queued' }));
          this.current.toolCalls.forEach((call, index) => this.postCall(index, call));
        }
        this.forming.clear();
        return;
      case 'toolCall': {
        const call = storedCall(event.call);
        if (this.current.toolCalls) this.current.toolCalls[event.index] = call;
        this.postCall(event.index, call);
        return;
      }
      case 'approvalAsked':
        // A card that waits for the user is saved, so a reload of the panel shows it (and its buttons).
        this.saveQuietly();
        return;
      case 'stepDone':
        this.saveQuietly();
        return;
      default:
        return;
    }
  }

  /** Stores the checkpoint when the turn changed files, and shows it under the turn's last step. */
  private async recordCheckpoint(): Promise<void> {
    const checkpoint = await this.run.finishCheckpoint(this.current.id);
    if (!checkpoint) return;
    this.current.checkpoint = checkpoint;
    this.deps.sink({ type: 'checkpoint/update', messageId: this.current.id, checkpoint: this.run.checkpointView(checkpoint) });
  }

  /** Cards that were still forming when the stream broke never became calls. */
  private cancelForming(): void {
    this.flush();
    for (const view of this.forming.values()) this.deps.sink({ type: 'tool/call', messageId: this.current.id, call: { ...view, status: 'cancelled' } });
  }

  /** The turn ended (answered, at the step limit, or stopped); resolves with the answer text. */
  async done(event: Extract<TurnEvent, { type: 'done' }>): Promise<string> {
    const { deps, current } = this;
    let text: string;
    if (event.outcome === 'stopped') {
      this.cancelForming();
      current.stopped = true;
      deps.log.debug('Agent answer stopped by the user.');
      await this.recordCheckpoint();
      const saveError = await deps.saveAtEnd(this.conversation);
      deps.sink({ type: 'chat/done', messageId: current.id, stopped: true, ...(saveError !== undefined ? { saveError } : {}) });
      text = current.text;
    } else {
      this.flush();
      if (event.outcome === 'stepLimit') current.agentStop = this.run.stepLimitText(event.steps);
      await this.recordCheckpoint();
      const saveError = await deps.saveAtEnd(this.conversation);
      // How long the step thought, as a plain answer says it (the panel's own clock would count until the end).
      deps.sink({
        type: 'chat/done',
        messageId: current.id,
        stopped: false,
        ...(current.usage ? { usage: current.usage } : {}),
        ...(current.reasoning ? { reasoningMs: current.reasoning.ms } : {}),
        ...(current.agentStop ? { agentStop: current.agentStop } : {}),
        ...(current.sources ? { sources: current.sources } : {}),
        ...(saveError !== undefined ? { saveError } : {}),
      });
      text = event.text;
    }
    // The tool results are history now: the meter shows what the next request will carry.
    deps.meter(this.conversation);
    return text;
  }

  /** The turn failed: the error is shown on the step it hit, with the action that fixes it. */
  async failed(error: unknown): Promise<string> {
    const { deps, current } = this;
    this.cancelForming();
    const view = deps.errorView(error);
    current.error = { message: view.message, reason: view.reason };
    deps.log.warn(`Agent request failed (${view.reason}): ${view.message}`);
    await this.recordCheckpoint();
    const saveError = await deps.saveAtEnd(this.conversation);
    deps.sink({ type: 'chat/done', messageId: current.id, stopped: false, error: view, ...(saveError !== undefined ? { saveError } : {}) });
    deps.meter(this.conversation);
    return '';
  }
}
