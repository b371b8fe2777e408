// The @ list's fuzzy filter: subsequence matching, ranking (file names, word starts, runs), limits, and
// the untrusted-message guard for a picked candidate.
import assert from 'node:assert/strict';
import { fuzzyFilter, fuzzyScore, isMentionCandidate, type MentionCandidate } from '../../../src/shared/mentionCandidates';
import { isFromWebview } from '../../../src/shared/protocol';

const paths = [
  'src/core/chat/conversation.ts',
  'src/host/chat/chatController.ts',
  'docs/controls.md',
  'test/unit/chat/conversation.test.ts',
  'src/core/index/walker.ts',
  'README.md',
];

describe('shared/mentionCandidates fuzzy filter', () => {
  it('matches a subsequence case-insensitively and refuses characters out of order', () => {
    assert.notEqual(fuzzyScore('cc', 'src/host/chat/chatController.ts'), undefined);
    assert.notEqual(fuzzyScore('CHATCTRL', 'src/host/chat/chatController.ts'), undefined);
    assert.equal(fuzzyScore('tsx', 'src/core/index/walker.ts'), undefined);
    assert.equal(fuzzyScore('zz', 'README.md'), undefined);
    assert.equal(fuzzyScore('', 'anything'), 0);
  });

  it('ranks a match in the file name and at word starts above scattered ones', () => {
    const ranked = fuzzyFilter(paths, 'conv', (path) => path);
    assert.deepEqual(ranked.slice(0, 2), ['src/core/chat/conversation.ts', 'test/unit/chat/conversation.test.ts']);
    assert.equal(fuzzyFilter(paths, 'chatcon', (path) => path)[0], 'src/host/chat/chatController.ts');
    assert.equal(fuzzyFilter(paths, 'walker', (path) => path)[0], 'src/core/index/walker.ts');
    // camelCase humps count as word starts: "cC" finds chatController before controls.md's scattered c..c.
    assert.equal(fuzzyFilter(paths, 'chCo', (path) => path)[0], 'src/host/chat/chatController.ts');
  });

  it('keeps at most `limit` items, the first ones for an empty query, and nothing when nothing matches', () => {
    assert.deepEqual(
      fuzzyFilter(paths, '', (path) => path, 2),
      paths.slice(0, 2),
    );
    assert.equal(fuzzyFilter(paths, 's', (path) => path, 3).length, 3);
    assert.deepEqual(
      fuzzyFilter(paths, 'qqq', (path) => path),
      [],
    );
  });

  it('returns the same best items as a full sort over many paths', () => {
    const many = Array.from({ length: 5_000 }, (_, index) => `pkg${index % 37}/module${index}/file${index}.ts`);
    const top = fuzzyFilter(many, 'mod12fi', (path) => path, 20);
    const sorted = many
      .map((path, order) => ({ path, order, score: fuzzyScore('mod12fi', path) }))
      .filter((entry): entry is { path: string; order: number; score: number } => entry.score !== undefined)
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, 20)
      .map((entry) => entry.path);
    assert.deepEqual(top, sorted);
  });

  it('accepts a picked candidate of a known kind only', () => {
    const ok: MentionCandidate = { kind: 'file', id: 'file:///w/a.ts', label: 'a.ts' };
    assert.equal(isMentionCandidate(ok), true);
    assert.equal(isMentionCandidate({ ...ok, kind: 'shell' }), false);
    assert.equal(isMentionCandidate({ kind: 'file', id: 3, label: 'a' }), false);
    assert.equal(isFromWebview({ type: 'mention/attach', candidate: ok }), true);
    assert.equal(isFromWebview({ type: 'mention/query', requestId: 1, query: 'ab' }), true);
    assert.equal(isFromWebview({ type: 'chat/send', text: 'hi', options: {}, mentions: ['0123456789abcdef'] }), true);
    assert.equal(isFromWebview({ type: 'chat/send', text: 'hi', options: {}, mentions: ['../../etc/passwd'] }), false);
  });
});

describe('chat/context/fileCatalog ListFilter', () => {
  it('gives, key by key, the same offers as filtering the whole list, and starts over when the query is not an extension', async () => {
    const { ListFilter, filterListed } = await import('../../../src/core/chat/context/fileCatalog');
    const list = Array.from({ length: 3_000 }, (_, index) => {
      const label = `pkg${index % 13}/src/${['chat', 'store', 'model'][index % 3] ?? ''}/file${index}.ts`;
      return { kind: 'file' as const, root: 0, relPath: label, label, lower: label.toLowerCase() };
    });
    const filter = new ListFilter();
    for (const query of ['', 'c', 'ch', 'cha', 'chat', 'chatF', 'chatFi1', 'mod', 'model', 'mode', 'zz']) {
      assert.deepEqual(filter.filter(list, query, 20), filterListed(list, query, 20), `query ${query}`);
    }
  });
});
