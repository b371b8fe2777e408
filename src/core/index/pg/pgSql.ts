// Every statement the team index sends (the schema is in pgSchema.ts). Values always travel as
// parameters ($1, $2, ...); the only text ever put into SQL is a vector dimension, an integer checked
// by `dimensionOf`, because PostgreSQL cannot take a type modifier or an index expression as a parameter.
//
// A snapshot's files are its own entries plus, for a delta snapshot, its base's entries at paths it does
// not list (layout 2, pgSchema.ts). Queries take the snapshot and its base (0 when none) as parameters;
// the condition `e.snapshot_id IN (s, base) AND (e.snapshot_id = s OR NOT EXISTS (an entry of s at
// e.path))` selects the snapshot's visible entry for a path, and is served by the entries' indexes.

/** HNSW indexes a `vector` up to 2,000 dimensions and a `halfvec` up to 4,000. */
const MAX_FULL_HNSW_DIMENSION = 2000;
const MAX_HALF_HNSW_DIMENSION = 4000;

/** A dimension fit to be written into SQL: an integer in pgvector's range, or a thrown error. */
export function dimensionOf(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 16000) throw new RangeError(`Not a vector dimension: ${String(value)}`);
  return value;
}

/** The width wide vectors are folded to for the HNSW graph (see `indexed`). */
export const FOLD_WIDTH = 2048;

/** Whether a dimension's HNSW index is on the folded vector. */
export const folds = (d: number): boolean => d > MAX_FULL_HNSW_DIMENSION && d % FOLD_WIDTH === 0;

/**
 * The indexed expression for a dimension: the full vector up to 2,000 dimensions, as half-precision floats
 * (the column's own precision since layout 3; earlier releases indexed it as `vector`, see
 * `fullPrecision`). Above that, when the
 * dimension is a multiple of 2,048 (E5-Mistral's 4,096), the vector folded to 2,048 components (the sum
 * of its 2,048-wide slices: a fixed linear projection that keeps cosine neighbourhoods, like feature
 * hashing into fewer buckets) as half-precision floats: 4 KB per chunk in the graph instead of 8 KB,
 * and each step of the walk compares 2,048 numbers, not 4,000; the candidates are then re-ranked by
 * exact cosine on the full vector. Otherwise the first (up to) 4,000 components as half-precision
 * floats, which HNSW takes. Why the fold and its width: docs/decisions/0005-team-index-folded-graph.md.
 */
function indexed(d: number, value: string): string {
  if (d <= MAX_FULL_HNSW_DIMENSION) return `(${value})::halfvec(${d})`;
  if (folds(d)) {
    const w = FOLD_WIDTH;
    const slices = Array.from({ length: d / w }, (_, i) => `subvector((${value})::vector(${d}), ${String(i * w + 1)}, ${w})`);
    return `(${slices.join(' + ')})::halfvec(${w})`;
  }
  const m = Math.min(d, MAX_HALF_HNSW_DIMENSION);
  return `subvector((${value})::vector(${d}), 1, ${m})::halfvec(${m})`;
}

/** What earlier releases' graphs indexed up to 2,000 dimensions: the vector in full precision (see `earlierHnswNames`). */
function fullPrecision(d: number, value: string): string {
  return `(${value})::vector(${d})`;
}

/**
 * The graphs' build settings: m 32, ef_construction 256 (pgvector's defaults are 16 and 64; up to 2,000
 * dimensions ef_construction is 512, see HALF_GRAPH_EF_CONSTRUCTION). Why: docs/decisions/0006-team-index-graph-build-and-walk.md.
 */
const WIDE_GRAPH_M = 32;
const WIDE_GRAPH_EF_CONSTRUCTION = 256;

/**
 * A graph on the vector itself, up to 2,000 dimensions, is built on its half-precision values (the
 * column's) with ef_construction 512. Why: docs/decisions/0007-team-index-graph-on-narrow-vectors.md.
 */
const HALF_GRAPH_EF_CONSTRUCTION = 512;

/**
 * This release's graph for a dimension: its build settings, what it indexes (in words, for figures) and its
 * name. Each graph an earlier release built has its own name (`earlierHnswNames`), so the indexer's next run
 * on such a database builds this release's graph and then drops the old one (`obsoleteHnswSql`). Searches
 * walk whichever of them is there: above 2,000 dimensions the indexed expression is the same; up to 2,000 a
 * reader that finds only an earlier graph (on the vector in full precision) searches with that graph's
 * expression (`semanticSql`).
 */
