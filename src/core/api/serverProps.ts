// What a self-hosted llama.cpp server says about the model it serves. Its /v1/models lists ids and the
// context but no capabilities; GET /props carries `chat_template_caps` (what the chat template can render:
// tools, tool calls, reasoning effort) and `modalities` (vision, audio), read here so a user's own server
// works without `cadenza.models.overrides` (which still win). Asked only of a server whose listing is
// llama.cpp's (`owned_by: "llamacpp"` or a `meta` block): the hosted service has no /props.
import { type Capability, type ReasoningTraits } from './types';

/** What a server declared about one model: capabilities it has, capabilities it lacks, its reasoning control. */
export interface DeclaredTraits {
  readonly has: readonly Capability[];
  readonly lacks: readonly Capability[];
  readonly reasoning?: ReasoningTraits;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when a /v1/models body is llama.cpp's, whose server answers GET /props. */
export function isLlamaCppListing(raw: unknown): boolean {
  const data = isRecord(raw) ? raw['data'] : undefined;
  if (!Array.isArray(data)) return false;
  return data.some((entry) => isRecord(entry) && (entry['owned_by'] === 'llamacpp' || isRecord(entry['meta'])));
}

/** The ids of a llama.cpp listing, in order (what /props describes). */
export function listedIds(raw: unknown): string[] {
  const data = isRecord(raw) ? raw['data'] : undefined;
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry) => (isRecord(entry) && typeof entry['id'] === 'string' && entry['id'] !== '' ? [entry['id']] : []));
}

/** Reads a /props body; undefined when it says nothing Cadenza uses. */
export function readServerProps(raw: unknown): DeclaredTraits | undefined {
  if (!isRecord(raw)) return undefined;
  const has: Capability[] = [];
  const lacks: Capability[] = [];
  let reasoning: ReasoningTraits | undefined;
  const caps = raw['chat_template_caps'];
  if (isRecord(caps)) {
    // A template that renders tools but not the calls made (or the other way round) cannot run an agent.
    const tools = caps['supports_tools'];
    const calls = caps['supports_tool_calls'];
    if (tools === true && calls === true) has.push('tools');
    else if (tools === false || calls === false) lacks.push('tools');
    if (caps['supports_reasoning_effort'] === true) reasoning = { controls: ['effort'] };
  }
  const modalities = raw['modalities'];
  if (isRecord(modalities)) {
    if (modalities['vision'] === true) has.push('vision');
    else if (modalities['vision'] === false) lacks.push('vision');
    // Audio in chat (input_audio): questions about a recording.
    if (modalities['audio'] === true) has.push('audioReasoning');
    else if (modalities['audio'] === false) lacks.push('audioReasoning');
  }
  if (has.length === 0 && lacks.length === 0 && reasoning === undefined) return undefined;
  return { has, lacks, ...(reasoning ? { reasoning } : {}) };
}
