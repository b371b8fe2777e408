// Scoring for bench/retrieval/retrieval: builds Cadenza's in-memory index (IndexStore with int8 vectors,
// KeywordIndex, HybridSearch) over the embedded files, runs every query through vector-only, BM25-only
// and the shipped hybrid, and compares fusion functions on a tuning split and a held-out split (by file,
// so tuning never sees a held-out file's code).
import { createHash } from 'node:crypto';
import { KeywordIndex } from '../../src/core/index/bm25';
import { fuseRanked, type ChunkLocation, type HybridOptions, type RankedLists } from '../../src/core/index/fusion';
import { contentHash } from '../../src/core/index/hashing';
import { HybridSearch } from '../../src/core/index/search';
import { IndexStore } from '../../src/core/index/store/indexStore';
import type { CorpusChunk, CorpusQuery } from './retrievalCorpus';
import { DIMENSION, EMBED_MODEL, type EmbeddingCache } from './retrievalEmbed';
import { annRecall } from './retrievalAnn';

type Out = (line?: string) => void;

/** recall@10, MRR@10 and nDCG@10 (binary relevance) of one ranking. */
export function metrics(ranked: readonly number[], targets: readonly number[]): { recall: number; mrr: number; ndcg: number } {
  const relevant = new Set(targets);
  let found = 0;
  let mrr = 0;
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (!relevant.has(id)) return;
    found++;
    if (mrr === 0) mrr = 1 / (i + 1);
    dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return { recall: found / relevant.size, mrr, ndcg: ideal > 0 ? dcg / ideal : 0 };
}

const locationKey = (l: ChunkLocation): string => `${l.path}\u0000${l.startLine}\u0000${l.endLine}`;
/** Ties go to the earlier path and line, as in fuseRanked. */
const byLocation = (a: ChunkLocation, b: ChunkLocation): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine);

/** The fusion Cadenza shipped before this benchmark: plain RRF (k 60), vector and keyword lists weighted 1. */
export function rrfBefore(lists: RankedLists, k = 10): ChunkLocation[] {
  const key = locationKey;
  const merged = new Map<string, { location: ChunkLocation; score: number }>();
  const add = (l: ChunkLocation, rank: number): void => {
    const e = merged.get(key(l)) ?? { location: { path: l.path, startLine: l.startLine, endLine: l.endLine }, score: 0 };
    e.score += 1 / (61 + rank);
    merged.set(key(l), e);
  };
  const seen = new Set<string>();
  lists.semantic.forEach((h, r) => {
    if (seen.has(key(h.location))) return;
    seen.add(key(h.location));
    add(h.location, r);
  });
  lists.keyword.forEach((h, r) => add(h, r));
  lists.exact.forEach((h, r) => add(h, r));
  return [...merged.values()]
    .sort((a, b) => b.score - a.score || byLocation(a.location, b.location))
    .slice(0, k)
    .map((e) => e.location);
}

/**
 * Distribution-based score fusion (z-scores): each list's scores standardised by the mean and standard
 * deviation of the list read, so a list counts by how far its hit stands out from that list's own
 * scores, not by its rank or its best; a chunk absent from a list gets that list's floor (its lowest z).
 */
export function zFusion(lists: RankedLists, alpha: number, k = 10, exactWeight = 0): ChunkLocation[] {
  const key = locationKey;
  const stats = (xs: readonly number[]): { mean: number; sd: number } => {
    const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length)) || 1;
    return { mean, sd };
  };
  const v = stats(lists.semantic.map((h) => h.score));
  const kw = stats(lists.keyword.map((h) => h.score));
  const vFloor = lists.semantic.length > 0 ? (Math.min(...lists.semantic.map((h) => h.score)) - v.mean) / v.sd : 0;
  const kFloor = lists.keyword.length > 0 ? (Math.min(...lists.keyword.map((h) => h.score)) - kw.mean) / kw.sd : 0;
  const e = new Map<string, { location: ChunkLocation; vz?: number; kz?: number; exact?: boolean }>();
  const get = (l: ChunkLocation) => {
    let x = e.get(key(l));
    if (!x) e.set(key(l), (x = { location: { path: l.path, startLine: l.startLine, endLine: l.endLine } }));
    return x;
  };
  for (const h of lists.semantic) {
    const x = get(h.location);
    x.vz ??= (h.score - v.mean) / v.sd;
  }
  for (const h of lists.keyword) {
    const x = get(h);
    x.kz ??= (h.score - kw.mean) / kw.sd;
  }
  for (const h of lists.exact) get(h).exact = true;
  const score = (x: { vz?: number; kz?: number; exact?: boolean }): number =>
    alpha * (x.vz ?? vFloor) + (1 - alpha) * (x.kz ?? kFloor) + (x.exact ? exactWeight : 0);
  return [...e.values()]
    .sort((a, b) => score(b) - score(a) || byLocation(a.location, b.location))
    .slice(0, k)
    .map((x) => x.location);
}

