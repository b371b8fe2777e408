// Search results as the host hands them on (the quick pick, the chat's workspace context, the @cadenza
// participant, completions): a hit with its location and preview line, and the chat context built from hits.
import * as vscode from 'vscode';
import { estimateTokens } from '../../core/chat/contextBudget';
import type { IndexSearchResult, WorkspaceIndex } from '../../core/index/workspaceIndex';
import type { WorkspaceContext } from '../chat/turnTypes';

/** A search hit with its preview line, for the quick pick, the chat context and callers. */
export interface SearchHit {
  readonly path: string;
  readonly uri: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly score: number;
  readonly matched: 'semantic' | 'keyword' | 'both';
  readonly preview: string;
}

/** A result as a hit, its preview the chunk's first non-empty line (read from `index`, when there is one). */
export async function searchHit(index: WorkspaceIndex | undefined, result: IndexSearchResult): Promise<SearchHit> {
  const text = (await index?.readChunk(result)) ?? '';
  const preview =
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? '';
  const uri = result.absPath ? vscode.Uri.file(result.absPath).toString() : '';
  return { path: result.relPath, uri, startLine: result.startLine, endLine: result.endLine, score: result.score, matched: result.matched, preview };
}

/**
 * Workspace context for a chat question from its hits, best first: the chunks numbered, each with its path
 * and lines, as many as fit in `budgetTokens` (about four characters a token); hits whose text is gone are skipped.
 */
export async function workspaceContextOf(
  hits: readonly SearchHit[],
  chunkText: (hit: SearchHit) => Promise<string | undefined>,
  budgetTokens: number,
): Promise<WorkspaceContext> {
  const parts: string[] = ["Workspace context: excerpts of the user's files that may be relevant. Cite one as [n] when you use it."];
  const sources: WorkspaceContext['sources'] = [];
  let used = estimateTokens(parts[0] ?? '');
  for (const hit of hits) {
    const text = await chunkText(hit);
    if (!text) continue;
    const label = `${hit.path}:${hit.startLine}-${hit.endLine}`;
    const block = `[${sources.length + 1}] ${label}\n\`\`\`\n${text}\n\`\`\``;
    const cost = estimateTokens(block);
    if (used + cost > budgetTokens) break;
    used += cost;
    parts.push(block);
    sources.push({ label, uri: hit.uri, startLine: hit.startLine, endLine: hit.endLine });
  }
  return { text: parts.join('\n\n'), sources };
}
