// Usage and speed: maps the service's usage fields (docs/service.md#usage-and-speed: time_to_first_token in
// seconds, completion_tokens_after_first_per_sec, total_latency, token counts) into one UsageReport,
// next to what the client measured itself, so every answer has figures even from a server that
// sends none. And the cost of an answer from the model's per-token prices.
import { type ModelInfo, type ServiceUsage, type UsageReport } from './types';

/** What the client measured for one answer, in performance.now() milliseconds. */
export interface ClientMeasures {
  startedAt: number;
  /** When the first text or tool-call fragment arrived (for non-streamed answers: the headers). */
  firstTokenAt: number | undefined;
  endedAt: number;
  /** Characters of output (text plus tool-call arguments), for the ~4 chars/token estimate. */
  outputChars: number;
  /** Characters of input, for the prompt-token estimate. */
  promptChars: number;
}

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Reads the raw usage object of a response or final chunk; undefined when it is absent or null. */
export function readServiceUsage(raw: unknown): ServiceUsage | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const u = raw as Record<string, unknown>;
  const out: ServiceUsage = {};
  const set = <K extends keyof ServiceUsage>(key: K, value: number | undefined): void => {
    if (value !== undefined) out[key] = value;
  };
  // input_tokens/output_tokens: OpenAI's transcription usage, which llama-server sends (docs/service.md#usage-and-speed).
  set('promptTokens', num(u['prompt_tokens']) ?? num(u['input_tokens']));
  set('completionTokens', num(u['completion_tokens']) ?? num(u['output_tokens']));
  set('totalTokens', num(u['total_tokens']));
  set('timeToFirstToken', num(u['time_to_first_token']));
  set('completionTokensAfterFirstPerSec', num(u['completion_tokens_after_first_per_sec']));
  set('completionTokensPerSec', num(u['completion_tokens_per_sec']));
  set('totalTokensPerSec', num(u['total_tokens_per_sec']));
  set('totalLatency', num(u['total_latency']));
  set('startTime', num(u['start_time']));
  set('endTime', num(u['end_time']));
  set('acceptanceRate', num(u['acceptance_rate']));
  const promptDetails = u['prompt_tokens_details'];
  if (typeof promptDetails === 'object' && promptDetails !== null) set('cachedTokens', num((promptDetails as Record<string, unknown>)['cached_tokens']));
  const completionDetails = u['completion_tokens_details'];
  if (typeof completionDetails === 'object' && completionDetails !== null) {
    set('reasoningTokens', num((completionDetails as Record<string, unknown>)['reasoning_tokens']));
  }
  return out;
}

/** The rough token estimate used when the service gives no counts (about four characters a token). */
export function estimateTokens(chars: number): number {
  return chars <= 0 ? 0 : Math.ceil(chars / 4);
}

/** Builds the report for one answer; called at the end of every chat, audio and transcription call. */
export function buildUsageReport(service: ServiceUsage | undefined, measures: ClientMeasures): UsageReport {
  const { startedAt, endedAt } = measures;
  const firstAt = measures.firstTokenAt ?? endedAt;
  const serviceCounts = service?.completionTokens !== undefined;
  const completionTokens = service?.completionTokens ?? estimateTokens(measures.outputChars);
  const promptTokens = service?.promptTokens ?? (serviceCounts ? undefined : estimateTokens(measures.promptChars));
  const totalTokens = service?.totalTokens ?? (promptTokens === undefined ? undefined : promptTokens + completionTokens);

  const clientTtft = Math.max(0, firstAt - startedAt);
  const clientTotal = Math.max(0, endedAt - startedAt);
  // Speed after the first token, like the service's completion_tokens_after_first_per_sec; a
  // non-streamed answer arrives all at once, so its speed is over the whole request.
  const window = endedAt - firstAt;
  const clientTps =
    window >= 1 && completionTokens > 1 ? (completionTokens - 1) / (window / 1000) : clientTotal > 0 ? completionTokens / (clientTotal / 1000) : 0;

  const serviceTtft = service?.timeToFirstToken;
  const serviceTps = service?.completionTokensAfterFirstPerSec ?? service?.completionTokensPerSec;
  const serviceTotal = service?.totalLatency;
  const report: UsageReport = {
    completionTokens,
    timeToFirstTokenMs: serviceTtft === undefined ? clientTtft : serviceTtft * 1000,
    tokensPerSecond: serviceTps ?? clientTps,
    totalTimeMs: serviceTotal === undefined ? clientTotal : serviceTotal * 1000,
    source: {
      timeToFirstToken: serviceTtft === undefined ? 'client' : 'service',
      tokensPerSecond: serviceTps === undefined ? 'client' : 'service',
      totalTime: serviceTotal === undefined ? 'client' : 'service',
      tokens: serviceCounts ? 'service' : 'estimated',
    },
    client: { timeToFirstTokenMs: clientTtft, tokensPerSecond: clientTps, totalTimeMs: clientTotal },
  };
  if (promptTokens !== undefined) report.promptTokens = promptTokens;
  if (totalTokens !== undefined) report.totalTokens = totalTokens;
  if (service !== undefined) report.service = service;
  return report;
}

/** Cost of one answer in USD from the model's per-token prices; undefined when prices or counts are unknown. Called by the chat panel. */
export function costOf(usage: UsageReport, model: ModelInfo): number | undefined {
  if (model.pricing === undefined) return undefined;
  const prompt = usage.promptTokens;
  const completion = usage.completionTokens;
  if (prompt === undefined && completion === undefined) return undefined;
  return (prompt ?? 0) * model.pricing.promptPerToken + (completion ?? 0) * model.pricing.completionPerToken;
}

/** Cost in USD of transcribing `seconds` of audio with a model priced per audio hour; undefined when either is unknown. Called by the transcribe command. */
export function transcriptCostOf(seconds: number | undefined, model: ModelInfo): number | undefined {
  if (seconds === undefined || model.audioPricePerHour === undefined) return undefined;
  return (seconds * model.audioPricePerHour) / 3600;
}
