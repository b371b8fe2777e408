/* global document, navigator -- the evaluate callbacks run in the browser */
// One whole conversation by keyboard alone (issue #38), in the real workbench with the packaged extension:
// after the set-up (a key, a new chat with a model that takes tools) and one command that focuses the panel
// (Cadenza: Open Chat), only page.keyboard drives it: type a question, Enter, Ctrl+Up to the answer, Tab to
// its code block's Copy, Enter (the code is on the clipboard), Ctrl+Down back to the message box, ask for an
// edit, Ctrl+Up to the agent's card, Tab to Approve, Enter (the file changes). No mouse click after the focus
// command. Screenshots at each step; the file is put back and a new chat opened afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { check, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { answers, newChatWithModel } from './panel.mjs';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';
const code = 'export const retries = 3;';

/** The panel's focused element: its tag, accessible name and text, read in the webview's own page. */
const focused = (webview) =>
  webview.locator('body').evaluate(() => {
    const element = document.activeElement;
    return { tag: element?.tagName.toLowerCase() ?? '', name: element?.getAttribute('aria-label') ?? '', text: (element?.textContent ?? '').slice(0, 120) };
  });

/** Presses Tab until the focused control's name starts with `name`; fails after `limit` presses. */
async function tabTo(page, webview, name, limit = 30) {
  for (let presses = 1; presses <= limit; presses += 1) {
    await page.keyboard.press('Tab');
    if ((await focused(webview)).name.startsWith(name)) return presses;
  }
  throw new Error(`Tab did not reach "${name}" in ${limit} presses (focus is on ${JSON.stringify(await focused(webview))})`);
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'a whole conversation by keyboard alone: ask, read the answer, copy its code, approve an edit',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, 'src', 'greeting.ts');
      const original = fs.readFileSync(file, 'utf8');
      try {
        await setApiKey(page, emulator.key);
        if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
        await newChatWithModel(page, webview, toolModel);
        emulator.scriptChat({ content: `Keep the count in one constant:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nRead it wherever you retry.` });
        emulator.scriptChat({
          content: 'Here is the friendlier greeting:',
          toolCalls: [
            { name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'return `Hello, ${name}!`;', new_text: 'return `Welcome, ${name}!`;' } },
          ],
        });
        emulator.scriptChat({ content: 'Done: the greeting now says Welcome.' });

        // Picking the model left the focus on the model picker; a panel opened afresh has nothing focused.
        await webview.locator('body').evaluate(() => document.activeElement?.blur());
        // The one focus command: the panel takes the focus, and the message box has it.
        await runCommand(page, 'Cadenza: Open Chat');
        await waitUntil(async () => (await focused(webview)).name === 'Message to Cadenza', 'the focus in the message box after Cadenza: Open Chat');

        // Ask.
        await page.keyboard.type('How many retries should I allow?', { delay: 2 });
        await shot('question typed');
        await page.keyboard.press('Enter');
        const answer = answers(webview).last();
        await waitUntil(
          async () => (await answer.getAttribute('aria-busy')) === 'false' && ((await answer.textContent()) ?? '').includes(code),
          'the answer with its code',
        );

        // Read: Ctrl+Up moves to the answer (a screen reader reads it there).
        await page.keyboard.press('Control+ArrowUp');
        const onAnswer = await focused(webview);
        check(
          onAnswer.tag === 'article' && onAnswer.name === `Answer from ${toolModel}, Act mode` && onAnswer.text.includes('Keep the count'),
          `Ctrl+Up focused ${JSON.stringify(onAnswer)}`,
        );
        await shot('answer focused');

        // Copy the code: Tab to the block's Copy, Enter; the clipboard holds the code.
        await page.evaluate(() => navigator.clipboard.writeText('nothing copied yet'));
        await tabTo(page, webview, 'Copy code', 4);
        await shot('copy code focused');
        await page.keyboard.press('Enter');
        await waitUntil(async () => (await page.evaluate(() => navigator.clipboard.readText())) === code, 'the code on the clipboard');

        // Back to the message box, and ask for an edit: the agent proposes it in a card.
        await page.keyboard.press('Control+ArrowDown');
        check((await focused(webview)).name === 'Message to Cadenza', 'Ctrl+Down did not go back to the message box');
        await page.keyboard.type('Make the greeting in src/greeting.ts friendlier.', { delay: 2 });
        await page.keyboard.press('Enter');
        const card = webview.locator('section.tool-card').filter({ hasText: 'edit_file' }).last();
        await waitForText(card.locator('.tool-status'), /Waiting for your approval/, 30_000);
        check(fs.readFileSync(file, 'utf8') === original, 'the file changed before approval');

        // Approve by keyboard: Ctrl+Up to the step with the card, Tab to Approve, Enter.
        await page.keyboard.press('Control+ArrowUp');
        await tabTo(page, webview, 'Approve: Edit src/greeting.ts', 12);
        await shot('approve focused');
        await page.keyboard.press('Enter');
        await waitForText(card.locator('.tool-status'), /Done/, 30_000);
        await waitUntil(() => fs.readFileSync(file, 'utf8').includes('Welcome, ${name}!'), 'the approved edit on disk');
        const last = answers(webview).last();
        await waitUntil(
          async () => (await last.getAttribute('aria-busy')) === 'false' && /says Welcome/.test((await last.textContent()) ?? ''),
          'the final answer',
        );
        await shot('approved and answered');
      } finally {
        fs.writeFileSync(file, original);
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
];
