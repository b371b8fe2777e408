// When to ask the service for a completion, and when not to. Keystrokes are debounced; a request the user
// types past is aborted at once (and counted); a suggestion the user is typing through is shortened
// without a new request; answers are cached by the text around the cursor; a request still streaming is
// reused when the user typed what it is writing. Everything per keystroke is string slicing and a map
// lookup: nothing heavy runs on the extension host's thread while the user types.

/** Timers, injectable so the tests drive time by hand. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock. */
const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The cursor's situation, as cheap to compare as possible. */
export interface CompletionRequest {
  /** The document's identity (its URI). */
  readonly documentKey: string;
  /** The cursor's offset in the document. */
  readonly offset: number;
  /** Text before the cursor (a window of it). */
  readonly prefix: string;
  /** Text after the cursor (a window of it). */
  readonly suffix: string;
}

/** What a fetch reports while it streams: the cleaned completion so far and whether it is whole. */
export type PartialListener = (text: string, ended: boolean) => void;

/** Asks the service; resolves with the cleaned completion ('' for none), rejects or resolves when aborted. */
export type CompletionFetcher<R extends CompletionRequest = CompletionRequest> = (
  request: R,
  signal: AbortSignal,
  onPartial: PartialListener,
) => Promise<string>;

/** Where a suggestion came from. */
export type SuggestionSource = 'network' | 'cache' | 'typedThrough' | 'inflight';

/** A suggestion to show at the request's cursor. */
export interface Suggestion {
  readonly text: string;
  readonly source: SuggestionSource;
}

/** Counters since the scheduler was made (the status bar and the benchmark read them). */
export interface SchedulerStats {
  /** Calls (one per keystroke VS Code asked about). */
  calls: number;
  /** Requests sent to the service. */
  requests: number;
  /** Requests aborted because the user typed past them or left. */
  cancelled: number;
  /** Calls that ended in the debounce, superseded by a newer keystroke before any request. */
  debounced: number;
  cacheHits: number;
  typedThrough: number;
  /** Calls served by a request already streaming. */
  inflightReuse: number;
}

/** How the scheduler behaves. */
export interface SchedulerOptions<R extends CompletionRequest = CompletionRequest> {
  readonly fetch: CompletionFetcher<R>;
  readonly clock?: Clock;
  /** Quiet time after a keystroke before a request (default 75 ms). */
  readonly debounceMs?: number;
  /**
   * How long a request nobody waits for any more keeps streaming, in case the next keystroke (VS Code asks
   * again after its own short delay) can use it (default 200 ms).
   */
  readonly orphanGraceMs?: number;
  /** Cached answers kept (default 200). */
  readonly cacheSize?: number;
}

interface Inflight {
  readonly request: CompletionRequest;
  readonly controller: AbortController;
  done: Promise<string | undefined>;
  partial: string;
  ended: boolean;
  finished: boolean;
  /** What the newest caller typed since the request began: the answer must start with it. */
  expect: string | undefined;
  /** Text typed at the cursor since the request began, from edits (undefined once another edit happened). */
  typed: string | undefined;
  waiters: number;
  orphanTimer: unknown;
}

interface Shown {
  readonly request: CompletionRequest;
  readonly text: string;
}

const CONTEXT_TAIL = 400;
const SUFFIX_HEAD = 200;

function cacheKey(request: CompletionRequest): string {
  return `${request.documentKey}\u0000${request.prefix.slice(-CONTEXT_TAIL)}\u0000${request.suffix.slice(0, SUFFIX_HEAD)}`;
}

/**
 * What the user typed since `earlier` if `later` is `earlier` plus typing at the cursor (same document,
 * same text after the cursor, the text before it extended); undefined otherwise.
 */
export function typedSince(earlier: CompletionRequest, later: CompletionRequest): string | undefined {
  if (earlier.documentKey !== later.documentKey) return undefined;
  const count = later.offset - earlier.offset;
  if (count < 0 || count > later.prefix.length) return undefined;
  if (later.suffix.slice(0, SUFFIX_HEAD) !== earlier.suffix.slice(0, SUFFIX_HEAD)) return undefined;
  const before = later.prefix.slice(0, later.prefix.length - count);
  const span = Math.min(CONTEXT_TAIL, before.length, earlier.prefix.length);
  if (before.slice(before.length - span) !== earlier.prefix.slice(earlier.prefix.length - span)) return undefined;
  return later.prefix.slice(later.prefix.length - count);
}

