// ANN recall of Cadenza's vector search (the sketch pre-filter of core/index/vectorSearch.ts) against
// exact float search, on the real e5-small vectors of bench/retrieval/retrieval, and its query latency.
import { performance } from 'node:perf_hooks';
import { VectorArena } from '../../src/core/index/store/vectorArena';
import { VectorSearcher } from '../../src/core/index/vectorSearch';

type Out = (line?: string) => void;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

function normalised(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  const n = Math.sqrt(dot(out, out)) || 1;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / n;
  return out;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Recall@10 against exact float cosine over `rows` (each row one real vector; `copies` > 1 repeats the
 * real vectors to reach a size, and then a result counts as right when its exact cosine reaches the
 * 10th best: every copy of a vector ties, so slot identity means nothing).
 */
function measure(out: Out, label: string, rows: Float32Array[], queries: Float32Array[], searcher: VectorSearcher): void {
  const arena = new VectorArena(rows[0]?.length ?? 384, { initialCapacity: rows.length });
  for (const r of rows) arena.setFloat(arena.allocate(), r);
  let recall = 0;
  const times: number[] = [];
  searcher.search(arena, queries[0] ?? new Float32Array(arena.dimension), 10, () => true); // builds the sketch
  for (const q of queries) {
    const scores = rows.map((r) => dot(r, q));
    const tenth = [...scores].sort((a, b) => b - a)[9] ?? -Infinity;
    const t = performance.now();
    const got = searcher.search(arena, q, 10, () => true);
    times.push(performance.now() - t);
    recall += got.filter((h) => (scores[h.slot] ?? -Infinity) >= tenth - 1e-6).length / 10;
  }
  out(`| ${label} | ${rows.length} | ${(recall / queries.length).toFixed(3)} | ${median(times).toFixed(2)} ms | ${Math.max(...times).toFixed(2)} ms |`);
}

/**
 * How deep in the sketch's ranking the true top 10 lie: for each query, the share of the corpus the
 * pre-filter would have to pass for 95% of the top 10 to survive (it passes 400 rows, 0.4% of 100,000).
 * Reads the searcher's first stage through its private name: the bench measures, it does not change it.
 */
function sketchDepth(out: Out, rows: Float32Array[], queries: Float32Array[]): void {
  const arena = new VectorArena(rows[0]?.length ?? 384, { initialCapacity: rows.length });
  for (const r of rows) arena.setFloat(arena.allocate(), r);
  const searcher = new VectorSearcher({ exactBelow: 0 });
  const shares: number[] = [];
  for (const q of queries) {
    const truth = rows
      .map((r, i) => ({ i, s: dot(r, q) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10)
      .map((x) => x.i);
    const order: number[] = searcher['firstStage'](arena, q, rows.length, () => true);
    const position = new Map(order.map((slot, rank) => [slot, rank]));
    const depths = truth.map((slot) => position.get(slot) ?? rows.length).sort((a, b) => a - b);
    shares.push(((depths[Math.ceil(0.95 * depths.length) - 1] ?? rows.length) + 1) / rows.length);
  }
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const sorted = [...shares].sort((a, b) => a - b);
  out(
    `sketch depth for recall 0.95 of the top 10, ${rows.length} real vectors: median ${pct(median(shares))}, 90th percentile ${pct(sorted[Math.floor(0.9 * sorted.length)] ?? 1)} of the corpus (the default passes 400 rows: 0.4% at 100,000)`,
  );
}

/** Prints ANN and int8-exact recall@10 at the embedded size and at 100,000 rows. */
export function annRecall(chunkVectors: readonly Float32Array[], queryVectors: readonly Float32Array[], out: Out): void {
  const rows = chunkVectors.map(normalised);
  const queries = queryVectors.slice(0, 200).map(normalised);
  out();
  out('## Vector search against exact float cosine (real e5-small vectors, 384-d)');
  out('| search | rows | recall@10 | median latency | max latency |');
  out('| --- | ---: | ---: | ---: | ---: |');
  measure(out, 'int8 exact scan', rows, queries, new VectorSearcher({ exactBelow: Infinity }));
  measure(out, 'sketch pre-filter, 400 candidates (forced)', rows, queries, new VectorSearcher({ exactBelow: 0 }));
  const copies = Math.ceil(100_000 / rows.length);
  const big: Float32Array[] = [];
  for (let c = 0; c < copies && big.length < 100_000; c++) for (const r of rows) if (big.length < 100_000) big.push(r);
  measure(out, `int8 exact scan, real vectors repeated ${copies}x`, big, queries.slice(0, 50), new VectorSearcher({ exactBelow: Infinity }));
  measure(
    out,
    `the default search (exact below 4,096-d, sketch above 20,000 rows for wider vectors), repeated ${copies}x`,
    big,
    queries.slice(0, 50),
    new VectorSearcher({}),
  );
  out();
  sketchDepth(out, rows, queries);
}
