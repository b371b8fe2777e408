// One answer of a chat turn, once its context is gathered: the agent's plan, the request fitted to the
// context, streaming (plain chat, audio reasoning, or the agent's tool loop) into the panel, and the end:
// usage and cost, the JSON check, a stop, or the error with the action that fixes it. Saved at each end.
import { ApiError } from '../../core/api/errors';
import type { ModelInfo, RetryInfo } from '../../core/api/types';
import type { Conversation, StoredMessage, StoredOptions, StoredUsage } from '../../core/chat/conversation';
import { buildAudioReasoningRequest, buildChatRequest } from '../../core/chat/requestBuilder';
import type { Logger } from '../../core/logger';
import { parseJsonObject } from '../../shared/jsonObject';
import type { AgentService } from '../tools/agentService';
import { runAgentTurn } from './agentTurn';
import type { ServiceConnection } from './connection';
import { toView } from './messageView';
import { errorView, storedUsage } from './presenters';
import { ReplyCoalescer } from './replyCoalescer';
import type { PanelSink } from './turnTypes';

/** What an answer needs from the controller. */
export interface TurnRunnerHost {
  readonly log: Logger;
  readonly connection: ServiceConnection;
  readonly sink: PanelSink;
  readonly agent: AgentService | undefined;
  save(conversation: Conversation): Promise<void>;
  /** The save at the end of an answer: never throws; resolves with the error to show under it (and Save again). */
  saveAtEnd(conversation: Conversation): Promise<string | undefined>;
  answered(usage: StoredUsage): void;
  /** Runs just before the request is built (automatic condensing of a long conversation). */
  beforeRequest?(conversation: Conversation, options: StoredOptions, reserved: number): Promise<void>;
  /** Posts the meter for what the next request will carry (after the agent's tool results). */
  postMeter(conversation: Conversation): void;
}

/**
 * Streams the answer `reply` to the conversation with `options` (its system prompt already holding the
 * turn's context); resolves with the answer text ('' on error, the partial text when stopped).
 */
export async function runTurn(host: TurnRunnerHost, conversation: Conversation, model: ModelInfo | undefined, reply: StoredMessage, withContext: StoredOptions, controller: AbortController): Promise<string> {
  if (!conversation.model) return '';
  const { agent, sink } = host;
  const plan = agent?.plan(conversation, model, model?.capabilities ?? (await host.connection.client()).capabilitiesOf(conversation.model), host.connection.models.models.filter((entry) => entry.capabilities.includes('tools')).map((entry) => entry.id));
  if (plan && !plan.use && plan.notice) sink({ type: 'notice', level: 'info', text: plan.notice });
  const options = plan?.use ? { ...withContext, systemPrompt: agent?.systemPrompt(withContext.systemPrompt) ?? '' } : withContext;
  const reserved = plan?.use ? agent?.schemaTokens(plan.settings) ?? 0 : 0;
  await host.beforeRequest?.(conversation, options, reserved);
  const { request, budget } = buildChatRequest(conversation, model, options, reserved);
  sink({ type: 'context/meter', usedTokens: budget.usedTokens, limitTokens: budget.limitTokens, droppedMessages: budget.droppedCount });
  conversation.messages.push(reply);
  sink({ type: 'message/add', message: { ...toView(reply), streaming: true } });
  const coalescer = new ReplyCoalescer(sink, reply.id);
  try {
    if (!budget.fits) {
      throw new ApiError('contextTooLong', `The conversation needs about ${budget.usedTokens} tokens but the model takes ${budget.limitTokens} besides the answer. Trim the conversation or lower max tokens.`);
    }
    const client = await host.connection.client();
    const retrying = (messageId: string, info: RetryInfo): void => sink({ type: 'chat/retrying', messageId, seconds: Math.ceil(info.delayMs / 1000), attempt: info.attempt, ...(info.error.reason === 'rateLimited' ? {} : { reason: info.error.reason }) });
    const callOptions = { signal: controller.signal, onRetry: (info: RetryInfo) => retrying(reply.id, info) };
    if (plan?.use && agent) {
      const turnHost = { sink, log: host.log, save: (changed: Conversation) => host.save(changed), saveAtEnd: (changed: Conversation) => host.saveAtEnd(changed), answered: (usage: StoredUsage) => host.answered(usage) };
      const text = await runAgentTurn(agent, turnHost, { conversation, model, reply, request, contextLimitTokens: budget.limitTokens + reserved, streamChat: (next, call) => client.streamChat(next, call), onRetry: retrying, settings: plan.settings, signal: controller.signal });
      // The tool results are history now: the meter shows what the next request will carry.
      host.postMeter(conversation);
      return text;
    }
    // A conversation about an audio file is answered by audio reasoning, the audio sent with every turn.
    const audioRequest = buildAudioReasoningRequest(conversation, conversation.options);
    const stream = audioRequest ? client.streamAudioReasoning(audioRequest, callOptions) : client.streamChat(request, callOptions);
    for await (const event of stream) {
      if (event.type === 'reasoning') coalescer.reasoning(event.text);
      else if (event.type === 'text') coalescer.text(event.text);
    }
    const result = await stream.result;
    coalescer.finish(reply);
    reply.usage = storedUsage(result.usage, model);
    const schema = conversation.options.jsonMode === 'schema' ? parseJsonObject(conversation.options.schema) : undefined;
    // Ajv is loaded only when a JSON-mode answer needs checking.
    const jsonCheck = conversation.options.jsonMode === 'object' || conversation.options.jsonMode === 'schema' ? (await import('../../core/chat/jsonCheck')).checkJsonAnswer(reply.text, schema) : undefined;
    const saveError = await host.saveAtEnd(conversation);
    host.answered(reply.usage);
    sink({ type: 'chat/done', messageId: reply.id, stopped: false, usage: reply.usage, ...(reply.reasoning ? { reasoningMs: reply.reasoning.ms } : {}), ...(jsonCheck ? { jsonCheck } : {}), ...(reply.sources ? { sources: reply.sources } : {}), ...(saveError !== undefined ? { saveError } : {}) });
    return reply.text;
  } catch (error) {
    coalescer.finish(reply);
    if (ApiError.is(error, 'canceled') || controller.signal.aborted) {
      reply.stopped = true;
      host.log.debug('Answer stopped by the user.');
      const saveError = await host.saveAtEnd(conversation);
      sink({ type: 'chat/done', messageId: reply.id, stopped: true, ...(saveError !== undefined ? { saveError } : {}) });
      return reply.text;
    }
    const view = errorView(error);
    reply.error = { message: view.message, reason: view.reason };
    host.log.warn(`Chat request failed (${view.reason}): ${view.message}`);
    const saveError = await host.saveAtEnd(conversation);
    sink({ type: 'chat/done', messageId: reply.id, stopped: false, error: view, ...(saveError !== undefined ? { saveError } : {}) });
    return '';
  }
}
