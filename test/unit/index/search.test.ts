import * as assert from 'node:assert/strict';
import { KeywordIndex } from '../../../src/core/index/bm25';
import { contentHash } from '../../../src/core/index/hashing';
import { cosine } from '../../../src/core/index/quantize';
import { HybridSearch, e5QueryText, queryTextFor } from '../../../src/core/index/search';
import { IndexStore } from '../../../src/core/index/store/indexStore';
import { VectorArena } from '../../../src/core/index/store/vectorArena';
import { compoundIdentifiers, tokenize } from '../../../src/core/index/tokenize';
import { VectorSearcher } from '../../../src/core/index/vectorSearch';
import { fakeEmbedding } from './helpers';

const DIM = 64;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 4294967296;
  };
}

/** Clustered vectors sharing a common offset, like real embeddings (high baseline similarity). */
function clustered(n: number, dim: number, seed: number): Float32Array[] {
  const rand = rng(seed);
  const common = Float32Array.from({ length: dim }, () => rand() - 0.5);
  const centres = Array.from({ length: Math.max(1, Math.floor(n / 50)) }, () => Float32Array.from({ length: dim }, () => rand() - 0.5));
  return Array.from({ length: n }, (_, i) => {
    const c = centres[i % centres.length] ?? common;
    return Float32Array.from({ length: dim }, (_, d) => 2 * (common[d] ?? 0) + (c[d] ?? 0) + 0.6 * (rand() - 0.5));
  });
}

describe('index/tokenize and bm25', () => {
  it('tells compound identifiers from plain words', () => {
    assert.deepEqual(compoundIdentifiers('where is computeJitteredBackoff or MAX_RETRY and the retry loop'), ['computejitteredbackoff', 'max_retry']);
  });

  it('keeps whole identifiers and their camelCase and snake_case parts', () => {
    assert.deepEqual(tokenize('parseHttpRequest(MAX_RETRY_COUNT)'), [
      'parsehttprequest',
      'parse',
      'http',
      'request',
      'max_retry_count',
      'max',
      'retry',
      'count',
    ]);
    assert.deepEqual(tokenize('HTMLElement x y2'), ['htmlelement', 'html', 'element', 'y2']);
    assert.deepEqual(tokenize('naïve café'), ['naïve', 'café']);
  });

  it('ranks the chunk with the exact identifier first and forgets removed files', () => {
    const kw = new KeywordIndex();
    kw.setFile('w/a.ts', [{ startLine: 1, endLine: 5, text: 'function parseHttpRequest(raw) { return parse(raw); }' }]);
    kw.setFile('w/b.ts', [{ startLine: 1, endLine: 5, text: 'the http request is parsed by the parser of requests, parse parse http' }]);
    kw.setFile('w/c.ts', [{ startLine: 1, endLine: 5, text: 'unrelated text about colours' }]);
    assert.equal(kw.search('parseHttpRequest', 3)[0]?.path, 'w/a.ts');
    kw.removeFile('w/a.ts');
    assert.deepEqual(
      kw.search('parseHttpRequest', 3).map((h) => h.path),
      ['w/b.ts'],
    );
    assert.deepEqual(kw.search('nothing matches', 3), []);
  });

  it('stays correct after compacting many removed documents', () => {
    const kw = new KeywordIndex();
    for (let i = 0; i < 3000; i++) kw.setFile(`w/f${i}.ts`, [{ startLine: 1, endLine: 1, text: `token${i} shared` }]);
    for (let i = 0; i < 2900; i++) kw.removeFile(`w/f${i}.ts`);
    assert.equal(kw.size, 100);
    assert.equal(kw.search('token2950', 5)[0]?.path, 'w/f2950.ts');
    assert.equal(kw.search('shared', 500).length, 100);
  });
});

