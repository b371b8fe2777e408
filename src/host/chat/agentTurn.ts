// One answer of the chat panel with the agent: runs core's tool loop and turns its events into the
// panel's messages and the stored conversation. Each request to the model is its own assistant message
// (text streamed as `chat/delta`, its tool calls as `tool/call` cards, closed by `chat/done`), saved with
// its calls and their results so a reload shows the cards and the history sent again stays valid.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../core/api/errors';
import type { ModelInfo } from '../../core/api/types';
import type { Conversation, StoredMessage, StoredToolCall, StoredUsage } from '../../core/chat/conversation';
import { runToolLoop, type StreamChat, type ToolCallRecord, type ToolLoopEvent, type ToolsWithheld } from '../../core/chat/toolLoop';
import { contentPreview } from '../../core/tools/resultText';
import type { ChangePreview } from '../../core/tools/toolTypes';
import type { Logger } from '../../core/logger';
import type { ChatRequest, RetryInfo } from '../../core/api/types';
import type { ChangeView, ToolCallView } from '../../shared/views';
import type { AgentSettings } from '../tools/agentSettings';
import type { AgentService } from '../tools/agentService';
import { checkpointView, toolCallView } from './messageView';
import { errorView, storedUsage } from './presenters';
import type { PanelSink } from './turnTypes';

/** What the turn needs from the controller. */
export interface AgentTurnHost {
  readonly sink: PanelSink;
  readonly log: Logger;
  save(conversation: Conversation): Promise<void>;
  /** The save at the end of the answer: never throws; resolves with the failure to show, if any. */
  saveAtEnd(conversation: Conversation): Promise<string | undefined>;
  /** Each step's usage, for the session's spend. */
  answered(usage: StoredUsage): void;
}

/** One agent answer to run. */
export interface AgentTurn {
  readonly conversation: Conversation;
  readonly model: ModelInfo | undefined;
  /** The first step's message, already in the conversation and shown as streaming. */
  readonly reply: StoredMessage;
  /** The fitted request (system prompt with the agent's, history, options). */
  readonly request: ChatRequest;
  readonly contextLimitTokens: number;
  readonly streamChat: StreamChat;
  readonly onRetry: (messageId: string, info: RetryInfo) => void;
  readonly settings: AgentSettings;
  readonly signal: AbortSignal;
}

