/**
 * The per-conversation options: system prompt, temperature, top_p, top_k, max_tokens, up to four stop
 * sequences, JSON mode (off, object, or schema with "Pick schema…") and workspace context. Every
 * field is clamped to the spec's and the model's limits as it is committed, so the panel cannot build
 * a request the service would reject.
 */
import type { ChatOptions, ModelView } from '../shared/views';
import { button, el, setDisabled, show, uniqueId } from './dom';
import { formatCount } from './format';
import {
  canAddStop,
  clampMaxTokens,
  clampTopK,
  clampUnit,
  optionLimits,
  prepareOptions,
  schemaProblem,
  supportsJson,
  withOption,
  type PreparedOptions,
} from './optionRules';
import { t } from './l10n';

type NumberKey = 'temperature' | 'topP' | 'topK' | 'maxTokens';

/** What the options panel tells the panel. */
export interface OptionsPanelDeps {
  /** The options or the schema name changed (save them, re-check Send). */
  readonly onChange: (options: ChatOptions, schemaName: string | undefined) => void;
  readonly pickSchema: () => void;
}

/** The options form, shown above the composer when open. */
export class OptionsPanel {
  readonly element: HTMLElement;
  private options: ChatOptions = {};
  private schemaName: string | undefined;
  private model: ModelView | undefined;
  private readonly system = el('textarea', { className: 'option-system', attrs: { rows: '3', placeholder: t('optionalInstructions') } });
  private readonly numbers = new Map<NumberKey, { readonly input: HTMLInputElement; readonly label: HTMLElement; readonly note: HTMLElement }>();
  private readonly stops = el('div', { className: 'stop-list' });
  private readonly addStop: HTMLButtonElement;
  private readonly jsonMode = el('select', { className: 'option-json' });
  private readonly schemaRow = el('div', { className: 'schema-row' });
  private readonly workspace = el('input', { attrs: { type: 'checkbox' } });
  /** Reasoning controls, shown only for models that take them. */
  private readonly effort = el('select', { className: 'option-effort' });
  private readonly effortRow: HTMLElement;
  private readonly thinking = el('input', { attrs: { type: 'checkbox' } });
  private readonly thinkingRow: HTMLElement;

  constructor(private readonly deps: OptionsPanelDeps) {
    this.element = el('section', { className: 'options-panel', attrs: { 'aria-label': t('conversationOptions'), id: uniqueId('options') } });
    const grid = el(
      'div',
      { className: 'option-grid' },
      this.numberField('temperature', t('temperature'), '0.05'),
      this.numberField('topP', t('topP'), '0.05'),
      this.numberField('topK', t('topK'), '1'),
      this.numberField('maxTokens', t('maxTokens'), '1'),
    );
    this.system.addEventListener('input', () => this.set('systemPrompt', this.system.value === '' ? undefined : this.system.value));
    this.addStop = button({
      text: t('addStopSequence'),
      label: t('addStopSequence'),
      icon: 'plus',
      className: 'text-button secondary',
      onClick: () => this.addStopSequence(),
    });
    for (const [value, text] of [
      ['off', t('jsonOff')],
      ['object', t('jsonObject')],
      ['schema', t('jsonSchema')],
    ] as const) {
      const option = el('option', { text });
      option.value = value;
      this.jsonMode.append(option);
    }
    this.jsonMode.addEventListener('change', () => {
      const mode = this.jsonMode.value === 'object' || this.jsonMode.value === 'schema' ? this.jsonMode.value : 'off';
      this.set('jsonMode', mode === 'off' ? undefined : mode);
    });
    this.workspace.addEventListener('change', () => this.set('useWorkspace', this.workspace.checked ? true : undefined));
    for (const [value, text] of [
      ['', t('effortDefault')],
      ['low', t('effortLow')],
      ['medium', t('effortMedium')],
      ['high', t('effortHigh')],
    ] as const) {
      const option = el('option', { text });
      option.value = value;
      this.effort.append(option);
    }
    this.effort.addEventListener('change', () => {
      const value = this.effort.value;
      this.set('reasoningEffort', value === 'low' || value === 'medium' || value === 'high' ? value : undefined);
    });
    this.effortRow = field(t('reasoningEffort'), this.effort);
    this.thinking.addEventListener('change', () => this.set('thinking', this.thinking.checked ? undefined : false));
    this.thinkingRow = el('label', { className: 'checkbox-field' }, this.thinking, el('span', { text: t('thinkFirst') }));
    const reset = button({
      text: t('resetOptions'),
      label: t('resetOptionsLabel'),
      className: 'text-button secondary',
      onClick: () => this.reset(),
    });
    this.element.append(
      field(t('systemPrompt'), this.system),
      grid,
      el('fieldset', { className: 'stop-field' }, el('legend', { text: t('stopSequences', { max: optionLimits.maxStops }) }), this.stops, this.addStop),
      field(t('jsonMode'), this.jsonMode),
      this.schemaRow,
      this.effortRow,
      this.thinkingRow,
      el('label', { className: 'checkbox-field' }, this.workspace, el('span', { text: t('useWorkspace') })),
      el('div', { className: 'options-footer' }, reset),
    );
    this.render();
  }

