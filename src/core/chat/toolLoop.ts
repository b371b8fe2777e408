// The agent's tool-calling loop, pure: send the conversation with the tool schemas, run the calls the
// model returns (one or several per turn), send the results back as `role: "tool"` messages after the
// assistant message that asked, and go on until the model answers or the step limit is reached. It knows
// nothing of VS Code: the host gives it the client's streamChat, the tools (over a WorkspacePort), an
// approval callback and an AbortSignal, and listens to its events. An identical call already answered in
// this answer is not run again: the first time the model is told to try another call or answer, the second
// time (as at the last step) it is asked for its answer with no tools offered, so a small model that repeats
// itself still answers (core/chat/callRepeats.ts). In Plan mode (core/tools/agentMode.ts) only the reading
// functions are offered, and a call of any other is refused here before it is prepared, asked or run.
import { ApiError } from '../api/errors';
import type { CallOptions, ChatMessage, ChatRequest, ChatResult, ChatStream } from '../api/types';
import { charsPerToken, truncateResult } from '../tools/resultText';
import { ToolError, type ChangePreview, type Tool, type ToolSession } from '../tools/toolTypes';
import type { ResultImage } from '../tools/externalTools';
import type { ToolCallStatus, ToolFailure } from '../../shared/views';
import { checkArguments } from '../tools/validateArgs';
import { modeRefusal, toolsForMode, type AgentMode } from '../tools/agentMode';
import { CallMemory, repeatText, withAnswerInstruction, type ToolsWithheld } from './callRepeats';
import { estimateTokens, messageTokens } from './contextBudget';

export type { ToolsWithheld } from './callRepeats';

/** The client's streamChat, or anything shaped like it (tests, benchmarks). */
export type StreamChat = (request: ChatRequest, options: CallOptions) => ChatStream;

/** A call and what became of it; `result` is exactly what the model is sent. */
export interface ToolCallRecord {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly status: ToolCallStatus;
  readonly result?: string;
  /** Why a `failed` call failed (a ToolError's reason, else `failed`), for its card; the model gets `result`. */
  readonly failure?: ToolFailure;
  readonly preview?: ChangePreview;
  /** Where the function comes from when it is not the agent's own (a VS Code tool). */
  readonly origin?: string;
  /** Images the result held: shown in the card, described to the model in `result`. */
  readonly images?: readonly ResultImage[];
}

/** What the user is asked before a change runs. */
export interface ApprovalRequest {
  readonly step: number;
  readonly call: ToolCallRecord;
  readonly preview: ChangePreview;
}

/** Asks the user; resolves with the decision (an abort of `signal` ends the wait). */
export type Approve = (request: ApprovalRequest, signal: AbortSignal) => Promise<'approved' | 'denied'>;

/** What the loop reports while it runs, in order. */
export type ToolLoopEvent =
  /** A request to the model starts (step 1, 2, ...); `withoutTools` says why it offers no tools when it does not. */
  | { readonly type: 'step'; readonly step: number; readonly withoutTools?: ToolsWithheld }
  /** Answer text as it streams. */
  | { readonly type: 'text'; readonly step: number; readonly text: string }
  /** A reasoning model's thinking as it streams (never part of the answer or the history). */
  | { readonly type: 'reasoning'; readonly step: number; readonly text: string }
  /** A tool call forming in the stream: its arguments so far. */
  | {
      readonly type: 'callForming';
      readonly step: number;
      readonly index: number;
      readonly id: string | undefined;
      readonly name: string | undefined;
      readonly arguments: string;
    }
  /** The model's answer of this step is complete (before its calls run). */
  | { readonly type: 'answer'; readonly step: number; readonly result: ChatResult }
  /** A call changed status (awaiting approval, running, done, ...). */
  | { readonly type: 'call'; readonly step: number; readonly index: number; readonly call: ToolCallRecord }
  /** Every call of the step has its result. */
  | { readonly type: 'stepDone'; readonly step: number; readonly calls: readonly ToolCallRecord[] };

