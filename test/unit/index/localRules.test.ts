// Which local files the index (and so the team index's hits, the chat's workspace context and the search
// previews) may read: the team database names paths and lines, but only a file the local index itself
// would index is read, never more lines than a chunk holds; a link inside the workspace is judged by where
// it leads as well as by its own name; secret-looking files are never indexed.
import * as assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import type { RankedLists } from '../../../src/core/index/fusion';
import { IgnoreRules } from '../../../src/core/index/ignoreRules';
import { chunkSpan, teamResults, type TeamLists } from '../../../src/core/index/teamOverlay';
import { skipByPath, walkWorkspace } from '../../../src/core/index/walker';
import { WorkspaceIndex } from '../../../src/core/index/workspaceIndex';
import { Fixture, recordingEmbedder } from './helpers';

const DIM = 64;
/** The chunker's longest chunk at its defaults: 512 tokens, and every line costs at least one. */
const MAX_CHUNK_LINES = 512;

const SECRETS: Record<string, string> = {
  '.env': 'API_TOKEN=zebra-env-secret\n',
  '.git/config': '[credential]\n\thelper = store\n[remote "origin"]\n\turl = https://okapi-git-token@example.com/r.git\n',
  'deploy.pem': '-----BEGIN PRIVATE KEY-----\nquokka-pem-secret\n-----END PRIVATE KEY-----\n',
  'keys/prod-service-account.json': '{ "private_key": "wombat-sa-secret" }\n',
  'infra/terraform.tfstate.backup': '{ "password": "ibis-tfstate-secret" }\n',
  'ignored/notes.md': 'lynx-ignored-secret\n',
};
const secretWords = /zebra|okapi|quokka|wombat|ibis|lynx/;

