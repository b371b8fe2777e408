// An answer's figures as the conversation keeps them (and the panel shows them under the answer).
import type { ModelInfo, UsageReport } from '../../api/types';
import { costOf } from '../../api/usage';
import type { StoredUsage } from '../conversation';

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