export function graphSettings(dimension: number): { readonly m: number; readonly efConstruction: number; readonly on: string; readonly name: string } {
  const d = dimensionOf(dimension);
  const m = WIDE_GRAPH_M;
  if (d <= MAX_FULL_HNSW_DIMENSION) {
    const efConstruction = HALF_GRAPH_EF_CONSTRUCTION;
    return { m, efConstruction, on: `${d} dimensions in half precision`, name: `cadenza_vectors_hnsw_${d}_half_m${m}_efc${efConstruction}` };
  }
  const efConstruction = WIDE_GRAPH_EF_CONSTRUCTION;
  if (folds(d))
    return { m, efConstruction, on: `${d} dimensions folded to ${FOLD_WIDTH}`, name: `cadenza_vectors_hnsw_${d}_fold${FOLD_WIDTH}_m${m}_efc${efConstruction}` };
  return {
    m,
    efConstruction,
    on: `the first ${Math.min(d, MAX_HALF_HNSW_DIMENSION)} of ${d} dimensions`,
    name: `cadenza_vectors_hnsw_${d}_m${m}_efc${efConstruction}`,
  };
}

/** The HNSW index's name for a dimension (`graphSettings`). */
export function hnswName(d: number): string {
  return graphSettings(d).name;
}

/**
 * The graphs earlier releases built for a dimension: pgvector's default settings on the first 4,000
 * components (or the whole vector); for 4,096 dimensions the fold with the default settings, then at m 32
 * with ef_construction 128; up to 2,000 dimensions the vector in full precision at m 32 / 256.
 */
function earlierHnswNames(dimension: number): string[] {
  const d = dimensionOf(dimension);
  if (folds(d)) return [`cadenza_vectors_hnsw_${d}`, `cadenza_vectors_hnsw_${d}_fold${FOLD_WIDTH}`, `cadenza_vectors_hnsw_${d}_fold${FOLD_WIDTH}_m32`];
  if (d <= MAX_FULL_HNSW_DIMENSION) return [`cadenza_vectors_hnsw_${d}`, `cadenza_vectors_hnsw_${d}_m32_efc256`];
  return [`cadenza_vectors_hnsw_${d}`];
}

/**
 * Whether a reader must walk an earlier release's graph, with its expression: the dimension is one whose
 * indexed expression changed (up to 2,000), this release's graph is not there (yet: a writer builds it in
 * one transaction, invisible until done), and an earlier one is. `indexes`: the vectors table's index names.
 */
export function walksEarlierGraph(dimension: number, indexes: ReadonlySet<string>): boolean {
  const d = dimensionOf(dimension);
  return d <= MAX_FULL_HNSW_DIMENSION && !indexes.has(hnswName(d)) && earlierHnswNames(d).some((name) => indexes.has(name));
}

/**
 * The HNSW index for one dimension, partial so that models of other dimensions share the table, built with
 * `graphSettings`.
 */
export function hnswIndexSql(dimension: number): string {
  const d = dimensionOf(dimension);
  const { m, efConstruction, name } = graphSettings(d);
  return `CREATE INDEX IF NOT EXISTS ${name} ON cadenza_vectors USING hnsw ((${indexed(d, 'embedding')}) halfvec_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction}) WHERE vector_dims(embedding) = ${d}`;
}

/** Drops the graphs earlier releases built for this dimension, once this release's exists (a no-op when there are none). */
export function obsoleteHnswSql(dimension: number): string {
  return `DROP INDEX IF EXISTS ${earlierHnswNames(dimension).join(', ')}`;
}

/** $1 model: how many vectors its graph holds, and the session's maintenance_work_mem (bytes). */
export const GRAPH_SIZE_SQL = "SELECT count(*) AS n, pg_size_bytes(current_setting('maintenance_work_mem')) AS have FROM cadenza_vectors WHERE model_id = $1";

/** The names of the vectors table's indexes. */
export const VECTOR_INDEXES_SQL = "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'cadenza_vectors'";

/**
 * The memory one vector takes in a graph being built for a dimension: its indexed value plus its
 * neighbour lists (about 300 B at m 16, 600 B at m 32).
 */
export function graphElementBytes(dimension: number): number {
  const d = dimensionOf(dimension);
  return 2 * (folds(d) ? FOLD_WIDTH : Math.min(d, MAX_HALF_HNSW_DIMENSION)) + 600;
}

