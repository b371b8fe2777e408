import type { KeywordHit } from './bm25';

/** Which list found a result: by meaning (vectors), by words (BM25), or both. */
export type MatchKind = 'semantic' | 'keyword' | 'both';

/** A chunk's place: `path` is `<root name>/<relative path>`, lines 1-based inclusive. */
export interface ChunkLocation {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
}

/** One ranked chunk. `score` is the fused score; the other two are present when that list found it. */
export interface SearchResult extends ChunkLocation {
  readonly score: number;
  /** Cosine similarity of the query and the chunk's (quantised) embedding. */
  readonly vectorScore?: number;
  /** Keyword score of the query's words in the chunk (BM25 locally, ts_rank in PostgreSQL). */
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

/** The query side: text for keyword ranking and, when the embedding service answered, its vector. */
export interface HybridQuery {
  readonly text?: string | undefined;
  readonly vector?: ArrayLike<number> | undefined;
}

/** A vector hit: the chunk and the cosine similarity of its embedding to the query. */
export interface SemanticHit {
  readonly location: ChunkLocation;
  readonly score: number;
}

/** The three ranked lists, best first, that every index backend produces and `fuseRanked` merges. */
export interface RankedLists {
  readonly semantic: readonly SemanticHit[];
  /** Keyword ranking (BM25 or full-text rank), with its score. */
  readonly keyword: readonly KeywordHit[];
  /** Chunks that contain the query's compound identifiers verbatim (scores unused). */
  readonly exact: readonly ChunkLocation[];
}

/** How deep each list is read for a query of `k` results. */
export function fusionDepth(options: HybridOptions = {}): number {
  return options.depth ?? Math.max(3 * (options.k ?? 10), 30);
}

const keyOf = (l: ChunkLocation): string => `${l.path}\u0000${l.startLine}\u0000${l.endLine}`;

/**
 * Reciprocal-rank fusion of the three lists into the top `k`, the one ranking every index uses (local
 * and team): score = wv / (60 + vector rank) + wk / (60 + keyword rank) + wk / (60 + exact rank).
 * RRF needs no score normalisation (cosines and BM25 live on unrelated scales, and BM25's top
 * score is large even when only a common word matched), and it rewards chunks the lists agree on.
 * Its weakness is that a decisive keyword hit counts no more than rank 1 of a weak keyword list;
 * the third, "exact" list fixes that for code: chunks that contain the query's compound identifiers
 * (`computeJitteredBackoff`, `MAX_RETRY_COUNT`) verbatim. So an identifier search puts its
 * definition and uses on top even when the embedding ranks them low, while natural-language
 * queries (no compound identifiers) fuse vectors and keywords evenly. Ties go to the earlier path and
 * line, for stable output.
 */
export function fuseRanked(lists: RankedLists, options: HybridOptions = {}): SearchResult[] {
  const k = options.k ?? 10;
  const rrf = options.rrfK ?? 60;
  const wv = options.vectorWeight ?? 1;
  const wk = options.keywordWeight ?? 1;
  const merged = new Map<string, { location: ChunkLocation; score: number; vectorScore?: number; keywordScore?: number; keyword?: boolean }>();
  lists.semantic.forEach((hit, rank) => {
    const key = keyOf(hit.location);
    if (!merged.has(key)) merged.set(key, { location: hit.location, score: wv / (rrf + rank + 1), vectorScore: hit.score });
  });
  const keywordList = (hits: readonly (ChunkLocation & { score?: number })[], scored: boolean): void => {
    hits.forEach((hit, rank) => {
      const key = keyOf(hit);
      let entry = merged.get(key);
      if (!entry) merged.set(key, (entry = { location: { path: hit.path, startLine: hit.startLine, endLine: hit.endLine }, score: 0 }));
      entry.score += wk / (rrf + rank + 1);
      entry.keyword = true;
      if (scored && hit.score !== undefined) entry.keywordScore = hit.score;
    });
  };
  keywordList(lists.keyword, true);
  keywordList(lists.exact, false);
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
