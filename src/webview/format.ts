/**
 * How the panel writes numbers: token counts, durations, speed, cost, context fullness and model
 * facts. Pure (no DOM): unit-tested in plain Node.
 */
import { formatCost } from '../shared/cost';
import type { ModelView, UsageView } from '../shared/views';
import { t } from './l10n';

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
  if (ms < 1000) return t('durationMs', { ms: Math.round(ms) });
  if (ms < 60_000) return t('durationSeconds', { seconds: trim((ms / 1000).toFixed(1)) });
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms - minutes * 60_000) / 1000);
  return t('durationMinutes', { minutes, seconds });
}

/** One figure of the usage line: a short text and a longer description for the tooltip. */
export interface UsagePart {
  readonly text: string;
  readonly title: string;
}

const sourceText: Record<UsageView['source'], UsagePart> = {
  service: { text: t('usageByService'), title: t('usageByServiceTitle') },
  client: { text: t('usageByClient'), title: t('usageByClientTitle') },
  mixed: { text: t('usageMixed'), title: t('usageMixedTitle') },
};

/** The figures shown under an answer, in order; figures the usage lacks are left out. */
export function usageParts(usage: UsageView): UsagePart[] {
  const parts: UsagePart[] = [];
  if (usage.promptTokens !== undefined) parts.push({ text: t('usageIn', { count: formatCount(usage.promptTokens) }), title: t('usageInTitle') });
  if (usage.completionTokens !== undefined) {
    const count = formatCount(usage.completionTokens);
    const text =
      usage.reasoningTokens !== undefined && usage.reasoningTokens > 0
        ? t('usageOutThinking', { count, thinking: formatCount(usage.reasoningTokens) })
        : t('usageOut', { count });
    parts.push({ text, title: t('usageOutTitle') });
  }
  if (usage.timeToFirstTokenMs !== undefined)
    parts.push({ text: t('usageFirstToken', { duration: formatDuration(usage.timeToFirstTokenMs) }), title: t('usageFirstTokenTitle') });
  if (usage.tokensPerSecond !== undefined)
    parts.push({ text: t('usageSpeed', { rate: trim(usage.tokensPerSecond.toFixed(usage.tokensPerSecond < 100 ? 1 : 0)) }), title: t('usageSpeedTitle') });
  if (usage.totalTimeMs !== undefined) parts.push({ text: formatDuration(usage.totalTimeMs), title: t('usageTotalTitle') });
  if (usage.costUsd !== undefined) parts.push({ text: formatCost(usage.costUsd), title: t('usageCostTitle') });
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
  const used = formatTokensShort(usedTokens);
  const label = limitTokens > 0 ? t('contextOfLimit', { used, limit: formatTokensShort(limitTokens), percent }) : t('contextTokens', { used });
  const level = fraction >= 0.95 ? 'full' : fraction >= 0.8 ? 'warning' : 'ok';
  if (droppedMessages <= 0) return { fraction, label, level };
  const note = t(droppedMessages === 1 ? 'droppedOne' : 'droppedMany', { count: droppedMessages });
  return { fraction, label, level, note };
}

/** One line about a model: context, output limit, prices and capabilities. */
export function modelFacts(model: ModelView): string {
  const facts: string[] = [];
  if (model.contextLength !== undefined) facts.push(t('modelContext', { tokens: formatTokensShort(model.contextLength) }));
  if (model.maxCompletionTokens !== undefined) facts.push(t('modelMaxOutput', { tokens: formatTokensShort(model.maxCompletionTokens) }));
  if (model.pricePerMillionInput !== undefined || model.pricePerMillionOutput !== undefined) {
    const price = (value: number | undefined): string => (value === undefined ? '?' : `$${trim(value.toFixed(2))}`);
    facts.push(t('modelPrices', { input: price(model.pricePerMillionInput), output: price(model.pricePerMillionOutput) }));
  }
  const capabilities = model.capabilities.filter((capability) => capability !== 'chat');
  if (capabilities.length > 0) facts.push(capabilities.join(', '));
  return facts.join(' \u00b7 ');
}

/** `just now`, `5 min ago`, `3 h ago`, `2 days ago`, or a date. */
export function formatAge(timestamp: number, now: number): string {
  const seconds = Math.max(0, (now - timestamp) / 1000);
  if (seconds < 60) return t('justNow');
  if (seconds < 3600) return t('minutesAgo', { count: Math.floor(seconds / 60) });
  if (seconds < 86_400) return t('hoursAgo', { count: Math.floor(seconds / 3600) });
  if (seconds < 7 * 86_400) {
    const days = Math.floor(seconds / 86_400);
    return t(days === 1 ? 'daysAgoOne' : 'daysAgoMany', { count: days });
  }
  return new Date(timestamp).toISOString().slice(0, 10);
}
