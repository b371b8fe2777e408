// Which model writes inline completions: the fastest small chat model the service lists (speed matters
// more than depth while typing), unless `cadenza.completions.model` names another. Reasoning models are
// never used: they think before they answer, which is far too slow and costly for ghost text.
import { type ModelInfo } from '../api/types';
import { isGeneralChatModel, statedSizeB } from '../chat/modelChoice';

/** A resolved completion model and where it came from; `refused` names a setting that could not be used. */
export interface CompletionModelChoice {
  readonly id: string;
  readonly source: 'setting' | 'default';
  readonly refused?: string;
}

/** True when a model may write completions: a general chat model that does not reason. */
function canComplete(model: ModelInfo): boolean {
  return isGeneralChatModel(model) && model.reasoning === undefined;
}

/**
 * The default completion model: the smallest stated size among general, non-reasoning chat models (small
 * models answer first), models without a stated size after those with one, then the smaller context
 * (a cheaper deployment), then the id. Undefined when no listed model qualifies.
 */
export function defaultCompletionModel(models: readonly ModelInfo[]): string | undefined {
  const ranked = models
    .filter(canComplete)
    .sort(
      (a, b) =>
        (statedSizeB(a.id) ?? Number.POSITIVE_INFINITY) - (statedSizeB(b.id) ?? Number.POSITIVE_INFINITY) ||
        (a.contextLength ?? Number.POSITIVE_INFINITY) - (b.contextLength ?? Number.POSITIVE_INFINITY) ||
        a.id.localeCompare(b.id),
    );
  return ranked[0]?.id;
}

/**
 * The model for the next completion: the setting when it names a model that may complete (or one the
 * list does not show: the user knows their deployment), else the default. A setting naming a listed
 * reasoning, audio or embedding model is refused and reported, never used.
 */
export function resolveCompletionModel(setting: string | undefined, models: readonly ModelInfo[]): CompletionModelChoice | undefined {
  const wanted = setting?.trim() ?? '';
  const listed = wanted === '' ? undefined : models.find((model) => model.id === wanted);
  if (wanted !== '' && (listed === undefined || canComplete(listed))) return { id: wanted, source: 'setting' };
  const fallback = defaultCompletionModel(models);
  if (fallback === undefined) return undefined;
  return wanted === '' ? { id: fallback, source: 'default' } : { id: fallback, source: 'default', refused: wanted };
}
