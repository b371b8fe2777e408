import type * as vscode from 'vscode';

/** An AbortSignal that aborts when `token` is cancelled (house style: the core takes signals). Dispose it when the work ends. */
export function abortSignalOf(token: vscode.CancellationToken): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => subscription.dispose() };
}
