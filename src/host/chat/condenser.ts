// Condensing in VS Code: asks the service for the summary of a conversation's older turns (core/chat/
// condense.ts builds the request and decides what is covered), stores it with the conversation and shows it,
// takes the user's edit of it, and condenses on its own before a request with `cadenza.chat.autoCondense`.
import * as vscode from 'vscode';
import { answerAsStream } from '../../core/api/deferredStream';
import { ApiError } from '../../core/api/errors';
import type { ChatResult, ModelInfo } from '../../core/api/types';
import {
  acceptedSummary,
  buildCondenseRequest,
  condenseModel,
  condensePlan,
  needsCondensing,
  summaryLimit,
  type CondensedHistory,
} from '../../core/chat/condense';
import { estimateTokens } from '../../core/chat/contextBudget';
import type { Conversation, StoredOptions } from '../../core/chat/conversation';
import { buildChatRequest, fallbackContextLength } from '../../core/chat/requestBuilder';
import { runTurn } from '../../core/chat/runTurn';
import type { Logger } from '../../core/logger';
import { settingDefaults } from '../settingDefaults';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';
import type { PanelSink } from './turnTypes';

/** `cadenza.chat.autoCondense*`: whether to condense before a request on its own, and from which share of the context. */
export function readAutoCondense(): { readonly enabled: boolean; readonly threshold: number } {
  const config = vscode.workspace.getConfiguration('cadenza.chat');
  const threshold = config.get<number>('autoCondenseThreshold', settingDefaults['chat.autoCondenseThreshold']);
  return {
    enabled: config.get<boolean>('autoCondense', settingDefaults['chat.autoCondense']),
    threshold: Number.isFinite(threshold) ? Math.min(1, Math.max(0.5, threshold)) : settingDefaults['chat.autoCondenseThreshold'],
  };
}

/** A summary the answer limit cut off: not stored, so the history it would have replaced stays as it was. */
export class SummaryCutError extends Error {
  readonly reason = 'summaryCut' as const;
  constructor(
    readonly model: string,
    readonly maxTokens: number,
  ) {
    super(`${model}'s summary was cut off at its limit of ${maxTokens.toLocaleString('en-US')} tokens.`);
  }
  static is(error: unknown): error is SummaryCutError {
    return error instanceof SummaryCutError;
  }
}

/**
 * Asks a model for the summary of everything but the newest turns, in up to `wantedTokens` (the panel's
 * max tokens) when that is more than the default: a turn of core/chat/runTurn.ts whose model is one whose
 * context holds what is condensed (condense.ts), the summary asked for whole. Resolves with the summary to
 * store, or undefined when there is nothing older to condense; rejects with the service's error, or
 * SummaryCutError for a cut summary.
 */
export async function summariseOlderTurns(
  connection: ServiceConnection,
  conversation: Conversation,
  signal: AbortSignal,
  wantedTokens = conversation.options.maxTokens,
): Promise<CondensedHistory | undefined> {
  const plan = condensePlan(conversation);
  const own = conversation.model;
  if (!plan || own === undefined) return undefined;
  let maxTokens = summaryLimit(wantedTokens, undefined);
  const turn = runTurn(
    {
      model: () => {
        const needed = estimateTokens(plan.messages.map((message) => message.text).join('\n')) + estimateTokens(plan.previousSummary ?? '');
        const id = condenseModel(connection.models.models, own, needed, maxTokens);
        return Promise.resolve({ id, info: connection.model(id) });
      },
      context: (model) => {
        maxTokens = summaryLimit(wantedTokens, model.info);
        return Promise.resolve({ request: buildCondenseRequest(model.id, model.info?.contextLength ?? fallbackContextLength, plan, maxTokens) });
      },
      stream: (request, options) => answerAsStream(async () => (await connection.client()).chat(request, options)),
    },
    signal,
  );
  let modelId = own;
  let answer: Pick<ChatResult, 'text' | 'finishReason'> = { text: '', finishReason: 'unknown' };
  for await (const event of turn) {
    if (event.type === 'model') modelId = event.model.id;
    else if (event.type === 'usage') answer = event.result;
    else if (event.type === 'error') throw event.error;
    else if (event.type === 'done' && event.outcome === 'stopped') throw new ApiError('canceled', 'Stopped by the user');
  }
  const accepted = acceptedSummary(answer);
  if ('problem' in accepted) {
    if (accepted.problem === 'cut') throw new SummaryCutError(modelId, maxTokens);
    throw new Error(`${modelId} answered with an empty summary.`);
  }
  const covered = conversation.messages.findIndex((message) => message.id === plan.through.id) + 1;
  return { summary: accepted.summary, throughMessageId: plan.through.id, messageCount: covered, model: modelId, createdAt: Date.now() };
}