/** What the loop needs. */
export interface ToolLoopOptions {
  readonly streamChat: StreamChat;
  /** The request of the first step: model, options, and the history fitted to the context. `tools` are added here. */
  readonly request: ChatRequest;
  readonly tools: readonly Tool[];
  /** Names the model may not call now, with the reason it is told (Restricted Mode). */
  readonly unavailable?: Readonly<Record<string, string>>;
  /** The conversation's mode (core/tools/agentMode.ts): in `plan` only the reading functions are offered, and a call of any other is refused here. */
  readonly mode?: AgentMode;
  /** auto (default), required, or one named function: for the first step only, so a forced call cannot repeat until the limit. */
  readonly toolChoice?: ChatRequest['toolChoice'];
  readonly session: ToolSession;
  readonly approve: Approve;
  /** Requests to the model in one answer, at most. */
  readonly maxSteps: number;
  /** A tool result is cut beyond this. */
  readonly maxToolResultTokens: number;
  /** Tokens the request may take besides the answer (context length minus max_tokens); results are cut to what is left. */
  readonly contextLimitTokens?: number;
  readonly signal: AbortSignal;
  readonly onEvent?: (event: ToolLoopEvent) => void;
  readonly onRetry?: CallOptions['onRetry'];
}

/** How the loop ended when it did not throw. */
export interface ToolLoopResult {
  /** The last answer's text. */
  readonly text: string;
  /**
   * answered: the model answered without calling more tools; stepLimit: it still called tools at the last step;
   * repeated: asked for its answer without tools after a repeated call, it still called tools (none ran).
   */
  readonly stop: 'answered' | 'stepLimit' | 'repeated';
  /** Why the last request offered no tools, when it did not. */
  readonly withoutTools?: ToolsWithheld;
  readonly steps: number;
  /** The messages the loop added after the request's: assistant messages with their calls, tool results. */
  readonly messages: readonly ChatMessage[];
}

/** Results below this are not cut further even when the context is nearly full (the service then says so). */
const minResultTokens = 256;

/** Tokens of a message as the context budget counts them. */
function chatMessageTokens(message: ChatMessage): number {
  let text = '';
  if (typeof message.content === 'string') text = message.content;
  else if (Array.isArray(message.content)) text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  if (message.role === 'assistant' && message.toolCalls) text += message.toolCalls.map((call) => `${call.name}${call.arguments}`).join('');
  return messageTokens({ role: message.role, text });
}

/** What the model is told when the user said no. */
function deniedText(preview: ChangePreview): string {
  const what =
    preview.kind === 'edit'
      ? `the edit of ${preview.path}; the file was not changed`
      : preview.kind === 'create'
        ? `creating ${preview.path}; nothing was created`
        : preview.kind === 'read'
          ? `reading ${preview.path}; it was not read`
          : preview.kind === 'external'
            ? `running ${preview.tool} (${preview.origin}); it was not run`
            : 'running the command; it was not run';
  return `The user denied ${what}. Do not try it again unless the user asks.`;
}

function canceled(): ApiError {
  return new ApiError('canceled', 'Stopped by the user');
}

/**
 * Runs the loop. Resolves when the model answers or at the step limit; rejects with the service's
 * ApiError, or ApiError `canceled` when `signal` aborts (every call of the step then has a result,
 * `cancelled`, so the history stays valid). A failing tool, an unknown function, and arguments that are
 * not JSON or not valid for the schema do not end the loop: the model gets the error as the call's result.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult> {
  const loop = toolLoopEvents(options);
  for (;;) {
    const next = await loop.next();
    if (next.done) return next.value;
    options.onEvent?.(next.value);
  }
}

/**
 * The loop as the events it yields (`onEvent` is not called), returning how it ended; as `runToolLoop`
 * otherwise. It waits for each event to be taken before it goes on, so whoever reads it has seen a call
 * awaiting approval, say, before `approve` is asked.
 */
