// Which index answers a workspace search, and how: the query is embedded with the index's model and
// searched by meaning and words; when it cannot be embedded (offline, no key) words alone still answer.
// With a team index set, the team's answers first; when its database cannot answer, the local index does.
// Nothing is asked for a blank query, and nothing embedded when no index could answer. The host gives the
// sources (the opened local index, the client's embeddings, the team's connection) and is told each
// fallback, so it can log and show it.
import type { HybridQuery } from './fusion';
import type { IndexSearchResult } from './workspaceIndex';

/** A local index as the search sees it. */
export interface LocalSearch {
  search(query: HybridQuery, options: { readonly k: number }): readonly IndexSearchResult[];
}

/** Where a search can look. */
export interface SearchSources {
  /** Whether a team index is set up (a repository and its connection). */
  teamConfigured(): Promise<boolean>;
  /** The local index, opened on first use; undefined when there is none (off, no folder). */
  local(): Promise<LocalSearch | undefined>;
  /** The query's embedding with the index's model; a rejection means words only. */
  embed(): Promise<ArrayLike<number> | undefined>;
  /** The team index's answer (the developer's uncommitted files overriding the team's); a rejection falls back. */
  team(query: HybridQuery, k: number): Promise<readonly IndexSearchResult[]>;
  /** Told why the search goes by words only. */
  embedFailed(error: unknown): void;
  /** Told why the team index did not answer. */
  teamFailed(error: unknown): void;
}

/** A search's answer and which index gave it. */
export interface SearchAnswer {
  readonly source: 'team' | 'local' | 'none';
  readonly results: readonly IndexSearchResult[];
}

const nothing: SearchAnswer = { source: 'none', results: [] };

/** Searches for `query`, the best `k` results, by the policy above. Rejects only when a source it cannot do without fails. */
export async function searchIndexes(query: string, k: number, sources: SearchSources): Promise<SearchAnswer> {
  if (!query.trim()) return nothing;
  const teamMode = await sources.teamConfigured();
  const local = await sources.local();
  if (!local && !teamMode) return nothing;
  let vector: ArrayLike<number> | undefined;
  try {
    vector = await sources.embed();
  } catch (error) {
    sources.embedFailed(error);
  }
  const hybrid: HybridQuery = { text: query, ...(vector ? { vector } : {}) };
  if (teamMode) {
    try {
      return { source: 'team', results: await sources.team(hybrid, k) };
    } catch (error) {
      sources.teamFailed(error);
    }
  }
  if (!local) return nothing;
  return { source: 'local', results: local.search(hybrid, { k }) };
}
