// Cadenza's vector search against what a user would otherwise pick, on the same data and queries:
// a float32 SIMD scan (simsimd, per row, as JavaScript code would call it; and usearch's native
// brute force), HNSW from usearch (f32 and i8) and from hnswlib-node. Every index is tuned along its
// own knob (Cadenza: sketch candidates; HNSW: ef at search time) and reported at each setting, then
// at the setting with the least CPU per query that reaches recall@10 >= 0.95 against exact float search.
// Wall times and CPU times are both printed: on a shared machine CPU time is the steadier figure.
// The peers are native modules of bench/localIndex/peers' own package (bench/localIndex/peerModules.ts says why), loaded only
// when this bench runs; none enters the VSIX.
// Run: npm run bench:peers -- [--sizes=100000x4096,1000000x1024] [--queries=50] [--budget-min=25]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { contentHash } from '../../src/core/index/hashing';
import { HybridSearch } from '../../src/core/index/search';
import { IndexStore } from '../../src/core/index/store/indexStore';
import { TopK } from '../../src/core/index/topK';
import { loadPeerModules, type PeerModules } from './peerModules';
import { Clustered, exactTopK, median, ms, p95, recallAt10 } from './vectors';

export interface PeerOptions {
  readonly sizes: readonly { n: number; dim: number }[];
  readonly queries: number;
  /** Wall-clock budget for one HNSW build; a build that would overrun stops and is reported as such. */
  readonly budgetMinutes: number;
}

interface Row {
  readonly index: string;
  readonly build: string;
  readonly memory: string;
  readonly knob: string;
  readonly p50: number;
  readonly p95: number;
  /** Median CPU time of a query (this process, all threads): far less sensitive to other load than wall time. */
  readonly cpu: number;
  readonly recall: number;
}

type Out = (line?: string) => void;

const gc = (): void => {
  (globalThis as { gc?: () => void }).gc?.();
};
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
const rss = (): number => process.memoryUsage().rss;
const secs = (t: number): string => `${(t / 1000).toFixed(1)} s`;
const cpuOf = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
const cpuSecs = (since: NodeJS.CpuUsage): string => `${cpuOf(since).toFixed(1)} s`;
/** For a build stopped at `done` of `n`: the CPU a whole build would take, at least (HNSW grows like n log n). */
const projected = (cpu: string, done: number, n: number): string =>
  `whole build >= ${((Number.parseFloat(cpu) * n) / Math.max(1, done) / 60).toFixed(1)} CPU min`;

/** Runs `search` for every query, timing each; returns p50, p95 and mean recall@10 against `truth`. */
function measure(
  queries: readonly Float32Array[],
  truth: readonly number[][],
  search: (q: Float32Array) => number[],
): { p50: number; p95: number; cpu: number; recall: number } {
  const times: number[] = [];
  const cpu: number[] = [];
  let recall = 0;
  search(queries[0] ?? new Float32Array(0)); // one warm-up (JIT, page-in), not counted
  queries.forEach((q, i) => {
    const c = process.cpuUsage();
    const t = performance.now();
    const got = search(q);
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    recall += recallAt10(got, truth[i] ?? []);
  });
  return { p50: median(times), p95: p95(times), cpu: median(cpu), recall: recall / queries.length };
}

/** Runs the peers at each size; throws PeerModulesMissing (saying how to install them) before any work when they are absent. */
export async function peersBench(out: Out, options: PeerOptions): Promise<void> {
  const peers = loadPeerModules();
  for (const { n, dim } of options.sizes) await oneSize(out, n, dim, options, peers);
}

