import type { KeywordHit, KeywordIndex } from './bm25';
import type { IndexStore } from './store/indexStore';
import { VectorSearcher, type VectorSearchOptions } from './vectorSearch';

/** Which list found a result: by meaning (vectors), by words (BM25), or both. */
export type MatchKind = 'semantic' | 'keyword' | 'both';

/** One ranked chunk. `score` is the fused score; the other two are present when that list found it. */
export interface SearchResult {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly score: number;
  /** Cosine similarity of the query and the chunk's (quantised) embedding. */
  readonly vectorScore?: number;
  /** BM25 score of the query's words in the chunk (when it was in the BM25 list). */
  readonly keywordScore?: number;
  readonly matched: MatchKind;
}

/** Ranking settings. */
export interface HybridOptions {
  readonly k?: number | undefined;
  /** Weight of the vector list in the fusion (default 1). */
  readonly vectorWeight?: number | undefined;
  /** Weight of the keyword list (default 1). */
  readonly keywordWeight?: number | undefined;
  /** Reciprocal-rank-fusion constant (default 60, the value of the original RRF paper). */
  readonly rrfK?: number | undefined;
  /** How deep each list is read before fusing (default max(3k, 30)). */
  readonly depth?: number | undefined;
}

/** The query side: text for BM25 and, when the embedding service answered, its vector. */
export interface HybridQuery {
  readonly text?: string | undefined;
  readonly vector?: ArrayLike<number> | undefined;
}

/**
 * E5-Mistral-7B-Instruct embeds queries with a one-line task instruction and documents without one;
 * the host sends this text to the embeddings endpoint for the query vector.
 */
export function e5QueryText(query: string, task = 'Given a code search query, retrieve relevant code snippets and documentation'): string {
  return `Instruct: ${task}\nQuery: ${query}`;
}

/**
 * The text to embed for a search query with `model`: the instruction for instruction-tuned embedding
 * models (E5-Mistral-7B-Instruct, the service's), the bare query for the others. Measured with
 * multilingual-e5-small on real code (ARCHITECTURE.md, "The local stack"): the instruction moved held-out
 * questions' files from rank 1 down to ranks 2 to 6.
 */
export function queryTextFor(query: string, model: string): string {
  return /instruct/i.test(model) ? e5QueryText(query) : query;
}

interface Location {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
}

const keyOf = (l: Location): string => `${l.path}\u0000${l.startLine}\u0000${l.endLine}`;

/**
 * Hybrid ranking by reciprocal-rank fusion over three lists, each read `depth` deep:
 * score = wv / (60 + vector rank) + wk / (60 + BM25 rank) + wk / (60 + exact rank).
 * RRF needs no score normalisation (cosines and BM25 live on unrelated scales, and BM25's top
 * score is large even when only a common word matched), and it rewards chunks the lists agree on.
 * Its weakness is that a decisive keyword hit counts no more than rank 1 of a weak keyword list;
 * the third, "exact" list fixes that for code: chunks that contain the query's compound identifiers
 * (`computeJitteredBackoff`, `MAX_RETRY_COUNT`) verbatim. So an identifier search puts its
 * definition and uses on top even when the embedding ranks them low, while natural-language
 * queries (no compound identifiers) fuse vectors and BM25 evenly. Ties go to the earlier path and
 * line, for stable output.
 */
export class HybridSearch {
  private readonly vectors: VectorSearcher;

  constructor(private readonly store: IndexStore, private readonly keywords: KeywordIndex | undefined, options: VectorSearchOptions = {}) {
    this.vectors = new VectorSearcher(options);
  }

  /** Prepares search structures in the background (the vector sketch) so the first query is fast. */
  async warm(signal?: AbortSignal): Promise<void> {
    const arena = this.store.arena;
    if (arena) await this.vectors.warm(arena, signal);
  }

  /** Vector hits expanded to chunks (a vector shared by identical chunks yields each of them). */
  semantic(vector: ArrayLike<number>, depth: number): { location: Location; score: number }[] {
    const arena = this.store.arena;
    if (!arena || vector.length !== this.store.dimension) return [];
    const hits = this.vectors.search(arena, vector, depth, (slot) => this.store.isLive(slot));
    const out: { location: Location; score: number }[] = [];
    for (const hit of hits) for (const location of this.store.locations(hit.slot)) out.push({ location, score: hit.score });
    return out.slice(0, depth);
  }

  /** The fused top `k`. */
  search(query: HybridQuery, options: HybridOptions = {}): SearchResult[] {
    const k = options.k ?? 10;
    const depth = options.depth ?? Math.max(3 * k, 30);
    const rrf = options.rrfK ?? 60;
    const wv = options.vectorWeight ?? 1;
    const wk = options.keywordWeight ?? 1;
    const merged = new Map<string, { location: Location; score: number; vectorScore?: number; keywordScore?: number; keyword?: boolean }>();
    if (query.vector) {
      this.semantic(query.vector, depth).forEach((hit, rank) => {
        const key = keyOf(hit.location);
        if (!merged.has(key)) merged.set(key, { location: hit.location, score: wv / (rrf + rank + 1), vectorScore: hit.score });
      });
    }
    const keywordList = (hits: readonly KeywordHit[], scored: boolean): void => {
      hits.forEach((hit, rank) => {
        const key = keyOf(hit);
        let entry = merged.get(key);
        if (!entry) merged.set(key, (entry = { location: { path: hit.path, startLine: hit.startLine, endLine: hit.endLine }, score: 0 }));
        entry.score += wk / (rrf + rank + 1);
        entry.keyword = true;
        if (scored) entry.keywordScore = hit.score;
      });
    };
    if (query.text && this.keywords) {
      keywordList(this.keywords.search(query.text, depth), true);
      keywordList(this.keywords.exact(query.text, depth), false);
    }
    return [...merged.values()]
      .sort((a, b) => b.score - a.score || (a.location.path < b.location.path ? -1 : a.location.path > b.location.path ? 1 : a.location.startLine - b.location.startLine))
      .slice(0, k)
      .map((e) => ({
        ...e.location,
        score: e.score,
        ...(e.vectorScore !== undefined ? { vectorScore: e.vectorScore } : {}),
        ...(e.keywordScore !== undefined ? { keywordScore: e.keywordScore } : {}),
        matched: e.vectorScore !== undefined && e.keyword === true ? 'both' : e.vectorScore !== undefined ? 'semantic' : 'keyword',
      }));
  }
}
