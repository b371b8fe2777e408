// Checkpoints in the packaged extension, used as a person would: the agent (scripted in the emulator)
// edits a file after the user approves it; the turn ends with its checkpoint (the file it changed, Show
// changes, Restore to before this turn); the user clicks Restore, VS Code's own dialog asks, the user
// confirms, the file is back and the panel says the turn was restored. Screenshots: the checkpoint, the
// dialog, the restored turn. A new chat is opened afterwards for the tests that follow.
import fs from 'node:fs';
import path from 'node:path';
import { check, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { composer, newChatWithModel } from './panel.mjs';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'an agent turn that edited a file shows its checkpoint; Restore asks in VS Code\'s dialog and puts the file back',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, 'src', 'greeting.ts');
      const original = fs.readFileSync(file, 'utf8');
      try {
        await setApiKey(page, emulator.key);
        if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
        await newChatWithModel(page, webview, toolModel);

        emulator.scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'return `Hello, ${name}!`;', new_text: 'return `Howdy, ${name}!`;' } }] });
        emulator.scriptChat({ content: 'Done: the greeting says Howdy now.' });
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Make the greeting say Howdy.', { delay: 2 });
        await box.press('Enter');
        const approve = webview.getByRole('button', { name: 'Approve: Edit src/greeting.ts' });
        await approve.waitFor({ timeout: 30_000 });
        await approve.click();
        await waitUntil(() => fs.readFileSync(file, 'utf8').includes('Howdy'), 'the approved edit on disk');

        const checkpoint = webview.locator('.checkpoint').last();
        await waitForText(checkpoint.locator('.checkpoint-title'), /This turn changed 1 file/, 30_000);
        check((await checkpoint.locator('.checkpoint-files li').textContent()) === 'editedsrc/greeting.ts', 'the checkpoint lists src/greeting.ts as edited');
        await page.locator('.tabs-container .tab', { hasText: 'Cadenza proposes' }).waitFor({ state: 'detached', timeout: 15_000 });
        await checkpoint.evaluate((element) => element.scrollIntoView({ block: 'end' }));
        await shot('a turn with its checkpoint');

        await checkpoint.getByRole('button', { name: /^Put 1 file back/ }).click();
        const dialog = page.locator('.monaco-dialog-box');
        await dialog.waitFor({ timeout: 15_000 });
        const question = (await dialog.textContent()) ?? '';
        check(/Restore 1 file to before this turn \(src\/greeting\.ts\)\?/.test(question), `the dialog's question: ${question}`);
        check(fs.readFileSync(file, 'utf8').includes('Howdy'), 'the file changed before the user confirmed');
        await shot('restore asks first');
        await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
        await waitUntil(() => fs.readFileSync(file, 'utf8') === original, 'the file as it was before the turn');
        await waitForText(webview.locator('.checkpoint').last().locator('.checkpoint-title'), /Restored to before this turn \(1 file\)/, 15_000);
        await shot('the turn restored');
      } finally {
        await page.keyboard.press('Escape').catch(() => undefined);
        fs.writeFileSync(file, original);
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
];
