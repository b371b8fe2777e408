import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/api/types';
import { formatUsd, numberLocale } from '../../shared/numbers';
import type { ChatController } from '../chat/chatController';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';

/** A price per million tokens in the display language: `$0.15`, `$3`, `$2.50` (en); `2,50 $` (de). */
function price(perToken: number): string {
  const perMillion = perToken * 1e6;
  return formatUsd(perMillion, perMillion >= 1 && perMillion % 1 === 0 ? 0 : 2, numberLocale(vscode.env.language));
}

/** One quick-pick line: capabilities, context length, max completion tokens, price per million in/out. */
export function describeModel(model: ModelInfo): string {
  const parts = [model.capabilities.join(', ')];
  if (model.contextLength !== undefined) parts.push(vscode.l10n.t('context {0}', model.contextLength.toLocaleString(vscode.env.language)));
  if (model.maxCompletionTokens !== undefined) parts.push(vscode.l10n.t('max out {0}', model.maxCompletionTokens.toLocaleString(vscode.env.language)));
  if (model.pricing) parts.push(vscode.l10n.t('{0} in / {1} out per 1M', price(model.pricing.promptPerToken), price(model.pricing.completionPerToken)));
  return parts.join(' · ');
}

/**
 * `cadenza.selectModel`: a quick pick of the live model list (or the id given as the argument).
 * Returns the chosen model id.
 */
export async function selectModel(connection: ServiceConnection, chat: ChatController, modelArgument?: unknown): Promise<string | undefined> {
  if (typeof modelArgument === 'string' && modelArgument) {
    await chat.selectModel(modelArgument);
    return modelArgument;
  }
  const models = await connection.refreshModels();
  if (models.length === 0) {
    const error = connection.models.error;
    const message = error === undefined ? vscode.l10n.t('The service lists no models.') : vscode.l10n.t('Could not list models: {0}', errorView(error).message);
    const setKey = vscode.l10n.t('Set API Key');
    const openSettings = vscode.l10n.t('Open Settings');
    void vscode.window.showErrorMessage(message, setKey, openSettings).then((choice) => {
      if (choice === setKey) void vscode.commands.executeCommand('cadenza.setApiKey');
      if (choice === openSettings) void vscode.commands.executeCommand('workbench.action.openSettings', 'cadenza.baseUrl');
    });
    return undefined;
  }
  const current = chat.effectiveModel(await chat.current())?.id;
  const picked = await vscode.window.showQuickPick(
    models.map((model) => ({
      label: model.id,
      description: model.id === current ? vscode.l10n.t('(current)') : '',
      detail: describeModel(model),
      id: model.id,
    })),
    {
      title: vscode.l10n.t('Cadenza: model for this conversation'),
      matchOnDetail: true,
      placeHolder: vscode.l10n.t('Capabilities, context, output limit and price per million tokens'),
    },
  );
  if (!picked) return undefined;
  await chat.selectModel(picked.id);
  return picked.id;
}
