import type { KeywordIndex } from './bm25';
import { fuseRanked, fusionDepth, type HybridOptions, type HybridQuery, type RankedLists, type SearchResult, type SemanticHit } from './fusion';
import type { IndexStore } from './store/indexStore';
import { VectorSearcher, type VectorSearchOptions } from './vectorSearch';

export type { HybridOptions, HybridQuery, SearchResult } from './fusion';

/**
 * E5-Mistral-7B-Instruct embeds queries with a one-line task instruction and documents without one;
 * the host sends this text to the embeddings endpoint for the query vector.
 */
export function e5QueryText(query: string, task = 'Given a code search query, retrieve relevant code snippets and documentation'): string {
  return `Instruct: ${task}\nQuery: ${query}`;
}

/**
 * The text to embed for a search query with `model`: the instruction for instruction-tuned embedding
 * models (E5-Mistral-7B-Instruct, the service's), the bare query for the others
 * (docs/decisions/0012-e5-instruction-only-for-instruct-models.md).
 */
export function queryTextFor(query: string, model: string): string {
  return /instruct/i.test(model) ? e5QueryText(query) : query;
}

/**
 * Hybrid search over the local index: vector hits from the arena, BM25 and exact-identifier hits from
 * the keyword index, merged by `fuseRanked` (the ranking the team index shares).
 */
export class HybridSearch {
  private readonly vectors: VectorSearcher;

  constructor(
    private readonly store: IndexStore,
    private readonly keywords: KeywordIndex | undefined,
    options: VectorSearchOptions = {},
  ) {
    this.vectors = new VectorSearcher(options);
  }

  /** Prepares search structures in the background (the vector sketch) so the first query is fast. */
  async warm(signal?: AbortSignal): Promise<void> {
    const arena = this.store.arena;
    if (arena) await this.vectors.warm(arena, signal);
  }

  /** Vector hits expanded to chunks (a vector shared by identical chunks yields each of them). */
  semantic(vector: ArrayLike<number>, depth: number): SemanticHit[] {
    const arena = this.store.arena;
    if (!arena || vector.length !== this.store.dimension) return [];
    const hits = this.vectors.search(arena, vector, depth, (slot) => this.store.isLive(slot));
    const out: SemanticHit[] = [];
    for (const hit of hits) for (const location of this.store.locations(hit.slot)) out.push({ location, score: hit.score });
    return out.slice(0, depth);
  }

  /** The three ranked lists for a query, each read `depth` deep. */
  lists(query: HybridQuery, depth: number): RankedLists {
    return {
      semantic: query.vector ? this.semantic(query.vector, depth) : [],
      keyword: query.text && this.keywords ? this.keywords.search(query.text, depth) : [],
      exact: query.text && this.keywords ? this.keywords.exact(query.text, depth) : [],
    };
  }

  /** The fused top `k`. */
  search(query: HybridQuery, options: HybridOptions = {}): SearchResult[] {
    return fuseRanked(this.lists(query, fusionDepth(options)), options);
  }
}
