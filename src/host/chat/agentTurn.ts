// One answer of the chat panel with the agent, as the panel shows and stores it: the turn's events
// (core/chat/runTurn.ts runs the tool loop) become the panel's messages and the stored conversation. Each
// request to the model is its own assistant message (text streamed as `chat/delta`, its tool calls as
// `tool/call` cards, closed by `chat/done`), saved with its calls and their results so a reload shows the
// cards and the history sent again stays valid.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { ModelInfo } from '../../core/api/types';
import type { TurnRecorder } from '../../core/chat/checkpointRecorder';
import type { Conversation, StoredMessage, StoredToolCall } from '../../core/chat/conversation';
import type { TurnEvent } from '../../core/chat/runTurn';
import type { ToolCallRecord, ToolsWithheld } from '../../core/chat/toolLoop';
import { contentPreview } from '../../core/tools/resultText';
import type { ChangePreview } from '../../core/tools/toolTypes';
import type { ChangeView, ToolCallView } from '../../shared/views';
import type { AgentSettings } from '../tools/agentSettings';
import type { AgentService } from '../tools/agentService';
import { checkpointView, toolCallView } from './messageView';
import { storedUsage } from './presenters';
import { errorView } from '../service/errorView';
import type { PanelTurnDeps } from './turnTypes';

/** What a change looks like in the stored conversation (the whole file stays out of it). */
function storedChange(preview: ChangePreview): ChangeView {
  switch (preview.kind) {
    case 'edit':
      return {
        kind: 'edit',
        path: preview.path,
        diff: preview.diff,
        ...(preview.caution ? { caution: preview.caution } : {}),
        ...(preview.replacements ? { replacements: preview.replacements } : {}),
      };
    case 'create': {
      const { text, omitted } = contentPreview(preview.content);
      return { kind: 'create', path: preview.path, content: text, ...(omitted ? { omitted } : {}), ...(preview.caution ? { caution: preview.caution } : {}) };
    }
    case 'read':
      return { kind: 'read', path: preview.path, reason: preview.reason };
    case 'terminal':
      return { kind: 'terminal', command: preview.command, ...(preview.cwd ? { cwd: preview.cwd } : {}), timeoutSeconds: preview.timeoutSeconds };
    case 'external':
      // The input is the call's own arguments, stored beside it.
      return { kind: 'external', tool: preview.tool, origin: preview.origin };
  }
}

function storedCall(record: ToolCallRecord): StoredToolCall {
  return {
    id: record.id,
    name: record.name,
    arguments: record.arguments,
    status: record.status,
    ...(record.result !== undefined ? { result: record.result } : {}),
    ...(record.preview ? { change: storedChange(record.preview) } : {}),
    ...(record.origin !== undefined ? { origin: record.origin } : {}),
    ...(record.images ? { images: record.images } : {}),
  };
}

/** The text under an answer that hit the step limit. */
export function stepLimitText(steps: number): string {
  return vscode.l10n.t(
    'Stopped after {0} steps, the limit for one answer (cadenza.agent.maxSteps). The last calls were not run. Send “continue” to go on, or raise the limit.',
    steps,
  );
}

/** The note under a step whose answer was asked for with no tools offered, and why. */
export function withoutToolsText(reason: ToolsWithheld, maxSteps: number): string {
  return reason === 'repeatedCall'
    ? vscode.l10n.t('Cadenza asked for the answer without tools: the same call repeated.')
    : vscode.l10n.t('Cadenza asked for the answer without tools: this was the last of the {0} steps of one answer (cadenza.agent.maxSteps).', maxSteps);
}

/** The agent, its settings and the recorder of the files this answer changes. */
export interface AgentRun {
  readonly agent: AgentService;
  readonly settings: AgentSettings;
  readonly recorder: TurnRecorder;
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
    private readonly deps: PanelTurnDeps,
    private readonly conversation: Conversation,
    reply: StoredMessage,
    private readonly model: ModelInfo | undefined,
    private readonly run: AgentRun,
  ) {
    this.current = reply;
  }

  /** The message of the step being streamed (approvals and retries are shown on it). */
  get messageId(): string {
    return this.current.id;
  }

  /** The turn starts: a restricted workspace is said first. */
  start(): void {
    const restricted = this.run.agent.restrictedNotice();
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
          if (event.withoutTools) next.agentStop = withoutToolsText(event.withoutTools, this.run.settings.maxSteps);
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
    const checkpoint = await this.run.agent.checkpoints.finish(this.run.recorder, this.current.id);
    if (!checkpoint) return;
    this.current.checkpoint = checkpoint;
    this.deps.sink({ type: 'checkpoint/update', messageId: this.current.id, checkpoint: checkpointView(checkpoint) });
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
      if (event.outcome === 'stepLimit') current.agentStop = stepLimitText(event.steps);
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
    const view = errorView(error);
    current.error = { message: view.message, reason: view.reason };
    deps.log.warn(`Agent request failed (${view.reason}): ${view.message}`);
    await this.recordCheckpoint();
    const saveError = await deps.saveAtEnd(this.conversation);
    deps.sink({ type: 'chat/done', messageId: current.id, stopped: false, error: view, ...(saveError !== undefined ? { saveError } : {}) });
    deps.meter(this.conversation);
    return '';
  }
}
