// The team index's snapshot rows as a run writes them: finding or creating a commit's snapshot (a delta on
// its parent's base, or full), and the blobs with their chunks a flush needs. PgRunStore keeps the state.
import type { Pool, PoolClient } from 'pg';
import type { FileRecord } from '../types';
import {
  BLOBS_INSERT_SQL,
  BLOBS_SELECT_SQL,
  CHUNKS_INSERT_SQL,
  ENTRIES_COPY_SQL,
  ENTRIES_FLATTEN_SQL,
  SNAPSHOT_INSERT_SQL,
  SNAPSHOT_PARENT_SQL,
  SNAPSHOT_RESET_SQL,
  SNAPSHOT_SELECT_SQL,
  SNAPSHOT_VERSION_SQL,
} from './pgSql';
import { pgText, tsvectorLiteral } from './pgText';

/** Which snapshot a writer fills: one repository at one commit, embedded by one model. */
export interface SnapshotKey {
  readonly repository: string;
  readonly commit: string;
  readonly model: string;
}

/**
 * A new commit's snapshot is a delta on its parent's base while the delta stays under this fraction of
 * the base's files; past it the new snapshot is written full (copied inside the database), so a search
 * never reads more than one delta and one base.
 */
export const MAX_DELTA_FRACTION = 1 / 8;

/** A chunk's lines and text, as the chunker gave them. */
export interface ChunkText {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/** `work` in one transaction (read-only when `readOnly`) on one pooled connection; rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, readOnly = false): Promise<T> {
  const client = await pool.connect();
  try {
    if (readOnly) await client.query('BEGIN READ ONLY');
    else await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Finds or creates the snapshot of `key` for `modelId`; a new one starts from its parent's files, copied
 * inside the database. A snapshot of another chunker version is emptied (its chunk boundaries changed).
 * Returns its id and its base's (0 when full).
 */
export async function openSnapshot(pool: Pool, key: SnapshotKey, modelId: number, chunkerVersion: number): Promise<{ id: number; baseId: number }> {
  const { repository, commit } = key;
  return inTransaction(pool, async (client) => {
    const existing = (await client.query<{ id: number; base_id: number | null; chunker_version: string }>(SNAPSHOT_SELECT_SQL, [repository, commit, modelId]))
      .rows[0];
    if (existing) {
      // bigint arrives as a string.
      if (Number(existing.chunker_version) === chunkerVersion) return { id: existing.id, baseId: existing.base_id ?? 0 };
      await client.query(SNAPSHOT_RESET_SQL, [existing.id]);
      await client.query(SNAPSHOT_VERSION_SQL, [existing.id, chunkerVersion]);
      return { id: existing.id, baseId: 0 };
    }
    const parent = (
      await client.query<{ id: number; base_id: number | null; own: string; base: string }>(SNAPSHOT_PARENT_SQL, [repository, modelId, chunkerVersion])
    ).rows[0];
    // A delta on the parent itself when it is full; on the parent's base while the delta stays small; else full.
    const delta = parent && (parent.base_id === null || Number(parent.own) <= Number(parent.base) * MAX_DELTA_FRACTION);
    const base = parent && delta ? (parent.base_id ?? parent.id) : null;
    const created = (await client.query<{ id: number }>(SNAPSHOT_INSERT_SQL, [repository, commit, modelId, chunkerVersion, base])).rows[0];
    if (!created) throw new Error(`Another run created the snapshot ${repository}@${commit} at the same time; run again.`);
    if (parent && parent.base_id !== null) {
      if (delta) await client.query(ENTRIES_COPY_SQL, [created.id, parent.id]);
      else await client.query(ENTRIES_FLATTEN_SQL, [created.id, parent.id, parent.base_id]);
    }
    return { id: created.id, baseId: base ?? 0 };
  });
}

/**
 * The blob id of each file's content, creating the blobs (with their chunks, text and terms) the database
 * lacks; `textsOf` gives a file's chunk texts. Also says how many blobs and chunks it wrote.
 */
export async function writeBlobs(
  client: PoolClient,
  files: readonly FileRecord[],
  chunkerVersion: number,
  textsOf: (path: string) => readonly ChunkText[],
): Promise<{ ids: Map<string, string>; blobs: number; chunks: number }> {
  const hashes = [...new Set(files.map((f) => f.hash))];
  const created = await client.query<{ id: string; hash: string }>(BLOBS_INSERT_SQL, [hashes, chunkerVersion]);
  const ids = new Map<string, string>();
  if (created.rows.length < hashes.length)
    for (const r of (await client.query<{ id: string; hash: string }>(BLOBS_SELECT_SQL, [hashes, chunkerVersion])).rows) ids.set(r.hash, r.id);
  const rows = { blob: [] as string[], s: [] as number[], e: [] as number[], hash: [] as string[], body: [] as string[], terms: [] as string[] };
  const fileOf = new Map(files.map((f) => [f.hash, f]));
  for (const { id, hash } of created.rows) {
    ids.set(hash, id);
    const file = fileOf.get(hash);
    if (!file) continue;
    const texts = textsOf(file.path);
    file.chunks.forEach((chunk, i) => {
      const text = texts[i]?.startLine === chunk.startLine ? (texts[i]?.text ?? '') : '';
      rows.blob.push(id);
      rows.s.push(chunk.startLine);
      rows.e.push(chunk.endLine);
      rows.hash.push(chunk.hash);
      rows.body.push(pgText(text));
      rows.terms.push(tsvectorLiteral(text));
    });
  }
  if (rows.blob.length > 0) await client.query(CHUNKS_INSERT_SQL, [rows.blob, rows.s, rows.e, rows.hash, rows.body, rows.terms]);
  return { ids, blobs: created.rows.length, chunks: rows.blob.length };
}
