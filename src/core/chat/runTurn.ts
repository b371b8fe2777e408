// One chat turn, whoever asked for it (the panel, @cadenza, VS Code's own chat, Rewrite Selection,
// condensing): choose the model, build the request fitted to its context, stream the answer (plain, with
// the agent's tool loop, with tools the caller runs, or with tools handed back), and end with exactly one
// `done` or `error`. It knows nothing of VS Code or of what the caller shows: each entry point gives it
// ports (model choice, context, the stream, approvals, its own tools) and turns its events into what its
// user sees. A stop is never an error: it ends with `done`, outcome `stopped`.
import { ApiError } from '../api/errors';
import type { CallOptions, ChatMessage, ChatRequest, ChatResult, ChatStream, ModelInfo, RetryInfo, ToolCall, ToolDefinition } from '../api/types';
import { ToolCallAssembler, type AssembledToolCall } from './lmToolCalls';
import { toolLoopEvents, type Approve, type ToolLoopOptions, type StreamChat, type ToolCallRecord, type ToolLoopResult, type ToolsWithheld } from './toolLoop';

/** The model a turn runs on: its id, and its listing entry when the service lists it. */
export interface TurnModel {
  readonly id: string;
  readonly info: ModelInfo | undefined;
}

/** How the request was fitted to the model's context. */
export interface TurnFit {
  readonly fits: boolean;
  /** Tokens the request takes besides the answer, as the caller counted them. */
  readonly usedTokens: number;
  /** Tokens it may take besides the answer. */
  readonly limitTokens: number;
  /** Older messages left out to fit. */
  readonly droppedMessages: number;
  /** What to tell the user when it does not fit (the error's message). */
  readonly overflow?: string;
}

/** Tools of a turn, by who runs them. */
export type TurnTools =
  /** The agent's: core's tool loop runs them, asking `ports.approve` before a change. */
  | ({ readonly kind: 'loop' } & Pick<
      ToolLoopOptions,
      'tools' | 'unavailable' | 'mode' | 'toolChoice' | 'session' | 'maxSteps' | 'maxToolResultTokens' | 'contextLimitTokens'
    >)
  /** The caller's: offered for at most `rounds` requests (the first with `firstChoice`), each call run by `ports.invoke`. */
  | { readonly kind: 'invoke'; readonly definitions: readonly ToolDefinition[]; readonly rounds: number; readonly firstChoice?: ChatRequest['toolChoice'] }
  /** Offered and handed back whole as `toolRequest` events, never run here (VS Code runs them). */
  | { readonly kind: 'offer'; readonly definitions: readonly ToolDefinition[]; readonly toolChoice: NonNullable<ChatRequest['toolChoice']> };

/** What the context port builds for the chosen model. */
export interface TurnRequest {
  /** The request as it goes out: the history fitted to the context, the options. Tools are added from `tools`. */
  readonly request: ChatRequest;
  /** How it was fitted; a request that does not fit is refused with `contextTooLong`, unsent. */
  readonly fit?: TurnFit;
  readonly tools?: TurnTools;
  /** Sends a plain answer some other way than `ports.stream` (audio reasoning). */
  readonly send?: (options: CallOptions) => ChatStream;
}

/** What a turn is given by its entry point. */
export interface TurnPorts {
  /** Chooses the model (core/chat/modelChoice.ts is the one resolution); undefined, the port having said why, when none can be. */
  readonly model: (signal: AbortSignal) => Promise<TurnModel | undefined>;
  /** Builds the request for the model: the conversation, the turn's context, fitted to the model's context. */
  readonly context: (model: TurnModel, signal: AbortSignal) => Promise<TurnRequest>;
  /** The service's streamed chat. */
  readonly stream: StreamChat;
  /** Asks the user before a change of the agent's tools; without it a change is denied. */
  approve?: Approve;
  /** Runs a call of the caller's tools (`invoke`): the result text for the model. A rejection ends the turn. */
  readonly invoke?: (call: ToolCall, signal: AbortSignal) => Promise<string>;
  /** Told at once when a request is retried (a retry waits before the next event could say so). */
  readonly onRetry?: (info: RetryInfo) => void;
}

/** How a turn ended when it did not fail. */
export type TurnOutcome = 'answered' | 'stopped' | 'noModel' | ToolLoopResult['stop'];

