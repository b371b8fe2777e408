// Every statement the team index sends. Values always travel as parameters ($1, $2, ...); the only
// text ever put into SQL is a vector dimension, an integer checked by `dimensionOf`, because
// PostgreSQL cannot take a type modifier or an index expression as a parameter.

/** The schema, created by the indexer (the extension's role needs only SELECT). Idempotent. */
export const SCHEMA_SQL: readonly string[] = [
  'CREATE EXTENSION IF NOT EXISTS vector',
  `CREATE TABLE IF NOT EXISTS cadenza_models (
     id serial PRIMARY KEY,
     name text NOT NULL UNIQUE,
     dimension integer NOT NULL CHECK (dimension > 0))`,
  `CREATE TABLE IF NOT EXISTS cadenza_snapshots (
     id serial PRIMARY KEY,
     repository text NOT NULL,
     commit_id text NOT NULL,
     model_id integer NOT NULL REFERENCES cadenza_models (id),
     chunker_version bigint NOT NULL,
     complete boolean NOT NULL DEFAULT false,
     updated_at timestamptz NOT NULL DEFAULT now(),
     UNIQUE (repository, commit_id, model_id))`,
  `CREATE TABLE IF NOT EXISTS cadenza_files (
     snapshot_id integer NOT NULL REFERENCES cadenza_snapshots (id) ON DELETE CASCADE,
     path text NOT NULL,
     hash text NOT NULL,
     size bigint NOT NULL,
     mtime_ms double precision NOT NULL,
     PRIMARY KEY (snapshot_id, path))`,
  `CREATE TABLE IF NOT EXISTS cadenza_chunks (
     snapshot_id integer NOT NULL,
     path text NOT NULL,
     start_line integer NOT NULL,
     end_line integer NOT NULL,
     hash text NOT NULL,
     body text NOT NULL,
     terms tsvector NOT NULL,
     PRIMARY KEY (snapshot_id, path, start_line, end_line),
     FOREIGN KEY (snapshot_id, path) REFERENCES cadenza_files (snapshot_id, path) ON DELETE CASCADE)`,
  'CREATE INDEX IF NOT EXISTS cadenza_chunks_terms ON cadenza_chunks USING gin (terms)',
  'CREATE INDEX IF NOT EXISTS cadenza_chunks_hash ON cadenza_chunks (snapshot_id, hash)',
  // Vectors are keyed by model and chunk hash only: identical chunks in any repository or branch
  // are embedded once. Results never mix, because search reaches vectors through one snapshot's chunks.
  `CREATE TABLE IF NOT EXISTS cadenza_vectors (
     model_id integer NOT NULL REFERENCES cadenza_models (id),
     hash text NOT NULL,
     embedding vector NOT NULL,
     PRIMARY KEY (model_id, hash))`,
];

/** One schema change at a time when several CI jobs start together (a fixed advisory-lock key). */
export const SCHEMA_LOCK_SQL = 'SELECT pg_advisory_lock(727274)';
export const SCHEMA_UNLOCK_SQL = 'SELECT pg_advisory_unlock(727274)';

/** HNSW indexes a `vector` up to 2,000 dimensions and a `halfvec` up to 4,000. */
export const MAX_FULL_HNSW_DIMENSION = 2000;
export const MAX_HALF_HNSW_DIMENSION = 4000;

/** A dimension fit to be written into SQL: an integer in pgvector's range, or a thrown error. */
export function dimensionOf(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 16000) throw new RangeError(`Not a vector dimension: ${String(value)}`);
  return value;
}

/**
 * The indexed expression for a dimension: the full vector up to 2,000 dimensions; above that its
 * first (up to) 4,000 components as half-precision floats, which HNSW takes. For E5-Mistral's 4,096
 * that keeps 98% of the components, and the candidates are re-ranked by exact cosine on the full
 * vector. (Binary quantisation was measured first: recall@10 0.03 on the emulator's embeddings.)
 */