function longFile(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const line${i} = ${i};`).join('\n');
}

describe('index: which local files may be read', () => {
  let fx: Fixture;
  beforeEach(() => {
    fx = new Fixture({ ...SECRETS, '.gitignore': '.env\nignored/\n', 'src/ok.ts': 'export const fine = 1;\n', 'src/big.ts': longFile(3000) });
  });
  afterEach(() => fx.dispose());

  const openIndex = async (embed = recordingEmbedder(DIM).embed): Promise<WorkspaceIndex> =>
    (await WorkspaceIndex.open({ roots: [{ name: 'w', path: fx.root }], storagePath: undefined, modelId: 'm', dimension: DIM, embed })).index;

  it('team hits the local index would not hold (.env, .git/config, deploy.pem, ignored, links to them, outside) are dropped, and a span is cut to a chunk', async () => {
    symlinkSync('../.env', fx.path('src/app.txt'), 'file');
    const at = (path: string, startLine = 1, endLine = 3): { path: string; startLine: number; endLine: number } => ({
      path: `acme/${path}`,
      startLine,
      endLine,
    });
    const claimed = [
      '.env',
      '.git/config',
      'deploy.pem',
      'keys/prod-service-account.json',
      'infra/terraform.tfstate.backup',
      'ignored/notes.md',
      'src/app.txt',
      '../outside.txt',
      'src/./ok.ts',
    ];
    const store: TeamLists = {
      lists: (): Promise<RankedLists> =>
        Promise.resolve({
          semantic: [...claimed, 'src/ok.ts'].map((path, i) => ({ location: at(path), score: 0.99 - i / 100 })),
          keyword: [{ ...at('src/big.ts', 1, 3000), score: 9 }],
          exact: [at('.env')],
        }),
    };
    const index = await openIndex();
    try {
      const results = await teamResults(
        store,
        { repository: 'acme', root: { name: 'w', path: fx.root }, local: index, overridden: new Set() },
        { text: 'token' },
        20,
      );
      assert.deepEqual(results.map((r) => r.relPath).sort(), ['src/big.ts', 'src/ok.ts']);
      const big = results.find((r) => r.relPath === 'src/big.ts');
      assert.ok(big && big.endLine - big.startLine + 1 <= MAX_CHUNK_LINES, JSON.stringify(big));
      for (const result of results) {
        const text = (await index.readChunk(result)) ?? '';
        assert.ok(!secretWords.test(text), `${result.relPath}: ${text.slice(0, 200)}`);
        assert.ok(text.split('\n').length <= MAX_CHUNK_LINES, `${result.relPath}: ${text.split('\n').length} lines`);
      }
    } finally {
      await index.close();
    }
  });

  it('reads no chunk text of a file the local index would not hold, and no more lines than a chunk', async () => {
    symlinkSync('../.env', fx.path('src/app.txt'), 'file');
    const index = await openIndex();
    try {
      for (const rel of [...Object.keys(SECRETS), 'src/app.txt']) {
        assert.equal(await index.readChunk({ absPath: fx.path(rel), startLine: 1, endLine: 10 }), undefined, rel);
      }
      const text = await index.readChunk({ absPath: fx.path('src/big.ts'), startLine: 1, endLine: 3000 });
      assert.equal(text?.split('\n').length, MAX_CHUNK_LINES);
    } finally {
      await index.close();
    }
  });

  it('a link inside the workspace to an ignored secret, or into an ignored folder, is neither walked nor embedded', async () => {
    symlinkSync('../.env', fx.path('src/app.txt'), 'file');
    symlinkSync('../ignored', fx.path('src/docs'), 'dir');
    const walked: string[] = [];
    for await (const entry of walkWorkspace({ roots: [{ name: 'w', path: fx.root }] })) walked.push(entry.relPath);
    assert.deepEqual(walked.sort(), ['.gitignore', 'src/big.ts', 'src/ok.ts']);
    const fake = recordingEmbedder(DIM);
    const index = await openIndex(fake.embed);
    try {
      await index.sync();
      await index.applyChanges({ changed: [fx.path('src/app.txt'), fx.path('src/docs/notes.md'), fx.path('.env'), fx.path('deploy.pem')] });
      assert.ok(
        !fake.texts().some((text) => secretWords.test(text)),
        fake
          .texts()
          .filter((text) => secretWords.test(text))
          .join('\n'),
      );
      assert.deepEqual(
        index.search({ text: 'zebra lynx quokka okapi wombat ibis' }).map((hit) => hit.relPath),
        [],
      );
    } finally {
      await index.close();
    }
  });

  it('judges a path also as Windows opens it: a stream, trailing dots, the .git folder by another spelling', async () => {
    const rules = new IgnoreRules(fx.root);
    for (const [rel, why] of [
      ['.env::$DATA', 'secret'],
      ['.env.', 'secret'],
      ['deploy.pem:x', 'secret'],
      ['.git./config', 'ignored'],
      ['.GIT/config', 'ignored'],
      ['ignored./notes.md', 'ignored'],
      ['logo.png.', 'binaryExtension'],
    ] as const) {
      assert.equal(await skipByPath(rules, rel, false), why, rel);
    }
    assert.equal(await skipByPath(rules, 'src/ok.ts', false), undefined);
  });

  it("a span no chunk could have is dropped; a long one is cut to a chunk's lines", () => {
    const at = (startLine: number, endLine: number): { path: string; startLine: number; endLine: number } => ({ path: 'w/a.ts', startLine, endLine });
    for (const bad of [at(0, 3), at(5, 4), at(1.5, 3), at(Number.NaN, 2), at(1, Number.POSITIVE_INFINITY), at(-3, 2)])
      assert.equal(chunkSpan(bad, 512), undefined, JSON.stringify(bad));
    assert.deepEqual(chunkSpan(at(10, 9999), 512), at(10, 521));
    assert.deepEqual(chunkSpan(at(10, 20), 512), at(10, 20));
  });

  it("without a local index to judge them, none of the team's hits are kept", async () => {
    const store: TeamLists = {
      lists: () => Promise.resolve({ semantic: [{ location: { path: 'acme/src/ok.ts', startLine: 1, endLine: 1 }, score: 1 }], keyword: [], exact: [] }),
    };
    assert.deepEqual(
      await teamResults(store, { repository: 'acme', root: { name: 'w', path: fx.root }, local: undefined, overridden: new Set() }, { text: 'fine' }, 5),
      [],
    );
  });
});