/** What a turn reports, in order; it ends with exactly one `done` or `error`. */
export type TurnEvent =
  /** The model is chosen. */
  | { readonly type: 'model'; readonly model: TurnModel }
  /** The request is built and fitted (before anything is sent). */
  | { readonly type: 'context'; readonly fit: TurnFit }
  /** A request to the model starts (1, then 2... with tools); `withoutTools` says why it offers none. */
  | { readonly type: 'step'; readonly step: number; readonly withoutTools?: ToolsWithheld }
  /** Answer text as it streams. */
  | { readonly type: 'text'; readonly step: number; readonly text: string }
  /** A reasoning model's thinking as it streams (never part of the answer). */
  | { readonly type: 'thinking'; readonly step: number; readonly text: string }
  /** One of the agent's calls forming in the stream: its arguments so far. */
  | {
      readonly type: 'toolCallForming';
      readonly step: number;
      readonly index: number;
      readonly id: string | undefined;
      readonly name: string | undefined;
      readonly arguments: string;
    }
  /** A call that runs here changed status (awaiting approval, running, done...). */
  | { readonly type: 'toolCall'; readonly step: number; readonly index: number; readonly call: ToolCallRecord }
  /** The user is asked to approve this call now (`ports.approve` is called next). */
  | { readonly type: 'approvalAsked'; readonly step: number; readonly index: number; readonly call: ToolCallRecord }
  /** An offered call, whole, for the caller to run. */
  | { readonly type: 'toolRequest'; readonly step: number; readonly call: AssembledToolCall }
  /** A step's answer is complete: its text, calls and usage. */
  | { readonly type: 'usage'; readonly step: number; readonly result: ChatResult }
  /** Every call of a step has its result. */
  | { readonly type: 'stepDone'; readonly step: number; readonly calls: readonly ToolCallRecord[] }
  /** The turn failed: the error as thrown, and its reason (`unknown` when it is not the service's). */
  | { readonly type: 'error'; readonly error: unknown; readonly reason: string }
  /** The turn ended; `text` is the last step's answer (the partial text when stopped). */
  | { readonly type: 'done'; readonly outcome: TurnOutcome; readonly text: string; readonly steps: number };

/** Where a turn is, for the end it reports. */
interface Progress {
  steps: number;
  text: string;
}

/**
 * Runs one turn. Each event is taken before the turn goes on, so a consumer that updates its state on
 * an event has done so before the next port is called (an approval is asked after `approvalAsked` was read).
 */
export async function* runTurn(ports: TurnPorts, signal: AbortSignal): AsyncGenerator<TurnEvent, void, undefined> {
  const progress: Progress = { steps: 0, text: '' };
  try {
    const model = await ports.model(signal);
    if (!model) {
      yield { type: 'done', outcome: 'noModel', text: '', steps: 0 };
      return;
    }
    if (signal.aborted) {
      yield { type: 'done', outcome: 'stopped', text: '', steps: 0 };
      return;
    }
    yield { type: 'model', model };
    const built = await ports.context(model, signal);
    if (built.fit) {
      yield { type: 'context', fit: built.fit };
      if (!built.fit.fits) {
        const words =
          built.fit.overflow ?? `The request needs about ${built.fit.usedTokens} tokens but the model takes ${built.fit.limitTokens} besides the answer.`;
        throw new ApiError('contextTooLong', words);
      }
    }
    const callOptions: CallOptions = { signal, ...(ports.onRetry ? { onRetry: ports.onRetry } : {}) };
    const tools = built.tools;
    if (tools?.kind === 'loop') yield* loopTurn(ports, built.request, tools, signal, progress);
    else if (tools?.kind === 'invoke') yield* invokeTurn(ports, built.request, tools, callOptions, progress);
    else yield* plainTurn(ports, built, callOptions, progress);
  } catch (error) {
    if (ApiError.is(error, 'canceled') || signal.aborted) {
      yield { type: 'done', outcome: 'stopped', text: progress.text, steps: progress.steps };
      return;
    }
    yield { type: 'error', error, reason: ApiError.is(error) ? error.reason : 'unknown' };
  }
}

/** One step's stream: its text and thinking as events, the offered calls handed back whole; resolves with the answer. */
async function* streamStep(stream: ChatStream, step: number, progress: Progress, offered: boolean): AsyncGenerator<TurnEvent, ChatResult, undefined> {
  progress.steps = step;
  progress.text = '';
  const assembler = offered ? new ToolCallAssembler() : undefined;
  for await (const event of stream) {
    if (event.type === 'text') {
      progress.text += event.text;
      yield { type: 'text', step, text: event.text };
    } else if (event.type === 'reasoning') {
      yield { type: 'thinking', step, text: event.text };
    } else if (assembler && event.type === 'toolCall') {
      for (const call of assembler.push(event)) yield { type: 'toolRequest', step, call };
    } else if (assembler && event.type === 'finish') {
      for (const call of assembler.flush()) yield { type: 'toolRequest', step, call };
    }
  }
  for (const call of assembler?.flush() ?? []) yield { type: 'toolRequest', step, call };
  const result = await stream.result;
  yield { type: 'usage', step, result };
  return result;
}

