// Benchmark of the team index (PostgreSQL 18 + pgvector 0.8 from test/pg/setup.sh, a throwaway cluster
// on loopback): builds a snapshot of a generated workspace through the same path as `cadenza-index`
// (walk, chunk, IndexRun, PgRunStore) with the emulator's deterministic 4,096-dimension embeddings
// computed in-process, then top-10 query latency through PgTeamIndex (p50, p95), recall@10 of the
// vector list against exact cosine search, database size per chunk, and the incremental run of one
// commit touching 20 files; the local index's query latency on the same chunks for comparison.
// Prints figures; asserts nothing.
// Run: npx tsc -p tsconfig.json && node out/bench/team-index.js [files, default 5000]
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { buildTeamIndex } from '../src/core/index/pg/teamIndexer';
import { PgTeamIndex } from '../src/core/index/pg/pgTeamIndex';
import { WorkspaceIndex } from '../src/core/index/workspaceIndex';
import { embedText } from '../test/emulator/embeddings';
import { startPostgres } from '../test/pg/pgServer';

const DIM = 4096;
const MODEL = 'E5-Mistral-7B-Instruct';
const QUERIES = 40;
const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const words = ['parse', 'request', 'buffer', 'retry', 'token', 'stream', 'cache', 'index', 'vector', 'query', 'render', 'encode', 'decode', 'socket', 'timer', 'config', 'logger', 'schema', 'commit', 'branch'];

function source(i: number, salt = ''): string {
  const a = words[i % words.length] ?? 'x';
  const b = words[Math.floor(i / words.length) % words.length] ?? 'y';
  const c = words[Math.floor(i / 400) % words.length] ?? 'z';
  return `/** ${a} the ${b} for the ${c} layer ${salt}. */\nexport function ${a}${b[0]?.toUpperCase()}${b.slice(1)}${i}(input: string): string {\n  const ${c} = input.split('${a}');\n  return ${c}.map((part) => part.trim() + '${b}${i}').join('\\n');\n}\n`;
}

const embed = (texts: readonly string[]): Promise<Float32Array[]> => Promise.resolve(texts.map((t) => Float32Array.from(embedText(t, DIM))));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const files = Number(process.argv[2] ?? 5000);
  const pg = await startPostgres();
  const pool = new Pool({ connectionString: pg.url, max: 4 });
  const dir = mkdtempSync(path.join(tmpdir(), 'cadenza-team-bench-'));
  try {
    for (let i = 0; i < files; i++) {
      const sub = path.join(dir, `pkg${i % 50}`);
      mkdirSync(sub, { recursive: true });
      writeFileSync(path.join(sub, `file${i}.ts`), source(i));
    }
    let embedded = 0;
    const countingEmbed = async (texts: readonly string[]): Promise<Float32Array[]> => {
      embedded += texts.length;
      return embed(texts);
    };
    let started = performance.now();
    const first = await buildTeamIndex({ root: dir, repository: 'bench', commit: 'c1', model: MODEL, pool, embed: countingEmbed, batchSize: 64, concurrency: 2 });
    const buildMs = performance.now() - started;
    out(`team index, ${first.files} files, ${first.chunks} chunks, ${DIM} dimensions (pgvector HNSW on the first 4,000 components as halfvec + exact cosine re-rank)`);
    out(`  build: ${(buildMs / 1000).toFixed(1)} s (${Math.round(first.chunks / (buildMs / 1000))} chunks/s incl. in-process embedding), ${embedded} embedded`);
    const size = await pool.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n');
    out(`  database size: ${(Number(size.rows[0]?.n) / 1e6).toFixed(1)} MB, ${Math.round(Number(size.rows[0]?.n) / first.chunks)} bytes per chunk`);

    const team = await PgTeamIndex.open(pool, 'bench', MODEL);
    if (!team) throw new Error('no snapshot');
    const queries = Array.from({ length: QUERIES }, (_, q) => `${words[q % words.length] ?? ''} ${words[(q * 7) % words.length] ?? ''} layer function ${q * 13}`);
    const latencies: number[] = [];
    let recall = 0;
    for (const text of queries) {
      const vector = Float32Array.from(embedText(text, DIM));
      started = performance.now();
      await team.search({ text, vector }, { k: 10 });
      latencies.push(performance.now() - started);
      const approx = (await team.lists({ vector }, 10)).semantic.map((h) => h.location.path);
      const exact = await pool.query<{ path: string }>(
        `SELECT c.path FROM cadenza_chunks c JOIN cadenza_vectors v ON v.hash = c.hash WHERE c.snapshot_id = $1 ORDER BY v.embedding <=> $2::vector, c.path LIMIT 10`,
        [team.snapshot.id, `[${Array.from(vector).join(',')}]`],
      );
      const truth = new Set(exact.rows.map((r) => r.path));
      recall += approx.filter((p) => truth.has(p)).length / Math.max(1, truth.size);
    }
    latencies.sort((a, b) => a - b);
    out(`  top-10 hybrid query (vector + full text + exact, fused): p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p95 ${percentile(latencies, 0.95).toFixed(1)} ms over ${QUERIES} queries`);
    out(`  recall@10 of the vector list against exact cosine: ${(recall / QUERIES).toFixed(3)}`);

    for (let i = 0; i < 20; i++) writeFileSync(path.join(dir, `pkg${i % 50}`, `file${i}.ts`), source(i, 'changed'));
    embedded = 0;
    started = performance.now();
    const second = await buildTeamIndex({ root: dir, repository: 'bench', commit: 'c2', model: MODEL, pool, embed: countingEmbed, batchSize: 64, concurrency: 2 });
    out(`  commit touching 20 files: ${embedded} chunks embedded, ${second.chunksReused} reused, ${((performance.now() - started) / 1000).toFixed(1)} s (new snapshot: re-reads and re-writes ${second.files} file rows)`);

    const local = (await WorkspaceIndex.open({ roots: [{ name: 'bench', path: dir }], storagePath: undefined, modelId: MODEL, embed: (texts) => embed(texts) })).index;
    await local.sync();
    const localLatencies: number[] = [];
    for (const text of queries) {
      const vector = Float32Array.from(embedText(text, DIM));
      started = performance.now();
      local.search({ text, vector }, { k: 10 });
      localLatencies.push(performance.now() - started);
    }
    localLatencies.sort((a, b) => a - b);
    out(`local index, same ${first.chunks} chunks: p50 ${percentile(localLatencies, 0.5).toFixed(1)} ms, p95 ${percentile(localLatencies, 0.95).toFixed(1)} ms`);
    await local.close();
  } finally {
    await pool.end();
    pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
