// The extension's page in VS Code (Extensions view → Cadenza), as someone who installed the .vsix sees it
// before trying anything: the gallery icon, the Preview mark, and the README rendered. (The README's
// screenshots are repository-relative and not in the package: this page's CSP allows only https: and data:
// images, so VS Code shows their alt text until a release is packaged with --baseImagesUrl; see
// CONTRIBUTING.md. This test found that out.)
import { check, runCommand, waitUntil } from './actions.mjs';

/** The text of the frame that renders the README (the page's webview), or '' while it is not there yet. */
async function readmeText(page) {
  for (const frame of page.frames()) {
    const text = await frame.evaluate(() => globalThis.document.body?.innerText ?? '').catch(() => '');
    if (text.includes('What leaves your machine') && text.includes('Getting started in 60 seconds')) return text;
  }
  return '';
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: "the extension's page shows the gallery icon, the Preview mark and the README",
    async run({ page, shot }) {
      // The Extensions view registers its own commands when it first opens: open it first.
      await runCommand(page, 'View: Show Extensions');
      await runCommand(page, 'Extensions: Show Installed Extensions');
      const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Cadenza' }).first();
      await row.waitFor({ timeout: 30_000 });
      await row.click();
      const editor = page.locator('.extension-editor');
      await editor.waitFor({ timeout: 30_000 });
      const icon = editor.locator('.header img.icon').first();
      // The PNG of the manifest, decoded: a missing or broken icon has no natural width.
      await waitUntil(async () => (await icon.evaluate((image) => (image.complete ? image.naturalWidth : 0))) === 256, 'the 256 px icon to load', 30_000);
      check(await editor.locator('.header').getByText('Preview', { exact: true }).isVisible(), 'no Preview mark beside the name');
      let text = '';
      await waitUntil(async () => (text = await readmeText(page)) !== '', "the README to render on the extension's page", 30_000);
      check(text.includes('npm start') && text.includes('npm test'), 'the README has lost its Develop commands');
      await shot('readme');
      await runCommand(page, 'View: Close All Editors');
    },
  },
  {
    name: "the Settings editor shows Cadenza's settings in sections, in order: Connection, Chat, Audio, Index, Agent",
    async run({ page, log, shot }) {
      await runCommand(page, 'Preferences: Open Settings (UI)');
      // The search box is a small code editor: click it and type, as a person would.
      const search = page.locator('.settings-header .suggest-input-container').first();
      await search.waitFor({ timeout: 30_000 });
      await search.click();
      await page.keyboard.type('@ext:cadenza.cadenza');
      // The table of contents lists the extension's sections once the filter applies.
      const toc = page.locator('.settings-toc-container .monaco-list-row');
      const expected = ['Connection', 'Chat', 'Audio', 'Index', 'Agent'];
      let labels = [];
      const readLabels = async () => (labels = (await toc.allTextContents()).map((text) => text.trim().replace(/\s*\(\d+\)$/, '')));
      // The filter applies after a pause in typing; until then the table of contents lists every group of
      // VS Code's own settings, whose folds are not ours to open.
      await waitUntil(
        async () => !(await readLabels()).includes('Commonly Used') && labels.includes('Extensions'),
        'the Settings table of contents to list only the extension (filter applied)',
        60_000,
      ).catch((error) => {
        throw new Error(`${error.message}; it lists: ${JSON.stringify(labels)}`);
      });
      await waitUntil(
        async () => {
          if (expected.every((title) => labels.includes(title))) return true;
          // The table of contents may start folded (Extensions › Cadenza › sections): unfold it a level. The
          // list re-renders as it unfolds, so a click that finds its row gone is tried again on the next round.
          const folded = page.locator('.settings-toc-container .monaco-tl-twistie.collapsible.collapsed').first();
          if (await folded.isVisible()) await folded.click({ timeout: 2_000 }).catch(() => undefined);
          await readLabels();
          return false;
        },
        `the sections ${expected.join(', ')} in the Settings table of contents`,
        30_000,
      ).catch((error) => {
        throw new Error(`${error.message}; it lists: ${JSON.stringify(labels)}`);
      });
      const positions = expected.map((title) => labels.indexOf(title));
      check(
        positions.every((position, index) => index === 0 || position > positions[index - 1]),
        `the sections are out of order: ${JSON.stringify(labels)}`,
      );
      // The first setting of the first section: the service's address, with its description.
      await page.locator('.setting-item-contents', { hasText: 'Base Url' }).first().waitFor({ timeout: 15_000 });
      log(`the Settings table of contents: ${labels.join(' | ')}`);
      await shot('sections');
      // The Settings editor opens as a modal over the workbench: Escape (clears the search, then closes it).
      const modal = page.locator('.monaco-modal-editor-block');
      for (let i = 0; i < 3 && (await modal.count()) > 0 && (await modal.first().isVisible()); i++) await page.keyboard.press('Escape');
      await runCommand(page, 'View: Close All Editors');
    },
  },
];
