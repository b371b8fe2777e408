// How the HNSW graph's build parameters change what a walk finds, on a sample of a database kept by
// bench/teamIndex/teamIndex (`--keep`): the first SAMPLE vectors, projected as the product indexes them (pgSql
// `indexed`: the fold to 2,048 halfvec components for 4,096 dimensions), copied into a table of their own;
// for each "m:ef_construction" in GRAPHS an HNSW index is built on it and the walk's top 10 is compared
// with the exact top 10 of the same projection (a sequential scan), at each ef_search in EF. This
// separates the graph's recall from the projection's (bench/teamIndex/teamIndexProjections). Prints figures;
// asserts nothing.
// Run: npx tsc -p tsconfig.json && node out/bench/teamIndex/teamIndexGraph.js [chunks] (default 1000000: the kept database)
// Env: SAMPLE (100000), QUERIES (100), GRAPHS ('16:64,16:200,32:64,32:128'), EF ('40,120,400'), PG_MAINTENANCE_MEM ('2GB'), TEAM_BENCH_DIR.
import { performance } from 'node:perf_hooks';
import { embedText } from '../../test/support/emulator/embeddings';
import { DIM, openKept, vectorText } from './teamIndexLoad';

const SAMPLE = Number(process.env['SAMPLE'] ?? 100_000);
const QUERIES = Number(process.env['QUERIES'] ?? 100);
const GRAPHS = (process.env['GRAPHS'] ?? '16:64,16:200,32:64,32:128').split(',').map((pair) => pair.split(':').map(Number) as [number, number]);
const EF = (process.env['EF'] ?? '40,120,400').split(',').map(Number);
const WIDTH = 2048;
const fold = (x: string): string => `(subvector(${x}, 1, ${WIDTH}) + subvector(${x}, ${WIDTH + 1}, ${WIDTH}))::halfvec(${WIDTH})`;

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

async function main(): Promise<void> {
  const target = Number(process.argv[2] ?? 1_000_000);
  const kept = await openKept(target, QUERIES);
  const { pool, snapshot } = kept;
  try {
    const queries = kept.queries.map((q) => vectorText(embedText(q, DIM)));
    let t = performance.now();
    await pool.query('DROP TABLE IF EXISTS graph_probe');
    // A sample spread over the whole load (hash order is random), not its first files.
    await pool.query(
      `CREATE TABLE graph_probe AS SELECT hash, ${fold(`embedding::vector(${DIM})`)} AS f FROM cadenza_vectors WHERE model_id = $1 ORDER BY hash LIMIT ${SAMPLE}`,
      [snapshot.modelId],
    );
    out(
      `team index graph probe: bench_${target}, ${SAMPLE.toLocaleString('en-US')} vectors folded to ${WIDTH} (copied in ${((performance.now() - t) / 1000).toFixed(0)} s), ${QUERIES} queries`,
    );
    t = performance.now();
    const truths: Set<string>[] = [];
    for (const q of queries) {
      const rows = await pool.query<{ hash: string }>(`SELECT hash FROM graph_probe ORDER BY f <=> ${fold('$1::vector')} LIMIT 10`, [q]);
      truths.push(new Set(rows.rows.map((row) => row.hash)));
    }
    out(`exact top 10 by the fold: ${((performance.now() - t) / QUERIES).toFixed(0)} ms per query (sequential scan)`);
    out("| m | ef_construction | build | graph size | ef_search | recall@10 (of the fold's exact top 10) | p50 | p95 |");
    out('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const [m, efc] of GRAPHS) {
      await pool.query('DROP INDEX IF EXISTS graph_probe_hnsw');
      const client = await pool.connect();
      t = performance.now();
      try {
        await client.query(`SET maintenance_work_mem = '${process.env['PG_MAINTENANCE_MEM'] ?? '2GB'}'`);
        await client.query(`CREATE INDEX graph_probe_hnsw ON graph_probe USING hnsw (f halfvec_cosine_ops) WITH (m = ${m}, ef_construction = ${efc})`);
      } finally {
        client.release();
      }
      const build = (performance.now() - t) / 1000;
      const size = Number((await pool.query<{ s: string }>("SELECT pg_relation_size('graph_probe_hnsw') AS s")).rows[0]?.s);
      for (const ef of EF) {
        let recall = 0;
        const times: number[] = [];
        const c = await pool.connect();
        try {
          for (const [i, q] of queries.entries()) {
            await c.query('BEGIN');
            await c.query("SELECT set_config('hnsw.ef_search', $1, true), set_config('enable_seqscan', 'off', true)", [String(ef)]);
            const started = performance.now();
            const rows = await c.query<{ hash: string }>(`SELECT hash FROM graph_probe ORDER BY f <=> ${fold('$1::vector')} LIMIT 10`, [q]);
            times.push(performance.now() - started);
            await c.query('COMMIT');
            const truth = truths[i] ?? new Set<string>();
            recall += rows.rows.filter((row) => truth.has(row.hash)).length / Math.max(1, truth.size);
          }
        } finally {
          c.release();
        }
        times.sort((a, b) => a - b);
        const pct = (p: number): string => (times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN).toFixed(1);
        out(
          `| ${m} | ${efc} | ${build.toFixed(0)} s | ${(size / 1e6).toFixed(0)} MB | ${ef} | ${(recall / queries.length).toFixed(3)} | ${pct(0.5)} ms | ${pct(0.95)} ms |`,
        );
      }
    }
    await pool.query('DROP TABLE graph_probe');
  } finally {
    await pool.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
