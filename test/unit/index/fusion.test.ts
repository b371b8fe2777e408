import * as assert from 'node:assert/strict';
import { fuseRanked, type ChunkLocation, type RankedLists } from '../../../src/core/index/fusion';

const at = (path: string, startLine = 1): ChunkLocation => ({ path, startLine, endLine: startLine + 9 });
const semantic = (...hits: [string, number][]): RankedLists['semantic'] => hits.map(([path, score]) => ({ location: at(path), score }));
const keyword = (...hits: [string, number][]): RankedLists['keyword'] => hits.map(([path, score]) => ({ ...at(path), score }));
// Score fusion is tested explicitly; the default is reciprocal-rank fusion (see fusion.ts).
const score = { fusion: 'score' } as const;
const paths = (lists: RankedLists, options: Parameters<typeof fuseRanked>[1] = score): string[] => fuseRanked(lists, options).map((r) => r.path);

describe('index/fusion', () => {
  it('keeps a clear vector hit first when the keyword list only matched common words elsewhere', () => {
    // The real-embedding failure of plain RRF: BM25's rank 1 (a common word in an unrelated file)
    // counted as much as the vectors' rank 1, so the right file fell to ranks 4-5.
    const lists: RankedLists = {
      semantic: semantic(['w/answer.ts', 0.91], ['w/b.ts', 0.84], ['w/c.ts', 0.83], ['w/d.ts', 0.82], ['w/e.ts', 0.81]),
      keyword: keyword(['w/x.ts', 3.1], ['w/y.ts', 3.0], ['w/z.ts', 2.9], ['w/d.ts', 1.2]),
      exact: [],
    };
    assert.equal(paths(lists)[0], 'w/answer.ts');
    // Plain RRF puts the file both lists hold at rank 4 above either list's clear first.
    assert.equal(paths(lists, { fusion: 'rrf' })[0], 'w/d.ts');
  });

  it('lifts a chunk both lists found above chunks only one list found at similar strength', () => {
    const lists: RankedLists = {
      semantic: semantic(['w/a.ts', 0.9], ['w/both.ts', 0.89], ['w/c.ts', 0.7]),
      keyword: keyword(['w/k.ts', 5], ['w/both.ts', 4.9], ['w/l.ts', 1]),
      exact: [],
    };
    const fused = fuseRanked(lists, score);
    assert.equal(fused[0]?.path, 'w/both.ts');
    assert.equal(fused[0]?.matched, 'both');
    assert.equal(fused[0]?.vectorScore, 0.89);
    assert.equal(fused[0]?.keywordScore, 4.9);
  });

  it('puts a chunk holding the query identifier verbatim first, even when the vectors rank it last', () => {
    const lists: RankedLists = {
      semantic: semantic(['w/n1.ts', 0.95], ['w/n2.ts', 0.94], ['w/n3.ts', 0.93], ['w/def.ts', 0.5]),
      keyword: keyword(['w/def.ts', 8], ['w/n1.ts', 1]),
      exact: [at('w/def.ts')],
    };
    const fused = fuseRanked(lists, score);
    assert.equal(fused[0]?.path, 'w/def.ts');
    assert.equal(fused[0]?.matched, 'both');
  });

  it('ranks by the keyword list alone when there is no query vector, and by the vectors alone without text', () => {
    assert.deepEqual(paths({ semantic: [], keyword: keyword(['w/a.ts', 3], ['w/b.ts', 2], ['w/c.ts', 1]), exact: [] }), ['w/a.ts', 'w/b.ts', 'w/c.ts']);
    assert.deepEqual(paths({ semantic: semantic(['w/a.ts', 0.8], ['w/b.ts', 0.7]), keyword: [], exact: [] }), ['w/a.ts', 'w/b.ts']);
    assert.deepEqual(fuseRanked({ semantic: [], keyword: [], exact: [] }, score), []);
  });

  it('copes with equal vector scores and breaks ties by path and line, so output is stable', () => {
    const lists: RankedLists = {
      semantic: [
        { location: at('w/b.ts', 11), score: 0.5 },
        { location: at('w/b.ts', 1), score: 0.5 },
        { location: at('w/a.ts'), score: 0.5 },
      ],
      keyword: [],
      exact: [],
    };
    assert.deepEqual(
      fuseRanked(lists, score).map((r) => `${r.path}:${r.startLine}`),
      ['w/a.ts:1', 'w/b.ts:1', 'w/b.ts:11'],
    );
  });

  it('returns k results, and a location listed twice by the vectors (identical chunks) once', () => {
    const lists: RankedLists = {
      semantic: semantic(['w/a.ts', 0.9], ['w/a.ts', 0.9], ['w/b.ts', 0.8], ['w/c.ts', 0.7]),
      keyword: keyword(['w/d.ts', 2]),
      exact: [],
    };
    const fused = fuseRanked(lists, { ...score, k: 3 });
    assert.equal(fused.length, 3);
    assert.equal(new Set(fused.map((r) => r.path)).size, 3);
  });

  it("defaults to reciprocal-rank fusion with k 5 and the vector list weighted 0.75 (bench/retrieval/retrieval's choice)", () => {
    const lists: RankedLists = { semantic: semantic(['w/a.ts', 0.9], ['w/b.ts', 0.1]), keyword: keyword(['w/b.ts', 9], ['w/a.ts', 1]), exact: [at('w/b.ts')] };
    const fused = fuseRanked(lists);
    assert.deepEqual(fused, fuseRanked(lists, { fusion: 'rrf', rrfK: 5, vectorWeight: 0.75, keywordWeight: 1 }), 'RRF k 5, weights 0.75 : 1 is the default');
    // b: vector rank 2, keyword rank 1, exact rank 1 (the exact list counts with the keyword weight).
    assert.equal(fused[0]?.path, 'w/b.ts');
    assert.ok(Math.abs((fused[0]?.score ?? 0) - (0.75 / 7 + 1 / 6 + 1 / 6)) < 1e-12);
    assert.ok(Math.abs((fused[1]?.score ?? 0) - (0.75 / 6 + 1 / 7)) < 1e-12);
  });

  it("keeps reciprocal-rank fusion's constant and weights as options", () => {
    const lists: RankedLists = { semantic: semantic(['w/a.ts', 0.9], ['w/b.ts', 0.1]), keyword: keyword(['w/b.ts', 9], ['w/a.ts', 1]), exact: [] };
    const fused = fuseRanked(lists, { rrfK: 60, vectorWeight: 1 });
    assert.ok(Math.abs((fused[0]?.score ?? 0) - (1 / 61 + 1 / 62)) < 1e-12);
    assert.equal(fuseRanked(lists, { fusion: 'rrf', vectorWeight: 2 })[0]?.path, 'w/a.ts');
    assert.equal(fuseRanked(lists, { fusion: 'rrf', keywordWeight: 2 })[0]?.path, 'w/b.ts');
  });
});
