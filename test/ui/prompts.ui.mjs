// Prompt files in the panel, used as a person would: a repository keeps `.github/prompts/explain-for.prompt.md`;
// with code selected in an editor, typing `/` in the composer lists it with its description, the keyboard
// picks it, the words typed after it and an input box's answer complete it, and Enter runs it: the request
// carries the prompt filled in (the selection, the file's name, the answer), the sent message shows its
// `/explain-for` chip, and the answer follows. The file is removed afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { activeEditorLines, check, openFileByPath, quickInput, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { answers, chatRequests, composer, newChatWithModel, userMessages } from './panel.mjs';

const chatModel = 'Meta-Llama-3.3-70B-Instruct';
const fileName = 'prompt-target.js';
const source = 'function add(a, b) {\n  return a + b;\n}\n';

const textOf = (content) =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n');

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'prompt files: typing / lists them, the keyboard picks one, an input box completes it, and the answer follows with its chip',
    async run({ page, webview, emulator, workspace, shot }) {
      const folder = path.join(workspace, '.github', 'prompts');
      const file = path.join(workspace, fileName);
      try {
        fs.mkdirSync(folder, { recursive: true });
        fs.writeFileSync(
          path.join(folder, 'explain-for.prompt.md'),
          '---\ndescription: Explain the selection for someone\nmode: ask\n---\nExplain this code from ${fileBasename} for ${input:audience:who will read it}:\n\n${selection}\n',
        );
        fs.writeFileSync(file, source);
        await setApiKey(page, emulator.key);
        await runCommand(page, 'View: Close All Editors');
        await newChatWithModel(page, webview, chatModel);
        await openFileByPath(page, workspace, fileName);
        await waitForText(activeEditorLines(page), /function add/);
        await page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: 'function add' }).click({ position: { x: 2, y: 5 } });
        // All but the final newline, as a person selects a function.
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Shift+ArrowLeft');
        await page.locator('.editor-group-container.active .monaco-editor .selected-text').first().waitFor({ timeout: 5_000 });

        const box = composer(webview);
        await box.click();
        await box.fill('');
        await box.pressSequentially('/', { delay: 5 });
        const list = webview.getByRole('listbox', { name: 'Prompt files' });
        const option = list.getByRole('option').filter({ hasText: '/explain-for' });
        await option.waitFor({ timeout: 20_000 });
        check(
          (await option.textContent()).includes('Explain the selection for someone'),
          `the option does not show the description: ${await option.textContent()}`,
        );
        await box.pressSequentially('expl', { delay: 5 });
        await shot('prompt list');
        await box.press('Enter');
        await waitUntil(async () => (await box.inputValue()) === '/explain-for ', `the pick to write /explain-for (saw ${await box.inputValue()})`);
        await box.pressSequentially('in two sentences', { delay: 2 });
        await webview.locator('.prompt-badge', { hasText: '/explain-for' }).waitFor({ timeout: 5_000 });
        await shot('prompt picked');

        emulator.scriptChat({ content: 'It adds two numbers and returns the sum. Nothing else happens.' });
        const before = chatRequests(emulator).length;
        await box.press('Enter');
        // The prompt asks for its input in VS Code's input box.
        const input = quickInput(page);
        await waitForText(input.locator('.quick-input-title, .quick-input-header, .quick-input-message'), /audience|who will read it/);
        await input.locator('input.input').first().pressSequentially('a new colleague', { delay: 5 });
        await page.keyboard.press('Enter');
        await waitUntil(async () => chatRequests(emulator).length > before, 'the chat request');
        const sent = chatRequests(emulator).slice(before)[0];
        const user = textOf(sent.body.messages.filter((message) => message.role === 'user').at(-1)?.content);
        check(
          user === `Explain this code from ${fileName} for a new colleague:\n\n${source.trimEnd()}\n\nin two sentences`,
          `the request's message: ${JSON.stringify(user)}`,
        );
        check(sent.body.tools === undefined, 'mode ask was offered tools');
        const answer = answers(webview).last();
        await waitUntil(
          async () => (await answer.getAttribute('aria-busy')) === 'false' && /adds two numbers/.test((await answer.textContent()) ?? ''),
          'the answer',
        );
        const chip = userMessages(webview).last().locator('.message-prompt');
        check((await chip.textContent()).startsWith('/explain-for'), `the sent message's chip: ${await chip.textContent()}`);
        check((await box.inputValue()) === '', `the composer kept ${JSON.stringify(await box.inputValue())}`);
        await shot('prompt answered');
      } finally {
        emulator.reset();
        await runCommand(page, 'View: Close All Editors').catch(() => undefined);
        fs.rmSync(path.join(workspace, '.github'), { recursive: true, force: true });
        fs.rmSync(file, { force: true });
      }
    },
  },
];