/** A single request: a plain answer, or one whose offered tools are handed back. */
async function* plainTurn(ports: TurnPorts, built: TurnRequest, callOptions: CallOptions, progress: Progress): AsyncGenerator<TurnEvent, void, undefined> {
  const offer = built.tools?.kind === 'offer' ? built.tools : undefined;
  const request: ChatRequest =
    offer && offer.definitions.length > 0 ? { ...built.request, tools: offer.definitions, toolChoice: offer.toolChoice } : built.request;
  yield { type: 'step', step: 1 };
  const stream = built.send ? built.send(callOptions) : ports.stream(request, callOptions);
  const result = yield* streamStep(stream, 1, progress, offer !== undefined);
  yield { type: 'done', outcome: 'answered', text: result.text, steps: 1 };
}

/** Tools the caller runs: each round's calls go through `ports.invoke`, their results back to the model. */
async function* invokeTurn(
  ports: TurnPorts,
  request: ChatRequest,
  tools: Extract<TurnTools, { kind: 'invoke' }>,
  callOptions: CallOptions,
  progress: Progress,
): AsyncGenerator<TurnEvent, void, undefined> {
  const messages: ChatMessage[] = [...request.messages];
  const signal = callOptions.signal ?? new AbortController().signal;
  for (let round = 0; ; round += 1) {
    const step = round + 1;
    const offer = tools.definitions.length > 0 && round < tools.rounds;
    yield { type: 'step', step };
    const choice = round === 0 ? (tools.firstChoice ?? 'auto') : 'auto';
    const stream = ports.stream({ ...request, messages: [...messages], ...(offer ? { tools: tools.definitions, toolChoice: choice } : {}) }, callOptions);
    const result = yield* streamStep(stream, step, progress, false);
    if (!offer || result.toolCalls.length === 0) {
      yield { type: 'done', outcome: 'answered', text: result.text, steps: step };
      return;
    }
    messages.push({ role: 'assistant', content: result.text === '' ? null : result.text, toolCalls: result.toolCalls });
    for (const [index, call] of result.toolCalls.entries()) {
      const record: ToolCallRecord = { id: call.id, name: call.name, arguments: call.arguments, status: 'running' };
      yield { type: 'toolCall', step, index, call: record };
      if (!ports.invoke) throw new Error('A turn with tools the caller runs needs ports.invoke.');
      const content = await ports.invoke(call, signal);
      messages.push({ role: 'tool', toolCallId: call.id, content });
      yield { type: 'toolCall', step, index, call: { ...record, status: 'done', result: content } };
    }
  }
}

/** The agent's tool loop, its events as the turn's. */
async function* loopTurn(
  ports: TurnPorts,
  request: ChatRequest,
  tools: Extract<TurnTools, { kind: 'loop' }>,
  signal: AbortSignal,
  progress: Progress,
): AsyncGenerator<TurnEvent, void, undefined> {
  const loop = toolLoopEvents({
    streamChat: ports.stream,
    request,
    tools: tools.tools,
    ...(tools.unavailable ? { unavailable: tools.unavailable } : {}),
    ...(tools.mode ? { mode: tools.mode } : {}),
    ...(tools.toolChoice ? { toolChoice: tools.toolChoice } : {}),
    session: tools.session,
    approve: (question, aborted) => (ports.approve ? ports.approve(question, aborted) : Promise.resolve('denied')),
    maxSteps: tools.maxSteps,
    maxToolResultTokens: tools.maxToolResultTokens,
    ...(tools.contextLimitTokens !== undefined ? { contextLimitTokens: tools.contextLimitTokens } : {}),
    signal,
    ...(ports.onRetry ? { onRetry: ports.onRetry } : {}),
  });
  for (;;) {
    const next = await loop.next();
    if (next.done) {
      yield { type: 'done', outcome: next.value.stop, text: next.value.text, steps: next.value.steps };
      return;
    }
    const event = next.value;
    switch (event.type) {
      case 'step':
        progress.steps = event.step;
        progress.text = '';
        yield event;
        break;
      case 'text':
        progress.text += event.text;
        yield event;
        break;
      case 'reasoning':
        yield { type: 'thinking', step: event.step, text: event.text };
        break;
      case 'callForming':
        yield { type: 'toolCallForming', step: event.step, index: event.index, id: event.id, name: event.name, arguments: event.arguments };
        break;
      case 'answer':
        yield { type: 'usage', step: event.step, result: event.result };
        break;
      case 'call':
        yield { type: 'toolCall', step: event.step, index: event.index, call: event.call };
        if (event.call.status === 'awaitingApproval') yield { type: 'approvalAsked', step: event.step, index: event.index, call: event.call };
        break;
      case 'stepDone':
        yield event;
        break;
    }
  }
}
