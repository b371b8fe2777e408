// A host for the panel's answers in plain Node: what they send the panel, save and count, recorded.
import type { ChatResult, ModelInfo } from '../../../../src/core/api/types';
import { ApiError } from '../../../../src/core/api/errors';
import type { AnswerDeps } from '../../../../src/core/chat/answer/answerDeps';
import type { Conversation, StoredUsage } from '../../../../src/core/chat/conversation';
import { silentLogger } from '../../../../src/core/logger';
import type { ToWebview } from '../../../../src/shared/protocol';
import { usage } from '../scriptedStreams';

/** The recorded host. */
export interface FakeHost {
  readonly deps: AnswerDeps;
  readonly posted: ToWebview[];
  readonly saves: Conversation[];
  readonly spent: StoredUsage[];
  readonly meters: number;
}

/** A host whose end-of-answer save fails with `saveError` when given. */
export function fakeHost(saveError?: string): FakeHost {
  const host = { posted: [] as ToWebview[], saves: [] as Conversation[], spent: [] as StoredUsage[], meters: 0 };
  const deps: AnswerDeps = {
    log: silentLogger,
    sink: (message) => host.posted.push(message),
    save: (conversation) => {
      host.saves.push(conversation);
      return Promise.resolve();
    },
    saveAtEnd: (conversation) => {
      host.saves.push(conversation);
      return Promise.resolve(saveError);
    },
    answered: (figures) => host.spent.push(figures),
    meter: () => {
      host.meters += 1;
    },
    errorView: (error) => ({ message: error instanceof Error ? error.message : String(error), reason: ApiError.is(error) ? error.reason : 'unknown' }),
  };
  return Object.assign(host, { deps });
}

/** A priced model, so answers have a cost. */
export const pricedModel: ModelInfo = {
  id: 'Meta-Llama-3.3-70B-Instruct',
  ownedBy: undefined,
  contextLength: 8192,
  maxCompletionTokens: 1024,
  pricing: { promptPerToken: 0.000001, completionPerToken: 0.000002 },
  capabilities: ['chat', 'tools'],
  family: undefined,
};

/** A step's complete answer as the turn reports it. */
export function result(text: string, toolCalls: ChatResult['toolCalls'] = []): ChatResult {
  return { id: 'answer-1', model: pricedModel.id, text, reasoning: '', toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop', usage: usage() };
}

/** The messages of one type the panel was sent. */
export function sent<T extends ToWebview['type']>(posted: readonly ToWebview[], type: T): Extract<ToWebview, { type: T }>[] {
  return posted.filter((message): message is Extract<ToWebview, { type: T }> => message.type === type);
}
