import { inTransaction } from './pgSnapshots';
import type { Pool, PoolClient } from 'pg';
import { compoundIdentifiers, tokenize } from '../tokenize';
import {
  fuseRanked,
  fusionDepth,
  type ChunkLocation,
  type HybridOptions,
  type HybridQuery,
  type RankedLists,
  type SearchResult,
  type SemanticHit,
} from '../fusion';
import {
  COMMON_LEXEMES_SQL,
  EXACT_SQL,
  KEYWORD_RANK_CAP,
  KEYWORD_SQL,
  SEARCH_SETTINGS_SQL,
  SNAPSHOT_FIND_SQL,
  VECTOR_INDEXES_SQL,
  folds,
  semanticSql,
  walksEarlierGraph,
} from './pgSql';
import { allOfQuery, anyOfQuery, lexemeQuery, vectorLiteral } from './pgText';

/** The snapshot a team index answers from: which commit, how fresh. */
export interface TeamSnapshot {
  readonly id: number;
  /** The full snapshot this one is a delta on; 0 when it is full itself. */
  readonly baseId: number;
  readonly repository: string;
  readonly commit: string;
  readonly model: string;
  readonly modelId: number;
  readonly dimension: number;
  readonly updatedAt: Date;
  readonly complete: boolean;
}

interface Row {
  readonly path: string;
  readonly start_line: number;
  readonly end_line: number;
}

/**
 * pgvector's widest walk (`hnsw.ef_search` is refused above 1,000 once its library is loaded in the
 * session). More candidates than that still come back: the iterative scan goes on walking past it.
 */
const EF_SEARCH_MAX = 1000;

/**
 * How wide the vector search reads: `candidates` per result asked are taken from the HNSW graph (walked
 * `efSearch` wide, at least) and re-ranked by exact cosine on the full vector. A folded index (see
 * pgSql `indexed`) ranks more coarsely, so it reads more candidates: 4 per result (at least 160) at
 * ef_search 400; a graph on the vector itself (4,000 dimensions or fewer) ranks as the re-rank does, so 2
 * per result (at least 40) suffice, walked as wide. On a
 * database whose indexer has not yet built this release's graph, the earlier graph is walked at 400 too. A
 * team that wants the wider walk sets it on the readers' role (SEARCH_SETTINGS_SQL). Why these widths:
 * docs/decisions/0006-team-index-graph-build-and-walk.md, docs/decisions/0007-team-index-graph-on-narrow-vectors.md.
 */
export interface VectorTuning {
  readonly candidatesPerResult: number;
  readonly minCandidates: number;
  readonly efSearch: number;
}

export function defaultTuning(dimension: number): VectorTuning {
  return folds(dimension) ? { candidatesPerResult: 4, minCandidates: 160, efSearch: 400 } : { candidatesPerResult: 2, minCandidates: 40, efSearch: 400 };
}

const location = (r: Row): ChunkLocation => ({ path: r.path, startLine: r.start_line, endLine: r.end_line });

/** Appends the hits `list` does not hold yet (by path and first line), up to `depth` in all. */
function appendUnseen<T extends ChunkLocation>(list: T[], hits: readonly T[], depth: number): void {
  const seen = new Set(list.map((hit) => `${hit.path}\u0000${hit.startLine}`));
  for (const hit of hits) if (list.length < depth && !seen.has(`${hit.path}\u0000${hit.startLine}`)) list.push(hit);
}

/**
 * The lexemes that alone match more chunks than a pass ranks (`rankCap`), from PostgreSQL's statistics of the
 * chunks' terms (most common elements and their shares, refreshed by the ANALYZE after every indexer run; a
 * reader may read them for any table it may SELECT). None when unreadable.
 */
async function commonLexemes(pool: Pool, rankCap: number): Promise<ReadonlySet<string>> {
  const common = new Set<string>();
  try {
    const row = (await pool.query<{ elems: string[] | null; freqs: number[] | null; chunks: number }>(COMMON_LEXEMES_SQL)).rows[0];
    (row?.elems ?? []).forEach((lexeme, i) => {
      if ((row?.freqs?.[i] ?? 0) * Number(row?.chunks ?? 0) > rankCap) common.add(lexeme);
    });
  } catch {
    // Without statistics every word takes part in the any-word pass, as before.
  }
  return common;
}

/**
 * Read-only search of a team index snapshot: pgvector nearest neighbours, PostgreSQL full-text
 * ranking over Cadenza's own tokens, and the exact-identifier list, fused by `fuseRanked` exactly as
 * the local index fuses its lists. Needs only SELECT on the cadenza_* tables.
 */
export class PgTeamIndex {
  private constructor(
    private readonly pool: Pool,
    readonly snapshot: TeamSnapshot,
    readonly tuning: VectorTuning,
    private readonly rankCap: number,
    /** Lexemes that alone match more chunks than a pass ranks (see `commonLexemes`). */
    private readonly common: ReadonlySet<string>,
    /**
     * Whether the vector list walks an earlier release's graph (pgSql `walksEarlierGraph`), read at opening;
     * once the indexer has swapped the graphs, the vector list sorts without one until the next opening
     * (the extension opens the snapshot again every minute: host/index/teamConnection).
     */
    readonly walksEarlierGraph: boolean,
  ) {}

