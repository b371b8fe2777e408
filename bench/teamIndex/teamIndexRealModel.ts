// The team index at 1,000,000 chunks with a real trained embedding model. bench/teamIndex/teamIndex embeds with the
// emulator's deterministic vectors (feature-hashed words, 4,096 dimensions: nearly orthogonal, a worst case
// for a graph), and the local stack's real model (multilingual-e5-small) would need about 5 days here for
// 1,000,000 chunks. WordLlama (PyPI `wordllama` 0.4.0.post1, MIT: the l2_supercat model, token embeddings
// trained for similarity and averaged, 256 dimensions, its weights in the wheel) embeds them in minutes,
// so this measures what the product's search does with a trained model's dense vectors at that size:
//  1. installs WordLlama into a venv of its own (once; pinned; PyPI only, downloads off at run time),
//  2. adds the model to the database kept by `CORPUS=real node out/bench/teamIndex/teamIndex.js --keep 1000000` (or,
//     to build only what this needs, `--keep --chunks-only 1000000`: the files and chunks without the
//     emulator's vectors) and a snapshot of the same commit for it (the same files and chunks: the schema
//     keys vectors by model),
//  3. embeds every distinct chunk (its stored text) and writes the vectors with the adapter's own INSERT,
//     in hash order, one transaction per batch, so a killed run goes on where it stopped,
//  4. builds the model's HNSW graph with the product's SQL (pgSql hnswIndexSql: 256 dimensions are indexed
//     in half precision, m 32 / ef_construction 512) and drops a graph an earlier release built (obsoleteHnswSql),
//  5. measures through PgTeamIndex with the default tuning, as bench/teamIndex/teamIndex does: hybrid top-10 latency,
//     the exact top 10 of RECALL_QUERIES queries (a sequential scan), and vector-only latency and recall@10
//     at the default walk and at each SWEEP width.
// Prints figures; asserts nothing.
// Run: npx tsc -p tsconfig.json && node out/bench/teamIndex/teamIndexRealModel.js
// Env: QUERIES (40), RECALL_QUERIES (20), SWEEP ('40:120,160:800'), PG_SHARED_BUFFERS ('128MB'), PG_MAINTENANCE_MEM ('2GB'),
// WORDLLAMA_DIR (/var/cache/cadenza-wordllama), TEAM_BENCH_DIR.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Pool } from 'pg';
import { chunkerVersion } from '../../src/core/index/chunker';
import { ANALYZE_SQL, SNAPSHOT_STATE_SQL, VECTORS_INSERT_SQL, hnswIndexSql, hnswName, obsoleteHnswSql } from '../../src/core/index/pg/pgSql';
import { PgRunStore } from '../../src/core/index/pg/pgRunStore';
import { PgTeamIndex, defaultTuning, type VectorTuning } from '../../src/core/index/pg/pgTeamIndex';
import { silentLogger } from '../../src/core/logger';
import { REPO } from './teamIndexCheckout';
import { exactTopTen, graphLabel, openKept, recallCell, sweepTunings, vectorText } from './teamIndexLoad';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const QUERIES = env('QUERIES', 40);
const RECALL_QUERIES = env('RECALL_QUERIES', 20);
const MODEL = 'WordLlama-l2-supercat-256';
const DIM = 256;
const PACKAGE = 'wordllama==0.4.0.post1';
const HOME = process.env['WORDLLAMA_DIR'] ?? '/var/cache/cadenza-wordllama';
const BATCH = 2000;

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const ms = (x: number): string => x.toFixed(1);
const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const load1 = (): string => loadavg()[0]?.toFixed(2) ?? '?';

