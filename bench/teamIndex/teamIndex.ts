// Benchmark of the team index at scale (PostgreSQL 18 + pgvector 0.8 from test/support/pg/setup.sh, a
// throwaway cluster on loopback). For each size asked (chunks), in a database of its own:
//  1. writes a checkout on disk (deterministic: the same files every run): CORPUS=generated (default),
//     TypeScript-like files from a few hundred words; CORPUS=real, real code found on this machine,
//     renamed per copy to reach the size (teamIndexRealCode.ts; its database and checkout are named real_N),
//  2. loads it the way a first `cadenza-index` run on an empty database should: every file read,
//     hashed and chunked by the real prepareFile/chunker, embedded with the emulator's deterministic
//     4,096-dimension embeddings in-process, rows written in batches with the adapter's own INSERT
//     statements, and the HNSW index built once after the load (building it row by row is slower),
//  3. measures top-10 hybrid query latency through PgTeamIndex (p50, p95; the query's embedding is
//     computed before the clock starts, as the service would answer it), recall@10 of the vector list
//     against exact cosine search over the whole snapshot, database size per chunk,
//  4. runs the real indexer (buildTeamIndex) for one commit touching 20 files: in place (same snapshot)
//     and, up to NEW_COMMIT_MAX chunks, as a new commit's snapshot,
//  5. the local index's query latency on the same checkout, up to LOCAL_MAX chunks.
// Prints figures; asserts nothing.
// Run: npx tsc -p tsconfig.json && node out/bench/teamIndex/teamIndex.js [--keep [--load-only | --chunks-only]] [chunks ...] (default 10000 50000)
// Env: CORPUS (generated | real), QUERIES (40), RECALL_QUERIES (20, at most QUERIES; 0 skips the exact scans), WARM (1: every query once before timing), LOCAL_MAX (200000), NEW_COMMIT_MAX (200000), PG_MAINTENANCE_MEM ('4GB'),
// PG_SHARED_BUFFERS ('128MB', PostgreSQL's default), TEAM_BENCH_DIR (/var/cache/cadenza-team-bench, with --keep).
// --keep: the cluster, each size's database and its checkout are kept in TEAM_BENCH_DIR, and a run
// resumes where the last one stopped: the load goes on from the last committed batch (a batch is one
// transaction: vectors, file contents, chunks and file entries together), a finished load and graph are
// not redone, and the steps' times add up over the runs. So the 1,000,000-chunk size (hours on two cores)
// can be built across several runs, and its queries timed on a quiet machine. Only the 20-file commit
// steps change the kept database (they write what a real second run writes); rerunning them is harmless.
// --chunks-only: the load without the emulator's vectors, then stop (the database bench/teamIndex/teamIndexRealModel
// embeds with a real model; such a database refuses a later run without the flag).
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { nodeFileSource } from '../../src/core/index/fileSource';
import { prepareFile } from '../../src/core/index/prepareFile';
import { FOLD_WIDTH, folds, hnswName } from '../../src/core/index/pg/pgSql';
import { PgTeamIndex, defaultTuning, type VectorTuning } from '../../src/core/index/pg/pgTeamIndex';
import { buildTeamIndex } from '../../src/core/index/pg/teamIndexer';
import { WorkspaceIndex } from '../../src/core/index/workspaceIndex';
import { embedText } from '../../test/support/emulator/embeddings';
import { startPostgres } from '../../test/support/pg/pgServer';
import { CORPUS_LABEL, REPO, benchQueries, corpusName, fileText, relOf, writeFileAt } from './teamIndexCheckout';
import { DIM, KEEP_DIR, MODEL, exactTopTen, graphLabel, load, progress, recallCell, sweepTunings, vectorText } from './teamIndexLoad';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const QUERIES = env('QUERIES', 40);
const RECALL_QUERIES = env('RECALL_QUERIES', 20);
const LOCAL_MAX = env('LOCAL_MAX', 200_000);
const NEW_COMMIT_MAX = env('NEW_COMMIT_MAX', 200_000);
const KEEP = process.argv.includes('--keep');
const WARM = process.env['WARM'] === '1';

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}
const ms = (x: number): string => x.toFixed(1);
const foldSql = (value: string, w = FOLD_WIDTH): string =>
  `(${Array.from({ length: DIM / w }, (_, i) => `subvector((${value})::vector(${DIM}), ${i * w + 1}, ${w})`).join(' + ')})::vector(${w})`;
