// The team index's SQL read as source, and its default tuning, without a database: statements are constants and
// values parameters (the one interpolated text is a checked integer), and how wide a search walks the graph.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { dimensionOf } from '../../../../src/core/index/pg/pgSql';
import { defaultTuning } from '../../../../src/core/index/pg/pgTeamIndex';

const repoRoot = path.resolve(__dirname, '../../../../..');

describe('team index SQL and tuning, read without a database', () => {
  it("walks the graph 400 wide by default whatever the model's dimension, re-ranking more candidates only for a folded graph", () => {
    // A real model's 256-d vectors of 1,000,000 chunks: a 120-wide walk found 0.715 of the true top 10, 400 found 0.860 (bench/teamIndex/teamIndexRealModel).
    for (const d of [64, 256, 384, 1024, 2000, 3000])
      assert.deepEqual(defaultTuning(d), { candidatesPerResult: 2, minCandidates: 40, efSearch: 400 }, `${d} dimensions`);
    assert.deepEqual(defaultTuning(4096), { candidatesPerResult: 4, minCandidates: 160, efSearch: 400 });
  });

  it('builds no SQL by string concatenation: statements are constants, values parameters', () => {
    const dir = path.join(repoRoot, 'src', 'core', 'index', 'pg');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const source = readFileSync(path.join(dir, name), 'utf8');
      for (const call of source.matchAll(/\.query(?:<[^>]*>)?\(([^,)]+)/g)) {
        const first = (call[1] ?? '').trim();
        const constant =
          /^[A-Z][A-Z0-9_]*$/.test(first) || /^(semanticSql|hnswIndexSql|obsoleteHnswSql)\(/.test(first) || /^'[^'$`]*'$/.test(first) || first === 'sql';
        assert.ok(constant, `${name}: query(${first}) is not a constant statement`);
      }
      if (name === 'pgSql.ts') {
        const interpolations = [...source.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]);
        assert.ok(interpolations.length > 0);
        // Only checked integers, fixed operator and index names, and the private expressions (`indexed`,
        // `fullPrecision`, chosen as `expression`) over literal column names.
        const allowed = (expr: string): boolean =>
          [
            'd',
            'm',
            'w',
            'efConstruction',
            'order',
            'ops',
            'settings',
            'value',
            'String(value)',
            'String(i * w + 1)',
            "slices.join(' + ')",
            'name',
            "earlierHnswNames(dimension).join(', ')",
            'Math.min(d, MAX_HALF_HNSW_DIMENSION)',
            'FOLD_WIDTH',
            'WIDE_GRAPH_M',
            'WIDE_GRAPH_EF_CONSTRUCTION',
          ].includes(expr) || /^(indexed|expression)\(d, '[$\w.:]+'\)$/.test(expr);
        for (const expr of interpolations) assert.ok(allowed(expr ?? ''), `pgSql.ts interpolates \${${expr}}`);
      }
    }
    assert.throws(() => dimensionOf(4096.5));
    assert.throws(() => dimensionOf(Number('1; DROP TABLE x')));
    assert.equal(dimensionOf(4096), 4096);
  });
});
