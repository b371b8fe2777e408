/**
 * The model picker: the live model list from `state/models` (models that can chat), a refresh button,
 * and one line of facts about the selected model (context, output limit, prices, capabilities).
 */
import type { ErrorView, ModelView } from '../shared/views';
import { button, el, show } from './dom';
import { modelFacts } from './format';
import { t } from './l10n';

/** The model `<select>`, its refresh button and the facts line. */
export class ModelPicker {
  readonly select = el('select', { className: 'model-select', attrs: { 'aria-label': t('model') } });
  readonly refresh: HTMLButtonElement;
  /** One line about the selected model (or the loading state, or the error). */
  readonly facts = el('p', { className: 'model-facts', attrs: { id: 'model-facts' } });
  private models: readonly ModelView[] = [];
  private selectedId: string | undefined;

  /** `onSelect` posts `model/select`; `onRefresh` posts `model/refresh`. */
  constructor(
    onSelect: (modelId: string) => void,
    onRefresh: () => void,
    private readonly onChange: () => void,
  ) {
    this.refresh = button({ label: t('refreshModels'), icon: 'refresh', onClick: onRefresh });
    this.select.setAttribute('aria-describedby', 'model-facts');
    this.select.addEventListener('change', () => {
      this.selectedId = this.select.value;
      this.renderFacts();
      onSelect(this.select.value);
      this.onChange();
    });
    this.render([], undefined, true, undefined);
  }

  /** The selected model, when it is in the list. */
  get model(): ModelView | undefined {
    return this.models.find((model) => model.id === this.selectedId);
  }

  /** Every listed model, with or without chat (the composer asks whether any transcribes). */
  get all(): readonly ModelView[] {
    return this.models;
  }

  /** The selected model's id (it may not be in the list, e.g. while it loads). */
  get modelId(): string | undefined {
    return this.selectedId;
  }

  /** Shows a new model list (`state/models`). */
  update(models: readonly ModelView[], selected: string | undefined, loading: boolean, error: ErrorView | undefined): void {
    this.render(models, selected, loading, error);
    this.onChange();
  }

  private render(models: readonly ModelView[], selected: string | undefined, loading: boolean, error: ErrorView | undefined): void {
    this.models = models;
    this.selectedId = selected;
    const chat = models.filter((model) => model.capabilities.includes('chat'));
    const shown = chat.length > 0 ? [...chat] : [...models];
    if (selected !== undefined && !shown.some((model) => model.id === selected)) shown.unshift({ id: selected, capabilities: [] });
    const options = shown.map((model) => {
      // Reasoning models are marked: they think first, and their thinking is billed.
      const option = el('option', { text: model.reasoning ? t('modelReasoning', { model: model.id }) : model.id });
      option.value = model.id;
      option.selected = model.id === selected;
      return option;
    });
    if (shown.length === 0) {
      const option = el('option', { text: loading ? t('loadingModels') : t('noModels') });
      option.value = '';
      options.push(option);
    } else if (selected === undefined) {
      const option = el('option', { text: t('chooseModel') });
      option.value = '';
      option.selected = true;
      option.disabled = true;
      options.unshift(option);
    }
    this.select.replaceChildren(...options);
    this.select.disabled = shown.length === 0;
    this.refresh.disabled = loading;
    this.refresh.classList.toggle('spinning', loading);
    this.refresh.setAttribute('aria-busy', String(loading));
    this.renderFacts(loading, error);
  }

  private renderFacts(loading = false, error?: ErrorView): void {
    const model = this.model;
    this.facts.classList.toggle('error', error !== undefined);
    const text = error
      ? t('couldNotLoadModels', { error: error.message })
      : loading
        ? t('loadingModels')
        : model
          ? modelFacts(model)
          : this.selectedId
            ? t('modelNotListed', { model: this.selectedId })
            : '';
    this.facts.textContent = text;
    this.select.title = model ? `${model.id}: ${modelFacts(model)}` : t('model');
    show(this.facts, text !== '');
  }
}
