// How a listed model and an answer's figures are shown in the panel. An error's presentation is the
// service's (host/service/errorView.ts): every entry point shows errors the same way.
import type { ModelInfo, UsageReport } from '../../core/api/types';
import { costOf } from '../../core/api/usage';
import type { StoredUsage } from '../../core/chat/conversation';
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

/** The figures kept with an answer; `source` says whether the service or the client measured them. */
export function storedUsage(usage: UsageReport, model: ModelInfo | undefined): StoredUsage {
  const sources = [
    usage.source.timeToFirstToken,
    usage.source.tokensPerSecond,
    usage.source.totalTime,
    usage.source.tokens === 'service' ? 'service' : 'client',
  ];
  const source = sources.every((value) => value === 'service') ? 'service' : sources.every((value) => value === 'client') ? 'client' : 'mixed';
  const cost = model ? costOf(usage, model) : undefined;
  return {
    ...(usage.promptTokens !== undefined ? { promptTokens: usage.promptTokens } : {}),
    ...(usage.completionTokens !== undefined ? { completionTokens: usage.completionTokens } : {}),
    timeToFirstTokenMs: usage.timeToFirstTokenMs,
    tokensPerSecond: usage.tokensPerSecond,
    totalTimeMs: usage.totalTimeMs,
    ...(cost !== undefined ? { costUsd: cost } : {}),
    ...(usage.service?.reasoningTokens !== undefined ? { reasoningTokens: usage.service.reasoningTokens } : {}),
    source,
  };
}
