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
  /** How the lists are merged: `score` (normalised scores, convex combination) or `rrf` (reciprocal ranks). */
  readonly fusion?: 'score' | 'rrf' | undefined;
  /** Weight of the vector list in the fusion. */
  readonly vectorWeight?: number | undefined;
  /** Weight of the keyword list. */
  readonly keywordWeight?: number | undefined;
  /** Weight of the exact-identifier list (score fusion; RRF gives it the keyword weight). */
  readonly exactWeight?: number | undefined;
  /** Reciprocal-rank-fusion constant (default 5; the original RRF paper's 60 ranked worse on real code). */
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

interface Entry {
  readonly location: ChunkLocation;
  vectorRank?: number;
  vectorScore?: number;
  keywordRank?: number;
  keywordScore?: number;
  exactRank?: number;
}

/** The chunks of the three lists, each with its rank (0-based) and score in the lists that found it. */
function mergeLists(lists: RankedLists): Map<string, Entry> {
  const merged = new Map<string, Entry>();
  const entry = (l: ChunkLocation): Entry => {
    const key = keyOf(l);
    let e = merged.get(key);
    if (!e) merged.set(key, (e = { location: { path: l.path, startLine: l.startLine, endLine: l.endLine } }));
    return e;
  };
  lists.semantic.forEach((hit, rank) => {
    const e = entry(hit.location);
    if (e.vectorRank === undefined) Object.assign(e, { vectorRank: rank, vectorScore: hit.score });
  });
  lists.keyword.forEach((hit, rank) => {
    const e = entry(hit);
    if (e.keywordRank === undefined) Object.assign(e, { keywordRank: rank, keywordScore: hit.score });
  });
  lists.exact.forEach((hit, rank) => {
    const e = entry(hit);
    if (e.exactRank === undefined) e.exactRank = rank;
  });
  return merged;
}

/** The range of a list's scores, for min-max normalisation. */
function range(scores: readonly number[]): { min: number; span: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  return { min, span: max - min };
}

/**
 * Fuses the three lists into the top `k`: the one ranking every index uses (local and team).
 *
 * Default, `rrf`: reciprocal-rank fusion (Cormack, Clarke and Buettcher 2009), each list adding
 * w / (k + rank) with k 5, the vector list weighted 0.75 and the keyword list 1; the exact-identifier list
 * (chunks holding the query's compound identifiers verbatim, `computeJitteredBackoff`, `MAX_RETRY_COUNT`)
 * counts with the keyword weight, so an identifier search puts its definition first even when the
 * embedding ranks it low. Why k 5 and 0.75: docs/decisions/0011-fusion-rrf-k5.md.
 * `score`: a convex combination of normalised scores (Bruch, Gai and Ingber, "An Analysis of Fusion
 * Functions for Hybrid Retrieval", 2023): wv x cosine min-max normalised over the vector list read + wk x
 * keyword score / the list's best (BM25 and ts_rank both start at 0) + we for an exact-identifier hit.
 * It was the default for a while and lost (same decision). Ties go to the earlier path and line, for stable output.
 */
export function fuseRanked(lists: RankedLists, options: HybridOptions = {}): SearchResult[] {
  const k = options.k ?? 10;
  const merged = [...mergeLists(lists).values()];
  const score = new Map<Entry, number>();
  if ((options.fusion ?? 'rrf') === 'rrf') {
    const rrf = options.rrfK ?? 5;
    const wv = options.vectorWeight ?? 0.75;
    const wk = options.keywordWeight ?? 1;
    const at = (rank: number | undefined, w: number): number => (rank === undefined ? 0 : w / (rrf + rank + 1));
    for (const e of merged) score.set(e, at(e.vectorRank, wv) + at(e.keywordRank, wk) + at(e.exactRank, wk));
  } else {
    const wv = options.vectorWeight ?? 0.7;
    const wk = options.keywordWeight ?? 1 - wv;
    const we = options.exactWeight ?? 1;
    const v = range(lists.semantic.map((h) => h.score));
    const kMax = Math.max(0, ...lists.keyword.map((h) => h.score));
    for (const e of merged) {
      const vs = e.vectorScore === undefined ? 0 : v.span > 0 ? (e.vectorScore - v.min) / v.span : 1;
      const ks = e.keywordScore === undefined || kMax <= 0 ? 0 : Math.max(0, e.keywordScore) / kMax;
      score.set(e, wv * vs + wk * ks + (e.exactRank === undefined ? 0 : we));
    }
  }
  const path = (a: Entry, b: Entry): number =>
    a.location.path < b.location.path ? -1 : a.location.path > b.location.path ? 1 : a.location.startLine - b.location.startLine;
  return merged
    .sort((a, b) => (score.get(b) ?? 0) - (score.get(a) ?? 0) || path(a, b))
    .slice(0, k)
    .map((e) => ({
      ...e.location,
      score: score.get(e) ?? 0,
      ...(e.vectorScore !== undefined ? { vectorScore: e.vectorScore } : {}),
      ...(e.keywordScore !== undefined ? { keywordScore: e.keywordScore } : {}),
      matched:
        e.vectorScore !== undefined && (e.keywordRank !== undefined || e.exactRank !== undefined)
          ? 'both'
          : e.vectorScore !== undefined
            ? 'semantic'
            : 'keyword',
    }));
}