function indexed(d: number, value: string): string {
  if (d <= MAX_FULL_HNSW_DIMENSION) return `(${value})::vector(${d})`;
  const m = Math.min(d, MAX_HALF_HNSW_DIMENSION);
  return `subvector((${value})::vector(${d}), 1, ${m})::halfvec(${m})`;
}

/** The HNSW index for one dimension, partial so that models of other dimensions share the table. */
export function hnswIndexSql(dimension: number): string {
  const d = dimensionOf(dimension);
  const ops = d <= MAX_FULL_HNSW_DIMENSION ? 'vector_cosine_ops' : 'halfvec_cosine_ops';
  return `CREATE INDEX IF NOT EXISTS cadenza_vectors_hnsw_${d} ON cadenza_vectors USING hnsw ((${indexed(d, 'embedding')}) ${ops}) WHERE vector_dims(embedding) = ${d}`;
}

/**
 * Nearest chunks of one snapshot: $1 model id, $2 query vector, $3 snapshot id, $4 candidates read from
 * the HNSW index, $5 rows returned. The EXISTS filter keeps only vectors this snapshot uses; with
 * pgvector's iterative scan the index keeps reading until enough pass it.
 */
export function semanticSql(dimension: number): string {
  const d = dimensionOf(dimension);
  const order = `${indexed(d, 'v.embedding')} <=> ${indexed(d, '$2::vector')}`;
  return `WITH candidates AS MATERIALIZED (
      SELECT v.hash, v.embedding FROM cadenza_vectors v
      WHERE v.model_id = $1 AND vector_dims(v.embedding) = ${d}
        AND EXISTS (SELECT 1 FROM cadenza_chunks c WHERE c.snapshot_id = $3 AND c.hash = v.hash)
      ORDER BY ${order}
      LIMIT $4)
    SELECT c.path, c.start_line, c.end_line, 1 - (v.embedding <=> $2::vector) AS score
    FROM candidates v JOIN cadenza_chunks c ON c.snapshot_id = $3 AND c.hash = v.hash
    ORDER BY v.embedding <=> $2::vector, c.path, c.start_line
    LIMIT $5`;
}

/**
 * Search settings, local to the read-only transaction: $1 ef_search; iterative scan so the snapshot
 * filter cannot starve the index; and no sequential scans, because the planner underestimates the
 * partial index's rows and otherwise sorts every vector of the model (seen with EXPLAIN at 1,500 chunks).
 */
export const SEARCH_SETTINGS_SQL =
  "SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('enable_seqscan', 'off', true)";

/**
 * Keyword ranking: $1 snapshot, $2 tsquery, $3 limit, $4 how many matches are ranked at most. The
 * matches come from the GIN index on `terms`; ranking is bounded by $4 because PostgreSQL's
 * full-text ranking cannot prune (a query word found in half of a million chunks would otherwise
 * rank half a million rows). The caller asks with every word AND-ed first, then OR-ed.
 */
export const KEYWORD_SQL = `WITH matches AS MATERIALIZED (
    SELECT path, start_line, end_line, terms FROM cadenza_chunks
    WHERE snapshot_id = $1 AND terms @@ $2::tsquery LIMIT $4)
  SELECT path, start_line, end_line, ts_rank(terms, $2::tsquery, 1) AS score
  FROM matches ORDER BY score DESC, path, start_line LIMIT $3`;

/** How many keyword matches are ranked at most (see KEYWORD_SQL). */
export const KEYWORD_RANK_CAP = 2000;

/** Planner statistics after a run, so searches use the HNSW and GIN indexes (without them the planner sorts every vector). */
export const ANALYZE_SQL = 'ANALYZE cadenza_vectors, cadenza_chunks, cadenza_files, cadenza_snapshots';

