// The load step of bench/teamIndex/teamIndex: the generated checkout written, read, hashed, chunked and embedded
// (the emulator's deterministic 4,096-d embeddings, in-process) into an empty snapshot in batches with the
// adapter's own INSERT statements, the HNSW index built once after; resumable on a kept database (--keep).
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool, type PoolConfig } from 'pg';
import { chunkerVersion } from '../../src/core/index/chunker';
import { nodeFileSource } from '../../src/core/index/fileSource';
import { PgRunStore } from '../../src/core/index/pg/pgRunStore';
import type { VectorTuning } from '../../src/core/index/pg/pgTeamIndex';
import { EMBEDDING_TYPE_SQL, ensureSchema } from '../../src/core/index/pg/pgSchema';
import {
  ANALYZE_SQL,
  BLOBS_INSERT_SQL,
  BLOBS_SELECT_SQL,
  CHUNKS_INSERT_SQL,
  ENTRIES_UPSERT_SQL,
  SNAPSHOT_STATE_SQL,
  VECTORS_INSERT_SQL,
  graphSettings,
  hnswIndexSql,
  hnswName,
  obsoleteHnswSql,
} from '../../src/core/index/pg/pgSql';
import { pgText, tsvectorLiteral } from '../../src/core/index/pg/pgText';
import { prepareFile } from '../../src/core/index/prepareFile';
import { silentLogger } from '../../src/core/logger';
import { embedText } from '../../test/support/emulator/embeddings';
import { startPostgres } from '../../test/support/pg/pgServer';
import { KEEP_DIR, REPO, benchQueries, corpusName, relOf, writeFileAt } from './teamIndexCheckout';

export { KEEP_DIR };

export const DIM = 4096;
export const MODEL = 'E5-Mistral-7B-Instruct';
export const vectorText = (v: ArrayLike<number>): string => `[${Array.from(v, (x) => x.toPrecision(5)).join(',')}]`;

export interface Loaded {
  readonly files: number;
  readonly chunks: number;
  readonly vectors: number;
  readonly generateS: number;
  readonly loadS: number;
  readonly writeS: number;
  readonly hnswS: number;
  readonly texts: string[];
}

/** Seconds and counts a kept database has accumulated over runs (bench_progress), so a resumed load reports its whole cost. */
export interface Progress {
  get(key: string): number;
  add(values: Record<string, number>): Promise<void>;
  set(values: Record<string, number>): Promise<void>;
}

export async function progress(pool: Pool): Promise<Progress> {
  await pool.query('CREATE TABLE IF NOT EXISTS bench_progress (key text PRIMARY KEY, value double precision NOT NULL)');
  const values = new Map((await pool.query<{ key: string; value: number }>('SELECT key, value FROM bench_progress')).rows.map((r) => [r.key, r.value]));
  const write = async (entries: Record<string, number>, add: boolean): Promise<void> => {
    for (const [key, value] of Object.entries(entries)) {
      values.set(key, (add ? (values.get(key) ?? 0) : 0) + value);
      await pool.query('INSERT INTO bench_progress (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [
        key,
        values.get(key),
      ]);
    }
  };
  return { get: (key) => values.get(key) ?? 0, add: (v) => write(v, true), set: (v) => write(v, false) };
}

/**
 * Writes the checkout and loads it into an empty snapshot in batches; the HNSW index is built after.
 * On a kept database it goes on from the files already committed (see --keep).
 */
