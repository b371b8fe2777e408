/**
 * How the panel writes numbers: token counts, durations, speed, cost, context fullness and model
 * facts, in the panel's language (l10n.ts's `locale`: `1,234` in English, `1.234` in German). Pure (no DOM):
 * unit-tested in plain Node.
 */
import { formatCost } from '../shared/cost';
import { formatCompact, formatDecimal, formatInteger, formatPrice } from '../shared/numbers';
import { untitledConversationTitle, type Capability, type ModelView, type UsageView } from '../shared/views';
import { locale, t } from './l10n';

/** `1,234` (en), `1.234` (de). */
export function formatCount(value: number): string {
  return formatInteger(value, locale());
}

/** `950`, `12.3K`, `128K`, `1.05M` (en), `12.340`, `1,05 Mio.` (de): short token counts for tight spaces. */
export function formatTokensShort(value: number): string {
  return formatCompact(value, locale());
}

/** `850 ms`, `2.4 s`, `1 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return t('durationMs', { ms: formatCount(ms) });
  if (ms < 60_000) return t('durationSeconds', { seconds: formatDecimal(ms / 1000, 1, locale()) });
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
    parts.push({
      text: t('usageSpeed', { rate: formatDecimal(usage.tokensPerSecond, usage.tokensPerSecond < 100 ? 1 : 0, locale()) }),
      title: t('usageSpeedTitle'),
    });
  if (usage.totalTimeMs !== undefined) parts.push({ text: formatDuration(usage.totalTimeMs), title: t('usageTotalTitle') });
  if (usage.costUsd !== undefined) parts.push({ text: formatCost(usage.costUsd, 'full', locale()), title: t('usageCostTitle') });
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
  const label =
    limitTokens > 0 ? t('contextOfLimit', { used, limit: formatTokensShort(limitTokens), percent: formatCount(percent) }) : t('contextTokens', { used });
  const level = fraction >= 0.95 ? 'full' : fraction >= 0.8 ? 'warning' : 'ok';
  if (droppedMessages <= 0) return { fraction, label, level };
  const note = t(droppedMessages === 1 ? 'droppedOne' : 'droppedMany', { count: droppedMessages });
  return { fraction, label, level, note };
}

/** What the model line calls each capability, in the user's words (chat goes unsaid). */
const capabilityText: Readonly<Record<Exclude<Capability, 'chat'>, () => string>> = {
  vision: () => t('capabilityVision'),
  tools: () => t('capabilityTools'),
  json: () => t('capabilityJson'),
  audioReasoning: () => t('capabilityAudioReasoning'),
  transcription: () => t('capabilityTranscription'),
  embeddings: () => t('capabilityEmbeddings'),
  fim: () => t('capabilityFim'),
};

/** `a, b, c` (en), `a, b und c` (de), `a、b、c` (ja): a list as the page's language writes one. */
function formatList(items: readonly string[]): string {
  try {
    return new Intl.ListFormat(locale(), { type: 'conjunction', style: 'narrow' }).format(items);
  } catch {
    return items.join(', ');
  }
}

/** One line about a model: context, output limit, prices and capabilities. */
export function modelFacts(model: ModelView): string {
  const facts: string[] = [];
  if (model.contextLength !== undefined) facts.push(t('modelContext', { tokens: formatTokensShort(model.contextLength) }));
  if (model.maxCompletionTokens !== undefined) facts.push(t('modelMaxOutput', { tokens: formatTokensShort(model.maxCompletionTokens) }));
  if (model.pricePerMillionInput !== undefined || model.pricePerMillionOutput !== undefined) {
    const price = (value: number | undefined): string => (value === undefined ? '?' : formatPrice(value, locale()));
    facts.push(t('modelPrices', { input: price(model.pricePerMillionInput), output: price(model.pricePerMillionOutput) }));
  }
  const capabilities = model.capabilities.flatMap((capability) => (capability === 'chat' ? [] : [capabilityText[capability]()]));
  if (capabilities.length > 0) facts.push(formatList(capabilities));
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

/** A conversation's title as the panel shows it: core's untitled title (or none) in the panel's language, else as given. */
export function conversationTitle(title: string): string {
  return title === '' || title === untitledConversationTitle ? t('newChat') : title;
}