/** Lists cut to `depth`, as a backend reading each list that deep would return them. */
function cut(lists: RankedLists, depth: number): RankedLists {
  return { semantic: lists.semantic.slice(0, depth), keyword: lists.keyword.slice(0, depth), exact: lists.exact.slice(0, depth) };
}

interface Prepared {
  readonly query: CorpusQuery;
  readonly lists: RankedLists;
  /** What `HybridSearch.search` answers with its defaults (the extension's path). */
  readonly shipped: readonly ChunkLocation[];
  readonly held: boolean;
}

interface Row {
  readonly name: string;
  readonly rank: (p: Prepared) => readonly ChunkLocation[];
}

function table(
  out: Out,
  title: string,
  rows: readonly Row[],
  prepared: readonly Prepared[],
  idOf: (l: ChunkLocation) => number,
): Map<string, { tune: number; held: number }> {
  const ndcgs = new Map<string, { tune: number; held: number }>();
  out();
  out(title);
  out('| ranking | tune recall@10 | tune MRR@10 | tune nDCG@10 | held-out recall@10 | held-out MRR@10 | held-out nDCG@10 |');
  out('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    const sums = { tune: { recall: 0, mrr: 0, ndcg: 0, n: 0 }, held: { recall: 0, mrr: 0, ndcg: 0, n: 0 } };
    for (const p of prepared) {
      const m = metrics(row.rank(p).map(idOf), p.query.targets);
      const s = p.held ? sums.held : sums.tune;
      s.recall += m.recall;
      s.mrr += m.mrr;
      s.ndcg += m.ndcg;
      s.n++;
    }
    const f = (x: number, n: number): string => (n > 0 ? (x / n).toFixed(3) : '-');
    out(
      `| ${row.name} | ${f(sums.tune.recall, sums.tune.n)} | ${f(sums.tune.mrr, sums.tune.n)} | ${f(sums.tune.ndcg, sums.tune.n)} | ${f(sums.held.recall, sums.held.n)} | ${f(sums.held.mrr, sums.held.n)} | ${f(sums.held.ndcg, sums.held.n)} |`,
    );
    ndcgs.set(row.name, { tune: sums.tune.ndcg / Math.max(1, sums.tune.n), held: sums.held.ndcg / Math.max(1, sums.held.n) });
  }
  return ndcgs;
}