  /** The options as edited (not yet clamped to the model: see {@link prepared}). */
  get current(): ChatOptions {
    return this.options;
  }

  /** The name of the picked schema, when one was picked in this panel. */
  get currentSchemaName(): string | undefined {
    return this.schemaName;
  }

  /** The options ready for a request, and what stops them from being sent. */
  prepared(): PreparedOptions {
    return prepareOptions(this.options, this.model);
  }

  /** Loads a conversation's options. */
  load(options: ChatOptions, schemaName: string | undefined): void {
    this.options = options;
    this.schemaName = schemaName;
    this.render();
  }

  /** The selected model changed: its limits and capabilities apply. */
  setModel(model: ModelView | undefined): void {
    this.model = model;
    const max = this.options.maxTokens;
    if (max !== undefined) {
      const clamped = clampMaxTokens(max, model?.maxCompletionTokens);
      if (clamped !== max) this.set('maxTokens', clamped);
    }
    this.render();
  }

  /** The instructions bar's switch: `false` leaves the project instructions out of this conversation. */
  setUseInstructions(on: boolean): void {
    this.set('useInstructions', on ? undefined : false);
  }

  /** A schema was picked (`composer/schema`): JSON mode becomes "schema". */
  setSchema(name: string, schema: string): void {
    this.schemaName = name;
    this.options = withOption(withOption(this.options, 'schema', schema), 'jsonMode', 'schema');
    this.changed();
  }

  private set<K extends keyof ChatOptions>(key: K, value: ChatOptions[K] | undefined): void {
    this.options = withOption(this.options, key, value);
    this.changed();
  }

  private changed(): void {
    this.render();
    this.deps.onChange(this.options, this.schemaName);
  }

  private reset(): void {
    this.options = {};
    this.schemaName = undefined;
    this.changed();
  }

  private numberField(key: NumberKey, name: string, step: string): HTMLElement {
    const input = el('input', {
      className: 'option-number',
      attrs: { type: 'number', step, inputmode: step === '1' ? 'numeric' : 'decimal', placeholder: t('numberDefault') },
    });
    const label = el('span', { text: name });
    const note = el('span', { className: 'option-note', attrs: { 'aria-live': 'polite' } });
    input.addEventListener('change', () => this.commitNumber(key, input, note));
    this.numbers.set(key, { input, label, note });
    return el('label', { className: 'option-field' }, label, input, note);
  }

  private commitNumber(key: NumberKey, input: HTMLInputElement, note: HTMLElement): void {
    const typed = input.value;
    const value = key === 'topK' ? clampTopK(typed) : key === 'maxTokens' ? clampMaxTokens(typed, this.model?.maxCompletionTokens) : clampUnit(typed);
    // A number input reports '' for text it cannot parse; that means "default" here.
    input.value = value === undefined ? '' : String(value);
    note.textContent = value !== undefined && typed.trim() !== '' && Number(typed) !== value ? t('adjustedTo', { value }) : '';
    this.set(key, value);
  }

  private addStopSequence(): void {
    if (!canAddStop(this.options.stop)) return;
    this.set('stop', [...(this.options.stop ?? []), '']);
    this.stops.querySelector<HTMLInputElement>('.stop-item:last-child input')?.focus();
  }

