// Today's completion usage in the user's language, for the status bars: requests, tokens (prompt and answer),
// cost, and the daily limit when there is one. One whole phrase per plural form and per limit, numbers in
// the display language's format.
import * as vscode from 'vscode';
import type { CompletionUsageDay } from '../../core/completions/ledger';
import { formatCost } from '../../shared/cost';
import { numberLocale } from '../../shared/numbers';

/** A count in the display language's format (13,035; 13.035; 13 035). */
export function count(value: number): string {
  return new Intl.NumberFormat(vscode.env.language).format(value);
}

/** One day's completion usage in words; `capTokens` above 0 is the daily token limit. */
export function usageText(day: CompletionUsageDay, capTokens: number): string {
  const requests = count(day.requests);
  const tokens = count(day.promptTokens + day.completionTokens);
  const prompt = count(day.promptTokens);
  const answer = count(day.completionTokens);
  const cost = formatCost(day.costUsd, 'short', numberLocale(vscode.env.language));
  if (capTokens > 0) {
    const cap = count(capTokens);
    return day.requests === 1
      ? vscode.l10n.t('{0} request, {1} tokens ({2} prompt, {3} answer), {4} of a {5}-token daily limit', requests, tokens, prompt, answer, cost, cap)
      : vscode.l10n.t('{0} requests, {1} tokens ({2} prompt, {3} answer), {4} of a {5}-token daily limit', requests, tokens, prompt, answer, cost, cap);
  }
  return day.requests === 1
    ? vscode.l10n.t('{0} request, {1} tokens ({2} prompt, {3} answer), {4}', requests, tokens, prompt, answer, cost)
    : vscode.l10n.t('{0} requests, {1} tokens ({2} prompt, {3} answer), {4}', requests, tokens, prompt, answer, cost);
}
