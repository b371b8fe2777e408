import { strict as assert } from 'node:assert';
import type { HybridQuery } from '../../../src/core/index/fusion';
import { searchIndexes, type SearchSources } from '../../../src/core/index/searchPolicy';
import type { IndexSearchResult } from '../../../src/core/index/workspaceIndex';

function result(relPath: string, score: number): IndexSearchResult {
  return { path: `ws/${relPath}`, root: 'ws', relPath, absPath: `/ws/${relPath}`, startLine: 1, endLine: 2, score, matched: 'both' };
}

/** Sources whose every call is recorded; each part can be replaced. */
function sources(overrides: Partial<SearchSources> = {}): SearchSources & { readonly log: string[] } {
  const log: string[] = [];
  const local = {
    search: (query: HybridQuery, options: { k: number }): IndexSearchResult[] => {
      log.push(`local ${query.text ?? ''} ${query.vector ? 'vector' : 'words'} k=${options.k}`);
      return [result('src/local.ts', 0.9)];
    },
  };
  return {
    teamConfigured: () => {
      log.push('team?');
      return Promise.resolve(false);
    },
    local: () => {
      log.push('open');
      return Promise.resolve(local);
    },
    embed: () => {
      log.push('embed');
      return Promise.resolve(new Float32Array([1, 0]));
    },
    team: (query, k) => {
      log.push(`team ${query.text ?? ''} ${query.vector ? 'vector' : 'words'} k=${k}`);
      return Promise.resolve([result('src/team.ts', 0.8)]);
    },
    embedFailed: (error) => log.push(`embedFailed ${String(error)}`),
    teamFailed: (error) => log.push(`teamFailed ${String(error)}`),
    ...overrides,
    log,
  };
}

describe('searchPolicy: embed the query, fall back to words, the team index or the local one', () => {
  it('searches the local index by meaning and words when no team index is set', async () => {
    const from = sources();
    const answer = await searchIndexes('retry uploads', 5, from);
    assert.equal(answer.source, 'local');
    assert.deepEqual(
      answer.results.map((hit) => hit.relPath),
      ['src/local.ts'],
    );
    assert.deepEqual(from.log, ['team?', 'open', 'embed', 'local retry uploads vector k=5']);
  });

  it('asks nothing for a blank query', async () => {
    const from = sources();
    const answer = await searchIndexes('   ', 5, from);
    assert.deepEqual(answer, { source: 'none', results: [] });
    assert.deepEqual(from.log, []);
  });

  it('searches by words only when the query cannot be embedded (offline, no key), and says why', async () => {
    const from = sources({ embed: () => Promise.reject(new Error('offline')) });
    const answer = await searchIndexes('retry', 5, from);
    assert.equal(answer.source, 'local');
    assert.deepEqual(from.log.slice(-2), ['embedFailed Error: offline', 'local retry words k=5']);
  });

  it('asks the team index first when it is set, with the embedded query', async () => {
    const from = sources({ teamConfigured: () => Promise.resolve(true) });
    const answer = await searchIndexes('retry', 3, from);
    assert.equal(answer.source, 'team');
    assert.deepEqual(
      answer.results.map((hit) => hit.relPath),
      ['src/team.ts'],
    );
    assert.ok(from.log.includes('team retry vector k=3'));
    assert.ok(!from.log.some((entry) => entry.startsWith('local ')), 'the local index did not answer');
  });

  it('falls back to the local index when the team index cannot answer, and says why', async () => {
    const from = sources({ teamConfigured: () => Promise.resolve(true), team: () => Promise.reject(new Error('database down')) });
    const answer = await searchIndexes('retry', 3, from);
    assert.equal(answer.source, 'local');
    assert.deepEqual(from.log.slice(-2), ['teamFailed Error: database down', 'local retry vector k=3']);
  });

  it('with neither a local index nor a team index, embeds nothing and answers nothing', async () => {
    const from = sources({ local: () => Promise.resolve(undefined) });
    assert.deepEqual(await searchIndexes('retry', 3, from), { source: 'none', results: [] });
    assert.ok(!from.log.includes('embed'));
  });

  it('a team index with no local one falls back to nothing when the team cannot answer', async () => {
    const from = sources({
      teamConfigured: () => Promise.resolve(true),
      local: () => Promise.resolve(undefined),
      team: () => Promise.reject(new Error('down')),
    });
    assert.deepEqual(await searchIndexes('retry', 3, from), { source: 'none', results: [] });
    assert.ok(from.log.includes('embed'), 'the team was asked with the embedded query');
  });
});
