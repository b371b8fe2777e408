import type { Pool } from 'pg';

// The team index's schema and its migrations. Every statement is a constant (no value is ever put
// into this text). Layout version 2: content-addressed file contents shared by every commit, and
// snapshots stored as a full manifest or as a delta (overlay) on one full snapshot, so indexing a new
// commit writes rows only for the files it changed (see ARCHITECTURE.md, "A team index").

/** The layout this code reads and writes, recorded in `cadenza_meta`. */
export const SCHEMA_VERSION = 2;

/** One schema change at a time when several CI jobs start together (a fixed advisory-lock key). */
export const SCHEMA_LOCK_SQL = 'SELECT pg_advisory_lock(727274)';
export const SCHEMA_UNLOCK_SQL = 'SELECT pg_advisory_unlock(727274)';

/** The tables of layout 2, created when missing. Idempotent. */
export const SCHEMA_SQL: readonly string[] = [
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
  // A blob's chunks; a blob row is only ever committed together with all of its chunks.
  `CREATE TABLE IF NOT EXISTS cadenza_chunks (
     blob_id bigint NOT NULL REFERENCES cadenza_blobs (id) ON DELETE CASCADE,
     start_line integer NOT NULL,
     end_line integer NOT NULL,
     hash text NOT NULL,
     body text NOT NULL,
     terms tsvector NOT NULL,
     PRIMARY KEY (blob_id, start_line, end_line))`,
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
     embedding vector NOT NULL,
     PRIMARY KEY (model_id, hash))`,
  `INSERT INTO cadenza_meta (key, value) VALUES ('schema_version', '2') ON CONFLICT (key) DO NOTHING`,
];

/** The recorded layout version (layout 1, before `cadenza_meta`, had `cadenza_files` and chunks per snapshot). */
export const SCHEMA_VERSION_SQL = "SELECT value AS version FROM cadenza_meta WHERE key = 'schema_version'";
export const META_EXISTS_SQL = "SELECT to_regclass('cadenza_meta') IS NOT NULL AS present";
export const V1_EXISTS_SQL = "SELECT to_regclass('cadenza_files') IS NOT NULL AS present";

/**
 * Layout 1 → 2, in one transaction, before SCHEMA_SQL: the per-snapshot tables are renamed away (with
 * their indexes, whose names layout 2 reuses), layout 2 is created, every snapshot becomes a full one,
 * file contents become blobs (one per content hash and chunker version, its chunks copied once), the
 * roles that could read the old tables get SELECT on the new ones, and the old tables are dropped.
 */
export const MIGRATE_V1_RENAME_SQL: readonly string[] = [
  'ALTER TABLE cadenza_chunks RENAME TO cadenza_chunks_v1',
  'ALTER TABLE cadenza_files RENAME TO cadenza_files_v1',
  'ALTER INDEX IF EXISTS cadenza_chunks_terms RENAME TO cadenza_chunks_v1_terms',
  'ALTER INDEX IF EXISTS cadenza_chunks_hash RENAME TO cadenza_chunks_v1_hash',
];
export const MIGRATE_V1_COPY_SQL: readonly string[] = [
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
export async function ensureSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(SCHEMA_LOCK_SQL);
    try {
      const meta = await client.query<{ present: boolean }>(META_EXISTS_SQL);
      const state = meta.rows[0]?.present ? (await client.query<{ version: string }>(SCHEMA_VERSION_SQL)).rows[0] : undefined;
      if (state?.version && Number(state.version) > SCHEMA_VERSION) throw new Error(`The team index database has layout ${state.version}; this Cadenza reads layout ${SCHEMA_VERSION} or older: update Cadenza.`);
      const v1 = (await client.query<{ present: boolean }>(V1_EXISTS_SQL)).rows[0]?.present === true && !state?.version;
      await client.query('BEGIN');
      try {
        if (v1) for (const sql of MIGRATE_V1_RENAME_SQL) await client.query(sql);
        for (const sql of SCHEMA_SQL) await client.query(sql);
        if (v1) for (const sql of MIGRATE_V1_COPY_SQL) await client.query(sql);
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
