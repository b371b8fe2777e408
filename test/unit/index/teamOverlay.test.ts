import { strict as assert } from 'node:assert';
import type { RankedLists } from '../../../src/core/index/fusion';
import { fuseRanked } from '../../../src/core/index/fusion';
import { mapLists, overlayLists, teamPathToLocal } from '../../../src/core/index/teamOverlay';
import { formatAge, shortCommit, teamStatusText } from '../../../src/core/index/teamStatus';

const at = (path: string, line = 1): { path: string; startLine: number; endLine: number } => ({ path, startLine: line, endLine: line + 9 });

describe('team index overlay', () => {
  it("team paths become the workspace folder's paths; other repositories are dropped", () => {
    assert.equal(teamPathToLocal('acme/src/a.ts', 'acme', 'checkout'), 'checkout/src/a.ts');
    assert.equal(teamPathToLocal('other/src/a.ts', 'acme', 'checkout'), undefined);
    const mapped = mapLists(
      {
        semantic: [
          { location: at('acme/a.ts'), score: 0.9 },
          { location: at('other/b.ts'), score: 0.8 },
        ],
        keyword: [{ ...at('acme/c.ts'), score: 3 }],
        exact: [at('other/d.ts')],
      },
      (p) => teamPathToLocal(p, 'acme', 'w'),
    );
    assert.deepEqual(
      mapped.semantic.map((h) => h.location.path),
      ['w/a.ts'],
    );
    assert.deepEqual(
      mapped.keyword.map((h) => h.path),
      ['w/c.ts'],
    );
    assert.deepEqual(mapped.exact, []);
  });

  it("an uncommitted file answers from the local index and the team's copy of it is dropped from every list", () => {
    const team: RankedLists = {
      semantic: [
        { location: at('w/changed.ts'), score: 0.95 },
        { location: at('w/stable.ts'), score: 0.7 },
      ],
      keyword: [
        { ...at('w/changed.ts'), score: 9 },
        { ...at('w/stable.ts'), score: 4 },
      ],
      exact: [at('w/changed.ts')],
    };
    const local: RankedLists = {
      semantic: [
        { location: at('w/changed.ts', 20), score: 0.8 },
        { location: at('w/old-local.ts'), score: 0.99 },
      ],
      keyword: [{ ...at('w/changed.ts', 20), score: 12 }],
      exact: [at('w/changed.ts', 20)],
    };
    const lists = overlayLists(team, local, (p) => p === 'w/changed.ts', 30);
    // Vector hits merge by cosine; a local file that is no longer uncommitted is not used.
    assert.deepEqual(
      lists.semantic.map((h) => `${h.location.path}:${h.location.startLine}`),
      ['w/changed.ts:20', 'w/stable.ts:1'],
    );
    assert.deepEqual(
      lists.keyword.map((h) => `${h.path}:${h.startLine}`),
      ['w/stable.ts:1', 'w/changed.ts:20'],
    );
    assert.deepEqual(
      lists.exact.map((h) => `${h.path}:${h.startLine}`),
      ['w/changed.ts:20'],
    );
    const fused = fuseRanked(lists, { k: 5 });
    assert.equal(fused[0]?.path, 'w/changed.ts');
    assert.equal(fused[0]?.startLine, 20);
    assert.ok(!fused.some((r) => r.path === 'w/changed.ts' && r.startLine === 1), "the team's stale chunk is gone");
  });

  it("with nothing uncommitted the team's lists are unchanged", () => {
    const team: RankedLists = { semantic: [{ location: at('w/a.ts'), score: 0.5 }], keyword: [{ ...at('w/b.ts'), score: 1 }], exact: [] };
    assert.deepEqual(
      overlayLists(team, { semantic: [], keyword: [], exact: [] }, () => false, 30),
      team,
    );
  });

  it('the status says which commit answers and how old it is', () => {
    assert.equal(shortCommit('0123456789abcdef0123456789abcdef01234567'), '0123456');
    assert.equal(shortCommit('main'), 'main');
    assert.equal(formatAge(30_000), 'just now');
    assert.equal(formatAge(12 * 60_000), '12 min');
    assert.equal(formatAge(3 * 3_600_000), '3 h');
    assert.equal(formatAge(5 * 86_400_000), '5 days');
    const updatedAt = new Date('2026-01-01T10:00:00Z');
    assert.equal(
      teamStatusText({ repository: 'r', commit: 'a'.repeat(40), model: 'm', updatedAt }, updatedAt.getTime() + 2 * 3_600_000),
      'Team index aaaaaaa, 2 h old',
    );
  });
});
