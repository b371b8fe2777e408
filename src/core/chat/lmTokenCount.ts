// Token counts for VS Code's chat. VS Code fits its prompt to the input limit Cadenza reports, by the
// counts Cadenza gives it, so the counts must not fall short of the server's. Where the chat server has a
// tokenizer (llama-server's POST /tokenize) the count is exact; elsewhere it is an estimate per model,
// calibrated from the prompt_tokens the service reports after each request and erring high.
import { createHash } from 'node:crypto';
import { ApiError } from '../api/errors';
import type { ChatMessage, ToolDefinition } from '../api/types';
import { type Logger, silentLogger } from '../logger';
import { imageTokenEstimate } from './contextBudget';
import { dataPartText, type LmMessage } from './lmMessages';

/** Counts the tokens of a text with the server's tokenizer; rejects with an ApiError when it cannot. */
export type TokenizeFn = (text: string, signal?: AbortSignal) => Promise<number>;

/** Tokens per character of the plain estimate (about four characters a token): the calibration's floor. */
export const estimateTokensPerChar = 0.25;

/** Role, separators and the like that chat templates add to every message (as the context budget counts). */
export const messageOverheadTokens = 4;

/** What of a message is counted: its text (tool calls as name and arguments) and its images. */
export interface CountedMessage {
  readonly text: string;
  readonly images: number;
}

/** The countable part of a VS Code message (as `host/lm` reduces it). */
export function lmMessageText(message: LmMessage): CountedMessage {
  const texts: string[] = [];
  let images = 0;
  for (const part of message.parts) {
    if (part.kind === 'text' || part.kind === 'toolResult') texts.push(part.text);
    else if (part.kind === 'toolCall') texts.push(part.name + JSON.stringify(part.input ?? {}));
    else {
      // Binary data other than images is not sent (toChatMessages), so not counted.
      const text = dataPartText(part);
      if (text !== undefined) texts.push(text);
      else if (part.mimeType.toLowerCase().startsWith('image/')) images += 1;
    }
  }
  return { text: texts.join('\n'), images };
}

/** The countable part of a message as it goes to the service. */
export function chatMessageText(message: ChatMessage): CountedMessage {
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((call) => call.name + call.arguments);
    return { text: [message.content ?? '', ...calls].filter((text) => text !== '').join('\n'), images: 0 };
  }
  if (typeof message.content === 'string') return { text: message.content, images: 0 };
  const texts: string[] = [];
  let images = 0;
  for (const part of message.content) {
    if (part.type === 'text') texts.push(part.text);
    else images += 1;
  }
  return { text: texts.join('\n'), images };
}

/** The tools of a request as one countable text: their JSON, as the server renders them into the prompt. */
export function toolsText(tools: readonly ToolDefinition[]): string {
  return tools.length === 0 ? '' : JSON.stringify(tools);
}

/**
 * The estimate per model, calibrated from what the service reported: tokens per character of the last
 * few requests, the highest of them (a dense prompt of code and JSON must not be under-counted because
 * the one before was prose), never below the plain estimate.
 */
export class TokenCalibration {
  private readonly ratios = new Map<string, number[]>();

  constructor(
    private readonly keep = 8,
    private readonly minimumChars = 200,
  ) {}

  /** Records a request's `prompt_tokens` against the characters counted of it (images apart). */
  record(model: string, sent: { readonly chars: number; readonly images: number }, promptTokens: number): void {
    if (sent.chars < this.minimumChars || !Number.isFinite(promptTokens) || promptTokens <= 0) return;
    const ratio = Math.max(0, promptTokens - sent.images * imageTokenEstimate) / sent.chars;
    const recent = this.ratios.get(model) ?? [];
    recent.push(ratio);
    if (recent.length > this.keep) recent.splice(0, recent.length - this.keep);
    this.ratios.set(model, recent);
  }

  /** Tokens per character for `model`: the highest recent ratio, at least the plain estimate's. */
  ratio(model: string): number {
    return Math.max(estimateTokensPerChar, ...(this.ratios.get(model) ?? []));
  }

