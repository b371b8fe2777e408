// The editor commands through their own prompts, with no arguments: Rewrite Selection (the instruction
// box, the proposal streamed into a diff beside the editor, the Apply prompt's Accept) and Ask About
// Selection (the question box, the answer in the panel). The checks read the file on disk, the diff
// editor, the panel and the requests the emulator saw.
import fs from 'node:fs';
import path from 'node:path';
import { activeEditorLines, check, openFileByPath, quickInput, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { composer, modelSelect, userMessages, chatRequests } from './panel.mjs';

const chatModel = 'Meta-Llama-3.3-70B-Instruct';
const textOf = (content) => (typeof content === 'string' ? content : (content ?? []).filter((part) => part.type === 'text').map((part) => part.text).join('\n'));

const fileName = 'rewrite-me.js';
const source = 'function add(a, b) {\n  return a + b;\n}\n';
const rewrite = 'const add = (a, b) => a + b;\n';

/** Opens the scratch file and selects the function with the keyboard (all but the final newline). */
async function openAndSelectAll(page, workspace) {
  await openFileByPath(page, workspace, fileName);
  await waitForText(activeEditorLines(page), /function add/);
  // Click into the text first: the keys must reach the editor, not whatever had focus before.
  await page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: 'function add' }).click({ position: { x: 2, y: 5 } });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Shift+ArrowLeft');
  await page.locator('.editor-group-container.active .monaco-editor .selected-text').first().waitFor({ timeout: 5_000 });
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'Rewrite Selection asks for the instruction, streams the proposal into a diff, and Accept applies it',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, fileName);
      fs.writeFileSync(file, source);
      try {
        await setApiKey(page, emulator.key);
        await runCommand(page, 'Cadenza: New Chat');
        await composer(webview).waitFor({ timeout: 30_000 });
        await waitUntil(async () => (await modelSelect(webview).locator('option').count()) > 1, 'the model list in the panel');
        await modelSelect(webview).selectOption(chatModel);
        await openAndSelectAll(page, workspace);

        emulator.scriptChat({ content: `\`\`\`javascript\n${rewrite}\`\`\``, chunkCount: 12 });
        emulator.setChunkDelay(60);
        const before = chatRequests(emulator).length;
        await runCommand(page, 'Cadenza: Rewrite Selection…');
        const box = quickInput(page);
        await waitForText(box.locator('.quick-input-title, .quick-input-header'), /rewrite the selection/i);
        await box.locator('input.input').first().pressSequentially('Use an arrow function.', { delay: 5 });
        await shot('instruction box');
        await page.keyboard.press('Enter');

        // The proposal opens in a diff beside the editor, then the Apply prompt asks.
        await page.locator('.tabs-container .tab', { hasText: `Cadenza rewrite: ${fileName}` }).first().waitFor({ timeout: 15_000 });
        const prompt = page.locator('.notifications-toasts .notification-toast', { hasText: 'Apply the rewrite to the selection?' });
        await prompt.waitFor({ timeout: 30_000 });
        const diff = page.locator('.monaco-diff-editor').first();
        await waitForText(diff, /const add = \(a, b\) => a \+ b;/);
        check(fs.readFileSync(file, 'utf8') === source, 'the file changed before Accept');
        await shot('diff and apply prompt');
        await prompt.getByRole('button', { name: 'Accept' }).click();

        await runCommand(page, 'View: Close All Editors');
        await openFileByPath(page, workspace, fileName);
        await waitForText(activeEditorLines(page), /const add = \(a, b\) => a \+ b;/);
        await runCommand(page, 'File: Save');
        await waitUntil(() => fs.readFileSync(file, 'utf8') !== source, 'the file to be saved');
        check(fs.readFileSync(file, 'utf8') === rewrite, `the saved file: ${JSON.stringify(fs.readFileSync(file, 'utf8'))}`);

        const sent = chatRequests(emulator).slice(before);
        check(sent.length === 1, `the rewrite sent ${sent.length} requests`);
        const asked = sent[0].body.messages.map((message) => textOf(message.content)).join('\n');
        check(asked.includes('Use an arrow function.') && asked.includes('return a + b;'), `the request does not carry the instruction and the selection:\n${asked}`);
      } finally {
        emulator.setChunkDelay(0);
        await runCommand(page, 'View: Close All Editors').catch(() => undefined);
        fs.rmSync(file, { force: true });
      }
    },
  },
  {
    name: 'Ask About Selection asks for the question in an input box and answers it in the panel',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, fileName);
      fs.writeFileSync(file, source);
      try {
        await openAndSelectAll(page, workspace);
        emulator.scriptChat({ content: 'Yes: it has no side effects.' });
        const before = chatRequests(emulator).length;
        const userCount = await userMessages(webview).count();
        await runCommand(page, 'Cadenza: Ask About Selection…');
        const box = quickInput(page);
        await waitForText(box.locator('.quick-input-title, .quick-input-header'), /ask about the selection/i);
        await box.locator('input.input').first().pressSequentially('Is this function pure?', { delay: 5 });
        await shot('question box');
        await page.keyboard.press('Enter');
        await waitUntil(async () => (await userMessages(webview).count()) > userCount, 'the question in the panel');
        const answer = webview.locator('article.message.assistant').last();
        await waitForText(answer.locator('.markdown'), /no side effects/, 30_000);
        const shown = (await userMessages(webview).last().textContent()) ?? '';
        check(shown.includes('Is this function pure?') && shown.includes('return a + b;'), `the panel's question: ${shown}`);
        const sent = chatRequests(emulator).slice(before);
        check(sent.length === 1, `Ask About Selection sent ${sent.length} requests`);
        const last = textOf(sent[0].body.messages.at(-1).content);
        check(last.startsWith('Is this function pure?') && last.includes('return a + b;') && last.includes(fileName), `the request's question:\n${last}`);
        await shot('answered');
      } finally {
        await runCommand(page, 'View: Close All Editors').catch(() => undefined);
        fs.rmSync(file, { force: true });
      }
    },
  },
];
