// A new user's first minutes, in the truly fresh profile runUi.mjs makes (this file runs first): no key,
// no settings, no stored conversation, no model picked. Open the panel, set the key from the panel, type
// the first question and see it answered by the default model; then Explain Selection from the editor's
// context menu; then a recording transcribed from the Explorer. Nothing is picked or asked anywhere. At the
// end the key is cleared again, so the next file
// (cadenza.ui.mjs) still meets a window without a key.
import fs from 'node:fs';
import path from 'node:path';
import { activeEditorLines, check, clickMenuPath, openActivityBarView, quickInput, quickOpen, runCommand, waitForText, waitUntil } from './actions.mjs';
import { keyBanner, composer, modelSelect, answers, userMessages, chatRequests } from './panel.mjs';

/** The largest general chat model of the emulator's catalogue: what a new user's first answer comes from. */
const defaultModel = 'Meta-Llama-3.3-70B-Instruct';

async function finishedAnswer(webview, timeout = 30_000) {
  const answer = answers(webview).last();
  await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer to finish streaming', timeout);
  return answer;
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'first run: the panel asks for a key; Set API key in the panel; the first question typed is answered, no model picked',
    async run({ page, webview, emulator, shot }) {
      await openActivityBarView(page, 'Cadenza');
      await keyBanner(webview).waitFor({ state: 'visible', timeout: 30_000 });
      await shot('fresh panel');
      await keyBanner(webview).getByRole('button', { name: 'Set API key' }).click();
      const password = quickInput(page).locator('input[type="password"]');
      await password.waitFor({ timeout: 15_000 });
      await password.pressSequentially(emulator.key, { delay: 2 });
      await page.keyboard.press('Enter');
      await keyBanner(webview).waitFor({ state: 'hidden', timeout: 15_000 });

      // Straight away, as a new user would: no model picked, the list perhaps not there yet.
      const question = 'What can Cadenza do for me?';
      const box = composer(webview);
      await box.click();
      await box.pressSequentially(question, { delay: 2 });
      await box.press('Enter');
      await waitUntil(async () => (await userMessages(webview).count()) === 1, 'the question to appear in the conversation');
      const answer = await finishedAnswer(webview);
      const text = await waitForText(answer.locator('.markdown'), /You asked: What can Cadenza do for me/);
      check(!/Choose a model/i.test(await webview.locator('#app').textContent()), 'the panel asks to choose a model');
      check(!text.includes('No model'), `the answer is an error: ${text}`);
      await answer.locator('.usage-line').waitFor({ timeout: 10_000 });
      // The picker shows the model that answered, and the emulator saw that model.
      const selected = await modelSelect(webview).inputValue();
      check(selected === defaultModel, `the picker shows ${JSON.stringify(selected)}, not ${defaultModel}`);
      const sent = chatRequests(emulator);
      check(sent.length === 1 && sent[0].body.model === defaultModel, `the emulator saw ${JSON.stringify(sent.map((request) => request.body.model))}`);
      const status = await page.locator('.statusbar-item', { hasText: defaultModel }).first().textContent({ timeout: 10_000 });
      check(status.includes(defaultModel), `the status bar shows ${status}`);
      await shot('first answer');
    },
  },
  {
    name: 'first run: Explain Selection from the editor context menu answers in the panel, nothing asked',
    async run({ page, webview, emulator, workspace }) {
      const file = 'src/greeting.ts';
      const source = fs.readFileSync(path.join(workspace, file), 'utf8');
      await quickOpen(page, file);
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      await waitForText(activeEditorLines(page), /export function greeting/);
      await editor.locator('.view-line', { hasText: 'export function greeting' }).click({ position: { x: 2, y: 5 } });
      await page.keyboard.press('Home');
      await page.keyboard.press('Control+Shift+End');
      await editor.locator('.selected-text').first().waitFor({ timeout: 5_000 });
      const before = chatRequests(emulator).length;
      const count = await userMessages(webview).count();
      await editor.locator('.view-line', { hasText: 'Hello' }).click({ button: 'right' });
      await clickMenuPath(page, ['Cadenza', 'Explain Selection']);
      await waitUntil(async () => (await userMessages(webview).count()) > count, 'the explain prompt to appear in the panel');
      check(!(await quickInput(page).isVisible()), 'a prompt or picker opened: a new user was asked something');
      const answer = await finishedAnswer(webview);
      await waitForText(answer.locator('.markdown'), /You asked: Explain this code/);
      const sent = chatRequests(emulator).slice(before);
      check(sent.length === 1 && sent[0].body.model === defaultModel, `Explain Selection sent ${JSON.stringify(sent.map((request) => request.body.model))}`);
      const last = sent[0].body.messages.at(-1).content;
      check(String(last).includes(source.slice(source.indexOf('export function greeting')).trimEnd()), 'the request does not carry the selection');
    },
  },
  {
    name: 'first run: Explorer → Cadenza → Transcribe Audio transcribes a recording with no question asked',
    async run({ page, emulator, audioFile, shot }) {
      const transcript = 'A new user transcribes a recording and is asked nothing at all.';
      emulator.scriptTranscript(transcript);
      const before = emulator.requests.length;
      await runCommand(page, 'View: Show Explorer');
      const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: audioFile }).first();
      await row.waitFor({ timeout: 20_000 });
      await row.click({ button: 'right' });
      await clickMenuPath(page, ['Cadenza', 'Transcribe Audio']);
      const tab = page.locator('.tabs-container .tab.active');
      await waitForText(tab, new RegExp(`Transcript: ${audioFile.replace(/[.]/g, '\\.')}`), 30_000);
      check(!(await quickInput(page).isVisible()), 'a picker opened: a new user was asked something');
      await waitForText(activeEditorLines(page), new RegExp(transcript.slice(0, 30)), 30_000);
      const uploads = emulator.requests.slice(before).filter((request) => request.path === '/v1/audio/transcriptions');
      check(uploads.length === 1, `expected one transcription request, the emulator received ${uploads.length}`);
      await shot('transcript');
      await runCommand(page, 'View: Revert and Close Editor');
    },
  },
  {
    name: 'first run: leave the window without a key and on a new chat for the next file',
    async run({ page, webview }) {
      await runCommand(page, 'Cadenza: Clear API Key');
      await runCommand(page, 'View: Close All Editors');
      // A new, empty conversation: the next files start their own conversations from an empty one.
      await runCommand(page, 'Cadenza: New Chat');
      await waitForText(webview.locator('.conversation-title'), /^New chat$/);
      await keyBanner(webview).waitFor({ state: 'visible', timeout: 15_000 });
      // Back to the Explorer, as a fresh window starts: the next file opens Cadenza from its icon.
      await runCommand(page, 'View: Show Explorer');
    },
  },
];