/**
 * Nearest chunks of one snapshot: $1 model id, $2 query vector, $3 snapshot id, $4 its base (0 when
 * none), $5 candidates read from the HNSW index, $6 rows returned. The EXISTS filter keeps only vectors
 * the snapshot's files use; with pgvector's iterative scan the index keeps reading until enough pass it.
 * The candidates are re-ranked in half precision, the column's type from layout 3; on a layout-2
 * database (full precision, not yet migrated by a writer) the cast makes the same comparison.
 * `earlierGraph`: order by the expression of an earlier release's graph (`walksEarlierGraph`).
 */
export function semanticSql(dimension: number, earlierGraph = false): string {
  const d = dimensionOf(dimension);
  const expression = earlierGraph && d <= MAX_FULL_HNSW_DIMENSION ? fullPrecision : indexed;
  const order = `${expression(d, 'v.embedding')} <=> ${expression(d, '$2::vector')}`;
  return `WITH candidates AS MATERIALIZED (
      SELECT v.hash, v.embedding FROM cadenza_vectors v
      WHERE v.model_id = $1 AND vector_dims(v.embedding) = ${d}
        AND EXISTS (SELECT 1 FROM cadenza_chunks c JOIN cadenza_entries e ON e.blob_id = c.blob_id
          WHERE c.hash = v.hash AND e.snapshot_id IN ($3, $4)
            AND (e.snapshot_id = $3 OR NOT EXISTS (SELECT 1 FROM cadenza_entries o WHERE o.snapshot_id = $3 AND o.path = e.path)))
      ORDER BY ${order}
      LIMIT $5)
    SELECT e.path, c.start_line, c.end_line, 1 - (v.embedding::halfvec <=> $2::halfvec) AS score
    FROM candidates v JOIN cadenza_chunks c ON c.hash = v.hash
    JOIN cadenza_entries e ON e.blob_id = c.blob_id AND e.snapshot_id IN ($3, $4)
      AND (e.snapshot_id = $3 OR NOT EXISTS (SELECT 1 FROM cadenza_entries o WHERE o.snapshot_id = $3 AND o.path = e.path))
    ORDER BY v.embedding::halfvec <=> $2::halfvec, e.path, c.start_line
    LIMIT $6`;
}

/**
 * Search settings, local to the read-only transaction: `hnsw.ef_search` $1 (Cadenza's walk), or wider when
 * the session already has a wider one, at most $2 (pgvector's most): a team sets that for every editor with
 * `ALTER ROLE cadenza_reader SET hnsw.ef_search = 800` (docs/team-index.md; a value that is not a plain number is
 * ignored, so a typo in it cannot break searches); iterative scan so the snapshot filter cannot starve the
 * index; and no sequential scans, because the planner underestimates the partial index's rows and
 * otherwise sorts every vector of the model (seen with EXPLAIN at 1,500 chunks). Returns the walk's width
 * as `ef_search`.
 */
export const SEARCH_SETTINGS_SQL = `SELECT
    set_config('hnsw.ef_search', LEAST($2::int, GREATEST($1::int, CASE WHEN session ~ '^[0-9]{1,6}$' THEN session::int ELSE 0 END))::text, true) AS ef_search,
    set_config('hnsw.iterative_scan', 'relaxed_order', true) AS iterative_scan,
    set_config('enable_seqscan', 'off', true) AS seqscan
  FROM current_setting('hnsw.ef_search', true) AS session`;

/**
 * Keyword ranking: $1 snapshot, $2 its base (0 when none), $3 tsquery, $4 limit, $5 how many matches
 * are ranked at most. The matches come from the GIN index on `terms` (chunks of every blob), each
 * joined to the snapshot's visible paths of its blob; ranking is bounded by $5 because PostgreSQL's
 * full-text ranking cannot prune (a query word found in half of a million chunks would otherwise
 * rank half a million rows). The caller asks with every word AND-ed first, then OR-ed.
 */
export const KEYWORD_SQL = `WITH matches AS MATERIALIZED (
    SELECT e.path, c.start_line, c.end_line, c.terms FROM cadenza_chunks c
    JOIN cadenza_entries e ON e.blob_id = c.blob_id AND e.snapshot_id IN ($1, $2)
      AND (e.snapshot_id = $1 OR NOT EXISTS (SELECT 1 FROM cadenza_entries o WHERE o.snapshot_id = $1 AND o.path = e.path))
    WHERE c.terms @@ $3::tsquery LIMIT $5)
  SELECT path, start_line, end_line, ts_rank(terms, $3::tsquery, 1) AS score
  FROM matches ORDER BY score DESC, path, start_line LIMIT $4`;

/**
 * PostgreSQL's statistics of the chunks' terms: the most common lexemes with the share of chunks holding
 * each (tsvector's element statistics, from ANALYZE), and the table's row estimate. Empty when the table
 * was never analysed.
 */
