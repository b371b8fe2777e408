import type { Pool } from 'pg';
import { GRAPH_SIZE_SQL, VECTOR_INDEXES_SQL, graphElementBytes, hnswIndexSql, hnswName, obsoleteHnswSql } from './pgSql';

// The team index's schema and its migrations. Every statement is a constant (no value is ever put
// into this text). Layout version 2: content-addressed file contents shared by every commit, and
// snapshots stored as a full manifest or as a delta (overlay) on one full snapshot, so indexing a new
// commit writes rows only for the files it changed (docs/decisions/0003-team-index-snapshots-as-deltas.md).
// Layout 3: the vectors are kept as `halfvec` (half-precision floats; docs/decisions/0004-team-index-half-precision-vectors.md),
// and chunks are keyed by line range and hash, so the pieces of one long line can all be stored.

/** The layout this code reads and writes, recorded in `cadenza_meta`. */
export const SCHEMA_VERSION = 3;

/** One schema change at a time when several CI jobs start together (a fixed advisory-lock key). */
const SCHEMA_LOCK_SQL = 'SELECT pg_advisory_lock(727274)';
const SCHEMA_UNLOCK_SQL = 'SELECT pg_advisory_unlock(727274)';

/** The tables of layout 3, created when missing. Idempotent. */
const SCHEMA_SQL: readonly string[] = [
  'CREATE EXTENSION IF NOT EXISTS vector',
  `CREATE TABLE IF NOT EXISTS cadenza_meta (
     key text PRIMARY KEY,
     value text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS cadenza_models (
     id serial PRIMARY KEY,
     name text NOT NULL UNIQUE,
     dimension integer NOT NULL CHECK (dimension > 0))`,
  // base_id: null for a full snapshot (its entries list every file); else the full snapshot this one
  // overlays (its entries list only the paths that differ from the base, a null blob for a deleted file).
  `CREATE TABLE IF NOT EXISTS cadenza_snapshots (
     id serial PRIMARY KEY,
     repository text NOT NULL,
     commit_id text NOT NULL,
     model_id integer NOT NULL REFERENCES cadenza_models (id),
     chunker_version bigint NOT NULL,
     complete boolean NOT NULL DEFAULT false,
     updated_at timestamptz NOT NULL DEFAULT now(),
     UNIQUE (repository, commit_id, model_id))`,
  'ALTER TABLE cadenza_snapshots ADD COLUMN IF NOT EXISTS base_id integer REFERENCES cadenza_snapshots (id)',
  // A file's content as chunked by one chunker version, whatever its path, commit or repository.
  `CREATE TABLE IF NOT EXISTS cadenza_blobs (
     id bigserial PRIMARY KEY,
     hash text NOT NULL,
     chunker_version bigint NOT NULL,
     UNIQUE (hash, chunker_version))`,
  // A blob's chunks; a blob row is only ever committed together with all of its chunks. The chunk hash
  // is part of the key: the pieces of a line longer than a chunk share its line range.
  `CREATE TABLE IF NOT EXISTS cadenza_chunks (
     blob_id bigint NOT NULL REFERENCES cadenza_blobs (id) ON DELETE CASCADE,
     start_line integer NOT NULL,
     end_line integer NOT NULL,
     hash text NOT NULL,
     body text NOT NULL,
     terms tsvector NOT NULL,
     PRIMARY KEY (blob_id, start_line, end_line, hash))`,
  // A snapshot's manifest: which blob each path holds (null: deleted relative to the base).
  `CREATE TABLE IF NOT EXISTS cadenza_entries (
     snapshot_id integer NOT NULL REFERENCES cadenza_snapshots (id) ON DELETE CASCADE,
     path text NOT NULL,
     blob_id bigint REFERENCES cadenza_blobs (id),
     size bigint NOT NULL,
     mtime_ms double precision NOT NULL,
     PRIMARY KEY (snapshot_id, path))`,
  'CREATE INDEX IF NOT EXISTS cadenza_entries_blob ON cadenza_entries (blob_id, snapshot_id)',
  'CREATE INDEX IF NOT EXISTS cadenza_chunks_terms ON cadenza_chunks USING gin (terms)',
  'CREATE INDEX IF NOT EXISTS cadenza_chunks_hash ON cadenza_chunks (hash)',
  // Vectors are keyed by model and chunk hash only: identical chunks in any repository or branch
  // are embedded once. Results never mix, because search reaches vectors through one snapshot's entries.
  `CREATE TABLE IF NOT EXISTS cadenza_vectors (
     model_id integer NOT NULL REFERENCES cadenza_models (id),
     hash text NOT NULL,
     embedding halfvec NOT NULL,
     PRIMARY KEY (model_id, hash))`,
  `INSERT INTO cadenza_meta (key, value) VALUES ('schema_version', '3') ON CONFLICT (key) DO NOTHING`,
];

/** The vectors' column type: `vector` up to layout 2, `halfvec` from layout 3. */
export const EMBEDDING_TYPE_SQL =
  "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'cadenza_vectors'::regclass AND attname = 'embedding'";
