// How much of the true neighbourhood each candidate projection of a 4,096-dimension vector keeps, on a
// database kept by bench/teamIndex/teamIndex (`--keep`), without any graph: one sequential pass over every vector
// of the snapshot computes, for RECALL_QUERIES queries at once, the exact cosine distance and the distance
// under each projection (the fold to 2,048 the HNSW index uses today, the first N components as halfvec,
// the whole vector as halfvec); then for each projection and depth it prints recall@10 of "the exact top
// `depth` by the projection, re-ranked on the full vector" (the best any graph on that projection can do
// with that many candidates), and the same re-ranked on the halfvec copy instead of the full vector.
// Prints figures; asserts nothing.
// Run: npx tsc -p tsconfig.json && node out/bench/teamIndex/teamIndexProjections.js [chunks] (default 1000000)
// Env: RECALL_QUERIES (10), HASH_BELOW (only vectors whose hex hash sorts below it: '01' is a 1/256 sample, to try the statement), FIRST_WIDTHS ('4000'), DEPTHS ('10,40,80,160,320'), TEAM_BENCH_DIR, PG_SHARED_BUFFERS.
import { performance } from 'node:perf_hooks';
import { FOLD_WIDTH } from '../../src/core/index/pg/pgSql';
import { embedText } from '../../test/support/emulator/embeddings';
import { DIM, openKept, vectorText } from './teamIndexLoad';

const RECALL_QUERIES = Number(process.env['RECALL_QUERIES'] ?? 10);
const FIRST_WIDTHS = (process.env['FIRST_WIDTHS'] ?? '4000').split(',').map(Number);
const DEPTHS = (process.env['DEPTHS'] ?? '10,40,80,160,320').split(',').map(Number);

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

interface Projection {
  readonly name: string;
  /** The projected value of `x`, a detoasted vector(DIM). */
  readonly sql: (x: string) => string;
}

const fold = (x: string): string =>
  `(${Array.from({ length: DIM / FOLD_WIDTH }, (_, i) => `subvector(${x}, ${i * FOLD_WIDTH + 1}, ${FOLD_WIDTH})`).join(' + ')})::halfvec(${FOLD_WIDTH})`;
const PROJECTIONS: readonly Projection[] = [
  { name: `the fold to ${FOLD_WIDTH} (halfvec; today's graph)`, sql: fold },
  ...FIRST_WIDTHS.map((w) => ({ name: `the first ${w} components (halfvec)`, sql: (x: string) => `subvector(${x}, 1, ${w})::halfvec(${w})` })),
];
const HALF = (x: string): string => `${x}::halfvec(${DIM})`;

async function main(): Promise<void> {
  const target = Number(process.argv[2] ?? 1_000_000);
  const { pool, snapshot, queries } = await openKept(target, RECALL_QUERIES);
  try {
    const metrics = ['x.e', ...PROJECTIONS.map((p) => p.sql('x.e')), HALF('x.e')];
    const queryMetrics = ['q.v', ...PROJECTIONS.map((p) => p.sql('q.v')), HALF('q.v')];
    const maxDepth = Math.max(...DEPTHS);
    // One pass: the vector is detoasted once per row (the typmod cast in an OFFSET 0 subquery), then every
    // metric is computed against every query; ranks per query and metric come from window functions.
    const sql = `WITH qs AS MATERIALIZED (SELECT i, ${queryMetrics.map((m, j) => `${m} AS m${j}`).join(', ')} FROM unnest($2::text[]) WITH ORDINALITY AS t(txt, i), LATERAL (SELECT txt::vector(${DIM}) AS v) q),
      snap AS MATERIALIZED (SELECT DISTINCT c.hash FROM cadenza_entries e JOIN cadenza_chunks c ON c.blob_id = e.blob_id WHERE e.snapshot_id = $1),
      d AS MATERIALIZED (
        SELECT v.hash, y.* FROM cadenza_vectors v JOIN snap USING (hash)
        CROSS JOIN LATERAL (SELECT v.embedding::vector(${DIM}) AS e OFFSET 0) x0
        CROSS JOIN LATERAL (SELECT ${metrics.map((m, j) => `${m.replace(/x\.e/g, 'x0.e')} AS p${j}`).join(', ')} OFFSET 0) x
        CROSS JOIN LATERAL (SELECT ${metrics.map((_, j) => `array_agg(x.p${j} <=> q.m${j} ORDER BY q.i) AS d${j}`).join(', ')} FROM qs q) y
        WHERE v.model_id = $3 AND v.hash < $4),
      u AS (SELECT d.hash, u.* FROM d, unnest(${metrics.map((_, j) => `d.d${j}`).join(', ')}) WITH ORDINALITY AS u(${metrics.map((_, j) => `d${j}`).join(', ')}, i)),
      r AS (SELECT u.*, ${metrics.map((_, j) => `rank() OVER (PARTITION BY i ORDER BY d${j}, hash) AS r${j}`).join(', ')} FROM u)
      SELECT * FROM r WHERE ${metrics.map((_, j) => `r${j} <= ${maxDepth}`).join(' OR ')}`;
    const started = performance.now();
    const client = await pool.connect();
    type Row = Record<string, string | number>;
    let rows: Row[];
    try {
      await client.query('BEGIN READ ONLY');
      await client.query("SELECT set_config('work_mem', '2GB', true), set_config('max_parallel_workers_per_gather', '0', true)");
      rows = (
        await client.query<Row>(sql, [snapshot.id, queries.map((q) => vectorText(embedText(q, DIM))), snapshot.modelId, process.env['HASH_BELOW'] ?? 'g'])
      ).rows;
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    out(`team index projections: bench_${target}, snapshot c1, ${RECALL_QUERIES} queries, one pass in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    out('| projection | candidates (exact top by the projection) | recall@10, re-ranked on the full vector | recall@10, re-ranked on halfvec(4096) |');
    out('| --- | --- | --- | --- |');
    const half = metrics.length - 1;
    const byQuery = new Map<number, Row[]>();
    for (const row of rows) byQuery.set(Number(row['i']), [...(byQuery.get(Number(row['i'])) ?? []), row]);
    const recallOf = (j: number, depth: number, rerank: number): number => {
      let sum = 0;
      for (const list of byQuery.values()) {
        const truth = new Set(list.filter((row) => Number(row['r0']) <= 10).map((row) => row['hash']));
        const top = list
          .filter((row) => Number(row[`r${j}`]) <= depth)
          .sort((a, b) => Number(a[`d${rerank}`]) - Number(b[`d${rerank}`]))
          .slice(0, 10);
        sum += top.filter((row) => truth.has(row['hash'])).length / Math.max(1, truth.size);
      }
      return sum / Math.max(1, byQuery.size);
    };
    for (const [k, projection] of PROJECTIONS.entries()) {
      for (const depth of DEPTHS)
        out(`| ${projection.name} | ${depth} | ${recallOf(k + 1, depth, 0).toFixed(3)} | ${recallOf(k + 1, depth, half).toFixed(3)} |`);
    }
    out(`| the whole vector as halfvec(${DIM}) | 10 | ${recallOf(half, 10, 0).toFixed(3)} | ${recallOf(half, 10, half).toFixed(3)} |`);
  } finally {
    await pool.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
