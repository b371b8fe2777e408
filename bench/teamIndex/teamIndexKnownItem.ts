// Known-item retrieval on a kept team index database (bench/teamIndex/teamIndex --keep): each query is four words of
// four or more letters from a chunk sampled from the first files of the checkout (benchItems, as the latency
// queries are made), and the question is where that chunk ranks: in the keyword list alone and in the fused hybrid top
// 10 (the query's embedding from the emulator, as the latency runs use). Prints figures; asserts nothing.
// Run: npx tsc -p tsconfig.json && [CORPUS=real] node out/bench/teamIndex/teamIndexKnownItem.js SIZE
// Env: QUERIES (150), RANK_CAP (the keyword passes' cap, KEYWORD_RANK_CAP by default: the quality side of its trade-off).
import { performance } from 'node:perf_hooks';
import { chunkText } from '../../src/core/index/chunker';
import { KEYWORD_RANK_CAP } from '../../src/core/index/pg/pgSql';
import { PgTeamIndex } from '../../src/core/index/pg/pgTeamIndex';
import { embedText } from '../../test/support/emulator/embeddings';
import { CORPUS_LABEL, REPO, benchItems, fileText, relOf } from './teamIndexCheckout';
import { DIM, MODEL, openKept } from './teamIndexLoad';

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 0);
  const count = Number(process.env['QUERIES'] ?? 150);
  const { pool } = await openKept(size, 0);
  try {
    const items: { text: string; path: string; line: number }[] = [];
    for (let i = 0, n = 0; i < 2000 && items.length < 5000; i++)
      for (const chunk of chunkText(fileText(i))) if (++n % 7 === 0) items.push({ text: chunk.text, path: `${REPO}/${relOf(i)}`, line: chunk.startLine });
    const queries = benchItems(
      items.map((item) => item.text),
      count,
    ).map(({ source, query }) => ({ item: items[source] ?? { text: '', path: '', line: 0 }, text: query }));
    const cap = Number(process.env['RANK_CAP'] ?? KEYWORD_RANK_CAP);
    const team = await PgTeamIndex.open(pool, REPO, MODEL, 'c1', undefined, cap);
    if (!team) throw new Error('no snapshot');
    const score = { keyword10: 0, keyword50: 0, keywordRr: 0, hybrid10: 0, hybridRr: 0 };
    const t = performance.now();
    const textMs: number[] = [];
    for (const { item, text } of queries) {
      const t1 = performance.now();
      const keyword = (await team.lists({ text }, 50)).keyword;
      textMs.push(performance.now() - t1);
      const k = keyword.findIndex((hit) => hit.path === item.path && hit.startLine === item.line);
      if (k >= 0) {
        score.keyword50++;
        score.keywordRr += 1 / (k + 1);
        if (k < 10) score.keyword10++;
      }
      const hybrid = await team.search({ text, vector: Float32Array.from(embedText(text, DIM)) }, { k: 10 });
      const h = hybrid.findIndex((hit) => hit.path === item.path && hit.startLine === item.line);
      if (h >= 0) {
        score.hybrid10++;
        score.hybridRr += 1 / (h + 1);
      }
    }
    const share = (x: number): string => (x / count).toFixed(3);
    textMs.sort((a, b) => a - b);
    const at = (p: number): string => (textMs[Math.min(textMs.length - 1, Math.floor(p * textMs.length))] ?? NaN).toFixed(1);
    process.stdout.write(
      `known-item search on bench_${size} (${CORPUS_LABEL}), ${count} queries, keyword passes rank at most ${cap} matches, ${((performance.now() - t) / 1000).toFixed(0)} s\n`,
    );
    process.stdout.write(`| text side (keyword + identifier lists, 50 deep) | p50 ${at(0.5)} ms, p95 ${at(0.95)} ms |\n`);
    process.stdout.write(
      `| keyword list alone | source chunk in top 10 ${share(score.keyword10)}, in top 50 ${share(score.keyword50)}, MRR@50 ${share(score.keywordRr)} |\n`,
    );
    process.stdout.write(
      `| hybrid top 10 (vector + keyword + identifiers, fused) | source chunk in top 10 ${share(score.hybrid10)}, MRR@10 ${share(score.hybridRr)} |\n`,
    );
  } finally {
    await pool.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
