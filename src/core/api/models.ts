// GET /v1/models and GET /v1/models/{id}: the wire model object (docs/service.md#the-model-list) read into
// ModelInfo, with prices (per token, and per audio hour for speech models) as numbers whether the
// service sent decimal strings or numbers.
import { type CapabilityRegistry } from './capabilities';
import { ApiError } from './errors';
import { type ModelInfo } from './types';
import { isRecord } from '../../shared/jsonObject';

function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

/** A price as a number; the listing sends "0.00000500" (docs) or 5e-6 (2026 OpenAPI). */
function readPrice(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  }
  return undefined;
}

/** Reads one wire model object; the listing and getModel call it. Throws malformedResponse when there is no id. */
export function readModel(raw: unknown, registry: CapabilityRegistry): ModelInfo {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ApiError('malformedResponse', 'The model listing contains an entry that is not an object');
  }
  const m = raw as Record<string, unknown>;
  const id = m['id'];
  if (typeof id !== 'string' || id === '') throw new ApiError('malformedResponse', 'The model listing contains an entry without an id');
  const derived = registry.derive(id);
  const pricing = m['pricing'];
  let prices: ModelInfo['pricing'];
  let perHour: number | undefined;
  if (typeof pricing === 'object' && pricing !== null) {
    const p = pricing as Record<string, unknown>;
    const prompt = readPrice(p['prompt']);
    const completion = readPrice(p['completion']);
    if (prompt !== undefined || completion !== undefined) prices = { promptPerToken: prompt ?? 0, completionPerToken: completion ?? 0 };
    perHour = readPrice(p['duration_per_hour']);
  }
  return {
    id,
    ownedBy: typeof m['owned_by'] === 'string' ? m['owned_by'] : undefined,
    // Overrides correct what the service reports (a self-hosted server may report nothing).
    // llama-server lists no context_length; its `meta.n_ctx` is the context each request gets.
    contextLength: derived.contextLength ?? positiveInt(m['context_length']) ?? positiveInt(isRecord(m['meta']) ? m['meta']['n_ctx'] : undefined),
    maxCompletionTokens: derived.maxCompletionTokens ?? positiveInt(m['max_completion_tokens']),
    pricing: prices,
    ...(perHour === undefined ? {} : { audioPricePerHour: perHour }),
    capabilities: derived.capabilities,
    family: derived.family,
    ...(derived.reasoning ? { reasoning: derived.reasoning } : {}),
  };
}

/** Reads the `{object: "list", data: [...]}` listing; entries that cannot be read are skipped, not fatal. */
export function readModelList(raw: unknown, registry: CapabilityRegistry): ModelInfo[] {
  const data = isRecord(raw) ? raw['data'] : raw;
  if (!Array.isArray(data)) throw new ApiError('malformedResponse', 'The model listing has no data array');
  const models: ModelInfo[] = [];
  for (const entry of data) {
    try {
      models.push(readModel(entry, registry));
    } catch {
      // One odd entry (a self-hosted server's alias, say) must not hide every other model.
    }
  }
  return models;
}

/** A model no server lists but `cadenza.models.overrides` describes (a whisper server has no listing). */
export function overrideOnlyModel(id: string, registry: CapabilityRegistry): ModelInfo {
  const derived = registry.derive(id);
  return {
    id,
    ownedBy: undefined,
    contextLength: derived.contextLength,
    maxCompletionTokens: derived.maxCompletionTokens,
    pricing: undefined,
    capabilities: derived.capabilities,
    family: derived.family,
  };
}