export async function load(pool: Pool, stored: Progress, dir: string, target: number, out: (line: string) => void): Promise<Loaded | undefined> {
  const version = chunkerVersion(undefined);
  const exists = (await pool.query<{ t: string | null }>("SELECT to_regclass('cadenza_snapshots')::text AS t")).rows[0]?.t;
  const findSnapshot = async (): Promise<{ id: number; model_id: number } | undefined> =>
    (await pool.query<{ id: number; model_id: number }>('SELECT id, model_id FROM cadenza_snapshots WHERE repository = $1 AND commit_id = $2', [REPO, 'c1']))
      .rows[0];
  let snapshot = exists ? await findSnapshot() : undefined;
  if (snapshot) {
    // A kept database an older release wrote is brought to this release's layout first, by the product's
    // own migration (the figures after this are the new layout's).
    await migrateTimed(pool, out);
  } else {
    await PgRunStore.open(pool, { repository: REPO, commit: 'c1', model: MODEL }, { chunkerVersion: version, dimension: DIM, logger: silentLogger });
    snapshot = await findSnapshot();
  }
  if (!snapshot) throw new Error('no snapshot row');
  // Resume: batches commit in file order, so the committed files are a prefix of the checkout.
  const committed = Number(
    (await pool.query<{ n: string }>('SELECT count(*) AS n FROM cadenza_entries WHERE snapshot_id = $1', [snapshot.id])).rows[0]?.n ?? 0,
  );
  let files = committed;
  let chunks =
    committed === 0
      ? 0
      : Number(
          (
            await pool.query<{ n: string }>(
              'SELECT count(*) AS n FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.snapshot_id = $1',
              [snapshot.id],
            )
          ).rows[0]?.n ?? 0,
        );
  let vectors =
    committed === 0
      ? 0
      : Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM cadenza_vectors WHERE model_id = $1', [snapshot.model_id])).rows[0]?.n ?? 0);
  const loadDone = stored.get('load_done') === 1;
  // --chunks-only: files, chunks and their text without the emulator's vectors, for bench/teamIndex/teamIndexRealModel
  // (which embeds the chunks with a real model); the emulator's vectors are most of the load's time and size.
  const chunksOnly = process.argv.includes('--chunks-only');
  if (chunksOnly && !loadDone) await stored.set({ chunks_only: 1 });
  else if (!chunksOnly && stored.get('chunks_only') === 1)
    throw new Error(
      'this database was loaded with --chunks-only (for bench/teamIndex/teamIndexRealModel): its E5 vectors are partial, so its graph and recall would mean nothing',
    );
  if (!loadDone) await pool.query(`DROP INDEX IF EXISTS ${hnswName(DIM)}`);
  if (committed > 0) out(`    resuming a kept database: ${files} files, ${chunks} chunks already loaded${loadDone ? ' (load finished)' : ''}`);
  // The query sample (every 7th chunk of the first files) is read back from the checkout when resuming.
  const sampleTexts = await readSampleTexts(dir, committed);
  let started = performance.now();
  let generateMs = 0;
  let loadMs = 0;
  let writing: Promise<void> = Promise.resolve();
  const batch = {
    vHash: [] as string[],
    vText: [] as string[],
    fPath: [] as string[],
    fHash: [] as string[],
    fSize: [] as number[],
    fMtime: [] as number[],
    cFile: [] as number[],
    cS: [] as number[],
    cE: [] as number[],
    cHash: [] as string[],
    cBody: [] as string[],
    cTerms: [] as string[],
  };
  const seenHashes = new Set<string>();
  const flush = async (): Promise<void> => {
    const b = { ...batch };
    for (const key of Object.keys(batch) as (keyof typeof batch)[]) (batch[key] as unknown[]) = [];
    await writing;
    writing = (async () => {
      const t = performance.now();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        if (b.vHash.length > 0) await client.query(VECTORS_INSERT_SQL, [snapshot.model_id, b.vHash, b.vText]);
        // A blob this batch creates gets its chunks, once; a file whose content is already stored (a copy,
        // in real code) only points at it, as in a cadenza-index run.
        const blobs = await client.query<{ id: string; hash: string }>(BLOBS_INSERT_SQL, [b.fHash, version]);
        const created = new Map(blobs.rows.map((row) => [row.hash, row.id]));
        const missing = b.fHash.filter((h) => !created.has(h));
        const ids = new Map(created);
        if (missing.length > 0)
          for (const row of (await client.query<{ id: string; hash: string }>(BLOBS_SELECT_SQL, [missing, version])).rows) ids.set(row.hash, row.id);
        const blobOf = (i: number): string => ids.get(b.fHash[i] ?? '') ?? '';
        const owner = new Map<string, number>();
        b.fHash.forEach((h, i) => {
          if (created.has(h) && !owner.has(h)) owner.set(h, i);
        });
        const keep = b.cFile.map((f) => owner.get(b.fHash[f] ?? '') === f);
        const pick = <T>(list: readonly T[]): T[] => list.filter((_, i) => keep[i]);
        await client.query(CHUNKS_INSERT_SQL, [pick(b.cFile).map(blobOf), pick(b.cS), pick(b.cE), pick(b.cHash), pick(b.cBody), pick(b.cTerms)]);
        await client.query(ENTRIES_UPSERT_SQL, [snapshot.id, b.fPath, b.fHash.map((_, i) => blobOf(i)), b.fSize, b.fMtime]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      loadMs += performance.now() - t;
    })();
  };
  let lastReport = performance.now();
  for (let i = committed; !loadDone && chunks < target; i++) {
    const t = performance.now();
    const rel = relOf(i);
    const abs = writeFileAt(dir, i);
    const prepared = await prepareFile(abs, statSync(abs).mtimeMs, nodeFileSource, 1 << 20, undefined);
    if (prepared.kind !== 'file') continue;
    const key = `${REPO}/${rel}`;
    files++;
    batch.fPath.push(key);
    batch.fHash.push(prepared.file.hash);
    batch.fSize.push(prepared.file.size);
    batch.fMtime.push(prepared.file.mtimeMs);
    for (const chunk of prepared.file.chunks) {
      chunks++;
      if (sampleTexts.length < 5000 && chunks % 7 === 0) sampleTexts.push(chunk.text);
      batch.cFile.push(batch.fPath.length - 1);
      batch.cS.push(chunk.startLine);
      batch.cE.push(chunk.endLine);
      batch.cHash.push(chunk.hash);
      batch.cBody.push(pgText(chunk.text));
      batch.cTerms.push(tsvectorLiteral(chunk.text));
      if (!chunksOnly && !seenHashes.has(chunk.hash)) {
        seenHashes.add(chunk.hash);
        vectors++;
        batch.vHash.push(chunk.hash);
        batch.vText.push(vectorText(embedText(chunk.text, DIM)));
      }
    }
    generateMs += performance.now() - t;
    if (batch.cS.length >= 400) await flush();
    if (performance.now() - lastReport > 60_000) {
      lastReport = performance.now();
      // Each report also banks this run's times, so a kill loses at most a minute of accounting.
      await writing;
      const elapsed = (performance.now() - started) / 1000;
      await stored.add({ load_s: elapsed, generate_s: generateMs / 1000, write_s: loadMs / 1000 });
      started = performance.now();
      generateMs = 0;
      loadMs = 0;
      out(`    … ${chunks} chunks loaded (${stored.get('load_s').toFixed(0)} s, load average ${loadavg()[0]?.toFixed(1) ?? '?'})`);
    }
  }
  if (loadDone) {
    // The counts of the load itself (later runs' commit steps add rows that are not part of it).
    files = stored.get('files');
    chunks = stored.get('chunks');
    vectors = stored.get('vectors');
  } else {
    await flush();
    await writing;
    await stored.add({ load_s: (performance.now() - started) / 1000, generate_s: generateMs / 1000, write_s: loadMs / 1000 });
    await stored.set({ load_done: 1, files, chunks, vectors });
    if (process.argv.includes('--load-only') || chunksOnly) {
      out(
        `    load finished: ${chunks} chunks in ${stored.get('load_s').toFixed(0)} s (${chunksOnly ? '--chunks-only: for bench/teamIndex/teamIndexRealModel' : '--load-only: the graph and the queries are for a later run'})`,
      );
      return undefined;
    }
  }
  if (chunksOnly) return undefined;
  // A kept database whose graph an earlier release built (another name: pgSql hnswName) gets this release's.
  const graphThere = ((await pool.query('SELECT 1 FROM pg_indexes WHERE indexname = $1', [hnswName(DIM)])).rowCount ?? 0) > 0;
  if (stored.get('hnsw_done') !== 1 || !graphThere) {
    started = performance.now();
    out(`    building ${stored.get('hnsw_done') === 1 ? "this release's" : 'the'} HNSW graph over ${chunks} chunks …`);
    // One connection for both: SET is per session, and a pool may hand the next query to another one.
    // The graph must fit maintenance_work_mem, or pgvector goes on building it on disk, far slower
    // (1,000,000 folded elements need about 4.5 GB).
    const client = await pool.connect();
    try {
      await client.query(`SET maintenance_work_mem = '${process.env['PG_MAINTENANCE_MEM'] ?? '4GB'}'`);
      await client.query(hnswIndexSql(DIM));
      await client.query(obsoleteHnswSql(DIM));
    } finally {
      client.release();
    }
    await stored.set({ hnsw_s: (performance.now() - started) / 1000, hnsw_done: 1 });
    await pool.query(SNAPSHOT_STATE_SQL, [snapshot.id, true]);
    await pool.query(ANALYZE_SQL);
  }
  return {
    files,
    chunks,
    vectors,
    generateS: stored.get('generate_s'),
    loadS: stored.get('load_s'),
    writeS: stored.get('write_s'),
    hnswS: stored.get('hnsw_s'),
    texts: sampleTexts,
  };
}

/**
 * Brings a kept database to this release's layout with the product's migration (ensureSchema, as the
 * indexer's next run would), printing its time when there was something to migrate.
 */
export async function migrateTimed(pool: Pool, out: (line: string) => void): Promise<void> {
  const type = async (): Promise<string | undefined> => (await pool.query<{ type: string }>(EMBEDDING_TYPE_SQL)).rows[0]?.type;
  const before = await type();
  const t = performance.now();
  // The graph, if there is one, is rebuilt in memory (as README tells a team to do with PGOPTIONS).
  const config = (pool as unknown as { options: PoolConfig }).options;
  const migrating = new Pool({ ...config, max: 1, options: `-c maintenance_work_mem=${process.env['PG_MAINTENANCE_MEM'] ?? '4GB'}` });
  try {
    await ensureSchema(migrating, (message) => out(`    ${message}`));
  } finally {
    await migrating.end();
  }
  const after = await type();
  if (before !== after) out(`| layout migration (${before} → ${after}, cadenza-index's schema step) | ${((performance.now() - t) / 1000).toFixed(0)} s |`);
}

/** The query sample of a loaded checkout: every 7th chunk of its first `files` files, up to 5,000 (files missing on disk are generated again). */
async function readSampleTexts(dir: string, files: number): Promise<string[]> {
  const texts: string[] = [];
  for (let i = 0, n = 0; i < files && texts.length < 5000; i++) {
    const abs = path.join(dir, relOf(i));
    if (!existsSync(abs)) writeFileAt(dir, i);
    const prepared = await prepareFile(abs, statSync(abs).mtimeMs, nodeFileSource, 1 << 20, undefined);
    if (prepared.kind === 'file') for (const chunk of prepared.file.chunks) if (++n % 7 === 0 && texts.length < 5000) texts.push(chunk.text);
  }
  return texts;
}

/**
 * A database kept by bench/teamIndex/teamIndex (`--keep`) for the probes that read it: its cluster started (or the
 * running one), a one-connection pool on it, snapshot c1 (the first one: bench/teamIndex/teamIndexRealModel adds a second model's), and the benchmark's first `count` queries.
 */
export async function openKept(target: number, count: number): Promise<{ pool: Pool; snapshot: { id: number; modelId: number }; queries: string[] }> {
  const pg = await startPostgres({ dir: path.join(KEEP_DIR, 'pg'), settings: { shared_buffers: process.env['PG_SHARED_BUFFERS'] ?? '128MB' } });
  const pool = new Pool({ connectionString: pg.url.replace(/\/cadenza$/, `/bench_${corpusName(target, '_')}`), max: 1 });
  const row = (
    await pool.query<{ id: number; model_id: number; files: string }>(
      `SELECT s.id, s.model_id, (SELECT count(*) FROM cadenza_entries e WHERE e.snapshot_id = s.id) AS files
     FROM cadenza_snapshots s WHERE s.repository = $1 AND s.commit_id = 'c1' ORDER BY s.id LIMIT 1`,
      [REPO],
    )
  ).rows[0];
  if (!row) {
    await pool.end();
    throw new Error(`no snapshot in bench_${corpusName(target, '_')}: build it with bench/teamIndex/teamIndex --keep first`);
  }
  const texts = await readSampleTexts(path.join(KEEP_DIR, `checkout-${corpusName(target, '-')}`), Number(row.files));
  return { pool, snapshot: { id: row.id, modelId: row.model_id }, queries: benchQueries(texts, count) };
}

/**
 * The exact top 10 of one query over a snapshot's vectors of one model (a sequential scan: the recall
 * reference), as "path:first line" keys.
 */
export async function exactTopTen(pool: Pool, snapshotId: number, modelId: number, vector: ArrayLike<number>): Promise<Set<string>> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN READ ONLY');
    await client.query("SELECT set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true)");
    const exact = await client.query<{ path: string; start_line: number }>(
      `SELECT e.path, c.start_line FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id
       JOIN cadenza_vectors v ON v.model_id = $3 AND v.hash = c.hash
       WHERE e.snapshot_id = $1 ORDER BY v.embedding::vector <=> $2::vector, e.path, c.start_line LIMIT 10`,
      [snapshotId, vectorText(vector), modelId],
    );
    await client.query('COMMIT');
    return new Set(exact.rows.map((row) => `${row.path}:${row.start_line}`));
  } finally {
    client.release();
  }
}

