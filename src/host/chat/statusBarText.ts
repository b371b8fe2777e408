// The chat status bar's text and tooltip in the user's language: the model, this session's answer count and
// spend, one whole sentence per plural form, numbers and the cost in the display language's format. Pure, so the
// unit tests run it in plain Node with a stand-in translator.
import type * as vscode from 'vscode';
import { formatCost } from '../../shared/cost';
import { formatInteger } from '../../shared/numbers';

/**
 * The part of VS Code this needs, its translator, given as `vscode` (a stand-in in the unit tests) so that
 * `npm run l10n:export` still finds each message as it finds them elsewhere; the import is only its type.
 */
export type L10n = { readonly l10n: Pick<typeof vscode.l10n, 't'> };

/** What the status bar shows. */
export interface ChatStatus {
  readonly model: string | undefined;
  readonly answers: number;
  readonly spendUsd: number;
  /** Today's inline-completion usage in words; undefined when there is none yet. */
  readonly completions: string | undefined;
}

/** The item's text (after its icon) and its tooltip. */
export function chatStatusText(vscode: L10n, locale: string, status: ChatStatus): { text: string; tooltip: string } {
  const cost = formatCost(status.spendUsd, 'short', locale);
  const model = status.model ?? vscode.l10n.t('no model selected');
  const lines = [
    status.answers === 1
      ? vscode.l10n.t("Cadenza: {0}. This session's chat: 1 answer, {1}.", model, cost)
      : vscode.l10n.t("Cadenza: {0}. This session's chat: {1} answers, {2}.", model, formatInteger(status.answers, locale), cost),
    ...(status.completions === undefined ? [] : [vscode.l10n.t('Inline completions today (counted apart from chat): {0}.', status.completions)]),
    vscode.l10n.t('Click to pick a model.'),
  ];
  return { text: `${status.model ?? vscode.l10n.t('no model')} · ${cost}`, tooltip: lines.join('\n') };
}