describe('index/vectorSearch', () => {
  it('two-stage search keeps recall@10 >= 0.95 against exact float search on clustered data', function () {
    this.timeout(120_000); // CPU-bound: seconds when idle, over 20 s on two loaded cores
    const dim = 4096; // the sketch has dim / 16 buckets, so test at the real width
    const vectors = clustered(4000, dim, 5);
    const arena = new VectorArena(dim);
    for (const v of vectors) arena.setFloat(arena.allocate(), v);
    const sketched = new VectorSearcher({ exactBelow: 0, candidates: 200 });
    const exactInt8 = new VectorSearcher({ exactBelow: Infinity });
    const rand = rng(9);
    let recall = 0;
    let recallInt8 = 0;
    const queries = 20;
    for (let q = 0; q < queries; q++) {
      const base = vectors[Math.floor(rand() * vectors.length)] ?? new Float32Array(dim);
      const query = Float32Array.from(base, (x) => x + 0.8 * (rand() - 0.5));
      const truth = vectors
        .map((v, i) => ({ i, s: cosine(v, query) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10)
        .map((x) => x.i);
      const got = sketched.search(arena, query, 10, () => true).map((h) => h.slot);
      const gotInt8 = exactInt8.search(arena, query, 10, () => true).map((h) => h.slot);
      recall += got.filter((s) => truth.includes(s)).length / 10;
      recallInt8 += gotInt8.filter((s) => truth.includes(s)).length / 10;
    }
    assert.ok(recallInt8 / queries >= 0.95, `int8 exact recall ${recallInt8 / queries}`);
    assert.ok(recall / queries >= 0.95, `two-stage recall ${recall / queries}`);
  });

  it('by default keeps recall@10 >= 0.95 above the exact-scan size when vectors are narrow (1,024-d: a 64-bucket sketch loses the top 10)', function () {
    this.timeout(120_000);
    const dim = 1024;
    const vectors = clustered(24_000, dim, 11);
    const arena = new VectorArena(dim);
    for (const v of vectors) arena.setFloat(arena.allocate(), v);
    const searcher = new VectorSearcher();
    const rand = rng(12);
    let recall = 0;
    const queries = 10;
    for (let q = 0; q < queries; q++) {
      const base = vectors[Math.floor(rand() * vectors.length)] ?? new Float32Array(dim);
      const query = Float32Array.from(base, (x) => x + 0.8 * (rand() - 0.5));
      const truth = vectors
        .map((v, i) => ({ i, s: cosine(v, query) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10)
        .map((x) => x.i);
      recall += searcher.search(arena, query, 10, () => true).filter((h) => truth.includes(h.slot)).length / 10;
    }
    assert.ok(recall / queries >= 0.95, `default recall@10 ${recall / queries} at 24,000 x 1,024`);
  });

  it('warms the sketch in the background and then answers like a cold search', async () => {
    const dim = 1024;
    const vectors = clustered(500, dim, 2);
    const arena = new VectorArena(dim);
    for (const v of vectors) arena.setFloat(arena.allocate(), v);
    const warm = new VectorSearcher({ exactBelow: 0, candidates: 100 });
    await warm.warm(arena);
    const cold = new VectorSearcher({ exactBelow: 0, candidates: 100 });
    const query = vectors[7] ?? new Float32Array(dim);
    assert.deepEqual(
      warm.search(arena, query, 5, () => true),
      cold.search(arena, query, 5, () => true),
    );
    assert.equal(warm.search(arena, query, 1, () => true)[0]?.slot, 7);
  });

  it('skips dead slots and picks up rewritten rows', () => {
    const arena = new VectorArena(DIM);
    const a = arena.allocate();
    const b = arena.allocate();
    arena.setFloat(a, fakeEmbedding('alpha beta', DIM));
    arena.setFloat(b, fakeEmbedding('gamma delta', DIM));
    const searcher = new VectorSearcher({ exactBelow: 0, candidates: 10 });
    const query = fakeEmbedding('gamma delta', DIM);
    assert.equal(searcher.search(arena, query, 1, () => true)[0]?.slot, b);
    assert.equal(searcher.search(arena, query, 1, (s) => s !== b)[0]?.slot, a);
    arena.setFloat(a, fakeEmbedding('gamma delta', DIM));
    const hits = searcher.search(arena, query, 2, () => true);
    assert.ok((hits[0]?.score ?? 0) > 0.99 && (hits[1]?.score ?? 0) > 0.99);
  });
});

describe('index/search (hybrid)', () => {
  async function build(docs: Record<string, string>): Promise<{ search: HybridSearch; store: IndexStore }> {
    const { store } = await IndexStore.open({ path: undefined, modelId: 'm', dimension: DIM });
    const kw = new KeywordIndex();
    for (const [path, text] of Object.entries(docs)) {
      const hash = contentHash(text);
      store.addVectors([{ hash, vector: fakeEmbedding(text, DIM) }]);
      store.putFile({ path, hash, size: text.length, mtimeMs: 0, chunks: [{ startLine: 1, endLine: 3, hash }] });
      kw.setFile(path, [{ startLine: 1, endLine: 3, text }]);
    }
    return { search: new HybridSearch(store, kw), store };
  }

  const docs: Record<string, string> = {
    'w/auth.ts': 'export function login(user, password) { return checkCredentials(user, password); }',
    'w/math.ts': 'export function sum(values) { return values.reduce((a, b) => a + b, 0); }',
    'w/ui.ts': 'export function render(button) { draw(button.label); paint(button.frame); }',
    'w/retry.ts': 'const backoffMs = computeJitteredBackoff(attempt); wait for the service to recover',
    ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`w/noise${i}.ts`, `retry attempt wait service recover backoff delay ${i} sleep loop`])),
  };

  it('finds by meaning with no shared word (semantic)', async () => {
    const { search } = await build(docs);
    const hits = search.search({ text: 'sign in with credentials', vector: fakeEmbedding('authenticate signin credentials', DIM) }, { k: 3 });
    assert.equal(hits[0]?.path, 'w/auth.ts');
    assert.ok(hits[0]?.matched === 'semantic' || hits[0]?.matched === 'both');
  });

  it('finds an exact identifier that vector search ranks low, and says which list matched', async () => {
    const { search } = await build(docs);
    const vector = fakeEmbedding('retry attempt wait service recover backoff delay sleep loop', DIM);
    const semanticOnly = search.semantic(vector, 40).map((h) => h.location.path);
    assert.ok(semanticOnly.indexOf('w/retry.ts') > 9, `vector rank ${semanticOnly.indexOf('w/retry.ts')}`);
    const hits = search.search({ text: 'computeJitteredBackoff', vector }, { k: 5 });
    const found = hits.find((h) => h.path === 'w/retry.ts');
    assert.ok(found, 'exact identifier in the top 5');
    assert.notEqual(found.matched, 'semantic');
    assert.ok((found.keywordScore ?? 0) > 0);
    assert.equal(hits.indexOf(found), 0);
    // The noise chunks share only the part "backoff": keyword-matched, but ranked below the exact hit.
    assert.ok(hits.slice(1).every((h) => h.matched === 'both'));
  });

  it('works with text only (no embedding service) and with a vector only', async () => {
    const { search } = await build(docs);
    assert.equal(search.search({ text: 'checkCredentials' })[0]?.matched, 'keyword');
    assert.equal(search.search({ vector: fakeEmbedding('sum total add', DIM) })[0]?.path, 'w/math.ts');
    assert.deepEqual(search.search({}), []);
  });

  it('returns every file that shares an identical chunk', async () => {
    const { search } = await build({ 'w/one.ts': 'same text here', 'w/two.ts': 'same text here', 'w/other.ts': 'different words' });
    const paths = search
      .search({ vector: fakeEmbedding('same text here', DIM) }, { k: 2 })
      .map((h) => h.path)
      .sort();
    assert.deepEqual(paths, ['w/one.ts', 'w/two.ts']);
  });

  it('formats E5 queries with an instruction', () => {
    assert.equal(
      e5QueryText('where is retry?'),
      'Instruct: Given a code search query, retrieve relevant code snippets and documentation\nQuery: where is retry?',
    );
  });

  it('gives the instruction only to instruction-tuned embedding models, and the plain query to the others', () => {
    assert.equal(queryTextFor('where is retry?', 'E5-Mistral-7B-Instruct'), e5QueryText('where is retry?'));
    assert.equal(queryTextFor('where is retry?', 'multilingual-e5-small-q4'), 'where is retry?');
    assert.equal(queryTextFor('where is retry?', 'cadenza-minilm-embed'), 'where is retry?');
  });
});
