/** What happened to one item of a batch. */
export type BatchResult<T> =
  { readonly status: 'done'; readonly value: T } | { readonly status: 'failed'; readonly error: unknown } | { readonly status: 'canceled' };

/** Options of runBatch. */
export interface BatchOptions<T> {
  /** Items in flight at once (at least 1). */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** Called as each item settles, with its index in the input. */
  readonly onSettled?: (index: number, result: BatchResult<T>) => void;
}

/**
 * Runs `work` over every item with bounded concurrency. One failing item does not stop the others; a
 * cancel stops starting new items, aborts the running ones through their signal, and keeps every result
 * already done. Results come back in input order.
 */
export async function runBatch<I, T>(
  items: readonly I[],
  work: (item: I, signal: AbortSignal, index: number) => Promise<T>,
  options: BatchOptions<T>,
): Promise<BatchResult<T>[]> {
  const results: BatchResult<T>[] = items.map(() => ({ status: 'canceled' }));
  const controller = new AbortController();
  const outer = options.signal;
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!controller.signal.aborted && next < items.length) {
      const index = next;
      next += 1;
      let result: BatchResult<T>;
      try {
        result = { status: 'done', value: await work(items[index] as I, controller.signal, index) };
      } catch (error) {
        result = controller.signal.aborted ? { status: 'canceled' } : { status: 'failed', error };
      }
      results[index] = result;
      options.onSettled?.(index, result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, items.length)) }, worker));
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
  return results;
}
