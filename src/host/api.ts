// What activate() hands to other extensions. The whole object graph (the chat controller, the agent with
// its approval policy and trust override, the workspace port) exists for the integration tests, which
// run the extension in VS Code's test mode; an installed extension gives other extensions only a small,
// read-only API, so none of them can switch approvals off or lift Restricted Mode.
import * as vscode from 'vscode';
import type { CadenzaApi } from './extension';
import type { SearchHit } from './index/indexService';

/** The API every other extension gets: a search of the workspace index, as the `cadenza.search` command gives. */
export interface CadenzaPublicApi {
  /** Hybrid search of the workspace index (semantic and keyword); empty without an index. */
  readonly search: (query: string, k?: number) => Promise<readonly SearchHit[]>;
}

/**
 * The API for an extension mode: the full one, test hooks included, only when VS Code runs the
 * extension's tests (`ExtensionMode.Test`); otherwise the public one, frozen.
 */
export function exportedApi(mode: vscode.ExtensionMode, full: CadenzaApi): CadenzaApi | CadenzaPublicApi {
  if (mode === vscode.ExtensionMode.Test) return full;
  const index = full.index;
  return Object.freeze({ search: (query: string, k = 10) => index.search(String(query), Math.max(1, Math.min(50, Math.floor(Number(k) || 10)))) });
}
