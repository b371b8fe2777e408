import { silentLogger, type Logger } from '../logger';

/**
 * The embedding port: embeds `texts` in order, one vector per text. The host plugs in the service
 * client (`embedMany` with its retry policy); tests plug in fakes. It must reject on cancel.
 */
export type EmbedFunction = (texts: readonly string[], signal: AbortSignal) => Promise<readonly Float32Array[]>;

/** Why a reply was refused; the batch's chunks stay pending and nothing is stored. */
export type EmbedReplyProblem = 'wrongCount' | 'wrongDimension' | 'badValues';

/** A reply that cannot be used (wrong count, wrong dimension, NaN or all-zero vectors). */
class EmbedReplyError extends Error {
  constructor(
    readonly reason: EmbedReplyProblem,
    message: string,
  ) {
    super(message);
    this.name = 'EmbedReplyError';
  }

  static is(error: unknown): error is EmbedReplyError {
    return error instanceof EmbedReplyError;
  }
}

/** What to do after a failed batch: stop everything, split it (one input may be too long), or leave it for the next run. */
export type FailureAction = 'fatal' | 'split' | 'skip';

/**
 * Default policy, reading the `reason` of the client's typed errors without importing them: bad keys
 * stop the build; a rejected request is split in halves until the offending input is alone and left
 * out; everything else (rate limits after the client's retries, network, server, bad replies) leaves
 * the batch pending and counts towards `maxConsecutiveFailures`.
 */
function defaultFailureAction(error: unknown): FailureAction {
  const reason = typeof error === 'object' && error !== null ? (error as { reason?: unknown }).reason : undefined;
  if (reason === 'auth' || reason === 'forbidden') return 'fatal';
  if (reason === 'badRequest' || reason === 'tooLarge') return 'split';
  return 'skip';
}

/** Batching and failure settings. */
export interface EmbedQueueOptions {
  readonly embed: EmbedFunction;
  readonly signal: AbortSignal;
  /** Texts per request (default 32, the service's own LangChain client default). */
  readonly batchSize?: number | undefined;
  /** Requests in flight (default 2; the embeddings model allows ~30 requests a minute anyway). */
  readonly concurrency?: number | undefined;
  /** Stop after this many failed batches in a row (default 3): the network is down or the quota is gone. */
  readonly maxConsecutiveFailures?: number | undefined;
  /**
   * First wait before a failed batch is tried again in the same run (default 1,000 ms, doubling, capped at
   * 30 s; a server's `retryAfterMs` wins): a 429 storm or a network blip must not end the build.
   */
  readonly retryDelayMs?: number | undefined;
  /** Texts are cut to this many characters before sending (default 16,000; chunks are far smaller). */
  readonly maxInputChars?: number | undefined;
  /** The required dimension, 0 when the first good reply decides. */
  readonly dimension: () => number;
  /** Receives each accepted batch; resolves when it is stored. Called one batch at a time. */
  readonly onVectors: (items: { hash: string; vector: Float32Array }[]) => Promise<void>;
  readonly failureAction?: ((error: unknown) => FailureAction) | undefined;
  readonly logger?: Logger | undefined;
}

/** How the embedding side of a run ended. */
export interface EmbedOutcome {
  readonly embedded: number;
  readonly failed: number;
  /** Set when embedding stopped early: cancelled, a fatal error, or too many failures in a row. */
  readonly stopped?: { readonly why: 'cancelled' | 'fatal' | 'tooManyFailures'; readonly error?: unknown } | undefined;
}

interface Item {
  readonly hash: string;
  readonly text: string;
}

/** Batches chunk texts to the embed function with bounded concurrency and backpressure. */
export class EmbedQueue {
  private queue: Item[] = [];
  private readonly retry: Item[][] = [];
  private inFlight = 0;
  private flushing = false;
  private embeddedCount = 0;
  private failedCount = 0;
  private consecutiveFailures = 0;
  private stop: EmbedOutcome['stopped'];
  private storing: Promise<void> = Promise.resolve();
  private waiters: (() => void)[] = [];
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly logger: Logger;

  constructor(private readonly options: EmbedQueueOptions) {
    this.batchSize = Math.max(1, options.batchSize ?? 32);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.logger = options.logger ?? silentLogger;
  }

  /** Whether embedding has stopped (new texts are then not accepted). */
  get stopped(): boolean {
    return this.stop !== undefined || this.options.signal.aborted;
  }

  /** Chunks sent and stored so far. */
  get embedded(): number {
    return this.embeddedCount;
  }

  /** Queues one text (a no-op once stopped). */
  push(hash: string, text: string): void {
    if (this.stopped) return;
    this.queue.push({ hash, text });
    this.pump();
  }

  /** Resolves when few enough texts wait that the producer may go on (keeps memory bounded). */
  waitForRoom(): Promise<void> {
    if (this.hasRoom()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private hasRoom(): boolean {
    return this.stopped || this.queue.length < this.batchSize * this.concurrency * 4;
  }

  /** Sends what is left, waits for every batch, and reports. */
  async finish(): Promise<EmbedOutcome> {
    this.flushing = true;
    this.pump();
    while (this.inFlight > 0 || (!this.stopped && (this.queue.length > 0 || this.retry.length > 0))) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
      this.pump();
    }
    await this.storing;
    if (this.options.signal.aborted && !this.stop) this.stop = { why: 'cancelled' };
    return { embedded: this.embeddedCount, failed: this.failedCount, stopped: this.stop };
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private pump(): void {
    while (!this.stopped && this.inFlight < this.concurrency) {
      let batch = this.retry.shift();
      if (!batch) {
        if (this.queue.length === 0 || (this.queue.length < this.batchSize && !this.flushing)) break;
        batch = this.queue.slice(0, this.batchSize);
        this.queue = this.queue.slice(this.batchSize);
      }
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
        this.wake();
      });
    }
    if (this.hasRoom()) this.wake();
  }