/** What the panel says about a cut summary: nothing changed, and how to get a longer one when the model allows it. */
function cutNotice(error: SummaryCutError, connection: ServiceConnection): string {
  const most = connection.model(error.model)?.maxCompletionTokens;
  const larger = most === undefined || error.maxTokens < most;
  const tokens = error.maxTokens.toLocaleString(vscode.env.language);
  return larger
    ? vscode.l10n.t(
        "The summary was cut off at {0} tokens, so nothing was condensed: the history is kept as it was. Set Max tokens in this conversation's options above {0} and condense again.",
        tokens,
      )
    : vscode.l10n.t('The summary was cut off at {0} tokens, so nothing was condensed: the history is kept as it was.', tokens);
}

/** What condensing needs from the chat controller. */
export interface CondenserHost {
  readonly log: Logger;
  readonly connection: ServiceConnection;
  readonly sink: PanelSink;
  /** Resolves (and keeps) a conversation's model when it has none yet; undefined, with the reason shown, when none can be chosen. */
  resolveModel(conversation: Conversation, signal: AbortSignal): Promise<string | undefined>;
  save(conversation: Conversation): Promise<void>;
  /** Shows the conversation (with its summary) and its meter again, when it is the open one. */
  refresh(conversation: Conversation): void;
}

/**
 * Condensing a conversation in the panel: a model summarises the older turns, the summary is stored with
 * the conversation and sent instead of them from now on, and the panel shows it (editable) with the whole
 * history; the user's edit replaces it; with `cadenza.chat.autoCondense` it happens before a request on its own.
 */
export class Condenser {
  constructor(private readonly host: CondenserHost) {}

  /**
   * Condenses `target`, the summary in up to `maxTokens` when that is more than the default; false (with the
   * reason shown) when there is nothing older to condense, the request failed or the summary was cut off.
   */
  async condense(target: Conversation, signal: AbortSignal = new AbortController().signal, maxTokens = target.options.maxTokens): Promise<boolean> {
    const { host } = this;
    if (!target.model && (await host.resolveModel(target, signal)) === undefined) return false;
    host.sink({ type: 'notice', level: 'info', key: 'condense', text: vscode.l10n.t('Condensing the older turns of this conversation…') });
    try {
      const condensed = await summariseOlderTurns(host.connection, target, signal, maxTokens);
      if (!condensed) {
        host.sink({
          type: 'notice',
          level: 'info',
          key: 'condense',
          text: vscode.l10n.t('Nothing to condense yet: only the newest two turns are there, and they are always sent whole.'),
        });
        return false;
      }
      target.condensed = condensed;
      await host.save(target);
      host.refresh(target);
      host.sink({
        type: 'notice',
        level: 'info',
        key: 'condense',
        text: vscode.l10n.t('Condensed {0} older messages: the summary above them is sent instead (edit it there).', condensed.messageCount),
      });
      host.log.info(`Condensed ${condensed.messageCount} messages with ${condensed.model} into ${condensed.summary.length} characters.`);
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      if (SummaryCutError.is(error)) {
        host.log.warn(error.message);
        host.sink({ type: 'notice', level: 'warning', key: 'condense', text: cutNotice(error, host.connection) });
        return false;
      }
      const view = errorView(error);
      host.log.warn(`Condensing failed (${view.reason}): ${view.message}`);
      host.sink({
        type: 'notice',
        level: 'warning',
        key: 'condense',
        text: vscode.l10n.t('The conversation could not be condensed: {0} The oldest turns are left out instead.', view.message),
      });
      return false;
    }
  }

  /** Replaces the conversation's summary with the user's edit (an empty edit is ignored). */
  async editSummary(conversation: Conversation, summary: string): Promise<void> {
    if (!conversation.condensed || summary.trim() === '') return;
    conversation.condensed.summary = summary.trim();
    conversation.condensed.edited = true;
    await this.host.save(conversation);
    this.host.refresh(conversation);
  }

  /** With `cadenza.chat.autoCondense`, condenses before a request that would drop turns or cross the threshold. */
  async autoCondense(conversation: Conversation, model: ModelInfo | undefined, options: StoredOptions, reserved: number, signal: AbortSignal): Promise<void> {
    const auto = readAutoCondense();
    if (!auto.enabled || conversation.messages.some((message) => message.audio !== undefined)) return;
    const { budget } = buildChatRequest(conversation, model, options, reserved);
    if (needsCondensing(budget, auto.threshold)) await this.condense(conversation, signal);
  }
}
