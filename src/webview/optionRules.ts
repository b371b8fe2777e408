/**
 * Clamping and validation of the per-conversation request options, so the panel cannot produce a
 * request the service would reject. Pure (no DOM): unit-tested in plain Node. The host checks again.
 */
import type { ChatOptions, ModelView } from '../shared/views';
import { t } from './l10n';

/** The spec's limits for the options the panel edits. */
export const optionLimits = {
  temperature: { min: 0, max: 1 },
  topP: { min: 0, max: 1 },
  topK: { min: 1, max: 100 },
  maxStops: 4,
} as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function parse(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A probability-like option (temperature, top_p): 0 to 1, two decimals; empty or not a number → unset. */
export function clampUnit(value: string | number | undefined): number | undefined {
  const number = parse(value);
  if (number === undefined) return undefined;
  return Math.round(clamp(number, 0, 1) * 100) / 100;
}

/** top_k: a whole number from 1 to 100; empty or not a number → unset. */
export function clampTopK(value: string | number | undefined): number | undefined {
  const number = parse(value);
  if (number === undefined) return undefined;
  return clamp(Math.round(number), optionLimits.topK.min, optionLimits.topK.max);
}

/** max_tokens: a whole number from 1 to the model's maximum completion tokens (when known). */
export function clampMaxTokens(value: string | number | undefined, modelMax: number | undefined): number | undefined {
  const number = parse(value);
  if (number === undefined) return undefined;
  const upper = modelMax !== undefined && modelMax >= 1 ? Math.floor(modelMax) : Number.MAX_SAFE_INTEGER;
  return clamp(Math.round(number), 1, upper);
}

/** Stop sequences: non-empty, distinct, at most four (the rest are dropped). */
export function normaliseStops(stops: readonly string[] | undefined): string[] {
  const kept: string[] = [];
  for (const stop of stops ?? []) {
    if (stop === '' || kept.includes(stop)) continue;
    if (kept.length === optionLimits.maxStops) break;
    kept.push(stop);
  }
  return kept;
}

/** Whether another stop sequence may be added. */
export function canAddStop(stops: readonly string[] | undefined): boolean {
  return (stops?.length ?? 0) < optionLimits.maxStops;
}

/** Checks that a schema text is a JSON object; returns the problem, or undefined when it is fine. */
export function schemaProblem(schema: string | undefined): string | undefined {
  if (schema === undefined || schema.trim() === '') return t('pickSchemaFirst');
  try {
    const parsed: unknown = JSON.parse(schema);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return t('schemaNotObject');
    return undefined;
  } catch {
    return t('schemaNotJson');
  }
}

/** The result of preparing options for a request. */
export interface PreparedOptions {
  /** Options within every limit, with unset fields left out. */
  readonly options: ChatOptions;
  /** Why the request cannot be sent as it is (empty when it can). */
  readonly problems: readonly string[];
}

/**
 * Brings options within the limits of the spec and the model: clamps numbers, drops extra stop
 * sequences, turns JSON mode off for a model without the `json` capability, and reports what cannot
 * be fixed silently (json_schema without a valid schema).
 */
export function prepareOptions(input: ChatOptions, model: ModelView | undefined): PreparedOptions {
  const options: Mutable<ChatOptions> = {};
  const problems: string[] = [];
  const temperature = clampUnit(input.temperature);
  if (temperature !== undefined) options.temperature = temperature;
  const topP = clampUnit(input.topP);
  if (topP !== undefined) options.topP = topP;
  const topK = clampTopK(input.topK);
  if (topK !== undefined) options.topK = topK;
  const maxTokens = clampMaxTokens(input.maxTokens, model?.maxCompletionTokens);
  if (maxTokens !== undefined) options.maxTokens = maxTokens;
  const stop = normaliseStops(input.stop);
  if (stop.length > 0) options.stop = stop;
  if (input.systemPrompt !== undefined && input.systemPrompt.trim() !== '') options.systemPrompt = input.systemPrompt;
  if (input.useWorkspace === true) options.useWorkspace = true;
  const jsonAllowed = model === undefined || supportsJson(model);
  const jsonMode = jsonAllowed ? (input.jsonMode ?? 'off') : 'off';
  if (jsonMode !== 'off') options.jsonMode = jsonMode;
  if (jsonMode === 'schema') {
    const problem = schemaProblem(input.schema);
    if (problem) problems.push(problem);
    else if (input.schema !== undefined) options.schema = input.schema;
  }
  return { options, problems };
}

/** Whether a model accepts images in the prompt. */
export function supportsVision(model: ModelView | undefined): boolean {
  return model?.capabilities.includes('vision') ?? false;
}

/** Whether a model reasons about audio (an audio file can go with a message). */
export function supportsAudio(model: ModelView | undefined): boolean {
  return model?.capabilities.includes('audioReasoning') ?? false;
}

/** Whether any listed model transcribes audio ("transcribe into the prompt" is offered). */
export function offersTranscription(models: readonly ModelView[]): boolean {
  return models.some((model) => model.capabilities.includes('transcription'));
}

/** Whether a model supports JSON mode. */
export function supportsJson(model: ModelView | undefined): boolean {
  return model?.capabilities.includes('json') ?? false;
}

/** Returns a copy of `options` with `key` set to `value`, or without `key` when `value` is undefined. */
export function withOption<K extends keyof ChatOptions>(options: ChatOptions, key: K, value: ChatOptions[K] | undefined): ChatOptions {
  const copy: Mutable<ChatOptions> = { ...options };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}
