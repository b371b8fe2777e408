// One plain answer of the chat panel (no tools), as the panel shows and stores it: text and thinking
// coalesced on their way (replyCoalescer.ts), then the end: usage and cost, the JSON check, a stop, or the
// error with the action that fixes it. Saved at each end; ../runTurn.ts runs the turn.
import type { ChatResult, ModelInfo } from '../../api/types';
import { parseJsonObject } from '../../../shared/jsonObject';
import type { Conversation, StoredMessage } from '../conversation';
import type { TurnEvent } from '../runTurn';
import type { AnswerDeps } from './answerDeps';
import { ReplyCoalescer } from './replyCoalescer';
import { storedUsage } from './storedUsage';

/** Shows and stores one plain answer from its events. */
export class PlainAnswer {
  private readonly coalescer: ReplyCoalescer;
  private result: ChatResult | undefined;

  constructor(
    private readonly deps: AnswerDeps,
    private readonly conversation: Conversation,
    private readonly reply: StoredMessage,
    private readonly model: ModelInfo | undefined,
  ) {
    this.coalescer = new ReplyCoalescer(deps.sink, reply.id);
  }

  /** The answer's message (retries are shown on it). */
  get messageId(): string {
    return this.reply.id;
  }

  /** One event of the turn, before its end. */
  event(event: TurnEvent): void {
    if (event.type === 'text') this.coalescer.text(event.text);
    else if (event.type === 'thinking') this.coalescer.reasoning(event.text);
    else if (event.type === 'usage') this.result = event.result;
  }

  /** The turn ended (answered or stopped); resolves with the answer text. */
  async done(event: Extract<TurnEvent, { type: 'done' }>): Promise<string> {
    const { deps, reply, conversation } = this;
    this.coalescer.finish(reply);
    if (event.outcome === 'stopped') {
      reply.stopped = true;
      deps.log.debug('Answer stopped by the user.');
      const saveError = await deps.saveAtEnd(conversation);
      deps.sink({ type: 'chat/done', messageId: reply.id, stopped: true, ...(saveError !== undefined ? { saveError } : {}) });
      return reply.text;
    }
    // A plain turn reports its usage before it is done.
    const usage = storedUsage((this.result as ChatResult).usage, this.model);
    reply.usage = usage;
    const options = conversation.options;
    const schema = options.jsonMode === 'schema' ? parseJsonObject(options.schema) : undefined;
    // Ajv is loaded only when a JSON-mode answer needs checking.
    const jsonCheck =
      options.jsonMode === 'object' || options.jsonMode === 'schema' ? (await import('../jsonCheck')).checkJsonAnswer(reply.text, schema) : undefined;
    const saveError = await deps.saveAtEnd(conversation);
    deps.answered(usage);
    deps.sink({
      type: 'chat/done',
      messageId: reply.id,
      stopped: false,
      usage,
      ...(reply.reasoning ? { reasoningMs: reply.reasoning.ms } : {}),
      ...(jsonCheck ? { jsonCheck } : {}),
      ...(reply.sources ? { sources: reply.sources } : {}),
      ...(saveError !== undefined ? { saveError } : {}),
    });
    return reply.text;
  }

  /** The turn failed: the error is shown under the answer, with the action that fixes it. */
  async failed(error: unknown): Promise<string> {
    const { deps, reply } = this;
    this.coalescer.finish(reply);
    const view = deps.errorView(error);
    reply.error = { message: view.message, reason: view.reason };
    deps.log.warn(`Chat request failed (${view.reason}): ${view.message}`);
    const saveError = await deps.saveAtEnd(this.conversation);
    deps.sink({ type: 'chat/done', messageId: reply.id, stopped: false, error: view, ...(saveError !== undefined ? { saveError } : {}) });
    return '';
  }
}
