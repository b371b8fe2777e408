// One answer at a time: starting one stops (and awaits) the one running; the conversation's model is then
// resolved (a stop works during that wait too), the turn's system-prompt context gathered by its providers
// (project instructions, workspace search: context/turnContext.ts) and the answer run (turnRunner.ts).
import { randomUUID } from 'node:crypto';
import type { ModelInfo } from '../../core/api/types';
import type { ContextProvider } from '../../core/chat/context/contextProvider';
import type { Conversation, StoredMessage, StoredOptions } from '../../core/chat/conversation';
import type { AgentService } from '../tools/agentService';
import { applySystemContext, gatherContext, roomTokens, type GatheredContext } from './context/turnContext';
import { runTurn, type TurnRunnerHost } from './turnRunner';

/** What answering needs from the controller, besides what the turn runner needs. */
export interface AnsweringHost extends Omit<TurnRunnerHost, 'agent' | 'beforeRequest'> {
  /** The agent as attached now (it is attached after the controller is built). */
  agent(): AgentService | undefined;
  /** Resolves (and keeps) the conversation's model; undefined, with the reason shown, when none can be chosen. */
  resolveModel(conversation: Conversation, signal: AbortSignal): Promise<string | undefined>;
  /** The providers of the turn's system-prompt context, in prompt order. */
  systemContext(options: StoredOptions): readonly ContextProvider[];
  /** What the providers gave (the instructions' section is kept for the meter). */
  gathered(options: StoredOptions, gathered: GatheredContext): void;
  /** Runs just before the request is built (automatic condensing). */
  beforeRequest(conversation: Conversation, model: ModelInfo | undefined, options: StoredOptions, reserved: number, signal: AbortSignal): Promise<void>;
}

interface Running {
  readonly messageId: string;
  readonly controller: AbortController;
  readonly done: Promise<string>;
}

/** The conversation's one running answer. */
export class Answering {
  private running: Running | undefined;

  constructor(private readonly host: AnsweringHost) {}

  /** Stops the running answer at once; the partial text stays, marked as stopped. */
  stop(): void {
    this.running?.controller.abort();
  }

  /** Answers the conversation's last user message; resolves with the answer text (empty on error or when no model can be chosen). */
  async answer(conversation: Conversation): Promise<string> {
    if (this.running) {
      this.running.controller.abort();
      await this.running.done.catch(() => undefined);
    }
    const controller = new AbortController();
    const resolving = this.host.resolveModel(conversation, controller.signal);
    // Stop works while the model list is awaited, too.
    this.running = { messageId: '', controller, done: resolving.then(() => '') };
    const modelId = await resolving;
    if (modelId === undefined || controller.signal.aborted) {
      if (this.running.controller === controller) this.running = undefined;
      return '';
    }
    const model: ModelInfo | undefined = this.host.connection.model(modelId);
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
    const { host } = this;
    const options = conversation.options;
    const question = [...conversation.messages].reverse().find((message) => message.role === 'user')?.text ?? '';
    const gathered = await gatherContext(host.systemContext(options), question, roomTokens(model, options), host.sink, controller.signal);
    host.gathered(options, gathered);
    const turnHost: TurnRunnerHost = {
      log: host.log, connection: host.connection, sink: host.sink, agent: host.agent(),
      save: (changed) => host.save(changed),
      saveAtEnd: (changed) => host.saveAtEnd(changed),
      answered: (usage) => host.answered(usage),
      postMeter: (changed) => host.postMeter(changed),
      beforeRequest: (changed, requestOptions, reserved) => host.beforeRequest(changed, model, requestOptions, reserved, controller.signal),
    };
    return runTurn(turnHost, conversation, model, reply, applySystemContext(options, gathered, reply), controller);
  }
}
