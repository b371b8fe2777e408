// Opening a cited source: with "Add relevant workspace code to the prompt" on, the answer lists the
// workspace places the prompt carried ("Workspace sources"); clicking one opens that file at its first
// line. It runs after search.ui.mjs (which builds the index); run alone, it builds the index first.
import { check, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { composer, answers, chatRequests, newChatWithModel } from './panel.mjs';

const chatModel = 'Meta-Llama-3.3-70B-Instruct';
const indexStatus = (page) => page.locator('.part.statusbar .statusbar-item', { hasText: /^\s*[\d,]+ chunks\s*$/ });
const indexingToast = (page) => page.locator('.notifications-toasts .notification-toast', { hasText: 'indexing the workspace' });

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'with workspace context on, the answer lists its sources, and clicking one opens the file at that line',
    async run({ page, webview, emulator, shot }) {
      await setApiKey(page, emulator.key);
      if (!(await indexStatus(page).isVisible())) {
        await runCommand(page, 'Cadenza: Rebuild Index');
        await waitUntil(async () => !(await indexingToast(page).isVisible()) && (await indexStatus(page).isVisible()), 'the index to finish building', 60_000);
      }
      await runCommand(page, 'View: Close All Editors');
      await newChatWithModel(page, webview, chatModel);
      const options = webview.getByRole('region', { name: 'Conversation options' });
      await webview.getByRole('button', { name: 'Conversation options' }).click();
      await options.waitFor();
      const toggle = options.getByRole('checkbox', { name: 'Add relevant workspace code to the prompt' });
      try {
        await toggle.check();
        emulator.scriptChat({ content: 'The mean is computed in `mean()` [1].' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Where is the average of a list of numbers computed?', { delay: 2 });
        await box.press('Enter');
        const answer = answers(webview).last();
        const sources = answer.getByRole('group', { name: 'Workspace sources' });
        await sources.waitFor({ timeout: 30_000 });
        const links = sources.getByRole('button');
        const labels = (await links.allTextContents()).map((text) => text.trim());
        check(labels.length >= 1 && labels.every((label) => /^\S+:\d+-\d+$/.test(label)), `the sources are ${JSON.stringify(labels)}`);
        // The prompt carried the same places, numbered as the answer lists them.
        const [sent] = chatRequests(emulator).slice(before);
        const system = sent?.body.messages.find((message) => message.role === 'system')?.content ?? '';
        check(system.includes(`[1] ${labels[0]}`), `the prompt's context does not number ${labels[0]} as [1]`);
        await shot('answer with sources');

        const [, file, start] = /^(.+):(\d+)-\d+$/.exec(labels[0]);
        await links.first().click();
        const name = file.split('/').pop();
        await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor({ timeout: 15_000 });
        await waitForText(page.locator('[id="status.editor.selection"]'), new RegExp(`Ln ${start}, Col 1`));
        await shot('source opened');
      } finally {
        await toggle.uncheck().catch(() => undefined);
        await webview
          .getByRole('button', { name: 'Conversation options' })
          .click()
          .catch(() => undefined);
        await runCommand(page, 'View: Close All Editors').catch(() => undefined);
      }
    },
  },
];