async function oneSize(out: Out, n: number, dim: number, options: PeerOptions, peers: PeerModules): Promise<void> {
  const { simsimd } = peers;
  const { Index: UsearchIndex, MetricKind, ScalarKind, exactSearch } = peers.usearch;
  const { HierarchicalNSW } = peers.hnswlib;
  const rows: Row[] = [];
  const clusters = Math.max(1000, Math.round(n / 100));
  const gen = new Clustered(clusters, dim);
  out(
    `## Vector search peers: ${n.toLocaleString('en')} x ${dim.toLocaleString('en')} (clustered like real embeddings, ${clusters.toLocaleString('en')} topics), ${options.queries} queries, top-10, one search thread`,
  );
  let t = performance.now();
  let data: Float32Array | undefined = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) gen.fill(i, data.subarray(i * dim, (i + 1) * dim));
  const queries = Array.from({ length: options.queries }, (_, q) => gen.fill((q * 7919 + 13) % n, new Float32Array(dim), 1.2));
  out(
    `(${cpus().length} cores, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} at the start: other work shares these cores, so times are upper bounds)`,
  );
  out(
    `(data generated in ${secs(performance.now() - t)}; float32 data ${mb(n * dim * 4)}; queries are noisy copies of stored vectors, so each has a clear neighbourhood)`,
  );

  // The reference: exact float32 dot products in plain JavaScript. Its own latency is the first row.
  const truth: number[][] = [];
  const refTimes: number[] = [];
  const refCpu: number[] = [];
  for (const q of queries) {
    const c = process.cpuUsage();
    t = performance.now();
    truth.push(exactTopK(data, dim, n, q, 10));
    refTimes.push(performance.now() - t);
    const used = process.cpuUsage(c);
    refCpu.push((used.user + used.system) / 1000);
  }
  rows.push({
    index: 'float32 scan, scalar JavaScript (the reference)',
    build: '-',
    memory: mb(n * dim * 4),
    knob: 'exact',
    p50: median(refTimes),
    p95: p95(refTimes),
    cpu: median(refCpu),
    recall: 1,
  });

  const d = data;
  const simdRow = measure(queries, truth, (q) => {
    const top = new TopK(10);
    for (let i = 0; i < n; i++) top.offer(simsimd.dot(q, d.subarray(i * dim, (i + 1) * dim)), i);
    return top.sorted().map((h) => h.id);
  });
  rows.push({ index: 'float32 SIMD scan, simsimd.dot per row', build: '-', memory: mb(n * dim * 4), knob: 'exact', ...simdRow });

  const bruteRow = measure(queries, truth, (q) => {
    const found = exactSearch(d, q, dim, 10, MetricKind.IP, 1);
    return Array.from('keys' in found ? found.keys : [], (k) => Number(k));
  });
  rows.push({ index: 'float32 SIMD scan, usearch exactSearch (native)', build: '-', memory: mb(n * dim * 4), knob: 'exact', ...bruteRow });
  out(`(exact scans measured; ${new Date().toISOString().slice(11, 19)})`);

  // Cadenza: the product's own store and search path, int8 rows, SIMD kernel, sketch pre-filter.
  gc();
  let before = rss();
  let cpuAt = process.cpuUsage();
  t = performance.now();
  const { store } = await IndexStore.open({ path: undefined, modelId: 'bench', dimension: dim, preferSimd: true });
  const CHUNKS_PER_FILE = 4;
  for (let f = 0; f * CHUNKS_PER_FILE < n; f++) {
    const chunks = [];
    for (let c = 0; c < CHUNKS_PER_FILE && f * CHUNKS_PER_FILE + c < n; c++) {
      const i = f * CHUNKS_PER_FILE + c;
      const hash = contentHash(`chunk ${i}`);
      store.addVectors([{ hash, vector: d.subarray(i * dim, (i + 1) * dim) }]);
      chunks.push({ startLine: c * 40 + 1, endLine: c * 40 + 40, hash });
    }
    store.putFile({ path: `f${f}`, hash: contentHash(`f${f}`), size: 1, mtimeMs: 0, chunks });
  }
  const idOf = (p: string, line: number): number => Number(p.slice(1)) * CHUNKS_PER_FILE + (line - 1) / 40;
  const cadenzaBuild = performance.now() - t;
  const cadenzaCpu = cpuSecs(cpuAt);
  for (const candidates of [400, 1000, 2500, 6000]) {
    const search = new HybridSearch(store, undefined, { candidates });
    t = performance.now();
    await search.warm();
    const warm = performance.now() - t;
    const row = measure(queries, truth, (q) => search.semantic(q, 10).map((h) => idOf(h.location.path, h.location.startLine)));
    rows.push({
      index: `Cadenza int8, its own search path${store.arena?.simd ? '' : ' (NO SIMD!)'}`,
      build: `${secs(cadenzaBuild)} (CPU ${cadenzaCpu}) + sketch ${secs(warm)}`,
      memory: mb(rss() - before),
      knob: `candidates ${candidates}`,
      ...row,
    });
  }
  await store.close();
  out(`(Cadenza measured; ${new Date().toISOString().slice(11, 19)})`);
  gc();

  // usearch HNSW: built once with 2 threads (this machine's cores), saved, then viewed at each ef.
  const dir = mkdtempSync(path.join(tmpdir(), 'cadenza-peers-'));
  try {
    for (const [label, quantization, metric] of [
      ['usearch HNSW f32', ScalarKind.F32, MetricKind.IP],
      ['usearch HNSW i8', ScalarKind.I8, MetricKind.Cos],
    ] as const) {
      gc();
      before = rss();
      const file = path.join(dir, `${quantization}.usearch`);
      const config = { dimensions: dim, metric, quantization, connectivity: 16, expansion_add: 128, multi: false };
      const index = new UsearchIndex({ ...config, expansion_search: 64 });
      cpuAt = process.cpuUsage();
      t = performance.now();
      const BATCH = 1_000;
      let added = 0;
      const deadline = t + options.budgetMinutes * 60_000;
      while (added < n && performance.now() < deadline) {
        const count = Math.min(BATCH, n - added);
        const keys = new BigUint64Array(count);
        for (let i = 0; i < count; i++) keys[i] = BigInt(added + i);
        index.add(keys, d.subarray(added * dim, (added + count) * dim), 2);
        added += count;
      }
      const build = performance.now() - t;
      const buildCpu = cpuSecs(cpuAt);
      const memory = rss() - before;
      if (added < n) {
        rows.push({
          index: label,
          build: `stopped at ${added.toLocaleString('en')} of ${n.toLocaleString('en')} after ${secs(build)} (CPU ${buildCpu}; ${projected(buildCpu, added, n)})`,
          memory: mb(memory),
          knob: '-',
          p50: NaN,
          p95: NaN,
          cpu: NaN,
          recall: NaN,
        });
        continue;
      }
      index.save(file);
      for (const ef of [16, 32, 64, 128, 256, 512]) {
        const view = new UsearchIndex({ ...config, expansion_search: ef });
        view.view(file);
        const row = measure(queries, truth, (q) => {
          const found = view.search(q, 10, 1);
          return Array.from(found.keys, (k) => Number(k));
        });
        rows.push({
          index: label,
          build: `${secs(build)} (CPU ${buildCpu}, 2 threads)`,
          memory: `${mb(memory)} (file ${mb(statSync(file).size)})`,
          knob: `ef ${ef}`,
          ...row,
        });
      }
      out(`(${label} measured; ${new Date().toISOString().slice(11, 19)})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  gc();

  // hnswlib-node: single-threaded inserts (its Node binding has no batch or thread option).
  before = rss();
  const hnsw = new HierarchicalNSW('ip', dim);
  hnsw.initIndex(n, 16, 128, 100);
  cpuAt = process.cpuUsage();
  t = performance.now();
  const deadline = t + options.budgetMinutes * 60_000;
  let inserted = 0;
  while (inserted < n && (inserted % 1000 !== 0 || performance.now() < deadline)) {
    hnsw.addPoint(Array.from(d.subarray(inserted * dim, (inserted + 1) * dim)), inserted);
    inserted++;
  }
  const hnswBuild = performance.now() - t;
  const hnswCpu = cpuSecs(cpuAt);
  const hnswMemory = rss() - before;
  if (inserted < n) {
    rows.push({
      index: 'hnswlib-node HNSW f32',
      build: `stopped at ${inserted.toLocaleString('en')} of ${n.toLocaleString('en')} after ${secs(hnswBuild)} (CPU ${hnswCpu}, 1 thread; ${projected(hnswCpu, inserted, n)})`,
      memory: mb(hnswMemory),
      knob: '-',
      p50: NaN,
      p95: NaN,
      cpu: NaN,
      recall: NaN,
    });
  } else {
    for (const ef of [16, 32, 64, 128, 256, 512]) {
      hnsw.setEf(ef);
      const row = measure(queries, truth, (q) => hnsw.searchKnn(Array.from(q), 10).neighbors);
      rows.push({ index: 'hnswlib-node HNSW f32', build: `${secs(hnswBuild)} (CPU ${hnswCpu}, 1 thread)`, memory: mb(hnswMemory), knob: `ef ${ef}`, ...row });
    }
  }
  data = undefined;
  gc();

  out();
  out('| index | build (wall, CPU) | memory (RSS growth) | setting | query p50 | query p95 | query CPU p50 | recall@10 |');
  out('|---|---|---:|---|---:|---:|---:|---:|');
  for (const r of rows)
    out(
      `| ${r.index} | ${r.build} | ${r.memory} | ${r.knob} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.cpu)} | ${Number.isFinite(r.recall) ? r.recall.toFixed(3) : '-'} |`,
    );
  out();
  out(`### At recall@10 >= 0.95, the fastest setting of each (${n.toLocaleString('en')} x ${dim})`);
  out('| index | setting | query p50 | query p95 | query CPU p50 | recall@10 | build |');
  out('|---|---|---:|---:|---:|---:|---|');
  const best = new Map<string, Row>();
  for (const r of rows) {
    if (!(r.recall >= 0.95)) continue;
    const kept = best.get(r.index);
    if (!kept || r.cpu < kept.cpu) best.set(r.index, r);
  }
  for (const r of [...best.values()].sort((a, b) => a.cpu - b.cpu))
    out(`| ${r.index} | ${r.knob} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.cpu)} | ${r.recall.toFixed(3)} | ${r.build} |`);
  const missing = [...new Set(rows.map((r) => r.index))].filter((name) => !best.has(name));
  if (missing.length > 0) out(`(no setting reached 0.95: ${missing.join('; ')})`);
  out();
}

/** Parses `--sizes=100000x4096,1000000x1024` and friends from argv. */
export function peerOptions(argv: readonly string[]): PeerOptions {
  const value = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = (value('sizes') ?? '100000x4096,1000000x1024').split(',').map((s) => {
    const [n, dim] = s.split('x').map(Number);
    if (!n || !dim || dim % 16 !== 0) throw new Error(`bad size "${s}": want NxD with D a multiple of 16`);
    return { n, dim };
  });
  return { sizes, queries: Number(value('queries') ?? 50), budgetMinutes: Number(value('budget-min') ?? 25) };
}
