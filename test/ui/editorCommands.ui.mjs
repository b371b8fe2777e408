// The editor commands through their own prompts (they take no arguments): Rewrite Selection (the
// instruction box, the proposal streamed into a diff beside the editor, the Apply prompt's Accept or Reject,
// one undo, a document typed into while the proposal streams, a reasoning model's thinking kept out) and Ask
// About Selection (the question box, the answer in the panel). The checks read the file on disk, the
// editor, the diff editor, the panel and the requests the emulator saw.
import fs from 'node:fs';
import path from 'node:path';
import { activeEditorLines, check, discardScratchFile, openFileByPath, quickInput, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { userMessages, chatRequests, newChatWithModel } from './panel.mjs';

const chatModel = 'Meta-Llama-3.3-70B-Instruct';
const textOf = (content) =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n');

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

/** The editor group showing the file itself (not the rewrite's diff, whose tab is "Cadenza rewrite: …"). */
const fileGroup = (page) => page.locator('.editor-group-container', { has: page.locator(`.tabs-container .tab[aria-label^="${fileName}"]`) }).first();
/** The file's editor text as shown, lines joined by newlines (Monaco's non-breaking spaces made plain). */
async function fileEditorText(page) {
  return fileGroup(page)
    .locator('.monaco-editor .view-lines')
    .first()
    .evaluate((lines) =>
      Array.from(lines.querySelectorAll('.view-line'))
        .map((line) => ({ top: parseFloat(line.style.top) || line.offsetTop, text: (line.textContent ?? '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text)
        .join('\n'),
    );
}

/** Runs Rewrite Selection on the selection, types `instruction` into its box, and waits for the Apply prompt. */
async function rewriteUntilPrompt(page, instruction) {
  await runCommand(page, 'Cadenza: Rewrite Selection…');
  const box = quickInput(page);
  await waitForText(box.locator('.quick-input-title, .quick-input-header'), /rewrite the selection/i);
  await box.locator('input.input').first().pressSequentially(instruction, { delay: 5 });
  await page.keyboard.press('Enter');
  await page
    .locator('.tabs-container .tab', { hasText: `Cadenza rewrite: ${fileName}` })
    .first()
    .waitFor({ timeout: 15_000 });
}
const applyPrompt = (page) => page.locator('.notifications-toasts .notification-toast', { hasText: 'Apply the rewrite to the selection?' });

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'Rewrite Selection asks for the instruction, streams the proposal into a diff, and Accept applies it',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, fileName);
      fs.writeFileSync(file, source);
      try {
        await setApiKey(page, emulator.key);
        await newChatWithModel(page, webview, chatModel);
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
        await page
          .locator('.tabs-container .tab', { hasText: `Cadenza rewrite: ${fileName}` })
          .first()
          .waitFor({ timeout: 15_000 });
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
        check(
          asked.includes('Use an arrow function.') && asked.includes('return a + b;'),
          `the request does not carry the instruction and the selection:\n${asked}`,
        );
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
  {
    name: 'Rewrite Selection with a reasoning model: Accept applies only the answer, never the thinking, and one undo restores the code',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, fileName);
      fs.writeFileSync(file, source);
      const thinker = 'DeepSeek-R1';
      const thought = 'Rename a and b to x and y; keep the function declaration.';
      const answer = 'function add(x, y) {\n  return x + y;\n}';
      try {
        await setApiKey(page, emulator.key);
        await newChatWithModel(page, webview, thinker);
        await openAndSelectAll(page, workspace);
        emulator.scriptChat({ content: answer, reasoning: thought, thinkMs: 300 });
        const before = chatRequests(emulator).length;
        await rewriteUntilPrompt(page, 'Rename the parameters to x and y.');
        await applyPrompt(page).waitFor({ timeout: 30_000 });
        await waitForText(page.locator('.monaco-diff-editor').first(), /return x \+ y;/);
        await applyPrompt(page).getByRole('button', { name: 'Accept' }).click();

        await waitUntil(async () => (await fileEditorText(page)).includes('return x + y;'), 'the accepted rewrite in the editor');
        const shown = await fileEditorText(page);
        check(shown.startsWith(answer) && !shown.includes('Rename a and b'), `the editor after Accept:\n${shown}`);
        const sent = chatRequests(emulator).slice(before);
        check(
          sent.length === 1 && sent[0].body.model === thinker,
          `the rewrite went to ${JSON.stringify(sent.map((request) => request.body.model))}, not once to ${thinker}`,
        );
        await shot('reasoning rewrite applied');

        // One undo in the editor brings the whole original back: the rewrite was one edit.
        await fileGroup(page).locator('.monaco-editor .view-line', { hasText: 'return x + y;' }).click();
        await page.keyboard.press('Control+Z');
        await waitUntil(async () => (await fileEditorText(page)).includes('return a + b;'), 'one undo to restore the original');
        const undone = await fileEditorText(page);
        check(undone === source.trimEnd() || undone === source, `after one undo the editor shows:\n${undone}`);
      } finally {
        await discardScratchFile(page, file);
      }
    },
  },
  {
    name: 'Rewrite Selection: Reject in the Apply prompt leaves the code and the file alone',
    async run({ page, emulator, workspace, shot }) {
      const file = path.join(workspace, fileName);
      fs.writeFileSync(file, source);
      try {
        await openAndSelectAll(page, workspace);
        const dirty = page.locator(`.tabs-container .tab.dirty[aria-label^="${fileName}"]`);
        check((await dirty.count()) === 0, `${fileName} already has unsaved changes before the rewrite (an earlier test's state)`);
        emulator.scriptChat({ content: 'const add = (a, b) => a - b; // REJECTED\n' });
        const before = chatRequests(emulator).length;
        await rewriteUntilPrompt(page, 'Make it subtract.');
        await applyPrompt(page).waitFor({ timeout: 30_000 });
        await waitForText(page.locator('.monaco-diff-editor').first(), /REJECTED/);
        await shot('before reject');
        await applyPrompt(page).getByRole('button', { name: 'Reject' }).click();
        await applyPrompt(page).waitFor({ state: 'hidden', timeout: 15_000 });
        check(chatRequests(emulator).length === before + 1, 'the rewrite did not send exactly one request');
        const shown = await fileEditorText(page);
        check(shown.includes('return a + b;') && !shown.includes('REJECTED'), `the editor after Reject:\n${shown}`);
        check((await dirty.count()) === 0, `${fileName} has unsaved changes after Reject`);
        check(fs.readFileSync(file, 'utf8') === source, 'the file on disk changed after Reject');
      } finally {
        await discardScratchFile(page, file);
      }
    },
  },
  {
    name: 'Rewrite Selection: typing in the file while the proposal streams keeps Accept from overwriting it, and says so',
    async run({ page, emulator, workspace, shot }) {
      const file = path.join(workspace, fileName);
      fs.writeFileSync(file, source);
      try {
        await openAndSelectAll(page, workspace);
        emulator.scriptChat({ content: 'const add = (a, b) => a + b; // OVERWRITTEN\n', chunkCount: 20 });
        emulator.setChunkDelay(150);
        await rewriteUntilPrompt(page, 'Use an arrow function.');
        // While the proposal streams (the prompt has not asked yet), the user types at the end of the file.
        check(!(await applyPrompt(page).isVisible()), 'the Apply prompt asked before the proposal finished streaming');
        await fileGroup(page).locator('.monaco-editor .view-line', { hasText: 'return a + b;' }).click();
        await page.keyboard.press('Control+End');
        await page.keyboard.type('// typed meanwhile', { delay: 5 });
        await waitUntil(async () => (await fileEditorText(page)).includes('// typed meanwhile'), 'the typed line in the editor');
        await applyPrompt(page).waitFor({ timeout: 30_000 });
        await applyPrompt(page).getByRole('button', { name: 'Accept' }).click();
        const warning = page.locator('.notifications-toasts .notification-toast', {
          hasText: `${fileName} changed while the rewrite was being written; it was not applied`,
        });
        await warning.waitFor({ timeout: 15_000 });
        await shot('not applied warning');
        const shown = await fileEditorText(page);
        check(shown.includes('// typed meanwhile') && shown.includes('return a + b;') && !shown.includes('OVERWRITTEN'), `the editor after Accept:\n${shown}`);
      } finally {
        emulator.setChunkDelay(0);
        await discardScratchFile(page, file);
      }
    },
  },
];
