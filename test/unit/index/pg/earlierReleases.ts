// What earlier releases left in a team index database, for the upgrade tests: their schemas (layouts 1 and 2)
// and the search graphs they built, beside the graphs this release builds in their place.

/** This release's graph for 64-d vectors, and the graphs earlier releases built for them (pgvector's defaults, then m 32 with ef_construction 256, on the vector in full precision). */
export const GRAPH_64 = 'cadenza_vectors_hnsw_64_half_m32_efc512';
export const EARLIER_GRAPHS_64: readonly (readonly [string, string])[] = [
  [
    'cadenza_vectors_hnsw_64',
    'CREATE INDEX cadenza_vectors_hnsw_64 ON cadenza_vectors USING hnsw (((embedding)::vector(64)) vector_cosine_ops) WHERE vector_dims(embedding) = 64',
  ],
  [
    'cadenza_vectors_hnsw_64_m32_efc256',
    'CREATE INDEX cadenza_vectors_hnsw_64_m32_efc256 ON cadenza_vectors USING hnsw (((embedding)::vector(64)) vector_cosine_ops) WITH (m = 32, ef_construction = 256) WHERE vector_dims(embedding) = 64',
  ],
];
/** This release's graph for 4,096-d vectors. */
export const GRAPH_4096 = 'cadenza_vectors_hnsw_4096_fold2048_m32_efc256';
const FOLD_4096 = '((subvector((embedding)::vector(4096), 1, 2048) + subvector((embedding)::vector(4096), 2049, 2048))::halfvec(2048))';
/** The graphs earlier releases built for 4,096-d vectors (pgSql.ts before m 32: pgvector's default settings; then m 32, ef_construction 128). */
export const EARLIER_GRAPHS_4096: readonly (readonly [string, string])[] = [
  [
    'cadenza_vectors_hnsw_4096_fold2048',
    `CREATE INDEX cadenza_vectors_hnsw_4096_fold2048 ON cadenza_vectors USING hnsw (${FOLD_4096} halfvec_cosine_ops) WHERE vector_dims(embedding) = 4096`,
  ],
  [
    'cadenza_vectors_hnsw_4096_fold2048_m32',
    `CREATE INDEX cadenza_vectors_hnsw_4096_fold2048_m32 ON cadenza_vectors USING hnsw (${FOLD_4096} halfvec_cosine_ops) WITH (m = 32, ef_construction = 128) WHERE vector_dims(embedding) = 4096`,
  ],
];

export const EMBEDDING_TYPE_SQL =
  "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'cadenza_vectors'::regclass AND attname = 'embedding'";

/** The schema of layout 2, as the previous release created it (pgSchema.ts before layout 3: full-precision vectors). */
export const LAYOUT_2 = [
  'CREATE EXTENSION IF NOT EXISTS vector',
  'CREATE TABLE cadenza_meta (key text PRIMARY KEY, value text NOT NULL)',
  'CREATE TABLE cadenza_models (id serial PRIMARY KEY, name text NOT NULL UNIQUE, dimension integer NOT NULL CHECK (dimension > 0))',
  `CREATE TABLE cadenza_snapshots (id serial PRIMARY KEY, repository text NOT NULL, commit_id text NOT NULL,
     model_id integer NOT NULL REFERENCES cadenza_models (id), chunker_version bigint NOT NULL, complete boolean NOT NULL DEFAULT false,
     updated_at timestamptz NOT NULL DEFAULT now(), UNIQUE (repository, commit_id, model_id))`,
  'ALTER TABLE cadenza_snapshots ADD COLUMN base_id integer REFERENCES cadenza_snapshots (id)',
  'CREATE TABLE cadenza_blobs (id bigserial PRIMARY KEY, hash text NOT NULL, chunker_version bigint NOT NULL, UNIQUE (hash, chunker_version))',
  `CREATE TABLE cadenza_chunks (blob_id bigint NOT NULL REFERENCES cadenza_blobs (id) ON DELETE CASCADE, start_line integer NOT NULL, end_line integer NOT NULL,
     hash text NOT NULL, body text NOT NULL, terms tsvector NOT NULL, PRIMARY KEY (blob_id, start_line, end_line))`,
  `CREATE TABLE cadenza_entries (snapshot_id integer NOT NULL REFERENCES cadenza_snapshots (id) ON DELETE CASCADE, path text NOT NULL,
     blob_id bigint REFERENCES cadenza_blobs (id), size bigint NOT NULL, mtime_ms double precision NOT NULL, PRIMARY KEY (snapshot_id, path))`,
  'CREATE INDEX cadenza_entries_blob ON cadenza_entries (blob_id, snapshot_id)',
  'CREATE INDEX cadenza_chunks_terms ON cadenza_chunks USING gin (terms)',
  'CREATE INDEX cadenza_chunks_hash ON cadenza_chunks (hash)',
  'CREATE TABLE cadenza_vectors (model_id integer NOT NULL REFERENCES cadenza_models (id), hash text NOT NULL, embedding vector NOT NULL, PRIMARY KEY (model_id, hash))',
  "INSERT INTO cadenza_meta (key, value) VALUES ('schema_version', '2')",
  'CREATE INDEX cadenza_vectors_hnsw_64 ON cadenza_vectors USING hnsw (((embedding)::vector(64)) vector_cosine_ops) WHERE vector_dims(embedding) = 64',
];

/** The schema of layout 1, as the previous release created it (pgSql.ts before layout 2). */
export const LAYOUT_1 = [
  'CREATE EXTENSION IF NOT EXISTS vector',
  'CREATE TABLE cadenza_models (id serial PRIMARY KEY, name text NOT NULL UNIQUE, dimension integer NOT NULL CHECK (dimension > 0))',
  `CREATE TABLE cadenza_snapshots (id serial PRIMARY KEY, repository text NOT NULL, commit_id text NOT NULL,
     model_id integer NOT NULL REFERENCES cadenza_models (id), chunker_version bigint NOT NULL, complete boolean NOT NULL DEFAULT false,
     updated_at timestamptz NOT NULL DEFAULT now(), UNIQUE (repository, commit_id, model_id))`,
  `CREATE TABLE cadenza_files (snapshot_id integer NOT NULL REFERENCES cadenza_snapshots (id) ON DELETE CASCADE, path text NOT NULL,
     hash text NOT NULL, size bigint NOT NULL, mtime_ms double precision NOT NULL, PRIMARY KEY (snapshot_id, path))`,
  `CREATE TABLE cadenza_chunks (snapshot_id integer NOT NULL, path text NOT NULL, start_line integer NOT NULL, end_line integer NOT NULL,
     hash text NOT NULL, body text NOT NULL, terms tsvector NOT NULL, PRIMARY KEY (snapshot_id, path, start_line, end_line),
     FOREIGN KEY (snapshot_id, path) REFERENCES cadenza_files (snapshot_id, path) ON DELETE CASCADE)`,
  'CREATE INDEX cadenza_chunks_terms ON cadenza_chunks USING gin (terms)',
  'CREATE INDEX cadenza_chunks_hash ON cadenza_chunks (snapshot_id, hash)',
  'CREATE TABLE cadenza_vectors (model_id integer NOT NULL REFERENCES cadenza_models (id), hash text NOT NULL, embedding vector NOT NULL, PRIMARY KEY (model_id, hash))',
  'CREATE INDEX cadenza_vectors_hnsw_64 ON cadenza_vectors USING hnsw (((embedding)::vector(64)) vector_cosine_ops) WHERE vector_dims(embedding) = 64',
];
