// Why the workspace index is incomplete, in the user's language, from what core reports (src/core/index/indexRun.ts):
// one whole phrase per kind and per plural form, counts in the display language's format. Pure, so the unit tests
// run it in plain Node with a stand-in translator.
import type * as vscode from 'vscode';
import type { IndexRunResult } from '../../core/index/indexRun';
import { formatInteger } from '../../shared/numbers';

/**
 * The part of VS Code this needs, its translator, given as `vscode` (a stand-in in the unit tests) so that
 * `npm run l10n:export` still finds each message as it finds them elsewhere; the import is only its type.
 */
export type L10n = { readonly l10n: Pick<typeof vscode.l10n, 't'> };

/** The reason that goes into "The workspace index is incomplete: {0}." */
export function incompleteReason(vscode: L10n, locale: string, result: Pick<IndexRunResult, 'stop' | 'chunksPending'>): string {
  const stop = result.stop;
  if (stop?.kind === 'maxFiles')
    return stop.maxFiles === 1
      ? vscode.l10n.t('indexing stopped after 1 file (the file limit)')
      : vscode.l10n.t('indexing stopped after {0} files (the file limit)', formatInteger(stop.maxFiles, locale));
  if (stop?.kind === 'fatal')
    return stop.detail === undefined
      ? vscode.l10n.t('the embedding service refused the request')
      : vscode.l10n.t('the embedding service refused the request ({0})', stop.detail);
  if (stop?.kind === 'tooManyFailures')
    return stop.detail === undefined
      ? vscode.l10n.t('embedding failed several times in a row')
      : vscode.l10n.t('embedding failed several times in a row ({0})', stop.detail);
  const pending = result.chunksPending;
  if (pending <= 0) return vscode.l10n.t('some chunks could not be embedded');
  return pending === 1 ? vscode.l10n.t('1 chunk could not be embedded') : vscode.l10n.t('{0} chunks could not be embedded', formatInteger(pending, locale));
}
