// The packaged Cadenza in the real workbench, used as a person would: the activity-bar icon, the chat
// panel, the command palette, the password prompt, the Output panel. The tests run in order in one
// session (the key set in one is cleared in a later one). runUi.mjs screenshots after each.
import { check, openActivityBarView, quickInput, runCommand, waitForText } from './actions.mjs';
import { keyBanner } from './panel.mjs';

/**
 * @typedef {object} Ui what runUi.mjs hands each test
 * @property {import('playwright-core').Page} page the workbench page
 * @property {import('playwright-core').FrameLocator} webview the chat view's content frame
 * @property {{ baseUrl: string, key: string }} emulator the service emulator cadenza.baseUrl points at
 * @property {(label: string, page?: import('playwright-core').Page) => Promise<unknown>} shot saves an extra screenshot now, of the workbench or of another window the test opened (the runner takes one at the end)
 * @property {Record<string, unknown>} session one object shared by every test of the run: what an earlier
 *   test left behind that a later one's expectations depend on (say, a transcription model already chosen)
 */
/** @type {{ name: string, run: (ui: Ui) => Promise<void> }[]} */
export const tests = [
  {
    name: 'the Cadenza icon opens the chat panel, which asks for a key for the configured service',
    async run({ page, webview, emulator }) {
      await openActivityBarView(page, 'Cadenza');
      const banner = keyBanner(webview);
      await banner.waitFor({ state: 'visible', timeout: 30_000 });
      const text = await waitForText(banner, /No API key is set/);
      check(text.includes(emulator.baseUrl), `the key banner does not name the emulator's address ${emulator.baseUrl}: ${text}`);
      await banner.getByRole('button', { name: 'Set API key' }).waitFor();
      const header = await page.locator('.part.sidebar .composite.title').textContent();
      check(/cadenza/i.test(header), `sidebar title: ${header}`);
    },
  },
  {
    name: "the panel's Set API key button opens the password prompt; Escape cancels it",
    async run({ page, webview, shot }) {
      await keyBanner(webview).getByRole('button', { name: 'Set API key' }).click();
      const box = quickInput(page);
      await box.locator('input[type="password"]').waitFor({ timeout: 15_000 });
      await waitForText(box, /API key/);
      await shot('prompt open');
      await page.keyboard.press('Escape');
      await box.waitFor({ state: 'hidden', timeout: 10_000 });
      check(await keyBanner(webview).isVisible(), 'the key banner went away although no key was entered');
    },
  },
  {
    name: 'Cadenza: Set API Key from the command palette stores the typed key; the key banner goes away',
    async run({ page, webview, emulator, shot }) {
      await runCommand(page, 'Cadenza: Set API Key', () => shot('command palette'));
      const password = quickInput(page).locator('input[type="password"]');
      await password.waitFor({ timeout: 15_000 });
      await password.pressSequentially(emulator.key, { delay: 5 });
      const shown = await password.inputValue();
      check(shown === emulator.key, 'the password box did not receive the typed key');
      await shot('key typed');
      await page.keyboard.press('Enter');
      // The key banner goes away once SecretStorage holds a key.
      await keyBanner(webview).waitFor({ state: 'hidden', timeout: 15_000 });
      const text = await webview.locator('#app').textContent();
      check(!text.includes(emulator.key), 'the panel shows the key itself');
      check(!/Set an API key first/.test(text), `the composer still asks for a key: ${text}`);
    },
  },
  {
    name: 'Cadenza: Show Log opens the Cadenza output channel with the activation and key lines',
    async run({ page, emulator }) {
      await runCommand(page, 'Cadenza: Show Log');
      const panel = page.locator('.part.panel');
      await panel.waitFor({ state: 'visible', timeout: 15_000 });
      const lines = panel.locator('.monaco-editor .view-lines');
      // The Output view follows the end; the activation line is at the top of a log the first-run test
      // made long, and Monaco renders only the lines in view: go to the top, as a reader would.
      // Forced: the Output view's editor scrolls while lines arrive, so it is never "stable" for a normal click.
      await panel.locator('.monaco-editor').first().click({ force: true });
      await page.keyboard.press('Control+Home');
      await waitForText(lines, /Cadenza activated in/);
      await page.keyboard.press('Control+End');
      const log = await waitForText(lines, /API key stored in secret storage\./);
      check(!log.includes(emulator.key), 'the log contains the API key');
      // The channel picker in the Output panel's title bar names the channel shown.
      const channel = await panel
        .locator('select.monaco-select-box')
        .first()
        .evaluate((select) => select.options[select.selectedIndex]?.text);
      check(channel === 'Cadenza', `the Output panel shows channel ${JSON.stringify(channel)}, not Cadenza`);
    },
  },
  {
    name: 'Cadenza: Clear API Key, then Cadenza: Open Chat from the palette; the panel asks for a key again',
    async run({ page, webview }) {
      await runCommand(page, 'Cadenza: Clear API Key');
      // Open Chat rather than the icon: clicking the icon of the container already shown would hide it.
      await runCommand(page, 'Cadenza: Open Chat');
      await keyBanner(webview).waitFor({ state: 'visible', timeout: 15_000 });
    },
  },
];