  /**
   * Finds the snapshot of `repository` for `model`: at `commit` when given, else the newest complete
   * one. Undefined when the database has none (the tables may not even exist yet).
   */
  static async open(
    pool: Pool,
    repository: string,
    model: string,
    commit?: string,
    tuning?: VectorTuning,
    rankCap = KEYWORD_RANK_CAP,
  ): Promise<PgTeamIndex | undefined> {
    const found = await pool.query<{
      id: number;
      base_id: number | null;
      commit_id: string;
      updated_at: Date;
      complete: boolean;
      model_id: number;
      dimension: number;
    }>(SNAPSHOT_FIND_SQL, [repository, model, commit ?? null]);
    const row = found.rows[0];
    if (!row) return undefined;
    // Read with the snapshot, so a search needs no extra round trip (and its three lists their three connections).
    // And which graph is there, at once; a reader that cannot list the indexes searches as for this release's.
    const [common, indexes] = await Promise.all([
      commonLexemes(pool, rankCap),
      pool.query<{ indexname: string }>(VECTOR_INDEXES_SQL).then(
        (r) => new Set(r.rows.map((x) => x.indexname)),
        () => new Set<string>(),
      ),
    ]);
    return new PgTeamIndex(
      pool,
      {
        id: row.id,
        baseId: row.base_id ?? 0,
        repository,
        commit: row.commit_id,
        model,
        modelId: row.model_id,
        dimension: row.dimension,
        updatedAt: row.updated_at,
        complete: row.complete,
      },
      tuning ?? defaultTuning(row.dimension),
      rankCap,
      common,
      walksEarlierGraph(row.dimension, indexes),
    );
  }

  /**
   * The three ranked lists, each `depth` deep, read at once: each list on a connection of its own, in
   * its own read-only transaction, so a query costs the slowest list, not their sum
   * (docs/decisions/0009-team-index-lists-at-once.md). A snapshot's rows change only when the indexer reruns its own commit, so the
   * three transactions read the same files unless a search races such a rerun (each list is then
   * consistent in itself, and the next search sees the rerun whole).
   */
  async lists(query: HybridQuery, depth: number): Promise<RankedLists> {
    const text = query.text ?? '';
    const [semantic, keyword, exact] = await Promise.all([this.semanticList(query, depth), this.keywordList(text, depth), this.exactList(text, depth)]);
    return { semantic, keyword, exact };
  }

  /** Runs `work` in a read-only transaction on a connection of its own. */
  private readOnly<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work, true);
  }

  private async semanticList(query: HybridQuery, depth: number): Promise<SemanticHit[]> {
    const vector = query.vector;
    if (!vector || vector.length !== this.snapshot.dimension) return [];
    return this.readOnly(async (client) => {
      // The graph is searched wider (ef_search) than the candidates re-ranked on the full vector:
      // recall depends on the first, and each re-ranked candidate costs an 8 KB read (16 KB before layout 3).
      const candidates = Math.max(depth * this.tuning.candidatesPerResult, this.tuning.minCandidates);
      await client.query(SEARCH_SETTINGS_SQL, [Math.max(candidates, this.tuning.efSearch), EF_SEARCH_MAX]);
      const rows = await client.query<Row & { score: number }>(semanticSql(this.snapshot.dimension, this.walksEarlierGraph), [
        this.snapshot.modelId,
        vectorLiteral(vector),
        this.snapshot.id,
        this.snapshot.baseId,
        candidates,
        depth,
      ]);
      return rows.rows.map((r) => ({ location: location(r), score: Number(r.score) }));
    });
  }

  /**
   * Chunks with every query word first (selective, so the GIN index answers fast), then any word; each
   * pass ranks at most `rankCap` matches (KEYWORD_RANK_CAP). The any-word pass leaves out each word that
   * alone matches more chunks than that: the pass would rank whichever matches it met first, an arbitrary
   * sample that buries the chunks of the query's rarer words (docs/decisions/0008-team-index-keyword-lists.md). Such
   * words still count in the every-word pass; with no rarer word there is no any-word pass.
   */
  private keywordList(text: string, depth: number): Promise<(ChunkLocation & { score: number })[]> {
    const tokens = tokenize(text);
    const rarer = tokens.filter((t) => !this.common.has(t));
    return this.passes([allOfQuery(tokens), anyOfQuery(rarer)], depth, async (client, tsquery) => {
      const rows = await client.query<Row & { score: number }>(KEYWORD_SQL, [this.snapshot.id, this.snapshot.baseId, tsquery, depth, this.rankCap]);
      return rows.rows.map((r) => ({ ...location(r), score: Number(r.score) }));
    });
  }

  /** The same for the query's compound identifiers (chunks holding all of them first). */
  private exactList(text: string, depth: number): Promise<ChunkLocation[]> {
    const identifiers = compoundIdentifiers(text);
    return this.passes([allOfQuery(identifiers), anyOfQuery(identifiers)], depth, async (client, tsquery) => {
      const rows = await client.query<Row>(EXACT_SQL, [this.snapshot.id, this.snapshot.baseId, identifiers.map(lexemeQuery), tsquery, depth, this.rankCap]);
      return rows.rows.map(location);
    });
  }

  /** Asks each distinct tsquery in turn, in one read-only transaction, until `depth` hits are listed. */
  private async passes<T extends ChunkLocation>(
    queries: readonly (string | undefined)[],
    depth: number,
    ask: (client: PoolClient, tsquery: string) => Promise<T[]>,
  ): Promise<T[]> {
    const distinct = [...new Set(queries)].filter((q): q is string => Boolean(q));
    if (distinct.length === 0) return [];
    return this.readOnly(async (client) => {
      const list: T[] = [];
      for (const tsquery of distinct) {
        if (list.length >= depth) break;
        appendUnseen(list, await ask(client, tsquery), depth);
      }
      return list;
    });
  }

  /** The fused top `k`, ranked as the local index ranks. */
  async search(query: HybridQuery, options: HybridOptions = {}): Promise<SearchResult[]> {
    return fuseRanked(await this.lists(query, fusionDepth(options)), options);
  }
}