/** The walk widths of SWEEP ("candidates:ef_search,…"; `fallback` when unset) as tunings. */
export const sweepTunings = (fallback: string): VectorTuning[] =>
  (process.env['SWEEP'] ?? fallback).split(',').map((pair) => {
    const [candidates, ef] = pair.split(':').map(Number);
    return { candidatesPerResult: 0, minCandidates: candidates ?? 40, efSearch: ef ?? 100 };
  });

/** Each query's recall summed up, naming the queries that lost neighbours (a graph's misses are a few queries'). */
export function recallCell(recalls: readonly number[], queries: readonly string[]): string {
  const n = recalls.length;
  if (n === 0) return 'recall not measured (RECALL_QUERIES=0)';
  const short = recalls.flatMap((r, i) => (r < 1 ? [`"${queries[i] ?? ''}" ${r.toFixed(1)}`] : [])).join(', ');
  return `recall@10 ${(recalls.reduce((a, b) => a + b, 0) / n).toFixed(3)} (${recalls.filter((r) => r === 1).length} of ${n} queries at 1, ${recalls.filter((r) => r < 0.5).length} below 0.5, lowest ${Math.min(...recalls).toFixed(1)}${short ? `; below 1: ${short}` : ''})`;
}

/** What the product's graph for a dimension indexes and how it is built, for a figure's label. */
export function graphLabel(dimension: number): string {
  const { on, m, efConstruction } = graphSettings(dimension);
  return `${on}, m ${m}, ef_construction ${efConstruction}`;
}
