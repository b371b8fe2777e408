// How a listed model is shown in the panel. An answer's figures are core's (core/chat/answer/storedUsage.ts);
// an error's presentation is the service's (host/service/errorView.ts): every entry point shows errors the same way.
import type { ModelInfo } from '../../core/api/types';
import type { ModelView } from '../../shared/views';

/** A listed model as the picker shows it (prices per million tokens). */
export function modelView(model: ModelInfo): ModelView {
  return {
    id: model.id,
    capabilities: model.capabilities,
    ...(model.contextLength !== undefined ? { contextLength: model.contextLength } : {}),
    ...(model.maxCompletionTokens !== undefined ? { maxCompletionTokens: model.maxCompletionTokens } : {}),
    ...(model.pricing ? { pricePerMillionInput: model.pricing.promptPerToken * 1e6, pricePerMillionOutput: model.pricing.completionPerToken * 1e6 } : {}),
    ...(model.reasoning ? { reasoning: model.reasoning.controls } : {}),
  };
}
