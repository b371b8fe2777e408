import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Pool } from 'pg';
import * as vscode from 'vscode';
import { buildTeamIndex } from '../../src/core/index/pg/teamIndexer';
import type { IndexService, SearchHit } from '../../src/host/index/indexService';
import { embedText } from '../support/emulator/embeddings';
import { startPostgres, type TestPostgres } from '../support/pg/pgServer';
import { cadenzaApi, removeGitRepository, useEmulator, waitFor } from './helpers';

const MODEL = 'E5-Mistral-7B-Instruct';
const REPOSITORY = 'fixture-team';
const committed = `/** Matches the bank statement's lines against the ledger's entries and reports what is missing. */
export function reconcileLedgerEntries(statement: Line[], ledger: Entry[]): Entry[] {
  const booked = new Set(ledger.map((entry) => entry.reference));
  return statement.filter((line) => !booked.has(line.reference)).map(toEntry);
}
`;
const edited = `/** Moves invoices nobody paid for ninety days into quarantine, so reminders stop going out. */
export function quarantineStaleInvoices(invoices: Invoice[], today: Date): Invoice[] {
  return invoices.filter((invoice) => daysBetween(invoice.sentAt, today) > 90);
}
`;

// The extension against a real PostgreSQL 18 + pgvector (test/support/pg/setup.sh): the team's snapshot is
// built by the same indexer as `cadenza-index`, the extension connects as a role that may only SELECT.
suite('Team index (PostgreSQL)', () => {
  const emulator = useEmulator();
  let pg: TestPostgres;
  let root: string;
  let createdGit = false;
  let head = '';
  let index: IndexService;
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Cadenza Tests', '-c', 'user.email=tests@example.com', ...args], { cwd: root, encoding: 'utf8' }).trim();
  const search = (query: string): Thenable<SearchHit[]> => vscode.commands.executeCommand<SearchHit[]>('cadenza.search', query);
  const file = (): string => path.join(root, 'src', 'ledgerReconcile.ts');

  suiteSetup(async function () {
    this.timeout(180_000);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    root = folder.uri.fsPath;
    index = (await cadenzaApi()).index;
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    fs.writeFileSync(file(), committed);
    createdGit = !fs.existsSync(path.join(root, '.git'));
    if (createdGit) git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', 'team index fixture');
    head = git('rev-parse', 'HEAD');

    pg = await startPostgres();
    const owner = new Pool({ connectionString: pg.url, max: 2 });
    try {
      const built = await buildTeamIndex({
        root,
        repository: REPOSITORY,
        commit: head,
        model: MODEL,
        pool: owner,
        embed: (texts) => Promise.resolve(texts.map((text) => Float32Array.from(embedText(text, 4096)))),
      });
      assert.equal(built.status, 'complete', JSON.stringify(built));
      // The extension's role: SELECT only (the GRANTs docs/team-index.md documents).
      for (const statement of [
        'CREATE ROLE cadenza_reader LOGIN',
        'GRANT CONNECT ON DATABASE cadenza TO cadenza_reader',
        'GRANT USAGE ON SCHEMA public TO cadenza_reader',
        'GRANT SELECT ON ALL TABLES IN SCHEMA public TO cadenza_reader',
      ])
        await owner.query(statement);
    } finally {
      await owner.end();
    }
    // A watcher event queued for the local index just before the switch (the same content written again,
    // so git still sees nothing to commit) must not be embedded into the team mode's local index when its
    // debounce ends after the switch: it used to be, now and then (a committed file paid for twice).
    fs.writeFileSync(file(), committed);
    await vscode.workspace.getConfiguration('cadenza.index.team').update('repository', REPOSITORY, vscode.ConfigurationTarget.Global);
    const stored = await vscode.commands.executeCommand<boolean>(
      'cadenza.index.setTeamConnection',
      `postgresql://cadenza_reader@127.0.0.1:${pg.port}/cadenza?sslmode=disable`,
    );
    assert.equal(stored, true);
    await index.whenSettled();
    const debounceMs = vscode.workspace.getConfiguration('cadenza.index').get<number>('debounceMs', 1500);
    await new Promise((resolve) => setTimeout(resolve, debounceMs + 1000));
  });

  suiteTeardown(async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('cadenza.index.setTeamConnection', '');
    await vscode.workspace.getConfiguration('cadenza.index.team').update('repository', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(file(), { force: true });
    if (createdGit) await removeGitRepository(root);
    pg?.stop();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('the extension searches the team index in PostgreSQL, and the status bar names its commit and age', async () => {
    const hits = await search('reconcileLedgerEntries');
    assert.equal(hits[0]?.path, 'src/ledgerReconcile.ts', JSON.stringify(hits.map((hit) => hit.path)));
    assert.equal(vscode.Uri.parse(hits[0]?.uri ?? '').fsPath, file());
    assert.match(hits[0]?.preview ?? '', /bank statement/);
    const state = index.teamStatus;
    assert.equal(state?.kind, 'team', JSON.stringify(state));
    assert.equal(state.kind === 'team' ? state.commit : '', head);
    assert.match(index.status.text, new RegExp(`Team index ${head.slice(0, 7)}, (just now|\\d+ min) old`));
    assert.match(index.status.tooltip, /without TLS/);
    // Nothing is uncommitted, so nothing was embedded locally: the answer came from PostgreSQL.
    assert.equal(
      (await index.stats())?.chunks,
      0,
      `chunks indexed locally; git status: ${JSON.stringify(git('status', '--porcelain', '--untracked-files=all'))}`,
    );
  });

  test("a file changed and not committed is indexed locally and overrides the team's copy", async function () {
    this.timeout(60_000);
    fs.writeFileSync(file(), edited);
    let hits: SearchHit[] = [];
    await waitFor(
      async () => {
        hits = await search('quarantineStaleInvoices');
        return hits[0]?.path === 'src/ledgerReconcile.ts';
      },
      () => `the uncommitted version in search results (got ${JSON.stringify(hits.map((hit) => hit.path))})`,
      30_000,
    );
    assert.match(hits[0]?.preview ?? '', /quarantine/);
    const stale = await search('reconcileLedgerEntries bank statement ledger');
    const staleHit = stale.find((hit) => hit.path === 'src/ledgerReconcile.ts');
    assert.ok(!staleHit || staleHit.preview.includes('quarantine'), `the team's stale copy answered: ${JSON.stringify(staleHit)}`);
    const state = index.teamStatus;
    assert.equal(state?.kind, 'team');
    assert.ok(state.kind === 'team' && (state.overridden ?? 0) >= 1, JSON.stringify(state));
  });

  test('the database going away mid-session falls back to the local index, says so, and recovers', async function () {
    this.timeout(90_000);
    pg.pause();
    const hits = await search('quarantineStaleInvoices');
    assert.equal(hits[0]?.path, 'src/ledgerReconcile.ts', 'the local index answers for the uncommitted file');
    assert.equal(index.teamStatus?.kind, 'fallback');
    assert.match(index.status.text, /Local index.*team index unreachable/);
    assert.match(index.status.tooltip, /cannot reach the team index/);
    pg.resume();
    await waitFor(
      async () => {
        await search('reconcileLedgerEntries');
        return index.teamStatus?.kind === 'team';
      },
      'the team index answering again',
      60_000,
    );
    assert.match(index.status.text, /Team index/);
  });

  test("the extension's role can only read", async () => {
    const reader = new Pool({ connectionString: `postgresql://cadenza_reader@127.0.0.1:${pg.port}/cadenza`, max: 1 });
    try {
      await assert.rejects(reader.query("INSERT INTO cadenza_models (name, dimension) VALUES ('x', 3)"), (error: { code?: string }) => error.code === '42501');
      const rows = await reader.query('SELECT count(*)::int AS n FROM cadenza_chunks');
      assert.ok((rows.rows[0] as { n: number }).n > 0);
    } finally {
      await reader.end();
    }
  });
});