/** True when a completion so far (still streaming unless `ended`) may yet agree with what was typed. */
function agrees(partial: string, ended: boolean, typed: string): boolean {
  return partial.startsWith(typed) || (!ended && typed.startsWith(partial));
}

/** The debounce, cancel, typed-through, reuse and cache logic; one per window. */
export class CompletionScheduler<R extends CompletionRequest = CompletionRequest> {
  readonly stats: SchedulerStats = { calls: 0, requests: 0, cancelled: 0, debounced: 0, cacheHits: 0, typedThrough: 0, inflightReuse: 0 };
  private readonly clock: Clock;
  private readonly debounceMs: number;
  private readonly orphanGraceMs: number;
  private readonly cacheSize: number;
  private readonly cache = new Map<string, string>();
  private inflight: Inflight | undefined;
  private shown: Shown | undefined;
  private pending: { timer: unknown; resolve: (go: boolean) => void } | undefined;

  constructor(private readonly options: SchedulerOptions<R>) {
    this.clock = options.clock ?? systemClock;
    this.debounceMs = Math.max(0, options.debounceMs ?? 75);
    this.orphanGraceMs = Math.max(0, options.orphanGraceMs ?? 200);
    this.cacheSize = Math.max(1, options.cacheSize ?? 200);
  }

  /**
   * The suggestion for a cursor, or undefined (nothing to suggest, superseded, or `signal` aborted).
   * Typed-through and cached suggestions answer at once; otherwise it waits out the debounce and asks.
   */
  async complete(request: R, signal: AbortSignal): Promise<Suggestion | undefined> {
    this.stats.calls += 1;
    if (signal.aborted) return undefined;
    const through = this.typedThrough(request);
    if (through !== undefined) {
      this.stats.typedThrough += 1;
      return { text: through, source: 'typedThrough' };
    }
    const cached = this.cache.get(cacheKey(request));
    if (cached !== undefined) {
      this.stats.cacheHits += 1;
      this.touch(cacheKey(request), cached);
      return this.show(request, cached, 'cache');
    }
    const running = this.inflight;
    if (running) {
      const typed = typedSince(running.request, request);
      if (typed !== undefined && agrees(running.partial, running.ended, typed)) return this.adopt(running, typed, signal);
      this.abortInflight();
    }
    if (!(await this.debounce(signal))) return undefined;
    return this.fetch(request, signal);
  }

  /**
   * Told of every edit to a document (offset, length replaced, new text), before VS Code asks again: text
   * typed at the cursor of a streaming request that the answer is not writing, or any other edit of that
   * document near it, aborts the request at once.
   */
  noteEdit(documentKey: string, offset: number, replaced: number, text: string): void {
    const flight = this.inflight;
    if (!flight || flight.request.documentKey !== documentKey) return;
    const typed = flight.typed;
    const cursor = flight.request.offset + (typed?.length ?? 0);
    if (typed !== undefined && replaced === 0 && offset === cursor && !text.includes('\n')) {
      flight.typed = typed + text;
      flight.expect = flight.typed;
      if (agrees(flight.partial, flight.ended, flight.typed)) return;
    }
    flight.typed = undefined;
    this.abortInflight();
  }

  /** Forgets the suggestion on screen (the user accepted, dismissed or moved away). */
  clearShown(): void {
    this.shown = undefined;
  }

  /** Aborts what is running and waiting; the scheduler stays usable. */
  cancelAll(): void {
    this.abortInflight();
    this.pending?.resolve(false);
  }

  private typedThrough(request: CompletionRequest): string | undefined {
    const shown = this.shown;
    if (!shown) return undefined;
    const typed = typedSince(shown.request, request);
    if (typed === undefined || typed === '' || typed.length >= shown.text.length || !shown.text.startsWith(typed)) return undefined;
    return shown.text.slice(typed.length);
  }