  private async run(batch: Item[]): Promise<void> {
    const signal = this.options.signal;
    const limit = this.options.maxInputChars ?? 16_000;
    let vectors: Float32Array[];
    try {
      const reply = await this.options.embed(
        batch.map((item) => (item.text.length > limit ? item.text.slice(0, limit) : item.text)),
        signal,
      );
      vectors = this.validate(batch.length, reply);
    } catch (error) {
      if (signal.aborted) {
        this.stop ??= { why: 'cancelled' };
        this.logger.debug('Index embedding cancelled.');
        return;
      }
      const delay = this.handleFailure(batch, error);
      if (delay !== undefined) {
        await abortableDelay(delay, signal);
        if (!this.stopped) this.retry.push(batch);
      }
      return;
    }
    this.consecutiveFailures = 0;
    const items = batch.map((item, i) => ({ hash: item.hash, vector: vectors[i] ?? new Float32Array(0) }));
    // Stored one batch at a time, in completion order, so journal appends never interleave.
    this.storing = this.storing
      .then(() => this.options.onVectors(items))
      .then(
        () => {
          this.embeddedCount += items.length;
        },
        (error: unknown) => {
          // The index could not keep them (a database refusing a write, a full disk): the run stops and
          // says it is incomplete, so a snapshot is never published without them; the next run continues.
          this.stop ??= { why: 'fatal', error };
          this.failedCount += items.length;
          this.logger.error(`Storing embeddings failed, so indexing stopped: ${String(error)}`);
        },
      );
    await this.storing;
  }

  private validate(expected: number, reply: readonly Float32Array[]): Float32Array[] {
    if (!Array.isArray(reply) || reply.length !== expected) {
      throw new EmbedReplyError('wrongCount', `asked for ${expected} embeddings, got ${Array.isArray(reply) ? reply.length : typeof reply}`);
    }
    const dimension = this.options.dimension() || (reply[0]?.length ?? 0);
    const out: Float32Array[] = [];
    for (const vector of reply) {
      const v: unknown = vector;
      if (!(v instanceof Float32Array) && !Array.isArray(v)) throw new EmbedReplyError('badValues', 'an embedding is not an array of numbers');
      const floats = v instanceof Float32Array ? v : Float32Array.from(v as number[]);
      if (floats.length !== dimension || dimension === 0)
        throw new EmbedReplyError('wrongDimension', `embedding of ${floats.length} dimensions, expected ${dimension}`);
      let nonZero = false;
      for (let i = 0; i < floats.length; i++) {
        const x = floats[i] ?? NaN;
        if (!Number.isFinite(x)) throw new EmbedReplyError('badValues', 'embedding contains NaN or infinity');
        if (x !== 0) nonZero = true;
      }
      if (!nonZero) throw new EmbedReplyError('badValues', 'all-zero embedding');
      out.push(floats);
    }
    return out;
  }

  /** Decides what a failed batch does; returns the wait before trying it again, or undefined when it is done with. */
  private handleFailure(batch: Item[], error: unknown): number | undefined {
    const action = EmbedReplyError.is(error) ? 'skip' : (this.options.failureAction ?? defaultFailureAction)(error);
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (action === 'fatal') {
      this.stop ??= { why: 'fatal', error };
      this.failedCount += batch.length;
      this.logger.error(`Index embedding stopped: ${what}`);
      return undefined;
    }
    if (action === 'split' && batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      this.retry.push(batch.slice(0, half), batch.slice(half));
      this.logger.debug(`Embedding batch of ${batch.length} rejected (${what}); retrying in halves.`);
      return undefined;
    }
    if (action === 'split') {
      this.failedCount += batch.length;
      this.logger.warn(`A chunk could not be embedded and is left out for now: ${what}`);
      return undefined;
    }
    this.consecutiveFailures++;
    const max = this.options.maxConsecutiveFailures ?? 3;
    if (this.consecutiveFailures >= max) {
      this.failedCount += batch.length;
      this.stop ??= { why: 'tooManyFailures', error };
      this.logger.warn(
        `Embedding batch of ${batch.length} failed (${what}). Index embedding paused after ${max} failed attempts in a row; its chunks stay pending and the next run continues where this one stopped.`,
      );
      return undefined;
    }
    const hinted = typeof error === 'object' && error !== null ? (error as { retryAfterMs?: unknown }).retryAfterMs : undefined;
    const base = this.options.retryDelayMs ?? 1000;
    const delay = typeof hinted === 'number' && hinted >= 0 ? hinted : Math.min(30_000, base * 2 ** (this.consecutiveFailures - 1));
    this.logger.warn(`Embedding batch of ${batch.length} failed (${what}); trying it again in ${Math.round(delay)} ms.`);
    return delay;
  }
}

/** Waits `ms`, or less when `signal` aborts (never rejects: the caller checks the signal). */
function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
