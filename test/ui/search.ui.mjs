// The semantic index as a person uses it: "Cadenza: Rebuild Index" from the palette, the status bar saying
// how many chunks it holds, then "Cadenza: Search Workspace by Meaning": a question typed in words the file
// does not use together, the ranked results (path:lines, score, which ranking matched, a preview line), and
// Enter opening the editor at the hit. The workspace is the fixture workspace (test/support/fixtures/workspace);
// the emulator's embeddings put texts that share words (or synonyms) close together.
import { check, escapeRegExp, quickInput, readEditorLines, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';

const query = 'average of a list of numbers';
/** The fixture file that says it by meaning: "Arithmetic mean of a non-empty list of numbers." */
const expected = { path: 'src/math.py', startLine: 1, endLine: 3, preview: 'def mean(values):' };

/** The index's status bar item once idle: "N chunks" (while building it counts files and chunks done). */
const indexStatus = (page) => page.locator('.part.statusbar .statusbar-item', { hasText: /^\s*[\d,]+ chunks\s*$/ });
const indexingToast = (page) => page.locator('.notifications-toasts .notification-toast', { hasText: 'indexing the workspace' });
const embeddingRequests = (emulator) => emulator.requests.filter((request) => request.path === '/v1/embeddings').length;

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'Rebuild Index from the palette, then Search Workspace by Meaning: ranked results, Enter opens the hit',
    async run({ page, emulator, shot }) {
      await setApiKey(page, emulator.key);
      const embeddedBefore = embeddingRequests(emulator);
      const started = Date.now();
      await runCommand(page, 'Cadenza: Rebuild Index');
      await quickInput(page).waitFor({ state: 'hidden', timeout: 5_000 });
      // It asks nothing when run explicitly. Wait until it has started (embeddings arrive, or its progress
      // shows) and then until it is done: the status bar says how many chunks the index holds, no progress.
      await waitUntil(
        async () => embeddingRequests(emulator) > embeddedBefore || (await indexingToast(page).isVisible()) || Date.now() - started > 3000,
        'the rebuild to start',
      );
      check(!(await quickInput(page).isVisible()) && !(await page.locator('.monaco-dialog-box').isVisible()), 'Rebuild Index asked something');
      await waitUntil(async () => !(await indexingToast(page).isVisible()) && (await indexStatus(page).isVisible()), 'the index to finish building', 60_000);
      const status = (await indexStatus(page).textContent()) ?? '';
      const chunks = Number(status.replace(/[^\d]/g, ''));
      check(chunks >= 5, `the status bar says "${status.trim()}": fewer chunks than the fixture workspace has files`);
      check(embeddingRequests(emulator) > embeddedBefore, 'the rebuild embedded nothing (was the index already built in this session?)');

      await runCommand(page, 'Cadenza: Search Workspace by Meaning');
      const box = quickInput(page);
      await waitForText(box.locator('.quick-input-title, .quick-input-header'), /search the workspace by meaning/i);
      await box.locator('input.input').first().pressSequentially(query, { delay: 15 });
      const rows = box.locator('.quick-input-list .monaco-list-row');
      const first = rows.first();
      await waitForText(first, new RegExp(escapeRegExp(`${expected.path}:${expected.startLine}-${expected.endLine}`)), 20_000);
      const listed = await rows.allTextContents();
      check(listed.length >= 3, `the search lists ${listed.length} results: ${JSON.stringify(listed)}`);
      for (const row of listed) {
        check(/^\S+:\d+-\d+/.test(row.trim()), `a result does not start with path:lines: ${row}`);
        check(/\d\.\d{3} · (meaning \+ words|meaning|words)/.test(row), `a result lacks its score and what matched: ${row}`);
      }
      const top = listed[0];
      check(top.includes('meaning + words'), `the top result was not found by meaning and words: ${top}`);
      check(top.includes(expected.preview), `the top result's preview is not "${expected.preview}": ${top}`);
      const score = Number(/(\d\.\d{3}) ·/.exec(top)?.[1]);
      const others = listed.slice(1).map((row) => Number(/(\d\.\d{3}) ·/.exec(row)?.[1]));
      check(
        others.every((other) => other <= score),
        `the results are not ranked by score: ${JSON.stringify(listed)}`,
      );
      await shot('search results');

      await page.keyboard.press('Enter');
      await box.waitFor({ state: 'hidden', timeout: 10_000 });
      const name = expected.path.split('/').pop();
      await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor({ timeout: 15_000 });
      const lines = await waitUntil(async () => {
        const shown = await readEditorLines(page);
        return shown.some((line) => line.includes(expected.preview)) ? shown : undefined;
      }, `the editor to show ${expected.path}`);
      check(
        lines[expected.startLine - 1]?.includes(expected.preview),
        `line ${expected.startLine} of the opened editor is ${JSON.stringify(lines[expected.startLine - 1])}`,
      );
      await waitForText(page.locator('[id="status.editor.selection"]'), new RegExp(`Ln ${expected.startLine}, Col 1`));
      await shot('opened at the hit');
      await runCommand(page, 'View: Close All Editors');
    },
  },
];
