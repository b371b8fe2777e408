import * as vscode from 'vscode';
import type { IndexService, SearchHit } from '../index/indexService';

async function open(hit: SearchHit): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(hit.uri));
  const range = new vscode.Range(hit.startLine - 1, 0, hit.endLine - 1, 0);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(range.start, range.start), preview: true });
}

/**
 * `cadenza.search`: with a query string argument, returns the ranked hits; without, a quick pick that
 * searches as you type (debounced), showing path, line range, score, which ranking matched, and a
 * preview line, and opens the chosen location.
 */
export async function searchCommand(index: IndexService, query?: unknown): Promise<SearchHit[] | undefined> {
  if (typeof query === 'string') return index.search(query, 10);
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { hit?: SearchHit }>();
  pick.title = vscode.l10n.t('Cadenza: search the workspace by meaning');
  pick.placeholder = vscode.l10n.t('Describe what you are looking for, e.g. "where do we retry failed uploads?"');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let timer: NodeJS.Timeout | undefined;
  let controller: AbortController | undefined;
  const run = async (text: string): Promise<void> => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    pick.busy = true;
    try {
      const hits = await index.search(text, 20, current.signal);
      if (current.signal.aborted) return;
      pick.items = hits.map((hit) => ({
        label: `${hit.path}:${hit.startLine}-${hit.endLine}`,
        description: `${hit.score.toFixed(3)} · ${hit.matched === 'both' ? vscode.l10n.t('meaning + words') : hit.matched === 'semantic' ? vscode.l10n.t('meaning') : vscode.l10n.t('words')}`,
        detail: hit.preview,
        // Keep every item visible: the ranking is the index's, not the quick pick's fuzzy filter.
        alwaysShow: true,
        hit,
      }));
    } finally {
      if (controller === current) pick.busy = false;
    }
  };
  return new Promise((resolve) => {
    pick.onDidChangeValue((text) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void run(text), 250);
    });
    pick.onDidAccept(() => {
      const hit = pick.selectedItems[0]?.hit;
      pick.hide();
      if (hit) void open(hit);
      resolve(hit ? [hit] : undefined);
    });
    pick.onDidHide(() => {
      controller?.abort();
      pick.dispose();
      resolve(undefined);
    });
    pick.show();
  });
}