/**
 * Before layout 2 → 3: how many vectors, the memory their HNSW graphs take to build (about the indexed
 * value plus 300 B of neighbours each: 4.5 GB for 1,000,000 folded 4,096-d vectors), and the session's
 * maintenance_work_mem, below which PostgreSQL builds the graph on disk, far slower.
 */
const VECTOR_COUNT_SQL = `SELECT count(*) AS n,
    coalesce(sum(CASE WHEN m.dimension <= 2000 THEN 4 * m.dimension WHEN m.dimension % 2048 = 0 THEN 4096 ELSE 2 * least(m.dimension, 4000) END + 300), 0) AS need,
    pg_size_bytes(current_setting('maintenance_work_mem')) AS have
  FROM cadenza_vectors v JOIN cadenza_models m ON m.id = v.model_id`;
const gb = (bytes: number): string => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / 1e6))} MB`);

/** What to tell a run whose session has less maintenance_work_mem (`have`) than a graph build needs (`need`), in bytes; undefined when enough. */
function graphMemoryAdvice(need: number, have: number): string | undefined {
  if (need <= have) return undefined;
  const setting = need * 1.2 >= 1e9 ? `${Math.ceil((need * 1.2) / 1e9)}GB` : `${Math.ceil((need * 1.2) / 1e6)}MB`;
  return `The graphs need about ${gb(need)} of maintenance_work_mem to be built in memory, and this session has ${gb(have)}, so PostgreSQL builds them on disk, which is far slower. If the server has the memory to spare, stop this run and start cadenza-index again with PGOPTIONS='-c maintenance_work_mem=${setting}'.`;
}
/**
 * Layout 2 → 3: the vectors rewritten in half precision (PostgreSQL rewrites the table and rebuilds its
 * indexes, HNSW graphs included, in the same transaction; searches wait for it or time out and fall back
 * to the local index). A one-off, run by the first `cadenza-index` of this release.
 */
const MIGRATE_V2_SQL: readonly string[] = [
  'ALTER TABLE cadenza_vectors ALTER COLUMN embedding TYPE halfvec USING embedding::halfvec',
  // Layout 2 keyed chunks by line range alone, so a file with a line longer than a chunk could not be stored.
  // (Found by its columns: after a layout-1 migration the new table's key has another name.)
  `DO $$
   DECLARE pk text;
   BEGIN
     SELECT conname INTO pk FROM pg_constraint c WHERE c.conrelid = 'cadenza_chunks'::regclass AND c.contype = 'p'
       AND NOT EXISTS (SELECT 1 FROM unnest(c.conkey) AS k(n) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n WHERE a.attname = 'hash');
     IF pk IS NOT NULL THEN
       EXECUTE format('ALTER TABLE cadenza_chunks DROP CONSTRAINT %I, ADD PRIMARY KEY (blob_id, start_line, end_line, hash)', pk);
     END IF;
   END $$`,
  "UPDATE cadenza_meta SET value = '3' WHERE key = 'schema_version'",
];

/** The recorded layout version (layout 1, before `cadenza_meta`, had `cadenza_files` and chunks per snapshot). */
const SCHEMA_VERSION_SQL = "SELECT value AS version FROM cadenza_meta WHERE key = 'schema_version'";
const META_EXISTS_SQL = "SELECT to_regclass('cadenza_meta') IS NOT NULL AS present";
const V1_EXISTS_SQL = "SELECT to_regclass('cadenza_files') IS NOT NULL AS present";

/**
 * Layout 1 → 2, in one transaction, before SCHEMA_SQL: the per-snapshot tables are renamed away (with
 * their indexes, whose names layout 2 reuses), layout 2 is created, every snapshot becomes a full one,
 * file contents become blobs (one per content hash and chunker version, its chunks copied once), the
 * roles that could read the old tables get SELECT on the new ones, and the old tables are dropped.
 */
const MIGRATE_V1_RENAME_SQL: readonly string[] = [
  'ALTER TABLE cadenza_chunks RENAME TO cadenza_chunks_v1',
  'ALTER TABLE cadenza_files RENAME TO cadenza_files_v1',
  'ALTER INDEX IF EXISTS cadenza_chunks_terms RENAME TO cadenza_chunks_v1_terms',
  'ALTER INDEX IF EXISTS cadenza_chunks_hash RENAME TO cadenza_chunks_v1_hash',
];
const MIGRATE_V1_COPY_SQL: readonly string[] = [
  `INSERT INTO cadenza_blobs (hash, chunker_version)
     SELECT DISTINCT f.hash, s.chunker_version FROM cadenza_files_v1 f JOIN cadenza_snapshots s ON s.id = f.snapshot_id
     ON CONFLICT (hash, chunker_version) DO NOTHING`,
  `INSERT INTO cadenza_chunks (blob_id, start_line, end_line, hash, body, terms)
     SELECT DISTINCT ON (b.id, c.start_line, c.end_line) b.id, c.start_line, c.end_line, c.hash, c.body, c.terms
     FROM cadenza_chunks_v1 c
     JOIN cadenza_files_v1 f ON f.snapshot_id = c.snapshot_id AND f.path = c.path
     JOIN cadenza_snapshots s ON s.id = f.snapshot_id
     JOIN cadenza_blobs b ON b.hash = f.hash AND b.chunker_version = s.chunker_version
     ORDER BY b.id, c.start_line, c.end_line
     ON CONFLICT DO NOTHING`,
  `INSERT INTO cadenza_entries (snapshot_id, path, blob_id, size, mtime_ms)
     SELECT f.snapshot_id, f.path, b.id, f.size, f.mtime_ms
     FROM cadenza_files_v1 f JOIN cadenza_snapshots s ON s.id = f.snapshot_id
     JOIN cadenza_blobs b ON b.hash = f.hash AND b.chunker_version = s.chunker_version`,
  `DO $$
   DECLARE r record;
   BEGIN
     FOR r IN SELECT DISTINCT grantee FROM information_schema.role_table_grants
              WHERE table_name = 'cadenza_chunks_v1' AND privilege_type = 'SELECT' AND grantee <> current_user LOOP
       IF r.grantee = 'PUBLIC' THEN
         EXECUTE 'GRANT SELECT ON cadenza_meta, cadenza_blobs, cadenza_chunks, cadenza_entries TO PUBLIC';
       ELSE
         EXECUTE format('GRANT SELECT ON cadenza_meta, cadenza_blobs, cadenza_chunks, cadenza_entries TO %I', r.grantee);
       END IF;
     END LOOP;
   END $$`,
  'DROP TABLE cadenza_chunks_v1',
  'DROP TABLE cadenza_files_v1',
];

/**
 * Creates or migrates the schema (tables, extension); needs a role that may create them. Idempotent,
 * one caller at a time. Throws on a layout newer than this code's.
 */
export async function ensureSchema(pool: Pool, log: (message: string) => void = () => undefined): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(SCHEMA_LOCK_SQL);
    try {
      const meta = await client.query<{ present: boolean }>(META_EXISTS_SQL);
      const state = meta.rows[0]?.present ? (await client.query<{ version: string }>(SCHEMA_VERSION_SQL)).rows[0] : undefined;
      if (state?.version && Number(state.version) > SCHEMA_VERSION)
        throw new Error(`The team index database has layout ${state.version}; this Cadenza reads layout ${SCHEMA_VERSION} or older: update Cadenza.`);
      const v1 = (await client.query<{ present: boolean }>(V1_EXISTS_SQL)).rows[0]?.present === true && !state?.version;
      await client.query('BEGIN');
      try {
        if (v1) for (const sql of MIGRATE_V1_RENAME_SQL) await client.query(sql);
        for (const sql of SCHEMA_SQL) await client.query(sql);
        if (v1) for (const sql of MIGRATE_V1_COPY_SQL) await client.query(sql);
        if ((await client.query<{ type: string }>(EMBEDDING_TYPE_SQL)).rows[0]?.type === 'vector') {
          const size = (await client.query<{ n: string; need: string; have: string }>(VECTOR_COUNT_SQL)).rows[0];
          const need = Number(size?.need ?? 0);
          const have = Number(size?.have ?? 0);
          log(
            `Updating the team index database to layout ${SCHEMA_VERSION}: ${size?.n ?? 0} vectors rewritten in half precision, and their search graphs rebuilt (once; searches wait until it is done) …`,
          );
          const advice = graphMemoryAdvice(need, have);
          if (advice) log(advice);
          for (const sql of MIGRATE_V2_SQL) await client.query(sql);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      await client.query(SCHEMA_UNLOCK_SQL);
    }
  } finally {
    client.release();
  }
}

/**
 * The vector index this release searches for a model's dimension, built once on a database an earlier
 * release indexed (saying so first when there are vectors to put in it, with the memory advice), then the
 * earlier graphs dropped. Searches walk the earlier graph until then (the same indexed expression).
 */
export async function ensureGraph(pool: Pool, modelId: number, dimension: number, model: string, log: (message: string) => void): Promise<void> {
  const names = new Set((await pool.query<{ indexname: string }>(VECTOR_INDEXES_SQL)).rows.map((r) => r.indexname));
  if (!names.has(hnswName(dimension))) {
    const size = (await pool.query<{ n: string; have: string }>(GRAPH_SIZE_SQL, [modelId])).rows[0];
    const n = Number(size?.n ?? 0);
    if (n > 0) {
      log(`Building this release's search graph for the ${n} vectors of ${model} (once; searches use the previous graph until it is done) …`);
      const advice = graphMemoryAdvice(n * graphElementBytes(dimension), Number(size?.have ?? 0));
      if (advice) log(advice);
    }
  }
  await pool.query(hnswIndexSql(dimension));
  await pool.query(obsoleteHnswSql(dimension));
}