/** What a change looks like in the stored conversation (the whole file stays out of it). */
function storedChange(preview: ChangePreview): ChangeView {
  switch (preview.kind) {
    case 'edit':
      return { kind: 'edit', path: preview.path, diff: preview.diff, ...(preview.caution ? { caution: preview.caution } : {}), ...(preview.replacements ? { replacements: preview.replacements } : {}) };
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
  return `Stopped after ${steps} steps, the limit for one answer (cadenza.agent.maxSteps). The last calls were not run. Send \u201ccontinue\u201d to go on, or raise the limit.`;
}

/** The note under a step whose answer was asked for with no tools offered, and why. */
export function withoutToolsText(reason: ToolsWithheld, maxSteps: number): string {
  return reason === 'repeatedCall'
    ? 'Cadenza asked for the answer without tools: the same call repeated.'
    : `Cadenza asked for the answer without tools: this was the last of the ${maxSteps} steps of one answer (cadenza.agent.maxSteps).`;
}

/** Runs one agent answer to its end; never throws (errors and stops are shown on the step they hit). */
export async function runAgentTurn(agent: AgentService, host: AgentTurnHost, turn: AgentTurn): Promise<string> {
  const conversation = turn.conversation;
  const sink = host.sink;
  let current = turn.reply;
  let pendingText = '';
  let pendingThought = '';
  let thinkingFrom: number | undefined;
  const pendingCards = new Map<number, ToolCallView>();
  const forming = new Map<number, ToolCallView>();
  let timer: NodeJS.Timeout | undefined;
  // Text and forming cards are coalesced for two frames (~32 ms), as in a plain answer.
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pendingThought !== '') sink({ type: 'chat/reasoning', messageId: current.id, text: pendingThought });
    pendingThought = '';
    if (pendingText !== '') sink({ type: 'chat/delta', messageId: current.id, text: pendingText });
    pendingText = '';
    for (const call of pendingCards.values()) sink({ type: 'tool/call', messageId: current.id, call });
    pendingCards.clear();
  };
  const later = (): void => {
    timer ??= setTimeout(flush, 32);
  };
  const postCall = (index: number, call: StoredToolCall): void => {
    flush();
    sink({ type: 'tool/call', messageId: current.id, call: toolCallView(call, index) });
  };

  const onEvent = (event: ToolLoopEvent): void => {
    switch (event.type) {
      case 'step':
        thinkingFrom = undefined;
        if (event.step === 1) return;
        {
          flush();
          const previous = current;
          current = { id: randomUUID(), role: 'assistant', text: '', createdAt: Date.now(), ...(conversation.model ? { model: conversation.model } : {}) };
          if (event.withoutTools) current.agentStop = withoutToolsText(event.withoutTools, turn.settings.maxSteps);
          conversation.messages.push(current);
          forming.clear();
          // The next step opens before the previous one closes, so the panel stays "streaming" throughout.
          sink({ type: 'message/add', message: { id: current.id, role: 'assistant', text: '', streaming: true, ...(current.model ? { model: current.model } : {}) } });
          sink({ type: 'chat/done', messageId: previous.id, stopped: false, ...(previous.usage ? { usage: previous.usage } : {}), ...(previous.sources ? { sources: previous.sources } : {}) });
        }
        return;
      case 'text':
        if (thinkingFrom !== undefined && current.reasoning) current.reasoning.ms = Date.now() - thinkingFrom;
        thinkingFrom = undefined;
        pendingText += event.text;
        current.text += event.text;
        later();
        return;
      case 'reasoning':
        // Each step keeps its own thinking, apart from its text; it is never sent back to the model.
        thinkingFrom ??= Date.now();
        current.reasoning = { text: (current.reasoning?.text ?? '') + event.text, ms: Date.now() - thinkingFrom };
        pendingThought += event.text;
        later();
        return;
      case 'callForming':
        {
          const view: ToolCallView = { index: event.index, id: event.id ?? '', name: event.name ?? '', arguments: event.arguments, status: 'forming' };
          forming.set(event.index, view);
          pendingCards.set(event.index, view);
          later();
        }
        return;
      case 'answer':
        flush();
        current.text = event.result.text;
        current.usage = storedUsage(event.result.usage, turn.model);
        host.answered(current.usage);
        if (event.result.toolCalls.length > 0) {
          current.toolCalls = event.result.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments, status: 'queued' }));
          current.toolCalls.forEach((call, index) => postCall(index, call));
        }
        forming.clear();
        return;
      case 'call': {
        const call = storedCall(event.call);
        if (current.toolCalls) current.toolCalls[event.index] = call;
        postCall(event.index, call);
        // A card that waits for the user is saved, so a reload of the panel shows it (and its buttons).
        if (call.status === 'awaitingApproval') void host.save(conversation).catch((error: unknown) => host.log.warn(`Could not save the conversation: ${String(error)}`));
        return;
      }
      case 'stepDone':
        void host.save(conversation).catch((error: unknown) => host.log.warn(`Could not save the conversation: ${String(error)}`));
        return;
    }
  };

  const restricted = agent.restrictedNotice();
  if (restricted) sink({ type: 'notice', level: 'info', text: restricted });
  // Every change the turn's tools make is recorded for its checkpoint (the texts before the turn).
  const recorder = agent.checkpoints.recorder(conversation.id);
  const toolset = agent.toolset(turn.settings, recorder.wrap(agent.port));
  /** Stores the checkpoint when the turn changed files, and shows it under the turn's last step. */
  const recordCheckpoint = async (): Promise<void> => {
    const checkpoint = await agent.checkpoints.finish(recorder, current.id);
    if (!checkpoint) return;
    current.checkpoint = checkpoint;
    sink({ type: 'checkpoint/update', messageId: current.id, checkpoint: checkpointView(checkpoint) });
  };
  try {
    const result = await runToolLoop({
      streamChat: turn.streamChat,
      request: turn.request,
      tools: toolset.tools,
      unavailable: toolset.unavailable,
      ...(turn.settings.requireToolCall ? { toolChoice: 'required' as const } : {}),
      session: agent.session(conversation.id),
      approve: (request, signal) => agent.approvals.ask({ ...request, conversationId: conversation.id, messageId: current.id }, signal),
      maxSteps: turn.settings.maxSteps,
      maxToolResultTokens: turn.settings.maxToolResultTokens,
      contextLimitTokens: turn.contextLimitTokens,
      signal: turn.signal,
      onEvent,
      onRetry: (info) => turn.onRetry(current.id, info),
    });
    flush();
    if (result.stop === 'stepLimit') current.agentStop = stepLimitText(result.steps);
    await recordCheckpoint();
    const saveError = await host.saveAtEnd(conversation);
    sink({ type: 'chat/done', messageId: current.id, stopped: false, ...(current.usage ? { usage: current.usage } : {}), ...(current.agentStop ? { agentStop: current.agentStop } : {}), ...(current.sources ? { sources: current.sources } : {}), ...(saveError !== undefined ? { saveError } : {}) });
    return result.text;
  } catch (error) {
    flush();
    // Cards that were still forming when the stream broke never became calls.
    for (const view of forming.values()) sink({ type: 'tool/call', messageId: current.id, call: { ...view, status: 'cancelled' } });
    if (ApiError.is(error, 'canceled') || turn.signal.aborted) {
      current.stopped = true;
      host.log.debug('Agent answer stopped by the user.');
      await recordCheckpoint();
      const saveError = await host.saveAtEnd(conversation);
      sink({ type: 'chat/done', messageId: current.id, stopped: true, ...(saveError !== undefined ? { saveError } : {}) });
      return current.text;
    }
    const view = errorView(error);
    current.error = { message: view.message, reason: view.reason };
    host.log.warn(`Agent request failed (${view.reason}): ${view.message}`);
    await recordCheckpoint();
    const saveError = await host.saveAtEnd(conversation);
    sink({ type: 'chat/done', messageId: current.id, stopped: false, error: view, ...(saveError !== undefined ? { saveError } : {}) });
    return '';
  }
}
