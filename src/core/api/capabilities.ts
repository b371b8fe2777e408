// What each model can do. GET /v1/models lists ids, limits and prices but no capabilities, so they
// are derived: a table of the service's models (docs/service.md#capabilities), name heuristics
// for ids we have never seen, the host's overrides (`cadenza.models.overrides`) on top, and what
// the service itself told us (a 400 model_not_compatible removes the capability for this client's
// lifetime).
import { type AudioFamily, type CapabilityOverrides, type DeclaredTraits, type ReasoningTraits } from './types';
import type { Capability } from '../../shared/views';

/** What the client knows about one model id, before or without the listing. */
export interface DerivedCapabilities {
  capabilities: Capability[];
  family: AudioFamily | undefined;
  contextLength: number | undefined;
  maxCompletionTokens: number | undefined;
  reasoning: ReasoningTraits | undefined;
}

interface KnownModel {
  capabilities: Capability[];
  family?: AudioFamily;
}

/**
 * Which models think before answering, and the controls they take (docs/service.md#reasoning):
 * DeepSeek-R1 and its distills always think (`<think>` in content); gpt-oss takes `reasoning_effort`;
 * hybrid models (Qwen3, DeepSeek-V3.1/3.2) take `chat_template_kwargs.enable_thinking`.
 */
function reasoningTraits(id: string): ReasoningTraits | undefined {
  const name = id.toLowerCase();
  if (/gpt-oss/.test(name)) return { controls: ['effort'] };
  if (/deepseek-r1|qwq|(^|[-_])r1([-_]|$)/.test(name)) return { controls: [] };
  if (/qwen3(?![-_.]?coder)|deepseek-v3\.[12]/.test(name) && !/instruct-2507/.test(name)) return { controls: ['thinking'] };
  return undefined;
}

// Tools: the service lists 3.1-8B and 3.3-70B for the spec's era, and Maverick from 2026 on;
// the brief adopts all three. DeepSeek-R1 was never listed. JSON mode works on the chat models.
const KNOWN: Readonly<Record<string, KnownModel>> = {
  'Meta-Llama-3.1-8B-Instruct': { capabilities: ['chat', 'tools', 'json'] },
  'Meta-Llama-3.3-70B-Instruct': { capabilities: ['chat', 'tools', 'json'] },
  'DeepSeek-R1': { capabilities: ['chat', 'json'] },
  'Llama-4-Maverick-17B-128E-Instruct': { capabilities: ['chat', 'vision', 'tools', 'json'] },
  // Listed for function calling in the 2026 docs; it reasons with `reasoning_effort`.
  'gpt-oss-120b': { capabilities: ['chat', 'tools', 'json'] },
  // Qwen2-Audio serves audio reasoning, transcription and translation (30 s per file), and chat.
  'Qwen2-Audio-7B-Instruct': { capabilities: ['chat', 'audioReasoning', 'transcription'], family: 'audioInstruct' },
  'Whisper-Large-v3': { capabilities: ['transcription'], family: 'speechToText' },
  'E5-Mistral-7B-Instruct': { capabilities: ['embeddings'] },
};

/** Derives capabilities from an id we have no table entry for. */
export function heuristicCapabilities(id: string): { capabilities: Capability[]; family: AudioFamily | undefined } {
  const name = id.toLowerCase();
  if (name.includes('whisper')) return { capabilities: ['transcription'], family: 'speechToText' };
  if (name.includes('audio')) return { capabilities: ['chat', 'audioReasoning', 'transcription'], family: 'audioInstruct' };
  if (/e5|embed|bge|gte/.test(name)) return { capabilities: ['embeddings'], family: undefined };
  const capabilities: Capability[] = ['chat', 'json'];
  // "vl" only as its own name piece (Qwen2-VL-7B), so an id like "devlin-7b" is not taken for vision.
  if (/vision|(^|[-_.])vl([-_.]|$)|llava|maverick|scout/.test(name)) capabilities.push('vision');
  return { capabilities, family: undefined };
}

/**
 * The capability registry of one InferenceClient: table + heuristics + overrides + what the
 * service refused. The client consults it for ModelInfo and for request shaping.
 */
export class CapabilityRegistry {
  private readonly removed = new Map<string, Set<Capability>>();
  private readonly declared = new Map<string, DeclaredTraits>();

  constructor(private readonly overrides: CapabilityOverrides = {}) {}

  /** Capabilities, family and limits for `id`; overrides win over the table, the table over heuristics. */
  derive(id: string): DerivedCapabilities {
    const known = KNOWN[id];
    const base = known === undefined ? heuristicCapabilities(id) : { capabilities: [...known.capabilities], family: known.family };
    const override = this.overrides[id];
    const declared = this.declared.get(id);
    // What the model's own server declared corrects the table and the name; overrides win over both.
    if (declared !== undefined && base.capabilities.includes('chat')) {
      base.capabilities = [...base.capabilities.filter((c) => !declared.lacks.includes(c)), ...declared.has.filter((c) => !base.capabilities.includes(c))];
    }
    let capabilities = override?.capabilities === undefined ? base.capabilities : [...override.capabilities];
    const gone = this.removed.get(id);
    if (gone !== undefined) capabilities = capabilities.filter((c) => !gone.has(c));
    return {
      capabilities,
      family: override?.family ?? base.family,
      contextLength: override?.contextLength,
      maxCompletionTokens: override?.maxCompletionTokens,
      reasoning:
        override?.reasoning === false
          ? undefined
          : (override?.reasoning ?? (capabilities.includes('chat') ? (reasoningTraits(id) ?? declared?.reasoning) : undefined)),
    };
  }

  /** Records what the model's own server said it can do (llama.cpp's /props). */
  declare(id: string, traits: DeclaredTraits): void {
    this.declared.set(id, traits);
  }

  /**
   * Whether `cadenza.models.overrides` gives `id` the capability `capability`: undefined when it lists no
   * capabilities for `id` (then the table and heuristics speak, and they never claim `fim`).
   */
  stated(id: string, capability: Capability): boolean | undefined {
    const listed = this.overrides[id]?.capabilities;
    return listed === undefined ? undefined : listed.includes(capability);
  }

  /** The ids `cadenza.models.overrides` names, in its order. */
  overriddenIds(): string[] {
    return Object.keys(this.overrides);
  }

  /** Records the service's 400 model_not_compatible: `capability` is gone for `id` in this client's lifetime. */
  markIncompatible(id: string, capability: Capability): void {
    let set = this.removed.get(id);
    if (set === undefined) {
      set = new Set();
      this.removed.set(id, set);
    }
    set.add(capability);
  }
}