export async function* toolLoopEvents(options: ToolLoopOptions): AsyncGenerator<ToolLoopEvent, ToolLoopResult, undefined> {
  const { signal, tools } = options;
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  // In Plan only the reading functions are offered; runCall refuses any other by what it is, not by this list.
  const offered = options.mode ? toolsForMode(tools, options.mode) : tools;
  const definitions = offered.map((tool) => tool.definition);
  const schemaTokens = definitions.length > 0 ? estimateTokens(JSON.stringify(definitions)) : 0;
  const messages: ChatMessage[] = [...options.request.messages];
  let used = schemaTokens + messages.reduce((sum, message) => sum + chatMessageTokens(message), 0);
  const added: ChatMessage[] = [];
  const push = (message: ChatMessage): void => {
    messages.push(message);
    added.push(message);
    used += chatMessageTokens(message);
  };
  const resultBudget = (): number => {
    if (options.contextLimitTokens === undefined) return options.maxToolResultTokens;
    return Math.max(minResultTokens, Math.min(options.maxToolResultTokens, options.contextLimitTokens - used - 8));
  };

  const memory = new CallMemory();
  // The first repeat of an answer is told to try something else, tools still offered; the second ends the calls.
  let repeats = 0;
  let repeated = false;
  for (let step = 1; ; step += 1) {
    if (signal.aborted) throw canceled();
    // The first step always offers the tools (there is nothing to answer from yet).
    const withoutTools: ToolsWithheld | undefined =
      definitions.length === 0 || step === 1 ? undefined : repeated ? 'repeatedCall' : step >= options.maxSteps ? 'lastStep' : undefined;
    yield { type: 'step', step, ...(withoutTools ? { withoutTools } : {}) };
    const choice = step === 1 ? (options.toolChoice ?? 'auto') : 'auto';
    const request: ChatRequest = withoutTools
      ? { ...options.request, messages: withAnswerInstruction(messages, withoutTools, options.maxSteps) }
      : { ...options.request, messages: [...messages], ...(definitions.length > 0 ? { tools: definitions, toolChoice: choice } : {}) };
    const stream = options.streamChat(request, { signal, ...(options.onRetry ? { onRetry: options.onRetry } : {}) });
    const forming: { id: string | undefined; name: string | undefined; args: string }[] = [];
    for await (const event of stream) {
      if (event.type === 'text') {
        yield { type: 'text', step, text: event.text };
      } else if (event.type === 'reasoning') {
        yield { type: 'reasoning', step, text: event.text };
      } else if (event.type === 'toolCall') {
        const call = (forming[event.index] ??= { id: undefined, name: undefined, args: '' });
        call.id ??= event.id;
        call.name ??= event.name;
        call.args += event.argumentsDelta;
        yield { type: 'callForming', step, index: event.index, id: call.id, name: call.name, arguments: call.args };
      }
    }
    const result = await stream.result;
    yield { type: 'answer', step, result };
    const calls = result.toolCalls;
    push({ role: 'assistant', content: calls.length > 0 && result.text === '' ? null : result.text, ...(calls.length > 0 ? { toolCalls: calls } : {}) });
    const ended = withoutTools ? { withoutTools } : {};
    if (calls.length === 0) return { text: result.text, stop: 'answered', steps: step, messages: added, ...ended };

    const records: ToolCallRecord[] = calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments, status: 'queued' }));
    const settle = (index: number, record: ToolCallRecord): ToolLoopEvent => {
      records[index] = record;
      return { type: 'call', step, index, call: record };
    };
    const atLimit = step >= options.maxSteps;
    let index = 0;
    try {
      for (; index < records.length; index += 1) {
        const record = records[index];
        if (!record) continue;
        const earlier = memory.repeatOf(record.name, record.arguments);
        if (atLimit) {
          yield settle(index, { ...record, status: 'skipped', result: `Not run: the limit of ${options.maxSteps} steps for one answer was reached.` });
        } else if (withoutTools) {
          yield settle(index, { ...record, status: 'skipped', result: 'Not run: Cadenza asked for the answer without tools.' });
        } else if (earlier) {
          repeats += 1;
          yield settle(index, { ...record, status: 'skipped', result: repeatText(earlier, repeats === 1 ? { readFile: byName.has('read_file') } : undefined) });
          if (repeats > 1) repeated = true;
        } else {
          if (signal.aborted) throw canceled();
          const at = index;
          for await (const next of runCall(record, step)) yield settle(at, next);
          const outcome = records[at];
          const changed = outcome?.status === 'done' && byName.get(record.name)?.effect === 'change';
          memory.note(record.name, record.arguments, step, { failed: outcome?.status !== 'done', result: outcome?.result ?? '', changed });
        }
        const done = records[index];
        push({ role: 'tool', toolCallId: record.id, content: done?.result ?? '' });
      }
    } catch (error) {
      if (!signal.aborted) throw error;
      for (; index < records.length; index += 1) {
        const record = records[index];
        if (!record) continue;
        yield settle(index, { ...record, status: 'cancelled', result: 'Cancelled by the user.' });
        push({ role: 'tool', toolCallId: record.id, content: 'Cancelled by the user.' });
      }
      yield { type: 'stepDone', step, calls: [...records] };
      throw canceled();
    }
    yield { type: 'stepDone', step, calls: [...records] };
    if (atLimit) return { text: result.text, stop: 'stepLimit', steps: step, messages: added, ...ended };
    if (withoutTools) return { text: result.text, stop: 'repeated', steps: step, messages: added, ...ended };
  }

  /** Runs one call to its end, yielding each status it goes through; rejects only when the signal aborts. */
  async function* runCall(record: ToolCallRecord, step: number): AsyncGenerator<ToolCallRecord, void, undefined> {
    const tool = byName.get(record.name);
    const refusal = modeRefusal(options.mode, record.name, tool);
    if (refusal !== undefined) {
      yield { ...record, status: 'denied', result: `Error: ${refusal}` };
      return;
    }
    if (!tool) {
      const names = definitions.map((definition) => definition.name).join(', ');
      yield {
        ...record,
        status: 'invalid',
        result: `Error: ${options.unavailable?.[record.name] ?? `there is no function "${record.name}". The functions are: ${names}.`}`,
      };
      return;
    }
    const check = checkArguments(tool.definition, record.arguments);
    if (!check.ok) {
      yield { ...record, status: 'invalid', result: `Error: ${check.problem}` };
      return;
    }
    const budget = resultBudget();
    const context = { signal, session: options.session, maxResultChars: budget * charsPerToken };
    let current: ToolCallRecord = tool.effect === 'read' && tool.origin !== undefined ? { ...record, origin: tool.origin } : record;
    let images: ToolCallRecord['images'];
    try {
      let text: string;
      if (tool.effect === 'read') {
        const ask = await tool.confirm?.(check.args, context);
        if (ask) {
          current = { ...current, status: 'awaitingApproval', preview: ask };
          yield current;
          const decision = await options.approve({ step, call: current, preview: ask }, signal);
          if (signal.aborted) throw canceled();
          if (decision === 'denied') {
            yield { ...current, status: 'denied', result: deniedText(ask) };
            return;
          }
        }
        current = { ...current, status: 'running' };
        yield current;
        if (tool.runWithImages) {
          const output = await tool.runWithImages(check.args, context);
          text = output.text;
          if (output.images.length > 0) images = output.images;
        } else {
          text = await tool.run(check.args, context);
        }
      } else {
        const prepared = await tool.prepare(check.args, context);
        current = { ...record, status: 'awaitingApproval', preview: prepared.preview };
        yield current;
        const decision = await options.approve({ step, call: current, preview: prepared.preview }, signal);
        if (signal.aborted) throw canceled();
        if (decision === 'denied') {
          yield { ...current, status: 'denied', result: deniedText(prepared.preview) };
          return;
        }
        current = { ...current, status: 'running' };
        yield current;
        text = await prepared.apply(signal);
      }
      if (signal.aborted) throw canceled();
      yield { ...current, status: 'done', result: truncateResult(text, budget), ...(images ? { images } : {}) };
    } catch (error) {
      if (signal.aborted) throw error;
      if (ToolError.is(error, 'declined')) {
        yield { ...current, status: 'denied', result: error.message };
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const failure: ToolFailure = ToolError.is(error) && error.reason !== 'declined' ? error.reason : 'failed';
      yield { ...current, status: 'failed', result: truncateResult(`Error: ${message}`, budget), failure };
    }
  }
}
