// A cloned repository whose .vscode/settings.json asks for more than the user allows: completions on with
// no daily limit, and the index built without asking. Cadenza ignores those values and says so once in a
// notification naming each; "Show Settings" opens the user's settings filtered to them, where VS Code's
// own editor shows each is also modified in the workspace. The completions status bar entry stays off.
// The file is written the way a clone brings it, and removed afterwards. Other notifications (the index's
// question, when it has not been answered in this session) are left alone.
import fs from 'node:fs';
import path from 'node:path';
import { check, runCommand, waitUntil } from './actions.mjs';

const asked = {
  'cadenza.completions.enabled': true,
  'cadenza.completions.dailyTokenLimit': 0,
  'cadenza.index.mode': 'auto',
};

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'a workspace setting that would spend more is ignored, and a notification names it',
    async run({ page, workspace, shot }) {
      const folder = path.join(workspace, '.vscode');
      const file = path.join(folder, 'settings.json');
      check(!fs.existsSync(file), 'the fixture workspace has no settings of its own');
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(asked, null, 2)}\n`);
      try {
        const notice = page.locator('.notifications-toasts .notification-toast', { hasText: 'Cadenza ignores this workspace' });
        await notice.waitFor({ timeout: 30_000 });
        const text = (await notice.locator('.notification-list-item-message').innerText()).replace(/\s+/g, ' ');
        for (const [id, value] of Object.entries(asked))
          check(text.includes(`${id} (${JSON.stringify(value)})`), `the notification does not name ${id}: ${text}`);
        check(/never more/.test(text) && /set them in your user settings/.test(text), `the notification does not say why and what to do: ${text}`);
        // Completions stay off: the status bar entry shows the "off" icon, not the sparkle.
        const status = page.locator('.statusbar-item', { hasText: 'Complete' }).first();
        await waitUntil(async () => /circle-slash/.test((await status.innerHTML()) ?? ''), 'the completions status bar entry to show off');
        await shot("a workspace's settings that would spend more, ignored");

        await notice.locator('.monaco-button', { hasText: 'Show Settings' }).click();
        // The user's settings, filtered to the three: each row says it is also modified in the workspace.
        const rows = page.locator('.settings-editor .settings-body .monaco-list-row .setting-item-contents');
        await waitUntil(
          async () => (await rows.count()) === Object.keys(asked).length,
          `the Settings editor to show the ${Object.keys(asked).length} settings`,
          30_000,
        );
        const indicators = await rows.evaluateAll((elements) => elements.map((element) => element.textContent?.replace(/\s+/g, ' ') ?? ''));
        check(
          indicators.every((row) => /Workspace/.test(row)),
          `each setting row says the workspace sets it too: ${JSON.stringify(indicators)}`,
        );
        await shot('the Settings editor: your values, each also set in the workspace');
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
        // The Settings editor opens as a modal here: Escape closes it before the palette can open.
        const modal = page.locator('.monaco-modal-editor-block');
        for (let i = 0; i < 3 && (await modal.count()) > 0 && (await modal.first().isVisible()); i++) await page.keyboard.press('Escape');
        await runCommand(page, 'View: Close All Editors');
      }
    },
  },
];
