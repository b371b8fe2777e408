// A response body read straight from undici's dispatch handler, without a Node Readable in
// between. On a 100,000-chunk stream the Readable machinery (nextTick hops, buffer bookkeeping,
// its async iterator) cost more than the parsing, and a third of a millisecond before the first
// token; this queue hands each network read to the consumer with one promise at most.
import { type Dispatcher } from 'undici';

// Pause the socket when this much is waiting for a slow consumer, resume below the low mark.
const HIGH_WATER_BYTES = 1024 * 1024;
const LOW_WATER_BYTES = 256 * 1024;

/** The body of one response: iterate it as decoded text, or read it whole with text(). */
export class ResponseBody implements AsyncIterable<string> {
  private readonly queue: Buffer[] = [];
  private head = 0;
  private queuedBytes = 0;
  private done = false;
  private failure: Error | undefined;
  private waiter: { resolve: () => void } | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  private readonly decoder = new TextDecoder('utf-8');
  /** Text read by peek() and not yet handed out. */
  private readonly peeked: string[] = [];
  /** The decoder's tail was taken at the end of the body. */
  private flushed = false;

  /** True once the whole body arrived (or failed); a body not ended is cut off on destroy(). */
  get ended(): boolean {
    return this.done || this.failure !== undefined;
  }

  /** Called by the dispatch handler when the response starts. */
  attach(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  /** Called by the dispatch handler for each network read. */
  push(chunk: Buffer): void {
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (this.queuedBytes > HIGH_WATER_BYTES && this.controller !== undefined && !this.controller.paused) this.controller.pause();
    this.wake();
  }

  /** Called by the dispatch handler when the body is complete. */
  end(): void {
    this.done = true;
    this.wake();
  }

  /** Called by the dispatch handler when the exchange failed (socket error, abort). */
  fail(error: Error): void {
    this.failure ??= error;
    this.wake();
  }

  /** Stops reading: aborts the exchange, which closes its socket (a half-read body cannot be reused). */
  destroy(reason: Error = new Error('response body discarded')): void {
    if (this.ended) return;
    this.failure = reason;
    this.queue.length = 0;
    this.head = 0;
    this.controller?.abort(reason);
    this.wake();
  }

  /** Reads the rest of the body as UTF-8 text. */
  async text(): Promise<string> {
    const parts: string[] = [];
    for await (const part of this) parts.push(part);
    return parts.join('');
  }

  /**
   * Reads at most `maxBytes` of the rest of the body as UTF-8 text. Past that it stops reading and
   * closes the exchange (`cut` is then true): an error body of hundreds of megabytes, or one that never
   * ends, costs no more than the cap.
   */
  async textUpTo(maxBytes: number): Promise<{ text: string; cut: boolean }> {
    // Text peek() already read comes first, and counts against the cap.
    const parts: string[] = this.peeked.splice(0);
    let bytes = parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
    if (bytes > maxBytes) {
      this.destroy(new Error(`response body over ${maxBytes} bytes`));
      return { text: parts.join('').slice(0, maxBytes), cut: true };
    }
    for (;;) {
      const chunk = this.take();
      if (chunk !== undefined) {
        const room = maxBytes - bytes;
        if (chunk.length > room) {
          parts.push(this.decoder.decode(chunk.subarray(0, Math.max(0, room))));
          this.destroy(new Error(`response body over ${maxBytes} bytes`));
          return { text: parts.join(''), cut: true };
        }
        bytes += chunk.length;
        parts.push(this.decoder.decode(chunk, { stream: true }));
        continue;
      }
      if (this.failure !== undefined) throw this.failure;
      if (this.done) {
        if (!this.flushed) parts.push(this.decoder.decode());
        this.flushed = true;
        return { text: parts.join(''), cut: false };
      }
      await new Promise<void>((resolve) => {
        this.waiter = { resolve };
      });
    }
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve();
  }

  private take(): Buffer | undefined {
    if (this.head >= this.queue.length) return undefined;
    const chunk = this.queue[this.head];
    this.queue[this.head] = Buffer.alloc(0);
    this.head++;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
    if (chunk === undefined) return undefined;
    this.queuedBytes -= chunk.length;
    if (this.queuedBytes < LOW_WATER_BYTES && this.controller?.paused === true) this.controller.resume();
    return chunk;
  }

  /**
   * Reads until the body shows its first non-blank text (or ends) and keeps what it read, to be read
   * again by iteration; resolves with that text. The stream driver sniffs a reply's shape with it.
   */
  async peek(): Promise<string> {
    let text = this.peeked.join('');
    while (text.trim() === '') {
      const step = await this.read();
      if (step.done === true) break;
      this.peeked.push(step.value);
      text += step.value;
    }
    return text;
  }

  private async read(): Promise<IteratorResult<string>> {
    for (;;) {
      const chunk = this.take();
      if (chunk !== undefined) return { done: false, value: this.decoder.decode(chunk, { stream: true }) };
      if (this.failure !== undefined) throw this.failure;
      if (this.done) {
        const rest = this.flushed ? '' : this.decoder.decode();
        this.flushed = true;
        if (rest !== '') return { done: false, value: rest };
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => {
        this.waiter = { resolve };
      });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<string> {
    return {
      // Text kept by peek() first; otherwise straight from the queue, with one promise per read.
      next: (): Promise<IteratorResult<string>> =>
        this.peeked.length > 0 ? Promise.resolve({ done: false, value: this.peeked.shift() as string }) : this.read(),
      return: async (): Promise<IteratorResult<string>> => {
        this.destroy();
        return { done: true, value: undefined };
      },
    };
  }
}