const embed = (texts: readonly string[]): Promise<Float32Array[]> => Promise.resolve(texts.map((t) => Float32Array.from(embedText(t, DIM))));

async function runSize(url: string, target: number): Promise<void> {
  const dbName = `bench_${corpusName(target, '_')}`;
  const admin = new Pool({ connectionString: url, max: 1 });
  const existing = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount ?? 0;
  if (!KEEP || existing === 0) {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
    await admin.query(`CREATE DATABASE ${dbName}`);
  }
  await admin.end();
  const pool = new Pool({ connectionString: url.replace(/\/cadenza$/, `/${dbName}`), max: 4 });
  const dir = KEEP ? path.join(KEEP_DIR, `checkout-${corpusName(target, '-')}`) : mkdtempSync(path.join(tmpdir(), 'cadenza-team-bench-'));
  mkdirSync(dir, { recursive: true });
  // Each run's commit steps change the files anew (a kept database already holds the last run's change).
  const stored = await progress(pool);
  const round = KEEP ? stored.get('commit_rounds') + 1 : 1;
  try {
    const loaded = await load(pool, stored, dir, target, out);
    if (!loaded) return;
    const totalS = loaded.loadS + loaded.hnswS;
    out(
      `\n## ${loaded.chunks.toLocaleString('en-US')} chunks (${loaded.files.toLocaleString('en-US')} files, ${loaded.vectors.toLocaleString('en-US')} distinct vectors, ${DIM} dimensions)`,
    );
    out(`| step | figure |`);
    out(`| --- | --- |`);
    out(
      `| generate + read/hash/chunk + embed (in-process), rows written in batches | ${loaded.loadS.toFixed(0)} s (JS ${loaded.generateS.toFixed(0)} s, PostgreSQL writes ${loaded.writeS.toFixed(0)} s overlapped; ${Math.round(loaded.chunks / loaded.loadS)} chunks/s) |`,
    );
    out(`| HNSW build after the load (${graphLabel(DIM)}) | ${loaded.hnswS.toFixed(0)} s |`);
    out(`| total to a searchable snapshot (load + graph${KEEP ? ', summed over the runs that built it' : ''}) | ${totalS.toFixed(0)} s |`);
    const sizes = await pool.query<{ db: string; vectors: string; chunks: string; hnsw: string; gin: string }>(
      `SELECT pg_database_size(current_database()) AS db, pg_table_size('cadenza_vectors') AS vectors, pg_table_size('cadenza_chunks') AS chunks,
        pg_relation_size('${hnswName(DIM)}') AS hnsw, pg_relation_size('cadenza_chunks_terms') AS gin`,
    );
    const s = sizes.rows[0];
    const per = (x: string | undefined): string => `${Math.round(Number(x) / loaded.chunks).toLocaleString('en-US')} B`;
    out(
      `| database size | ${(Number(s?.db) / 1e9).toFixed(2)} GB = ${per(s?.db)} per chunk (vectors ${per(s?.vectors)}, HNSW ${per(s?.hnsw)}, chunk rows with text + tsvector ${per(s?.chunks)}, GIN ${per(s?.gin)}) |`,
    );

    const team = await PgTeamIndex.open(pool, REPO, MODEL, 'c1');
    if (!team) throw new Error('no snapshot');
    const queries = benchQueries(loaded.texts, QUERIES);
    const load1 = (): string => loadavg()[0]?.toFixed(2) ?? '?';
    // WARM=1: every query once, untimed, first (a server whose caches hold what the queries read);
    // otherwise one query, as the earlier figures were taken.
    for (const text of WARM ? queries : queries.slice(0, 1)) await team.search({ text, vector: Float32Array.from(embedText(text, DIM)) }, { k: 10 });
    const hybrid: number[] = [];
    for (const text of queries) {
      const vector = Float32Array.from(embedText(text, DIM));
      const t = performance.now();
      await team.search({ text, vector }, { k: 10 });
      hybrid.push(performance.now() - t);
    }
    hybrid.sort((a, b) => a - b);
    out(
      `| top-10 hybrid query through PgTeamIndex (vector + full text + exact, fused), ${QUERIES} queries, default tuning | p50 ${ms(percentile(hybrid, 0.5))} ms, p95 ${ms(percentile(hybrid, 0.95))} ms (load average ${load1()}) |`,
    );
    // The text side alone (full-text rank + exact identifiers, no vector), to see which part a hybrid query spends on.
    const textOnly: number[] = [];
    for (const text of queries) {
      const t = performance.now();
      await team.search({ text }, { k: 10 });
      textOnly.push(performance.now() - t);
    }
    textOnly.sort((a, b) => a - b);
    out(
      `| the same queries, text side only (full text + exact, no vector) | p50 ${ms(percentile(textOnly, 0.5))} ms, p95 ${ms(percentile(textOnly, 0.95))} ms (load average ${load1()}) |`,
    );

    // The exact top 10 of each recall query: a sequential scan of every vector of the snapshot.
    const truths: Set<string>[] = [];
    let exactMs = 0;
    for (const text of queries.slice(0, RECALL_QUERIES)) {
      const vector = Float32Array.from(embedText(text, DIM));
      const t = performance.now();
      truths.push(await exactTopTen(pool, team.snapshot.id, team.snapshot.modelId, vector));
      exactMs += performance.now() - t;
    }
    const n = truths.length;
    if (n > 0) out(`| exact cosine scan of the snapshot (the recall reference, ${n} queries) | ${ms(exactMs / n)} ms per query |`);
    // The fold alone (no graph): the true top 10 among the exact top N by folded cosine, re-ranked on the full vector.
    if (folds(DIM) && loaded.chunks <= env('FOLD_DIAG_MAX', 20_000)) {
      for (const [w, depth] of (loaded.chunks <= 5000
        ? [
            [512, 80],
            [1024, 80],
            [2048, 80],
            [1024, 40],
            [2048, 40],
          ]
        : [
            [2048, 40],
            [2048, 80],
          ]) as readonly (readonly [number, number])[]) {
        let hit = 0;
        for (const [i, text] of queries.slice(0, n).entries()) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN READ ONLY');
            await client.query("SELECT set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true)");
            const folded = await client.query<{ path: string; start_line: number }>(
              `SELECT path, start_line FROM (SELECT e.path, c.start_line, v.embedding FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id
                 JOIN cadenza_vectors v ON v.model_id = $3 AND v.hash = c.hash WHERE e.snapshot_id = $1
                 ORDER BY ${foldSql('v.embedding', w)} <=> ${foldSql('$2::vector', w)} LIMIT $4) t
               ORDER BY t.embedding::vector <=> $2::vector LIMIT 10`,
              [team.snapshot.id, vectorText(Float32Array.from(embedText(text, DIM))), team.snapshot.modelId, depth],
            );
            await client.query('COMMIT');
            const truth = truths[i];
            if (truth) hit += folded.rows.filter((row) => truth.has(`${row.path}:${row.start_line}`)).length / Math.max(1, truth.size);
          } finally {
            client.release();
          }
        }
        out(
          `| the fold to ${w} alone (exact scan of folded vectors, top ${depth} re-ranked on the full vector, no graph) | recall@10 ${(hit / n).toFixed(3)} |`,
        );
      }
    }
    // Vector-only top 10 at several widths of the HNSW walk (candidates re-ranked on the full vector).
    const base = defaultTuning(DIM);
    const sweep: VectorTuning[] = [base, ...sweepTunings('20:40,40:120,80:200')];
    for (const tuning of sweep) {
      const tuned = await PgTeamIndex.open(pool, REPO, MODEL, 'c1', tuning);
      if (!tuned) throw new Error('no snapshot');
      // WARM=1: each width's walk once untimed first (the exact scans above have just filled the caches with the vectors table).
      if (WARM) for (const text of queries) await tuned.lists({ vector: Float32Array.from(embedText(text, DIM)) }, 10);
      const times: number[] = [];
      // Each query's recall, so a mean is seen with its spread (a graph walk either finds a neighbourhood or misses it).
      const recalls: number[] = [];
      for (const [i, text] of queries.entries()) {
        const vector = Float32Array.from(embedText(text, DIM));
        const t = performance.now();
        const hits = (await tuned.lists({ vector }, 10)).semantic;
        times.push(performance.now() - t);
        const truth = truths[i];
        if (truth) recalls.push(hits.slice(0, 10).filter((h) => truth.has(`${h.location.path}:${h.location.startLine}`)).length / Math.max(1, truth.size));
      }
      times.sort((a, b) => a - b);
      const candidates = Math.max(10 * tuning.candidatesPerResult, tuning.minCandidates);
      const label = tuning === base ? ' (default)' : '';
      out(
        `| top-10 vector-only, ${candidates} candidates re-ranked, ef_search ${Math.max(candidates, tuning.efSearch)}${label} | p50 ${ms(percentile(times, 0.5))} ms, p95 ${ms(percentile(times, 0.95))} ms, ${recallCell(recalls, queries)} (load average ${load1()}) |`,
      );
    }

    if (KEEP) await stored.set({ commit_rounds: round });
    const suffix = round > 1 ? ` round ${round}` : '';
    // A kept checkout still holds the last run's c3 change: back to the loaded content first.
    // The 20 changed files are loaded ones, 37 apart (closer on a small checkout).
    const stride = Math.max(2, Math.min(37, Math.floor(loaded.files / 20)));
    if (round > 1) for (let i = 0; i < 20; i++) writeFileAt(dir, i * stride + 1);
    for (let i = 0; i < 20; i++) writeFileSync(path.join(dir, relOf(i * stride)), fileText(i * stride, ` (changed in commit c2${suffix})`));
    let embedded = 0;
    const countingEmbed = async (texts: readonly string[]): Promise<Float32Array[]> => {
      embedded += texts.length;
      return embed(texts);
    };
    let t = performance.now();
    const inPlace = await buildTeamIndex({
      root: dir,
      repository: REPO,
      commit: 'c1',
      model: MODEL,
      pool,
      embed: countingEmbed,
      batchSize: 64,
      concurrency: 2,
    });
    out(
      `| one commit touching 20 files, snapshot updated in place (cadenza-index) | ${((performance.now() - t) / 1000).toFixed(1)} s, ${embedded} chunks embedded, ${inPlace.filesChanged} files changed, ${inPlace.chunksReused} reused; rows written: ${inPlace.written.entries} file entries, ${inPlace.written.chunks} chunks |`,
    );
    if (loaded.chunks <= NEW_COMMIT_MAX) {
      for (let i = 0; i < 20; i++) writeFileSync(path.join(dir, relOf(i * stride + 1)), fileText(i * stride + 1, ` (changed in commit c3${suffix})`));
      embedded = 0;
      t = performance.now();
      const fresh = await buildTeamIndex({
        root: dir,
        repository: REPO,
        commit: round > 1 ? `c3-${round}` : 'c3',
        model: MODEL,
        pool,
        embed: countingEmbed,
        batchSize: 64,
        concurrency: 2,
      });
      const w = fresh.written;
      out(
        `| the same as a new commit's snapshot (a delta on c1) | ${((performance.now() - t) / 1000).toFixed(1)} s, ${embedded} chunks embedded, ${fresh.chunksReused} reused; rows written: ${w.entries} file entries, ${w.blobs} file contents, ${w.chunks} chunks, ${w.vectors} vectors |`,
      );
    }

    await localIndex(dir, loaded.chunks, queries);
  } finally {
    await pool.end();
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

/** The local index's hybrid top-10 latency on the same checkout, in memory (the comparison the issue asks for). */
async function localIndex(dir: string, chunks: number, queries: readonly string[]): Promise<void> {
  if (chunks <= LOCAL_MAX) {
    const t = performance.now();
    const local = (await WorkspaceIndex.open({ roots: [{ name: REPO, path: dir }], storagePath: undefined, modelId: MODEL, embed })).index;
    await local.sync();
    const buildS = (performance.now() - t) / 1000;
    local.search({ text: queries[0], vector: Float32Array.from(embedText(queries[0] ?? '', DIM)) }, { k: 10 });
    const localMs: number[] = [];
    for (const text of queries) {
      const vector = Float32Array.from(embedText(text, DIM));
      const t1 = performance.now();
      local.search({ text, vector }, { k: 10 });
      localMs.push(performance.now() - t1);
    }
    localMs.sort((a, b) => a - b);
    out(
      `| local index, same checkout (in memory, int8), hybrid top-10 | p50 ${ms(percentile(localMs, 0.5))} ms, p95 ${ms(percentile(localMs, 0.95))} ms (built in ${buildS.toFixed(0)} s, ${local.stats().chunks} chunks; load average ${loadavg()[0]?.toFixed(2) ?? '?'}) |`,
    );
    await local.close();
  } else {
    out(`| local index | not run above LOCAL_MAX=${LOCAL_MAX} chunks |`);
  }
}

/** LOCAL_ONLY=1: the checkout of a size and the local index alone, without PostgreSQL. */
async function localOnly(target: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadenza-team-bench-'));
  try {
    let chunks = 0;
    const texts: string[] = [];
    for (let i = 0; chunks < target; i++) {
      const abs = writeFileAt(dir, i);
      const prepared = await prepareFile(abs, statSync(abs).mtimeMs, nodeFileSource, 1 << 20, undefined);
      if (prepared.kind !== 'file') continue;
      for (const chunk of prepared.file.chunks) if (++chunks % 7 === 0 && texts.length < 5000) texts.push(chunk.text);
    }
    const queries = benchQueries(texts, QUERIES);
    out(`\n## local index only, ${chunks.toLocaleString('en-US')} chunks`);
    await localIndex(dir, chunks, queries);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  if (process.env['LOCAL_ONLY']) {
    for (const size of sizes) await localOnly(size);
    return;
  }
  const pg = await startPostgres({
    ...(KEEP ? { dir: path.join(KEEP_DIR, 'pg') } : {}),
    settings: { shared_buffers: process.env['PG_SHARED_BUFFERS'] ?? '128MB' },
  });
  // The server's own setting: a kept cluster that was already running keeps the shared_buffers it started with.
  const probe = new Pool({ connectionString: pg.url, max: 1 });
  const sharedBuffers = (await probe.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]?.shared_buffers ?? '?';
  await probe.end();
  out(
    `team index bench: PostgreSQL 18 + pgvector 0.8 on loopback, ${CORPUS_LABEL}, ${DIM}-dimension vectors, model ${MODEL}, shared_buffers ${sharedBuffers}${KEEP ? `, kept in ${KEEP_DIR}` : ''}`,
  );
  try {
    for (const size of sizes.length > 0 ? sizes : [10_000, 50_000]) await runSize(pg.url, size);
  } finally {
    pg.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
