// The model catalogue of the spec era (~mid 2025; docs/service.md#the-model-list) and its wire shape.

/** Which operations a model serves; decides model_not_compatible answers. */
export type ModelKind =
  /** Text chat (and tool calling). */
  | 'chat'
  /** Chat that also accepts one image per request. */
  | 'vision'
  /** Qwen2-Audio style: audio reasoning, transcription and translation (30 s per file); also chat. */
  | 'audioInstruct'
  /** Whisper style: transcription and translation only (25 MB per file). */
  | 'speechToText'
  /** Embeddings only. */
  | 'embeddings';

/** One catalogue entry; mutate the emulator's list to add or retire models at run time. */
export interface EmulatorModel {
  id: string;
  kind: ModelKind;
  contextLength: number;
  maxCompletionTokens: number;
  /** USD per token, as the decimal strings the real listing sends; speech models also per hour of audio (`duration_per_hour`). */
  pricing: { prompt: string; completion: string; durationPerHour?: string };
  /** Length of embedding vectors (embeddings models only). */
  dimensions?: number;
  /**
   * How the model reasons before answering (docs/service.md#reasoning): `field` streams its thinking as
   * `delta.reasoning` (gpt-oss, Qwen3 on the service); `think` opens its content with `<think>…</think>`
   * (DeepSeek-R1). Absent: the model answers at once.
   */
  reasoning?: 'field' | 'think';
  /** The reasoning controls the model takes: `reasoning_effort` and/or `chat_template_kwargs.enable_thinking`. */
  reasoningControls?: ('effort' | 'thinking')[];
}

/** The spec-era catalogue; a fresh copy on every call so runs never share state. */
export function defaultCatalogue(): EmulatorModel[] {
  return [
    {
      id: 'Meta-Llama-3.1-8B-Instruct',
      kind: 'chat',
      contextLength: 16384,
      maxCompletionTokens: 4096,
      pricing: { prompt: '0.0000001', completion: '0.0000002' },
    },
    {
      id: 'Meta-Llama-3.3-70B-Instruct',
      kind: 'chat',
      contextLength: 131072,
      maxCompletionTokens: 16384,
      pricing: { prompt: '0.0000006', completion: '0.0000012' },
    },
    {
      id: 'DeepSeek-R1',
      kind: 'chat',
      contextLength: 16384,
      maxCompletionTokens: 16384,
      pricing: { prompt: '0.000005', completion: '0.000007' },
      reasoning: 'think',
    },
    // Reasoning with a `reasoning` field: gpt-oss takes reasoning_effort, Qwen3 takes enable_thinking.
    // Their limits and prices follow the 2026 listing's shape; the values are placeholders (not documented for the spec's era).
    {
      id: 'gpt-oss-120b',
      kind: 'chat',
      contextLength: 131072,
      maxCompletionTokens: 16384,
      pricing: { prompt: '0.00000022', completion: '0.00000059' },
      reasoning: 'field',
      reasoningControls: ['effort'],
    },
    {
      id: 'Qwen3-32B',
      kind: 'chat',
      contextLength: 32768,
      maxCompletionTokens: 8192,
      pricing: { prompt: '0.0000004', completion: '0.0000008' },
      reasoning: 'field',
      reasoningControls: ['thinking'],
    },
    {
      id: 'Llama-4-Maverick-17B-128E-Instruct',
      kind: 'vision',
      contextLength: 131072,
      maxCompletionTokens: 16384,
      pricing: { prompt: '0.00000063', completion: '0.0000018' },
    },
    // Limits and prices of the two audio models and of E5 beyond its 4096-token context are not
    // documented anywhere (docs/service.md#not-known); these values are plausible placeholders.
    {
      id: 'Qwen2-Audio-7B-Instruct',
      kind: 'audioInstruct',
      contextLength: 8192,
      maxCompletionTokens: 1000,
      pricing: { prompt: '0.0000005', completion: '0.0000005' },
    },
    {
      id: 'Whisper-Large-v3',
      kind: 'speechToText',
      contextLength: 4096,
      maxCompletionTokens: 4096,
      pricing: { prompt: '0.0000005', completion: '0.0000005', durationPerHour: '0.36' },
    },
    {
      id: 'E5-Mistral-7B-Instruct',
      kind: 'embeddings',
      contextLength: 4096,
      maxCompletionTokens: 1,
      pricing: { prompt: '0.0000001', completion: '0' },
      dimensions: 4096,
    },
  ];
}

/** The model object exactly as GET /v1/models sends it. */
export function toWireModel(model: EmulatorModel): Record<string, unknown> {
  return {
    id: model.id,
    object: 'model',
    owned_by: 'no-reply@sambanova.ai',
    context_length: model.contextLength,
    max_completion_tokens: model.maxCompletionTokens,
    pricing: {
      prompt: model.pricing.prompt,
      completion: model.pricing.completion,
      ...(model.pricing.durationPerHour === undefined ? {} : { duration_per_hour: model.pricing.durationPerHour }),
    },
  };
}

/** Looks a model up by its exact (case-sensitive, as on the real service) id. */
export function findModel(models: readonly EmulatorModel[], id: string): EmulatorModel | undefined {
  return models.find((m) => m.id === id);
}