export const COMMON_LEXEMES_SQL = `SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs, c.reltuples AS chunks
  FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'cadenza_chunks' AND s.attname = 'terms'
  WHERE c.oid = to_regclass('cadenza_chunks')`;

/**
 * How many keyword matches are ranked at most (see KEYWORD_SQL); a word matching more chunks than this also
 * leaves the any-word pass (PgTeamIndex). Why 500: docs/decisions/0008-team-index-keyword-lists.md.
 */
export const KEYWORD_RANK_CAP = 500;

/** Planner statistics after a run, so searches use the HNSW and GIN indexes (without them the planner sorts every vector). */
export const ANALYZE_SQL = 'ANALYZE cadenza_vectors, cadenza_chunks, cadenza_blobs, cadenza_entries, cadenza_snapshots';

/**
 * Exact identifiers: $1 snapshot, $2 its base (0 when none), $3 text[] of identifiers as tsquery lexemes,
 * $4 the tsquery asked (all of them, or any), $5 limit, $6 how many matches are ranked at most (as in
 * KEYWORD_SQL: an identifier a monorepo uses everywhere can match tens of thousands of chunks;
 * docs/decisions/0008-team-index-keyword-lists.md). Most identifiers first.
 */
export const EXACT_SQL = `WITH matches AS MATERIALIZED (
    SELECT e.path, c.start_line, c.end_line, c.terms FROM cadenza_chunks c
    JOIN cadenza_entries e ON e.blob_id = c.blob_id AND e.snapshot_id IN ($1, $2)
      AND (e.snapshot_id = $1 OR NOT EXISTS (SELECT 1 FROM cadenza_entries o WHERE o.snapshot_id = $1 AND o.path = e.path))
    WHERE c.terms @@ $4::tsquery LIMIT $6)
  SELECT path, start_line, end_line, (SELECT count(*) FROM unnest($3::text[]) AS i(q) WHERE terms @@ i.q::tsquery) AS hits
  FROM matches ORDER BY hits DESC, ts_rank(terms, $4::tsquery) DESC, path, start_line LIMIT $5`;

export const MODEL_SELECT_SQL = 'SELECT id, dimension FROM cadenza_models WHERE name = $1';
export const MODEL_INSERT_SQL = 'INSERT INTO cadenza_models (name, dimension) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING';

/** $1 repository, $2 commit, $3 model id: the snapshot being written, if it exists. */
export const SNAPSHOT_SELECT_SQL = 'SELECT id, base_id, chunker_version FROM cadenza_snapshots WHERE repository = $1 AND commit_id = $2 AND model_id = $3';
/**
 * The snapshot a new commit starts from: the newest complete one of the repository, model ($2) and
 * chunker version ($3), with how many entries it and its base hold.
 */
export const SNAPSHOT_PARENT_SQL = `SELECT s.id, s.base_id,
    (SELECT count(*) FROM cadenza_entries e WHERE e.snapshot_id = s.id) AS own,
    (SELECT count(*) FROM cadenza_entries e WHERE e.snapshot_id = s.base_id) AS base
  FROM cadenza_snapshots s WHERE s.repository = $1 AND s.model_id = $2 AND s.chunker_version = $3 AND s.complete
  ORDER BY s.updated_at DESC LIMIT 1`;
/** $1 repository, $2 commit, $3 model, $4 chunker version, $5 base (null: a full snapshot). */
export const SNAPSHOT_INSERT_SQL = `INSERT INTO cadenza_snapshots (repository, commit_id, model_id, chunker_version, base_id) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (repository, commit_id, model_id) DO NOTHING RETURNING id`;
/** A delta snapshot $1 starts as a copy of its parent $2's delta (same base): entry rows only, copied inside the database. */
export const ENTRIES_COPY_SQL = `INSERT INTO cadenza_entries (snapshot_id, path, blob_id, size, mtime_ms)
  SELECT $1, path, blob_id, size, mtime_ms FROM cadenza_entries WHERE snapshot_id = $2`;
/** A full snapshot $1 starts as its parent $2's visible files ($3 the parent's base, 0 when none). */
export const ENTRIES_FLATTEN_SQL = `INSERT INTO cadenza_entries (snapshot_id, path, blob_id, size, mtime_ms)
  SELECT $1, e.path, e.blob_id, e.size, e.mtime_ms FROM cadenza_entries e
  WHERE e.snapshot_id IN ($2, $3) AND e.blob_id IS NOT NULL
    AND (e.snapshot_id = $2 OR NOT EXISTS (SELECT 1 FROM cadenza_entries o WHERE o.snapshot_id = $2 AND o.path = e.path))`;
