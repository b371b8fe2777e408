// What a self-hosted llama.cpp server says about the model it serves. Its /v1/models lists ids and the
// context but no capabilities; GET /props carries `chat_template_caps` (what the chat template can render:
// tools, tool calls, reasoning effort) and `modalities` (vision, audio), read here so a user's own server
// works without `cadenza.models.overrides` (which still win). Asked only of a server whose listing is
// llama.cpp's (`owned_by: "llamacpp"` or a `meta` block): the hosted service has no /props.
import { type Logger } from '../logger';
import { type CapabilityRegistry } from './capabilities';
import { type EndpointRole } from './endpoints';
import { ApiError } from './errors';
import { type HttpCore } from './http';
import { type DeclaredTraits, type ReasoningTraits } from './types';
import type { Capability } from '../../shared/views';
import { isRecord } from '../../shared/jsonObject';

export type { DeclaredTraits } from './types';

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

/**
 * Asks a llama.cpp server what its models can do (GET /props; `?model=` for each when it serves several)
 * and records it in `registry`. Best effort: a server without /props, or an odd body, leaves the
 * derivation as it was; only a cancel is passed on.
 */
export async function askServerProps(input: {
  http: HttpCore;
  role: EndpointRole;
  ids: readonly string[];
  signal: AbortSignal | undefined;
  registry: CapabilityRegistry;
  logger: Logger;
}): Promise<void> {
  const asked = input.ids.slice(0, 8);
  await Promise.all(
    asked.map(async (id) => {
      try {
        const path = asked.length === 1 ? '/props' : `/props?model=${encodeURIComponent(id)}`;
        const { value } = await input.http.fetchJson({ method: 'GET', path, signal: input.signal, kind: 'modelLookup', endpoint: input.role });
        const traits = readServerProps(value);
        if (traits !== undefined) input.registry.declare(id, traits);
      } catch (error) {
        if (ApiError.is(error, 'canceled')) throw error;
        input.logger.debug(`no capabilities from ${input.role} /props for ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
}

/**
 * The tokens of `text` by the chat server's own tokenizer: llama-server's `POST /tokenize`
 * (`{"content"}` → `{"tokens": [...]}`). The hosted service has no such route: it rejects (404, reason
 * `unsupported`), and a reply without a token list is a malformedResponse.
 */
export async function countTokens(http: HttpCore, text: string, signal: AbortSignal | undefined): Promise<number> {
  const { value } = await http.fetchJson({
    method: 'POST',
    path: '/tokenize',
    host: 'chat',
    body: JSON.stringify({ content: text }),
    contentType: 'application/json',
    signal,
  });
  const tokens = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['tokens'] : undefined;
  if (!Array.isArray(tokens)) throw new ApiError('malformedResponse', "The tokenizer's reply has no token list");
  return tokens.length;
}