/** The venv with WordLlama, and the cache directory where its tokenizer is found (see wordllamaEmbed.py). */
function setUp(): { python: string; cache: string } {
  const python = path.join(HOME, 'venv', 'bin', 'python');
  const run = (cmd: string, args: string[]): void => {
    const r = spawnSync(cmd, args, { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
  };
  if (spawnSync(python, ['-c', 'import wordllama; assert wordllama.__version__ == "0.4.0.post1"']).status !== 0) {
    out(`installing ${PACKAGE} from PyPI into ${HOME}/venv …`);
    mkdirSync(HOME, { recursive: true });
    run('python3', ['-m', 'venv', path.join(HOME, 'venv')]);
    run(path.join(HOME, 'venv', 'bin', 'pip'), ['install', '--quiet', PACKAGE]);
  }
  const site = spawnSync(python, ['-c', 'import wordllama, os; print(os.path.dirname(wordllama.__file__))'], { encoding: 'utf8' }).stdout.trim();
  const cache = path.join(HOME, 'cache');
  mkdirSync(path.join(cache, 'tokenizers'), { recursive: true });
  const tokenizer = path.join(cache, 'tokenizers', 'l2_supercat_tokenizer_config.json');
  if (!existsSync(tokenizer)) copyFileSync(path.join(site, 'tokenizers', 'l2_supercat_tokenizer_config.json'), tokenizer);
  return { python, cache };
}

/** One WordLlama process: `embed` sends a batch of texts and resolves with their unit vectors. */
async function startEmbedder(python: string, cache: string): Promise<{ embed: (texts: readonly string[]) => Promise<Float32Array[]>; stop: () => void }> {
  const child = spawn(python, [path.join(__dirname, '..', '..', '..', 'bench', 'teamIndex', 'wordllamaEmbed.py'), cache], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done || first.value !== 'ready') throw new Error('WordLlama did not start');
  let queue: Promise<unknown> = Promise.resolve();
  const embed = (texts: readonly string[]): Promise<Float32Array[]> => {
    const result = queue.then(async () => {
      child.stdin.write(`${JSON.stringify(texts)}\n`);
      const line = await lines.next();
      if (line.done) throw new Error('WordLlama stopped');
      const bytes = Buffer.from(line.value, 'base64');
      const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      return texts.map((_, i) => all.slice(i * DIM, (i + 1) * DIM));
    });
    queue = result.catch(() => undefined);
    return result;
  };
  return { embed, stop: () => child.kill() };
}

async function main(): Promise<void> {
  const { python, cache } = setUp();
  const embedder = await startEmbedder(python, cache);
  const kept = await openKept(1_000_000, QUERIES);
  const pool = new Pool({ connectionString: kept.pool.options.connectionString, max: 4 });
  try {
    out(`team index with a real model: ${MODEL} (${DIM} dimensions, ${PACKAGE}), bench_real_1000000`);
    await PgRunStore.open(
      pool,
      { repository: REPO, commit: 'c1', model: MODEL },
      { chunkerVersion: chunkerVersion(undefined), dimension: DIM, logger: silentLogger },
    );
    const snap = (
      await pool.query<{ id: number; model_id: number; complete: boolean }>(
        'SELECT s.id, s.model_id, s.complete FROM cadenza_snapshots s JOIN cadenza_models m ON m.id = s.model_id WHERE s.repository = $1 AND s.commit_id = $2 AND m.name = $3',
        [REPO, 'c1', MODEL],
      )
    ).rows[0];
    if (!snap) throw new Error('no snapshot');
    // The same commit's files, pointing at the same stored contents and chunks.
    await pool.query(
      'INSERT INTO cadenza_entries (snapshot_id, path, blob_id, size, mtime_ms) SELECT $1, path, blob_id, size, mtime_ms FROM cadenza_entries WHERE snapshot_id = $2 ON CONFLICT DO NOTHING',
      [snap.id, kept.snapshot.id],
    );

    // The snapshot's opening created the model's (empty) graph; filling it row by row is far slower than
    // building it once after the load, as bench/teamIndex/teamIndex does. A complete snapshot has its graph.
    if (!snap.complete) await pool.query(`DROP INDEX IF EXISTS ${hnswName(DIM)}`);
    // Every distinct chunk, in hash order from the last one written.
    let after = (await pool.query<{ h: string | null }>('SELECT max(hash) AS h FROM cadenza_vectors WHERE model_id = $1', [snap.model_id])).rows[0]?.h ?? '';
    let written = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM cadenza_vectors WHERE model_id = $1', [snap.model_id])).rows[0]?.n ?? 0);
    const startedAt = performance.now();
    let embedMs = 0;
    let fresh = 0;
    let writing: Promise<unknown> = Promise.resolve();
    let lastReport = performance.now();
    // Reading the next batch, embedding this one and writing the last overlap.
    const read = async (from: string): Promise<{ hash: string; body: string }[]> =>
      (
        await pool.query<{ hash: string; body: string }>('SELECT DISTINCT ON (hash) hash, body FROM cadenza_chunks WHERE hash > $1 ORDER BY hash LIMIT $2', [
          from,
          BATCH,
        ])
      ).rows;
    let next = read(after);
    for (;;) {
      const rows = await next;
      if (rows.length === 0) break;
      after = rows[rows.length - 1]?.hash ?? after;
      next = read(after);
      const t = performance.now();
      const vectors = await embedder.embed(rows.map((row) => row.body));
      embedMs += performance.now() - t;
      await writing;
      writing = pool.query(VECTORS_INSERT_SQL, [snap.model_id, rows.map((row) => row.hash), vectors.map(vectorText)]);
      fresh += rows.length;
      if (performance.now() - lastReport > 60_000) {
        lastReport = performance.now();
        out(`    … ${written + fresh} vectors (${((performance.now() - startedAt) / 1000).toFixed(0)} s, load average ${load1()})`);
      }
    }
    await writing;
    written += fresh;
    if (fresh > 0)
      out(
        `| embed ${fresh} distinct chunks with ${MODEL} and write them | ${((performance.now() - startedAt) / 1000).toFixed(0)} s (embedding ${(embedMs / 1000).toFixed(0)} s: ${(fresh / (embedMs / 1000)).toFixed(0)} chunks/s) |`,
      );

    if (((await pool.query('SELECT 1 FROM pg_indexes WHERE indexname = $1', [hnswName(DIM)])).rowCount ?? 0) === 0) {
      const client = await pool.connect();
      try {
        const t = performance.now();
        await client.query(`SET maintenance_work_mem = '${process.env['PG_MAINTENANCE_MEM'] ?? '2GB'}'`);
        await client.query(hnswIndexSql(DIM));
        out(`| HNSW build (${graphLabel(DIM)}), ${written} vectors | ${((performance.now() - t) / 1000).toFixed(0)} s |`);
        await client.query(obsoleteHnswSql(DIM));
      } finally {
        client.release();
      }
    }
    await pool.query(SNAPSHOT_STATE_SQL, [snap.id, true]);
    await pool.query(ANALYZE_SQL);
    const size = (await pool.query<{ s: string }>('SELECT pg_relation_size($1) AS s', [hnswName(DIM)])).rows[0]?.s;
    out(`| its graph | ${(Number(size) / 1e9).toFixed(2)} GB |`);

    const team = await PgTeamIndex.open(pool, REPO, MODEL, 'c1');
    if (!team) throw new Error('no snapshot');
    const queries = kept.queries;
    const qv = await embedder.embed(queries);
    const vectorOf = (i: number): Float32Array => qv[i] ?? new Float32Array(DIM);
    for (const [i, text] of queries.entries()) await team.search({ text, vector: vectorOf(i) }, { k: 10 });
    const hybrid: number[] = [];
    for (const [i, text] of queries.entries()) {
      const t = performance.now();
      await team.search({ text, vector: vectorOf(i) }, { k: 10 });
      hybrid.push(performance.now() - t);
    }
    hybrid.sort((a, b) => a - b);
    out(
      `| top-10 hybrid query through PgTeamIndex (vector + full text + exact, fused), ${queries.length} queries, warmed, default tuning | p50 ${ms(percentile(hybrid, 0.5))} ms, p95 ${ms(percentile(hybrid, 0.95))} ms (load average ${load1()}) |`,
    );

    const truths: Set<string>[] = [];
    for (const [i] of queries.slice(0, RECALL_QUERIES).entries()) truths.push(await exactTopTen(pool, snap.id, snap.model_id, vectorOf(i)));
    const base = defaultTuning(DIM);
    const sweep: VectorTuning[] = [base, ...sweepTunings('40:120,160:800')];
    for (const tuning of sweep) {
      const tuned = await PgTeamIndex.open(pool, REPO, MODEL, 'c1', tuning);
      if (!tuned) throw new Error('no snapshot');
      for (const [i] of queries.entries()) await tuned.lists({ vector: vectorOf(i) }, 10);
      const times: number[] = [];
      const recalls: number[] = [];
      for (const [i] of queries.entries()) {
        const t = performance.now();
        const hits = (await tuned.lists({ vector: vectorOf(i) }, 10)).semantic;
        times.push(performance.now() - t);
        const truth = truths[i];
        if (truth) recalls.push(hits.slice(0, 10).filter((h) => truth.has(`${h.location.path}:${h.location.startLine}`)).length / Math.max(1, truth.size));
      }
      times.sort((a, b) => a - b);
      const candidates = Math.max(10 * tuning.candidatesPerResult, tuning.minCandidates);
      out(
        `| top-10 vector-only, ${candidates} candidates re-ranked, ef_search ${Math.max(candidates, tuning.efSearch)}${tuning === base ? ' (default)' : ''} | p50 ${ms(percentile(times, 0.5))} ms, p95 ${ms(percentile(times, 0.95))} ms, ${recallCell(recalls, queries)} (load average ${load1()}) |`,
      );
    }
  } finally {
    embedder.stop();
    await pool.end();
    await kept.pool.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
