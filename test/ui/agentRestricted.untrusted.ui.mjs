// The agent in Restricted Mode, in the real workbench: this file runs only in the UI tier's untrusted session
// (HARNESS_WORKSPACE_TRUST=untrusted: workspace trust on, the folder never trusted), and checks that first.
// There the agent has only its reading functions, so the one thing left to deny is reading a git-ignored
// secret: the model asks for .env, the read card asks, the user clicks Deny; the model is told, and no
// request carries the secret.
import fs from 'node:fs';
import path from 'node:path';
import { check, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { composer, chatRequests, newChatWithModel } from './panel.mjs';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';
const secret = 'API_TOKEN=sk-restricted-mode-test-0123456789';
const readingFunctions = ['read_file', 'list_directory', 'find_files', 'search_text', 'semantic_search', 'get_diagnostics', 'get_symbols', 'get_selection'];

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'Restricted Mode: only reading functions are offered; Deny on the read card of .env keeps the secret from the model, which is told',
    async run({ page, webview, emulator, workspace, shot }) {
      // The workbench itself says the folder is in Restricted Mode (its status bar entry), before anything else.
      await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 30_000 });
      const env = path.join(workspace, '.env');
      const gitignore = path.join(workspace, '.gitignore');
      fs.writeFileSync(gitignore, '.env\n');
      fs.writeFileSync(env, `${secret}\n`);
      try {
        await setApiKey(page, emulator.key);
        await newChatWithModel(page, webview, toolModel);
        emulator.scriptChat({ content: 'Let me look at the environment file.', toolCalls: [{ name: 'read_file', arguments: { path: '.env' } }] });
        emulator.scriptChat({ content: 'Understood: I did not read .env.' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Which token does this project use?', { delay: 2 });
        await box.press('Enter');

        const read = webview.locator('section.tool-card').filter({ hasText: 'read_file' }).first();
        await waitForText(read.locator('.tool-status'), /Waiting for your approval/, 30_000);
        const caution = (await read.locator('.tool-caution').textContent()) ?? '';
        check(/\.env is ignored by git and looks like a secret/.test(caution), `the read card's reason: ${caution}`);
        check(
          (await read.getByRole('button', { name: /allow edits and new files/ }).count()) === 0,
          'a read card in Restricted Mode offers the edit allowance',
        );
        await read.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await shot('read card of a secret in Restricted Mode');
        await webview.getByRole('button', { name: 'Deny: Read .env' }).click();
        await waitForText(read.locator('.tool-status'), /Denied/, 30_000);
        const answer = webview.locator('article.message.assistant').last();
        await waitUntil(
          async () => (await answer.getAttribute('aria-busy')) === 'false' && /did not read \.env/.test((await answer.textContent()) ?? ''),
          'the answer after the denial',
        );

        const sent = chatRequests(emulator).slice(before);
        check(sent.length === 2, `expected 2 requests (the read, the answer), the emulator received ${sent.length}`);
        const offered = sent[0].body.tools?.map((tool) => tool.function.name) ?? [];
        check(JSON.stringify(offered) === JSON.stringify(readingFunctions), `Restricted Mode offered ${JSON.stringify(offered)}`);
        const told = sent[1].body.messages.at(-1);
        check(
          told.role === 'tool' && told.content === 'The user denied reading .env; it was not read. Do not try it again unless the user asks.',
          `the model was told: ${JSON.stringify(told)}`,
        );
        check(
          sent.every((request) => !JSON.stringify(request.body).includes('sk-restricted-mode-test')),
          'a request carried the secret',
        );
        // The panel says why the agent only reads.
        await waitForText(webview.locator('.notice'), /Restricted Mode/, 15_000);
        await shot('denied');
      } finally {
        fs.rmSync(env, { force: true });
        fs.rmSync(gitignore, { force: true });
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
];
