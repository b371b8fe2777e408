import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/api/types';
import type { ChatController } from '../chat/chatController';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';

function price(perToken: number): string {
  const perMillion = perToken * 1e6;
  return `$${perMillion < 1 ? perMillion.toFixed(2) : perMillion.toFixed(perMillion % 1 === 0 ? 0 : 2)}`;
}

/** One quick-pick line: capabilities, context length, max completion tokens, price per million in/out. */
export function describeModel(model: ModelInfo): string {
  const parts = [model.capabilities.join(', ')];
  if (model.contextLength !== undefined) parts.push(`context ${model.contextLength.toLocaleString('en-US')}`);
  if (model.maxCompletionTokens !== undefined) parts.push(`max out ${model.maxCompletionTokens.toLocaleString('en-US')}`);
  if (model.pricing) parts.push(`${price(model.pricing.promptPerToken)} in / ${price(model.pricing.completionPerToken)} out per 1M`);
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
    const message = error === undefined ? 'The service lists no models.' : `Could not list models: ${errorView(error).message}`;
    void vscode.window.showErrorMessage(message, 'Set API Key', 'Open Settings').then((choice) => {
      if (choice === 'Set API Key') void vscode.commands.executeCommand('cadenza.setApiKey');
      if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'cadenza.baseUrl');
    });
    return undefined;
  }
  const current = chat.effectiveModel(await chat.current())?.id;
  const picked = await vscode.window.showQuickPick(
    models.map((model) => ({ label: model.id, description: model.id === current ? '(current)' : '', detail: describeModel(model), id: model.id })),
    { title: 'Cadenza: model for this conversation', matchOnDetail: true, placeHolder: 'Capabilities, context, output limit and price per million tokens' },
  );
  if (!picked) return undefined;
  await chat.selectModel(picked.id);
  return picked.id;
}
