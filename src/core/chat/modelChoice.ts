// Which model answers, for every entry point (the panel, @cadenza, Rewrite Selection, condensing's base):
// one resolution, so two of them never answer the same question with different models unless the user chose
// so. Resolved when a message is sent, never fixed when the conversation is created (the model list may not
// have arrived yet): what the entry point itself was asked for (VS Code chat's model picker for @cadenza)
// while the service lists it, else the conversation's own choice, else the user's default setting, else the
// model last used, else a sensible default among the listed chat models: the largest general chat model,
// never an audio, embedding or reasoning model.
import { type ModelInfo } from '../api/types';

/** Where the resolved model came from (the panel and the log say so). */
export type ModelSource = 'request' | 'conversation' | 'setting' | 'lastUsed' | 'default';

/** What resolution may use. */
export interface ModelChoiceInput {
  /** What the entry point was asked for (VS Code chat's selected Cadenza model); stands only while the service lists it as a chat model. */
  readonly requested?: string | undefined;
  /** The conversation's own model, if the user picked one (or it answered before). */
  readonly conversation?: string | undefined;
  /** `cadenza.chat.model`, empty when unset. */
  readonly setting?: string | undefined;
  /** The model the user last chatted with in any conversation. */
  readonly lastUsed?: string | undefined;
  /** The service's model list (possibly empty while it loads). */
  readonly models: readonly ModelInfo[];
}

/** A resolved model and where it came from. */
export interface ModelChoice {
  readonly id: string;
  readonly source: ModelSource;
}

/** True for a model the chat panel can talk to: it chats and is not an audio model first. */
export function isGeneralChatModel(model: ModelInfo): boolean {
  return model.capabilities.includes('chat') && model.family === undefined && !model.capabilities.includes('embeddings');
}

/** The size in billions of parameters that an id states ("Meta-Llama-3.3-70B-Instruct" → 70; "…-17B-128E" → 17). */
export function statedSizeB(id: string): number | undefined {
  for (const piece of id.split(/[-_/\s]+/)) {
    const match = /^(\d+(?:\.\d+)?)b$/i.exec(piece);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * The default among listed models: general chat models that answer at once (reasoning models are slow and
 * cost more per answer, so they are chosen only by the user), the largest stated size first, then the
 * largest context; a list of only reasoning models still yields one.
 */
export function defaultChatModel(models: readonly ModelInfo[]): string | undefined {
  const chat = models.filter(isGeneralChatModel);
  const ranked = [...chat].sort(
    (a, b) =>
      Number(a.reasoning !== undefined) - Number(b.reasoning !== undefined) ||
      (statedSizeB(b.id) ?? -1) - (statedSizeB(a.id) ?? -1) ||
      (b.contextLength ?? 0) - (a.contextLength ?? 0) ||
      a.id.localeCompare(b.id),
  );
  return ranked[0]?.id;
}

/**
 * Resolves the model of a message. An explicit choice (the conversation's, the setting) stands even when
 * the list lacks it (the service reports a retired model, and the panel says so); the last-used model only
 * while the service still lists it. Undefined when nothing can be chosen yet (no list, no choice).
 */
export function resolveChatModel(input: ModelChoiceInput): ModelChoice | undefined {
  const pick = (id: string | undefined): string | undefined => (id === undefined || id.trim() === '' ? undefined : id.trim());
  const listedChat = (id: string | undefined): boolean => input.models.some((model) => model.id === id && model.capabilities.includes('chat'));
  const requested = pick(input.requested);
  if (requested && listedChat(requested)) return { id: requested, source: 'request' };
  const own = pick(input.conversation);
  if (own) return { id: own, source: 'conversation' };
  const setting = pick(input.setting);
  if (setting) return { id: setting, source: 'setting' };
  const last = pick(input.lastUsed);
  if (last && listedChat(last)) return { id: last, source: 'lastUsed' };
  const fallback = defaultChatModel(input.models);
  return fallback === undefined ? undefined : { id: fallback, source: 'default' };
}