/** Runs the comparison and prints its tables. */
export function evaluate(
  files: readonly { chunks: CorpusChunk[]; queries: CorpusQuery[] }[],
  cache: EmbeddingCache,
  out: Out,
  options: { ann: boolean },
): void {
  if (files.length === 0) {
    out('nothing embedded yet');
    return;
  }
  const storeReady = IndexStore.open({ path: undefined, modelId: EMBED_MODEL, dimension: DIMENSION });
  void storeReady.then(({ store }) => {
    const keywords = new KeywordIndex();
    const ids = new Map<string, number>();
    const key = locationKey;
    for (const f of files) {
      const chunks = f.chunks.map((c) => {
        const hash = contentHash(c.text);
        if (!store.hasVector(hash)) store.addVectors([{ hash, vector: cache.get(c.text) ?? new Float32Array(DIMENSION) }]);
        ids.set(key(c), c.id);
        return { startLine: c.startLine, endLine: c.endLine, hash };
      });
      const first = f.chunks[0];
      if (!first) continue;
      store.putFile({ path: first.path, hash: contentHash(first.path), size: 0, mtimeMs: 0, chunks });
      keywords.setFile(
        first.path,
        f.chunks.map((c) => ({ startLine: c.startLine, endLine: c.endLine, text: c.text })),
      );
    }
    const search = new HybridSearch(store, keywords);
    const idOf = (l: ChunkLocation): number => ids.get(key(l)) ?? -1;
    const prepared: Prepared[] = files.flatMap((f) =>
      f.queries.map((query) => ({
        query,
        lists: search.lists({ text: query.text, vector: cache.get(query.text) ?? new Float32Array(DIMENSION) }, 100),
        shipped: search.search({ text: query.text, vector: cache.get(query.text) ?? new Float32Array(DIMENSION) }, { k: 10 }),
        // Split by file: the low bit of a hash of the path.
        held: (createHash('sha256').update(query.path).digest()[0] ?? 0) % 2 === 1,
      })),
    );
    const tune = prepared.filter((p) => !p.held).length;
    out(`queries: ${tune} tuning, ${prepared.length - tune} held out (split by file); ${store.vectorCount} distinct chunk vectors`);
    const fused =
      (o: HybridOptions) =>
      (p: Prepared): ChunkLocation[] =>
        fuseRanked(cut(p.lists, o.depth ?? 30), { k: 10, ...o });
    const base: Row[] = [
      { name: 'vector only (cosine)', rank: (p) => p.lists.semantic.slice(0, 10).map((h) => h.location) },
      { name: 'BM25 only', rank: (p) => p.lists.keyword.slice(0, 10) },
      { name: 'hybrid before: RRF k=60, weights 1:1', rank: (p) => rrfBefore(cut(p.lists, 30)) },
      { name: 'hybrid shipped (HybridSearch.search defaults)', rank: (p) => p.shipped },
    ];
    const base0 = table(out, '## Vector-only, BM25-only and the hybrid', base, prepared, idOf);
    const grid: Row[] = [];
    for (const wv of [0.5, 0.75, 1, 1.5, 2, 3])
      for (const rrfK of [5, 20, 60])
        grid.push({ name: `RRF k=${rrfK}, vector weight ${wv}`, rank: fused({ fusion: 'rrf', rrfK, vectorWeight: wv, depth: 30 }) });
    for (const alpha of [0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
      for (const depth of [30, 100])
        grid.push({
          name: `score fusion alpha=${alpha}, depth ${depth}`,
          rank: fused({ fusion: 'score', vectorWeight: alpha, keywordWeight: 1 - alpha, depth }),
        });
    for (const alpha of [0.5, 0.7])
      grid.push({
        name: `score fusion alpha=${alpha}, depth 30, no exact list`,
        rank: fused({ fusion: 'score', vectorWeight: alpha, keywordWeight: 1 - alpha, exactWeight: 0, depth: 30 }),
      });
    for (const rrfK of [1, 2, 5, 10, 60])
      for (const wv of [0.5, 0.75, 1])
        grid.push({
          name: `RRF k=${rrfK}, vector weight ${wv}, no exact list`,
          rank: (p) => fuseRanked(cut({ ...p.lists, exact: [] }, 30), { k: 10, fusion: 'rrf', rrfK, vectorWeight: wv }),
        });
    for (const alpha of [0.3, 0.4, 0.5, 0.6])
      for (const depth of [30, 100]) grid.push({ name: `z-score fusion alpha=${alpha}, depth ${depth}`, rank: (p) => zFusion(cut(p.lists, depth), alpha) });
    for (const alpha of [0.4, 0.5])
      grid.push({ name: `z-score fusion alpha=${alpha}, depth 30, exact +1`, rank: (p) => zFusion(cut(p.lists, 30), alpha, 10, 1) });
    const results = table(out, '## Fusion variants (choose on tuning, read on held-out)', grid, prepared, idOf);
    // The choice: best tuning nDCG@10 among variants that read the lists 30 deep (what search reads
    // today, so a query costs the same); the depth-100 rows are for information.
    const best = [...results].filter(([name]) => name.includes('depth 30') || !name.includes('depth')).sort((a, b) => b[1].tune - a[1].tune)[0];
    if (best) out(`best on the tuning split (read depth 30): ${best[0]} (tuning nDCG@10 ${best[1].tune.toFixed(3)}, held-out ${best[1].held.toFixed(3)})`);
    for (const name of ['hybrid before: RRF k=60, weights 1:1', 'hybrid shipped (HybridSearch.search defaults)']) {
      const h = base0.get(name);
      const v = base0.get('vector only (cosine)');
      const b = base0.get('BM25 only');
      if (h && v && b)
        out(
          `${name}: nDCG@10 over the better single ranker, tuning ${(100 * (h.tune - Math.max(v.tune, b.tune))).toFixed(1)} points, held-out ${(100 * (h.held - Math.max(v.held, b.held))).toFixed(1)} points`,
        );
    }
    // By source, both halves pooled: where each ranking wins.
    const sources = [...new Set(prepared.map((p) => p.query.source))];
    const pick: Row[] = [
      ...base,
      ...grid.filter((r) =>
        ['RRF k=5, vector weight 0.5', 'RRF k=5, vector weight 0.75', 'z-score fusion alpha=0.4, depth 100', 'score fusion alpha=0.4, depth 100'].includes(
          r.name,
        ),
      ),
    ];
    out();
    out(`## nDCG@10 by source (both halves pooled)`);
    out(`| ranking | ${sources.map((src) => `${src} (${prepared.filter((p) => p.query.source === src).length})`).join(' | ')} | all (${prepared.length}) |`);
    out(`| --- | ${sources.map(() => '---:').join(' | ')} | ---: |`);
    for (const row of pick) {
      const by = (list: readonly Prepared[]): string =>
        (list.reduce((a, p) => a + metrics(row.rank(p).map(idOf), p.query.targets).ndcg, 0) / Math.max(1, list.length)).toFixed(3);
      out(`| ${row.name} | ${sources.map((src) => by(prepared.filter((p) => p.query.source === src))).join(' | ')} | ${by(prepared)} |`);
    }
    const distinct = new Map<string, Float32Array>();
    for (const f of files) for (const c of f.chunks) distinct.set(contentHash(c.text), cache.get(c.text) ?? new Float32Array(DIMENSION));
    if (options.ann)
      annRecall(
        [...distinct.values()],
        prepared.map((p) => cache.get(p.query.text) ?? new Float32Array(DIMENSION)),
        out,
      );
  });
}