  private show(request: CompletionRequest, text: string, source: SuggestionSource): Suggestion | undefined {
    if (text === '') return undefined;
    this.shown = { request, text };
    return { text, source };
  }

  private touch(key: string, text: string): void {
    this.cache.delete(key);
    this.cache.set(key, text);
    while (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next();
      if (oldest.done) break;
      this.cache.delete(oldest.value);
    }
  }

  private debounce(signal: AbortSignal): Promise<boolean> {
    if (this.pending) {
      this.stats.debounced += 1;
      this.pending.resolve(false);
    }
    return new Promise<boolean>((resolve) => {
      const finish = (go: boolean): void => {
        if (this.pending?.resolve === finish) this.pending = undefined;
        this.clock.clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(go && !signal.aborted);
      };
      const onAbort = (): void => finish(false);
      const timer = this.clock.setTimeout(() => finish(true), this.debounceMs);
      this.pending = { timer, resolve: finish };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private async fetch(request: R, signal: AbortSignal): Promise<Suggestion | undefined> {
    this.stats.requests += 1;
    const controller = new AbortController();
    const flight: Inflight = {
      request,
      controller,
      done: Promise.resolve(undefined),
      partial: '',
      ended: false,
      finished: false,
      expect: undefined,
      typed: '',
      waiters: 0,
      orphanTimer: undefined,
    };
    const onPartial: PartialListener = (text, ended) => {
      flight.partial = text;
      flight.ended = ended;
      // The user typed something this answer is not writing: it is useless, stop paying for it.
      if (flight.expect !== undefined && !agrees(text, ended, flight.expect) && this.inflight === flight) this.abortInflight();
    };
    flight.done = this.options
      .fetch(request, controller.signal, onPartial)
      .then(
        (text) => {
          flight.finished = true;
          if (controller.signal.aborted) return undefined;
          flight.partial = text;
          flight.ended = true;
          this.touch(cacheKey(request), text);
          return text;
        },
        () => {
          flight.finished = true;
          return undefined;
        },
      )
      .finally(() => {
        this.clock.clearTimeout(flight.orphanTimer);
        if (this.inflight === flight) this.inflight = undefined;
      });
    this.inflight = flight;
    const text = await this.wait(flight, signal);
    return text === undefined ? undefined : this.show(request, text, 'network');
  }

  private async adopt(flight: Inflight, typed: string, signal: AbortSignal): Promise<Suggestion | undefined> {
    this.stats.inflightReuse += 1;
    flight.expect = typed;
    const text = await this.wait(flight, signal);
    if (text === undefined || !text.startsWith(typed) || text.length <= typed.length) return undefined;
    this.shown = { request: flight.request, text };
    return { text: text.slice(typed.length), source: 'inflight' };
  }

  /** Waits for a request on behalf of one caller; when the last caller leaves, the request is aborted after the grace time. */
  private wait(flight: Inflight, signal: AbortSignal): Promise<string | undefined> {
    flight.waiters += 1;
    this.clock.clearTimeout(flight.orphanTimer);
    return new Promise<string | undefined>((resolve) => {
      const leave = (): void => {
        flight.waiters -= 1;
        if (flight.waiters === 0 && this.inflight === flight) {
          flight.orphanTimer = this.clock.setTimeout(() => {
            if (flight.waiters === 0 && this.inflight === flight) this.abortInflight();
          }, this.orphanGraceMs);
        }
        resolve(undefined);
      };
      if (signal.aborted) {
        leave();
        return;
      }
      signal.addEventListener('abort', leave, { once: true });
      void flight.done.then((text) => {
        signal.removeEventListener('abort', leave);
        if (signal.aborted) return;
        flight.waiters -= 1;
        resolve(text);
      });
    });
  }

  private abortInflight(): void {
    const flight = this.inflight;
    if (!flight) return;
    this.inflight = undefined;
    this.clock.clearTimeout(flight.orphanTimer);
    if (!flight.finished && !flight.controller.signal.aborted) {
      this.stats.cancelled += 1;
      flight.controller.abort();
    }
  }
}