/** Exact identifiers: $1 snapshot, $2 text[] of identifiers as tsquery lexemes, $3 limit. Most identifiers first. */
export const EXACT_SQL = `SELECT path, start_line, end_line,
    (SELECT count(*) FROM unnest($2::text[]) AS i(q) WHERE terms @@ i.q::tsquery) AS hits
  FROM cadenza_chunks WHERE snapshot_id = $1 AND terms @@ $3::tsquery
  ORDER BY hits DESC, ts_rank(terms, $3::tsquery) DESC, path, start_line LIMIT $4`;

export const MODEL_SELECT_SQL = 'SELECT id, dimension FROM cadenza_models WHERE name = $1';
export const MODEL_INSERT_SQL = 'INSERT INTO cadenza_models (name, dimension) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING';

export const SNAPSHOT_UPSERT_SQL = `INSERT INTO cadenza_snapshots (repository, commit_id, model_id, chunker_version) VALUES ($1, $2, $3, $4)
  ON CONFLICT (repository, commit_id, model_id) DO UPDATE SET updated_at = now() RETURNING id, chunker_version`;
export const SNAPSHOT_RESET_SQL = 'DELETE FROM cadenza_files WHERE snapshot_id = $1';
export const SNAPSHOT_VERSION_SQL = 'UPDATE cadenza_snapshots SET chunker_version = $2, complete = false WHERE id = $1';
export const SNAPSHOT_STATE_SQL = 'UPDATE cadenza_snapshots SET complete = $2, updated_at = now() WHERE id = $1';
/** $1 repository, $2 model name, $3 commit or null for the newest complete snapshot. */
export const SNAPSHOT_FIND_SQL = `SELECT s.id, s.commit_id, s.updated_at, s.complete, m.id AS model_id, m.dimension
  FROM cadenza_snapshots s JOIN cadenza_models m ON m.id = s.model_id
  WHERE s.repository = $1 AND m.name = $2 AND ($3::text IS NULL OR s.commit_id = $3) AND (s.complete OR $3::text IS NOT NULL)
  ORDER BY s.complete DESC, s.updated_at DESC LIMIT 1`;

export const FILES_SELECT_SQL = 'SELECT path, hash, size, mtime_ms FROM cadenza_files WHERE snapshot_id = $1';
export const CHUNKS_SELECT_SQL = 'SELECT path, start_line, end_line, hash FROM cadenza_chunks WHERE snapshot_id = $1 ORDER BY path, start_line';
/** Known hashes of a model, read in pages: $1 model, $2 after this hash, $3 page size. */
export const HASHES_PAGE_SQL = 'SELECT hash FROM cadenza_vectors WHERE model_id = $1 AND hash > $2 ORDER BY hash LIMIT $3';

export const VECTORS_INSERT_SQL = `INSERT INTO cadenza_vectors (model_id, hash, embedding)
  SELECT $1, t.hash, t.embedding::vector FROM unnest($2::text[], $3::text[]) AS t(hash, embedding)
  ON CONFLICT (model_id, hash) DO NOTHING`;
export const FILES_DELETE_SQL = 'DELETE FROM cadenza_files WHERE snapshot_id = $1 AND path = ANY($2::text[])';
export const FILES_INSERT_SQL = `INSERT INTO cadenza_files (snapshot_id, path, hash, size, mtime_ms)
  SELECT $1, f.path, f.hash, f.size, f.mtime FROM unnest($2::text[], $3::text[], $4::bigint[], $5::float8[]) AS f(path, hash, size, mtime)`;
export const CHUNKS_INSERT_SQL = `INSERT INTO cadenza_chunks (snapshot_id, path, start_line, end_line, hash, body, terms)
  SELECT $1, c.path, c.s, c.e, c.hash, c.body, c.terms::tsvector
  FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[]) AS c(path, s, e, hash, body, terms)`;

export const COUNTS_SQL = `SELECT (SELECT count(*) FROM cadenza_files WHERE snapshot_id = $1) AS files,
  (SELECT count(*) FROM cadenza_chunks WHERE snapshot_id = $1) AS chunks`;
