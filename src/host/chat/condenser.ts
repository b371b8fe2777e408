// Condensing in VS Code: asks the service for the summary of a conversation's older turns (core/chat/
// condense.ts builds the request and decides what is covered), and reads the automatic-condensing settings.
// The controller stores the result on the conversation and shows it; nothing here touches the panel.
import * as vscode from 'vscode';
import { buildCondenseRequest, condenseModel, condensePlan, type CondensedHistory } from '../../core/chat/condense';
import { estimateTokens } from '../../core/chat/contextBudget';
import type { Conversation } from '../../core/chat/conversation';
import { fallbackContextLength } from '../../core/chat/requestBuilder';
import { settingDefaults } from '../settingDefaults';
import type { ServiceConnection } from './connection';

/** `cadenza.chat.autoCondense*`: whether to condense before a request on its own, and from which share of the context. */
export function readAutoCondense(): { readonly enabled: boolean; readonly threshold: number } {
  const config = vscode.workspace.getConfiguration('cadenza.chat');
  const threshold = config.get<number>('autoCondenseThreshold', settingDefaults['chat.autoCondenseThreshold']);
  return {
    enabled: config.get<boolean>('autoCondense', settingDefaults['chat.autoCondense']),
    threshold: Number.isFinite(threshold) ? Math.min(1, Math.max(0.5, threshold)) : settingDefaults['chat.autoCondenseThreshold'],
  };
}

/**
 * Asks a model for the summary of everything but the newest turns. Resolves with the summary to store,
 * or undefined when there is nothing older to condense; rejects with the service's error.
 */
export async function summariseOlderTurns(connection: ServiceConnection, conversation: Conversation, signal: AbortSignal): Promise<CondensedHistory | undefined> {
  const plan = condensePlan(conversation);
  const own = conversation.model;
  if (!plan || own === undefined) return undefined;
  const needed = estimateTokens(plan.messages.map((message) => message.text).join('\n')) + estimateTokens(plan.previousSummary ?? '');
  const modelId = condenseModel(connection.models.models, own, needed);
  const request = buildCondenseRequest(modelId, connection.model(modelId)?.contextLength ?? fallbackContextLength, plan);
  const client = await connection.client();
  const result = await client.chat(request, { signal });
  const summary = result.text.trim();
  if (summary === '') throw new Error(`${modelId} answered with an empty summary.`);
  const covered = conversation.messages.findIndex((message) => message.id === plan.through.id) + 1;
  return { summary, throughMessageId: plan.through.id, messageCount: covered, model: modelId, createdAt: Date.now() };
}
