// Which model answers a message, in the host, for every entry point: core's resolution order
// (core/chat/modelChoice.ts) fed with the setting, the last model used (global state) and the live list,
// waiting for the list when it has not arrived instead of refusing, and saying why when no model can be chosen.
import * as vscode from 'vscode';
import { resolveChatModel, type ModelChoice } from '../../core/chat/modelChoice';
import type { HostContext } from '../context';
import { readChatDefaults } from '../settings';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';
import type { PanelSink } from './turnTypes';

/** The model the user last chatted with, in any conversation (the default for new ones after the setting). */
export const lastModelKey = 'cadenza.chat.lastModel';

/**
 * The model a message with `conversationModel` would use now (undefined while nothing can be chosen);
 * `requested` is what the entry point itself was asked for (VS Code chat's model, for @cadenza).
 */
export function effectiveModel(
  host: HostContext,
  connection: ServiceConnection,
  conversationModel: string | undefined,
  requested?: string,
): ModelChoice | undefined {
  return resolveChatModel({
    requested,
    conversation: conversationModel,
    setting: readChatDefaults().model,
    lastUsed: host.extension.globalState.get<string>(lastModelKey),
    models: connection.models.models,
  });
}

/**
 * Resolves the model of a message, waiting for the model list when it has not arrived (the panel says so);
 * remembers it as the last model used. Undefined, with the reason shown in the panel, only when no model
 * can be chosen (or the wait was cancelled).
 */
export async function resolveMessageModel(
  host: HostContext,
  connection: ServiceConnection,
  sink: PanelSink,
  conversationModel: string | undefined,
  signal?: AbortSignal,
): Promise<ModelChoice | undefined> {
  let choice = effectiveModel(host, connection, conversationModel);
  if (!choice && connection.models.models.length === 0) {
    sink({ type: 'notice', level: 'info', text: vscode.l10n.t('Waiting for the model list…') });
    await connection.ensureModels();
    if (signal?.aborted === true) return undefined;
    choice = effectiveModel(host, connection, conversationModel);
  }
  if (!choice) {
    const error = connection.models.error;
    const text =
      error !== undefined
        ? vscode.l10n.t('No model can be chosen: the model list could not be read ({0}).', errorView(error).message)
        : vscode.l10n.t('The service lists no chat model. Pick a model, or set cadenza.chat.model.');
    sink({ type: 'notice', level: 'error', text });
    return undefined;
  }
  if (host.extension.globalState.get<string>(lastModelKey) !== choice.id) await host.extension.globalState.update(lastModelKey, choice.id);
  return choice;
}