  private render(): void {
    if (this.system.value !== (this.options.systemPrompt ?? '')) this.system.value = this.options.systemPrompt ?? '';
    for (const [key, { input, label }] of this.numbers) {
      const value = this.options[key];
      const text = value === undefined ? '' : String(value);
      if (input.value !== text && document.activeElement !== input) input.value = text;
      const bounds = numberBounds(key, this.model);
      input.min = String(bounds.min);
      if (bounds.max !== undefined) input.max = String(bounds.max);
      else input.removeAttribute('max');
      if (key === 'maxTokens') label.textContent = bounds.max !== undefined ? t('maxTokensUpTo', { max: formatCount(bounds.max) }) : t('maxTokens');
    }
    this.renderStops();
    const jsonAllowed = this.model === undefined || supportsJson(this.model);
    const mode = jsonAllowed ? (this.options.jsonMode ?? 'off') : 'off';
    this.jsonMode.value = mode;
    setDisabled(this.jsonMode, !jsonAllowed, this.model ? t('noJsonMode', { model: this.model.id }) : t('noJsonModeThisModel'), t('jsonModeHint'));
    this.renderSchema(mode === 'schema');
    this.workspace.checked = this.options.useWorkspace === true;
    const controls = this.model?.reasoning ?? [];
    show(this.effortRow, controls.includes('effort'));
    this.effort.value = this.options.reasoningEffort ?? '';
    show(this.thinkingRow, controls.includes('thinking'));
    this.thinking.checked = this.options.thinking !== false;
  }

  private renderStops(): void {
    const stops = this.options.stop ?? [];
    const items = stops.map((stop, index) => {
      const input = el('input', { attrs: { type: 'text', 'aria-label': t('stopSequence', { index: index + 1 }) } });
      input.value = stop;
      input.addEventListener('input', () => {
        const next = [...(this.options.stop ?? [])];
        next[index] = input.value;
        this.options = withOption(this.options, 'stop', next);
        this.deps.onChange(this.options, this.schemaName);
      });
      const remove = button({
        label: t('removeStopSequence', { index: index + 1 }),
        icon: 'close',
        onClick: () => this.set('stop', removeAt(this.options.stop ?? [], index)),
      });
      return el('div', { className: 'stop-item' }, input, remove);
    });
    // Rebuilding while typing would lose the caret: not while a stop field has focus.
    if (this.stops.childElementCount !== items.length || !this.stops.contains(document.activeElement)) this.stops.replaceChildren(...items);
    setDisabled(this.addStop, !canAddStop(stops), t('tooManyStops', { max: optionLimits.maxStops }), t('addStopSequence'));
  }

  private renderSchema(visible: boolean): void {
    show(this.schemaRow, visible);
    if (!visible) return;
    const problem = schemaProblem(this.options.schema);
    const name = this.schemaName ?? schemaTitle(this.options.schema);
    const pick = button({
      text: t('pickSchema'),
      label: t('pickSchemaLabel'),
      className: 'text-button secondary',
      onClick: () => this.deps.pickSchema(),
    });
    const status = el('span', {
      className: problem ? 'schema-problem' : 'schema-name',
      text: problem ?? (name ? t('schemaNamed', { name }) : t('schemaFromConversation')),
    });
    this.schemaRow.replaceChildren(pick, status);
  }
}

function field(label: string, control: HTMLElement): HTMLElement {
  return el('label', { className: 'option-field wide' }, el('span', { text: label }), control);
}

function numberBounds(key: NumberKey, model: ModelView | undefined): { readonly min: number; readonly max: number | undefined } {
  switch (key) {
    case 'temperature':
      return optionLimits.temperature;
    case 'topP':
      return optionLimits.topP;
    case 'topK':
      return optionLimits.topK;
    case 'maxTokens':
      return { min: 1, max: model?.maxCompletionTokens };
  }
}

function removeAt<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, at) => at !== index);
}

/** A schema's `title`, when it has one, to name a schema that came with the conversation. */
function schemaTitle(schema: string | undefined): string | undefined {
  if (!schema) return undefined;
  try {
    const parsed: unknown = JSON.parse(schema);
    if (typeof parsed === 'object' && parsed !== null && 'title' in parsed && typeof parsed.title === 'string') return parsed.title;
  } catch {
    // Not JSON: schemaProblem reports it.
  }
  return undefined;
}
