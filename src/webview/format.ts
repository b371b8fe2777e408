/**
 * How the panel writes numbers: token counts, durations, speed, cost, context fullness and model
 * facts. Pure (no DOM): unit-tested in plain Node.
 */
import { formatCost } from '../shared/cost';
import type { ModelView, UsageView } from '../shared/views';

const grouped = new Intl.NumberFormat('en-US');

/** `1,234`. */
export function formatCount(value: number): string {
  return grouped.format(Math.round(value));
}

/** `950`, `12.3k`, `128k`, `1.05M`: short token counts for tight spaces. */
export function formatTokensShort(value: number): string {
  if (value < 1000) return String(Math.round(value));
  if (value < 1_000_000) {
    const thousands = value / 1000;
    return `${thousands < 100 ? trim(thousands.toFixed(1)) : Math.round(thousands)}k`;
  }
  return `${trim((value / 1_000_000).toFixed(2))}M`;
}

function trim(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** `850 ms`, `2.4 s`, `1 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trim((ms / 1000).toFixed(1))} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms - minutes * 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

/** One figure of the usage line: a short text and a longer description for the tooltip. */
export interface UsagePart {
  readonly text: string;
  readonly title: string;
}

const sourceText: Record<UsageView['source'], UsagePart> = {
  service: { text: 'reported by the service', title: 'Token counts and timings come from the service\u2019s usage fields.' },
  client: { text: 'measured by Cadenza', title: 'The service sent no usage figures; Cadenza counted and timed the answer itself.' },
  mixed: { text: 'partly measured by Cadenza', title: 'Some figures come from the service, the rest were measured by Cadenza.' },
};

/** The figures shown under an answer, in order; figures the usage lacks are left out. */
export function usageParts(usage: UsageView): UsagePart[] {
  const parts: UsagePart[] = [];
  if (usage.promptTokens !== undefined) parts.push({ text: `${formatCount(usage.promptTokens)} in`, title: 'Input (prompt) tokens' });
  if (usage.completionTokens !== undefined) {
    const thinking = usage.reasoningTokens !== undefined && usage.reasoningTokens > 0 ? ` (${formatCount(usage.reasoningTokens)} thinking)` : '';
    parts.push({ text: `${formatCount(usage.completionTokens)} out${thinking}`, title: 'Output (completion) tokens, thinking included' });
  }
  if (usage.timeToFirstTokenMs !== undefined) parts.push({ text: `first token ${formatDuration(usage.timeToFirstTokenMs)}`, title: 'Time to first token' });
  if (usage.tokensPerSecond !== undefined)
    parts.push({ text: `${trim(usage.tokensPerSecond.toFixed(usage.tokensPerSecond < 100 ? 1 : 0))} tok/s`, title: 'Output tokens per second' });
  if (usage.totalTimeMs !== undefined) parts.push({ text: formatDuration(usage.totalTimeMs), title: 'Total time' });
  if (usage.costUsd !== undefined) parts.push({ text: formatCost(usage.costUsd), title: 'Cost at the model\u2019s list price' });
  parts.push(sourceText[usage.source]);
  return parts;
}

/** What the context meter says. */
export interface MeterText {
  /** 0 to 1. */
  readonly fraction: number;
  readonly label: string;
  readonly level: 'ok' | 'warning' | 'full';
  readonly note?: string;
}

/** The context meter's figures: how full the model's context is and what was left out. */
export function meterText(usedTokens: number, limitTokens: number, droppedMessages: number): MeterText {
  const fraction = limitTokens > 0 ? Math.min(1, Math.max(0, usedTokens / limitTokens)) : 0;
  const percent = Math.round(fraction * 100);
  const label =
    limitTokens > 0
      ? `Context ${formatTokensShort(usedTokens)} / ${formatTokensShort(limitTokens)} tokens (${percent}%)`
      : `Context ${formatTokensShort(usedTokens)} tokens`;
  const level = fraction >= 0.95 ? 'full' : fraction >= 0.8 ? 'warning' : 'ok';
  if (droppedMessages <= 0) return { fraction, label, level };
  const note = `${droppedMessages} older message${droppedMessages === 1 ? ' was' : 's were'} left out to fit the context.`;
  return { fraction, label, level, note };
}

/** One line about a model: context, output limit, prices and capabilities. */
export function modelFacts(model: ModelView): string {
  const facts: string[] = [];
  if (model.contextLength !== undefined) facts.push(`${formatTokensShort(model.contextLength)} context`);
  if (model.maxCompletionTokens !== undefined) facts.push(`max ${formatTokensShort(model.maxCompletionTokens)} out`);
  if (model.pricePerMillionInput !== undefined || model.pricePerMillionOutput !== undefined) {
    const price = (value: number | undefined): string => (value === undefined ? '?' : `$${trim(value.toFixed(2))}`);
    facts.push(`${price(model.pricePerMillionInput)} in / ${price(model.pricePerMillionOutput)} out per 1M`);
  }
  const capabilities = model.capabilities.filter((capability) => capability !== 'chat');
  if (capabilities.length > 0) facts.push(capabilities.join(', '));
  return facts.join(' \u00b7 ');
}

/** `just now`, `5 min ago`, `3 h ago`, `2 days ago`, or a date. */
export function formatAge(timestamp: number, now: number): string {
  const seconds = Math.max(0, (now - timestamp) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 7 * 86_400) {
    const days = Math.floor(seconds / 86_400);
    return `${days} day${days === 1 ? '' : 's'} ago`;
  }
  return new Date(timestamp).toISOString().slice(0, 10);
}