/** A snapshot whose chunker version changed is emptied and made full: $1 id, $2 the new version. */
export const SNAPSHOT_RESET_SQL = 'DELETE FROM cadenza_entries WHERE snapshot_id = $1';
export const SNAPSHOT_VERSION_SQL = 'UPDATE cadenza_snapshots SET chunker_version = $2, base_id = NULL, complete = false WHERE id = $1';
export const SNAPSHOT_STATE_SQL = 'UPDATE cadenza_snapshots SET complete = $2, updated_at = now() WHERE id = $1';
/** $1 repository, $2 model name, $3 commit or null for the newest complete snapshot. */
export const SNAPSHOT_FIND_SQL = `SELECT s.id, s.base_id, s.commit_id, s.updated_at, s.complete, m.id AS model_id, m.dimension
  FROM cadenza_snapshots s JOIN cadenza_models m ON m.id = s.model_id
  WHERE s.repository = $1 AND m.name = $2 AND ($3::text IS NULL OR s.commit_id = $3) AND (s.complete OR $3::text IS NOT NULL)
  ORDER BY s.complete DESC, s.updated_at DESC LIMIT 1`;

/** The entries of a snapshot $1 and of its base $2 (0 when none), with their blobs' content hashes (null: deleted). */
export const ENTRIES_SELECT_SQL = `SELECT e.snapshot_id, e.path, e.blob_id, b.hash, e.size, e.mtime_ms
  FROM cadenza_entries e LEFT JOIN cadenza_blobs b ON b.id = e.blob_id WHERE e.snapshot_id IN ($1, $2)`;
/** The chunks of every blob the snapshot $1 or its base $2 lists. */
export const BLOB_CHUNKS_SELECT_SQL = `SELECT c.blob_id, c.start_line, c.end_line, c.hash FROM cadenza_chunks c
  WHERE c.blob_id IN (SELECT blob_id FROM cadenza_entries WHERE snapshot_id IN ($1, $2) AND blob_id IS NOT NULL)
  ORDER BY c.blob_id, c.start_line`;
/** Known hashes of a model, read in pages: $1 model, $2 after this hash, $3 page size. */
export const HASHES_PAGE_SQL = 'SELECT hash FROM cadenza_vectors WHERE model_id = $1 AND hash > $2 ORDER BY hash LIMIT $3';

export const VECTORS_INSERT_SQL = `INSERT INTO cadenza_vectors (model_id, hash, embedding)
  SELECT $1, t.hash, t.embedding::halfvec FROM unnest($2::text[], $3::text[]) AS t(hash, embedding)
  ON CONFLICT (model_id, hash) DO NOTHING`;
/**
 * New blobs: $1 content hashes, $2 chunker version. Returns the ones this transaction created, whose
 * chunks it must insert; a blob another run created is only ever visible with its chunks.
 */
export const BLOBS_INSERT_SQL = `INSERT INTO cadenza_blobs (hash, chunker_version) SELECT h, $2 FROM unnest($1::text[]) AS h
  ON CONFLICT (hash, chunker_version) DO NOTHING RETURNING id, hash`;
export const BLOBS_SELECT_SQL = 'SELECT id, hash FROM cadenza_blobs WHERE chunker_version = $2 AND hash = ANY($1::text[])';
/** A new blob's chunks; an exact repeat (same lines and text, as an older chunker could emit) is stored once. */
export const CHUNKS_INSERT_SQL = `INSERT INTO cadenza_chunks (blob_id, start_line, end_line, hash, body, terms)
  SELECT c.blob, c.s, c.e, c.hash, c.body, c.terms::tsvector
  FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[]) AS c(blob, s, e, hash, body, terms)
  ON CONFLICT DO NOTHING`;
/** Sets a snapshot $1's entries: paths, blob ids (null: deleted relative to the base), sizes, mtimes. */
export const ENTRIES_UPSERT_SQL = `INSERT INTO cadenza_entries (snapshot_id, path, blob_id, size, mtime_ms)
  SELECT $1, f.path, f.blob, f.size, f.mtime FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::float8[]) AS f(path, blob, size, mtime)
  ON CONFLICT (snapshot_id, path) DO UPDATE SET blob_id = EXCLUDED.blob_id, size = EXCLUDED.size, mtime_ms = EXCLUDED.mtime_ms`;
export const ENTRIES_DELETE_SQL = 'DELETE FROM cadenza_entries WHERE snapshot_id = $1 AND path = ANY($2::text[])';
