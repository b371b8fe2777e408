// A team database that names files the editor must not read, against a real PostgreSQL with pgvector
// (test/support/pg/setup.sh): whoever can write to it adds entries for `.env`, `.git/config`, `deploy.pem` and a link
// to the ignored `.env` (pointing at a real file's content, so they rank), and stretches a chunk over 5,000
// lines. The search answers with none of them, and reading the results' text reads nothing of the secrets.
import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync } from 'node:fs';
import { Pool } from 'pg';
import { fusionDepth } from '../../../../src/core/index/fusion';
import { PgTeamIndex } from '../../../../src/core/index/pg/pgTeamIndex';
import { buildTeamIndex } from '../../../../src/core/index/pg/teamIndexer';
import { teamResults } from '../../../../src/core/index/teamOverlay';
import { WorkspaceIndex } from '../../../../src/core/index/workspaceIndex';
import { embedText } from '../../../support/emulator/embeddings';
import { startPostgres, type TestPostgres } from '../../../support/pg/pgServer';
import { Fixture } from '../helpers';
import { MODEL, moduleText, recordingEmbed } from './teamFixtures';

const REPO = 'acme';
const longModule = Array.from({ length: 6000 }, (_, i) => `export const tallyRow${i} = ${i};`).join('\n');
const claimed = ['.env', '.git/config', 'deploy.pem', 'config/app.txt', '../outside.txt'];
const secretWords = /zebra|okapi|quokka/;

describe('team index hits the local index would not hold (PostgreSQL)', function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  let pool: Pool;
  let checkout: Fixture;
  let workspace: Fixture;

  before(async () => {
    pg = await startPostgres();
    pool = new Pool({ connectionString: pg.url, max: 2 });
    const code = { 'src/ledger.ts': moduleText(1, 'reconcileLedger'), 'src/long.ts': longModule };
    checkout = new Fixture(code);
    const built = await buildTeamIndex({ root: checkout.root, repository: REPO, commit: 'c1', model: MODEL, pool, embed: recordingEmbed([]), dimension: 64 });
    assert.equal(built.status, 'complete', JSON.stringify(built));
    // What a writer to the database can do: more entries on a snapshot, a chunk's span stretched.
    const { rows } = await pool.query<{ snapshot_id: number; blob_id: string }>('SELECT snapshot_id, blob_id FROM cadenza_entries WHERE path = $1', [
      `${REPO}/src/ledger.ts`,
    ]);
    const entry = rows[0];
    assert.ok(entry, 'the ledger file is indexed');
    for (const rel of claimed)
      await pool.query('INSERT INTO cadenza_entries (snapshot_id, path, blob_id, size, mtime_ms) VALUES ($1, $2, $3, 1, 0)', [
        entry.snapshot_id,
        `${REPO}/${rel}`,
        entry.blob_id,
      ]);
    const stretched = await pool.query(
      'UPDATE cadenza_chunks SET end_line = 5000 WHERE start_line = 1 AND blob_id = (SELECT blob_id FROM cadenza_entries WHERE path = $1)',
      [`${REPO}/src/long.ts`],
    );
    assert.equal(stretched.rowCount, 1);
    // The developer's checkout, with the secrets a working copy has.
    workspace = new Fixture({
      ...code,
      '.gitignore': '.env\n',
      '.env': 'API_TOKEN=zebra-env-secret\n',
      '.git/config': '[remote "origin"]\n\turl = https://okapi-git-token@example.com/r.git\n',
      'deploy.pem': '-----BEGIN PRIVATE KEY-----\nquokka-pem-secret\n-----END PRIVATE KEY-----\n',
    });
    mkdirSync(workspace.path('config'));
    symlinkSync('../.env', workspace.path('config/app.txt'), 'file');
  });

  after(async () => {
    await pool?.end();
    pg?.stop();
    checkout?.dispose();
    workspace?.dispose();
  });

  it('the database returns the claimed files, the search keeps none of them, and no result reads a secret or more than a chunk', async () => {
    const team = await PgTeamIndex.open(pool, REPO, MODEL);
    assert.ok(team);
    const text = 'reconcileLedger tallyRow1 ledger';
    const query = { text, vector: Float32Array.from(embedText(text, 64)) };
    const raw = await team.lists(query, fusionDepth({ k: 10 }));
    const named = new Set([...raw.semantic.map((hit) => hit.location.path), ...raw.keyword.map((hit) => hit.path)]);
    for (const rel of claimed.slice(0, 3)) assert.ok(named.has(`${REPO}/${rel}`), `the database names ${rel}: ${JSON.stringify([...named])}`);
    assert.ok(
      raw.keyword.some((hit) => hit.path === `${REPO}/src/long.ts` && hit.endLine === 5000),
      'the database names the stretched span',
    );
    const { index: local } = await WorkspaceIndex.open({
      roots: [{ name: REPO, path: workspace.root }],
      storagePath: undefined,
      modelId: MODEL,
      dimension: 64,
      embed: recordingEmbed([]),
    });
    try {
      const results = await teamResults(team, { repository: REPO, root: { name: REPO, path: workspace.root }, local, overridden: new Set() }, query, 10);
      const paths = results.map((result) => result.relPath);
      assert.ok(paths.includes('src/ledger.ts') && paths.includes('src/long.ts'), JSON.stringify(paths));
      assert.deepEqual(
        paths.filter((rel) => !rel.startsWith('src/')),
        [],
      );
      assert.ok(
        results.some((result) => result.relPath === 'src/long.ts' && result.startLine === 1),
        'the stretched chunk answers, cut',
      );
      for (const result of results) {
        assert.ok(result.endLine - result.startLine + 1 <= 512, `${result.relPath}:${result.startLine}-${result.endLine}`);
        const read = (await local.readChunk(result)) ?? '';
        assert.ok(!secretWords.test(read), `${result.relPath}: ${read.slice(0, 200)}`);
        assert.ok(read.split('\n').length <= 512, `${result.relPath}: ${read.split('\n').length} lines read`);
      }
    } finally {
      await local.close();
    }
  });
});
