// The team index as a developer turns it on: the team's PostgreSQL (a real PostgreSQL 18 + pgvector 0.8
// started by this test on a loopback port, test/support/pg as in the integration tier) holds a snapshot of the
// workspace built by the indexer (the same core as `cadenza-index`, the emulator's embeddings), and the
// developer sets cadenza.index.team.repository in the Settings editor and pastes the connection string
// into Cadenza: Set Team Index Connection…'s password box. The status bar then names the team index's
// commit and age, and a search answers from PostgreSQL. When the database goes away the status bar says
// the local index answers. Both settings are removed afterwards (later tests use the local index).
import { createRequire } from 'node:module';
import { check, quickInput, runCommand, setApiKey, setTextSetting, waitForText, waitUntil } from './actions.mjs';

const require = createRequire(import.meta.url);
const { startPostgres } = require('../../out/test/support/pg/pgServer.js');
const { buildTeamIndex } = require('../../out/src/core/index/pg/teamIndexer.js');
const { embedText } = require('../../out/test/support/emulator/embeddings.js');
const { Pool } = require('pg');

const REPOSITORY = 'shop';
const COMMIT = '9c41e7d0b2a35f6e8d7c1b0a9f8e7d6c5b4a3f2e';

const statusItem = (page, text) => page.locator('.part.statusbar .statusbar-item', { hasText: text });

/** Types into the connection's password box and submits it. */
async function setConnection(page, value) {
  await runCommand(page, 'Cadenza: Set Team Index Connection…');
  const password = quickInput(page).locator('input[type="password"]');
  await password.waitFor({ timeout: 15_000 });
  if (value) await password.pressSequentially(value, { delay: 2 });
  await page.keyboard.press('Enter');
  await password.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'the status bar names the team index in PostgreSQL (commit and age), and says when the local index answers instead',
    async run({ page, workspace, emulator, shot }) {
      await setApiKey(page, emulator.key);
      const pg = await startPostgres();
      try {
        const pool = new Pool({ connectionString: pg.url, max: 2 });
        try {
          const built = await buildTeamIndex({
            root: workspace,
            repository: REPOSITORY,
            commit: COMMIT,
            model: 'E5-Mistral-7B-Instruct',
            pool,
            dimension: 4096,
            embed: (texts) => Promise.resolve(texts.map((text) => Float32Array.from(embedText(text, 4096)))),
          });
          check(built.status === 'complete' && built.files >= 5, `the team snapshot was not built: ${JSON.stringify(built)}`);
        } finally {
          await pool.end();
        }
        await setTextSetting(page, 'cadenza.index.team.repository', REPOSITORY);
        await setConnection(page, `postgresql://cadenza@127.0.0.1:${pg.port}/cadenza?sslmode=disable`);
        const team = statusItem(page, /Team index 9c41e7d, (just now|\d+ min) old/);
        await team.waitFor({ timeout: 60_000 });
        await team.hover();
        await waitUntil(
          async () =>
            (await page
              .locator('.monaco-hover, .workbench-hover')
              .filter({ hasText: /team index/i })
              .count()) > 0,
          'the status bar tooltip',
          10_000,
        ).catch(() => undefined);
        await shot('team index status bar');

        // The database goes away: the next search falls back to the local index (empty here: in team mode
        // only uncommitted files are indexed locally, and this workspace has none) and the status bar says so.
        pg.pause();
        await runCommand(page, 'Cadenza: Search Workspace by Meaning');
        const box = quickInput(page);
        await box.locator('input.input').first().pressSequentially('average of a list of numbers', { delay: 10 });
        const fallback = statusItem(page, /Local index.*team index unreachable/);
        await fallback.waitFor({ timeout: 30_000 });
        await page.keyboard.press('Escape');
        await waitForText(fallback, /team index unreachable/);
        await shot('team index unreachable, local index answers');
        check((await team.count()) === 0, 'the status bar still claims the team index while the database is down');
      } finally {
        pg.stop();
        await setConnection(page, '').catch(() => undefined);
        await setTextSetting(page, 'cadenza.index.team.repository', '').catch(() => undefined);
        // The Settings editor opens as a modal over the workbench: closed, so the next test can click.
        await page.keyboard.press('Escape').catch(() => undefined);
        await runCommand(page, 'View: Close All Editors').catch(() => undefined);
      }
    },
  },
];