  /** The estimated tokens of `text` for `model`, rounded up. */
  estimate(model: string, text: string): number {
    return Math.ceil(text.length * this.ratio(model));
  }
}

/** A map that forgets its least recently used entry beyond `capacity`. */
class BoundedCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): number | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: number): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }
}

/** Whether a tokenizer call's failure means the server has no tokenizer (as opposed to a passing fault). */
function meansNoTokenizer(error: unknown): boolean {
  return (
    ApiError.is(error, 'unsupported') ||
    ApiError.is(error, 'notFound') ||
    ApiError.is(error, 'badRequest') ||
    ApiError.is(error, 'malformedResponse') ||
    ApiError.is(error, 'invalid')
  );
}

export interface TokenCounterOptions {
  /** The chat server's tokenizer, when the client may have one (asked once; a 404 means none). */
  readonly tokenize?: TokenizeFn | undefined;
  readonly calibration: TokenCalibration;
  /** How many texts' counts are kept; default 2,000. */
  readonly cacheEntries?: number;
  readonly logger?: Logger;
}

/**
 * Counts tokens for one chat server: with its tokenizer when it has one (found out by the first count,
 * remembered: a server without one is not asked again), each text tokenised once (a bounded cache keyed
 * by the text's hash); otherwise, or when a count fails, by the calibrated estimate.
 */
export class LmTokenCounter {
  private tokenizer: 'unknown' | 'available' | 'absent';
  private probing: Promise<unknown> | undefined;
  private readonly cache: BoundedCache;
  private readonly logger: Logger;

  constructor(private readonly options: TokenCounterOptions) {
    this.tokenizer = options.tokenize === undefined ? 'absent' : 'unknown';
    this.cache = new BoundedCache(options.cacheEntries ?? 2000);
    this.logger = options.logger ?? silentLogger;
  }

  /** Whether counts come from the server's tokenizer: undefined until the first count found out. */
  get hasTokenizer(): boolean | undefined {
    return this.tokenizer === 'unknown' ? undefined : this.tokenizer === 'available';
  }

  /** The tokens of `text` for `model`. Never rejects (a failed tokenizer call falls back to the estimate) except on cancel. */
  async countText(model: string, text: string, signal?: AbortSignal): Promise<number> {
    if (text === '') return 0;
    const exact = await this.tokenized(text, signal);
    return exact ?? this.options.calibration.estimate(model, text);
  }

  /** The tokens of a message: its text, a fixed amount per image and per message. */
  async countMessage(model: string, message: CountedMessage, signal?: AbortSignal): Promise<number> {
    return messageOverheadTokens + (await this.countText(model, message.text, signal)) + message.images * imageTokenEstimate;
  }

  private async tokenized(text: string, signal: AbortSignal | undefined): Promise<number | undefined> {
    const tokenize = this.options.tokenize;
    if (tokenize === undefined || this.tokenizer === 'absent') return undefined;
    const key = createHash('sha256').update(text).digest('base64');
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    // The first count finds out whether the server has a tokenizer; the counts asked meanwhile wait for it.
    if (this.tokenizer === 'unknown' && this.probing !== undefined) {
      await this.probing;
      return this.tokenized(text, signal);
    }
    const attempt = tokenize(text, signal).then(
      (count) => {
        this.tokenizer = 'available';
        this.cache.set(key, count);
        return count;
      },
      (error: unknown) => {
        if (ApiError.is(error, 'canceled') || signal?.aborted === true) throw error;
        if (meansNoTokenizer(error)) {
          if (this.tokenizer !== 'absent')
            this.logger.info(`The chat server has no tokenizer (${error instanceof Error ? error.message : String(error)}); token counts are estimates.`);
          this.tokenizer = 'absent';
        } else {
          this.logger.debug(`A token count fell back to the estimate: ${error instanceof Error ? error.message : String(error)}`);
        }
        return undefined;
      },
    );
    if (this.tokenizer === 'unknown') {
      const probe = attempt
        .catch(() => undefined)
        .finally(() => {
          if (this.probing === probe) this.probing = undefined;
        });
      this.probing = probe;
    }
    return attempt;
  }
}
