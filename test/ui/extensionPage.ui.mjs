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
];
