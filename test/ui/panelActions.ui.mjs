// The chat panel's actions, clicked as a person would, each checked by its effect: Regenerate and Edit &
// resend (the request the emulator saw, the conversation the panel shows), Retry with trim after a
// context-length error, a code block's Insert / Replace / Copy / Open (the file on disk after a save, a
// paste, the new editor), conversation export (the Markdown document), and the JSON-schema pick (the
// response_format sent). The tests run in order in one conversation.
import fs from 'node:fs';
import path from 'node:path';
import { check, openFileByPath, pickQuickItem, quickInput, readEditorLines, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { composer, answers, userMessages, chatRequests, newChatWithModel } from './panel.mjs';

const chatModel = 'Meta-Llama-3.3-70B-Instruct';

/** The text of a message's content (a string, or the text parts of a content array). */
const textOf = (content) =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n');
/** The user and assistant texts a request carried, in order (the system prompt left out). */
const turnsOf = (request) =>
  request.body.messages.filter((message) => message.role !== 'system').map((message) => `${message.role}: ${textOf(message.content)}`);

/** Types a prompt and presses Enter; waits until the panel shows it as sent. */
async function sendPrompt(webview, prompt) {
  const before = await userMessages(webview).count();
  const box = composer(webview);
  await box.click();
  await box.pressSequentially(prompt, { delay: 2 });
  await box.press('Enter');
  await waitUntil(async () => (await userMessages(webview).count()) > before, 'the sent message to appear in the conversation');
}

/** Waits until the last answer has finished streaming and shows `text`; returns it. */
async function answerShowing(webview, text, timeout = 30_000) {
  const answer = answers(webview).last();
  await waitUntil(
    async () => (await answer.getAttribute('aria-busy')) === 'false' && ((await answer.locator('.markdown').textContent()) ?? '').includes(text),
    `the answer "${text}"`,
    timeout,
  );
  return answer;
}

/** What the panel shows now: the user messages and answers, in order, as "role: text". */
async function shownTurns(webview) {
  return webview
    .locator('article.message')
    .evaluateAll((articles) =>
      articles.map(
        (article) => `${article.classList.contains('user') ? 'user' : 'assistant'}: ${(article.querySelector('.markdown')?.textContent ?? '').trim()}`,
      ),
    );
}

/** The file the code-block tests edit, at the workspace root. */
const scratchName = 'panel-actions.txt';
const scratchText = 'alpha\nbeta\ngamma\n';
const code = 'const inserted = 1;';

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'Regenerate replaces the last answer with a new one to the same question',
    async run({ page, webview, emulator, shot }) {
      await setApiKey(page, emulator.key);
      if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
      await newChatWithModel(page, webview, chatModel);

      emulator.scriptChat({ content: 'Red, the first answer.' });
      await sendPrompt(webview, 'Name a colour.');
      const first = await answerShowing(webview, 'Red, the first answer.');
      emulator.scriptChat({ content: 'Blue, the regenerated answer.' });
      const before = chatRequests(emulator).length;
      await first.getByRole('button', { name: 'Regenerate this answer' }).click();
      await answerShowing(webview, 'Blue, the regenerated answer.');
      const turns = await shownTurns(webview);
      check(
        JSON.stringify(turns) === JSON.stringify(['user: Name a colour.', 'assistant: Blue, the regenerated answer.']),
        `the panel shows ${JSON.stringify(turns)}`,
      );
      const sent = chatRequests(emulator).slice(before);
      check(sent.length === 1, `Regenerate sent ${sent.length} requests`);
      check(
        JSON.stringify(turnsOf(sent[0])) === JSON.stringify(['user: Name a colour.']),
        `Regenerate sent ${JSON.stringify(turnsOf(sent[0]))}, not the question without the old answer`,
      );
      check(sent[0].body.model === chatModel, `Regenerate asked ${sent[0].body.model}`);
      await shot('regenerated');
    },
  },
  {
    name: 'Edit & resend replaces the question, drops what followed it, and answers the new text',
    async run({ webview, emulator, shot }) {
      const question = userMessages(webview).last();
      await question.hover();
      await question.getByRole('button', { name: 'Edit this message and resend' }).click();
      const editor = webview.getByRole('textbox', { name: 'Edit your message' });
      await editor.waitFor();
      check((await editor.inputValue()) === 'Name a colour.', `the edit box holds ${JSON.stringify(await editor.inputValue())}`);
      await editor.fill('Name a fruit.');
      await shot('editing');
      emulator.scriptChat({ content: 'Banana, for the edited question.' });
      const before = chatRequests(emulator).length;
      await webview.getByRole('button', { name: 'Save and resend' }).click();
      await answerShowing(webview, 'Banana, for the edited question.');
      const turns = await shownTurns(webview);
      check(
        JSON.stringify(turns) === JSON.stringify(['user: Name a fruit.', 'assistant: Banana, for the edited question.']),
        `the panel shows ${JSON.stringify(turns)}`,
      );
      const sent = chatRequests(emulator).slice(before);
      check(
        sent.length === 1 && JSON.stringify(turnsOf(sent[0])) === JSON.stringify(['user: Name a fruit.']),
        `Edit & resend sent ${JSON.stringify(sent.map(turnsOf))}`,
      );
    },
  },
  {
    name: 'a context-length error offers "Drop oldest messages and retry", which resends without the oldest turn',
    async run({ webview, emulator, shot }) {
      emulator.injectFault(
        {
          kind: 'status',
          status: 400,
          body: JSON.stringify({ error: { message: "This model's maximum context length is 131072 tokens.", code: 'context_length_exceeded' } }),
          contentType: 'application/json',
        },
        { path: '/v1/chat/completions' },
      );
      await sendPrompt(webview, 'And a vegetable?');
      const failed = answers(webview).last();
      const retry = failed.getByRole('button', { name: 'Drop oldest messages and retry' });
      await retry.waitFor({ timeout: 30_000 });
      await shot('context error');
      emulator.scriptChat({ content: 'Carrot, after the trim.' });
      const before = chatRequests(emulator).length;
      await retry.click();
      await answerShowing(webview, 'Carrot, after the trim.');
      const sent = chatRequests(emulator).slice(before);
      check(sent.length === 1, `the retry sent ${sent.length} requests`);
      const turns = turnsOf(sent[0]);
      check(!turns.includes('user: Name a fruit.'), `the retry still sent the oldest question: ${JSON.stringify(turns)}`);
      check(turns.at(-1) === 'user: And a vegetable?', `the retry does not end with the question: ${JSON.stringify(turns)}`);
      const shown = await shownTurns(webview);
      check(!shown.includes('user: Name a fruit.') && shown.at(-1) === 'assistant: Carrot, after the trim.', `the panel shows ${JSON.stringify(shown)}`);
    },
  },
  {
    name: "a code block's Insert, Replace, Copy and Open act on the editor, the clipboard and a new editor",
    async run({ page, webview, emulator, workspace, shot }) {
      const scratch = path.join(workspace, scratchName);
      fs.writeFileSync(scratch, scratchText);
      try {
        await openFileByPath(page, workspace, scratchName);
        await page.keyboard.press('Control+Home');
        // "typescript", not "ts": Open passes the fence's language to VS Code, which knows ids, not aliases.
        emulator.scriptChat({ content: `Use this:\n\n\`\`\`typescript\n${code}\n\`\`\`\n` });
        await sendPrompt(webview, 'Give me one line of TypeScript.');
        const answer = await answerShowing(webview, code);
        const block = answer.locator('.code-block').first();
        await block.hover();

        // Insert at the cursor (line 1, column 1 of the editor beside the panel).
        await answer.getByRole('button', { name: 'Insert code at cursor' }).click();
        await waitUntil(async () => (await readEditorLines(page))[0]?.startsWith(code), 'the code inserted at the cursor');

        // Replace a selection: line 3 ("gamma"), selected with the keyboard in the editor.
        await runCommand(page, 'Go to Line/Column...');
        await page.keyboard.type('3');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Shift+End');
        await block.hover();
        await answer.getByRole('button', { name: 'Replace the editor selection with this code' }).click();
        await waitUntil(async () => (await readEditorLines(page))[2] === code, 'line 3 replaced by the code');

        // Copy, then paste it at the end of the file with Ctrl+V in the editor (Go to Line leaves the focus there).
        await answer.getByRole('button', { name: 'Copy code' }).click();
        await runCommand(page, 'Go to Line/Column...');
        await page.keyboard.type('4');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Control+V');
        await waitUntil(async () => (await readEditorLines(page))[3] === code, 'the copied code pasted on line 4');
        await runCommand(page, 'File: Save');
        // Wait for the whole saved text (the write is not atomic to a reader polling the file).
        const expected = `${code}alpha\nbeta\n${code}\n${code}`;
        await waitUntil(() => fs.readFileSync(scratch, 'utf8') === expected, 'the file to be saved', 15_000).catch(() => undefined);
        check(
          fs.readFileSync(scratch, 'utf8') === expected,
          `the saved file: ${JSON.stringify(fs.readFileSync(scratch, 'utf8'))}; the editor: ${JSON.stringify((await readEditorLines(page)).join('\n'))}`,
        );
        await shot('inserted, replaced and pasted');

        // Open: a new untitled TypeScript editor holding the code.
        await block.hover();
        await answer.getByRole('button', { name: 'Open code in a new editor' }).click();
        await page.locator('.tabs-container .tab.active', { hasText: /Untitled/ }).waitFor({ timeout: 15_000 });
        await waitUntil(async () => (await readEditorLines(page)).join('\n').trim() === code, 'the code in the new editor');
        await waitForText(page.locator('[id="status.editor.mode"]'), /TypeScript/);
        await shot('opened in a new editor');
      } finally {
        await runCommand(page, 'View: Revert and Close Editor').catch(() => undefined);
        await runCommand(page, 'View: Close All Editors').catch(() => undefined);
        fs.rmSync(scratch, { force: true });
      }
    },
  },
  {
    name: 'Export from the conversation list opens the conversation as a Markdown document',
    async run({ page, webview, shot }) {
      await webview.getByRole('button', { name: 'Show conversations' }).click();
      const list = webview.getByRole('navigation', { name: 'Conversations' });
      await list.waitFor();
      const exportButton = list.getByRole('button', { name: /^Export “Name a colour\.?”$/ }).first();
      await exportButton.waitFor({ timeout: 10_000 });
      await exportButton.click();
      const lines = await waitUntil(async () => {
        const shown = await readEditorLines(page);
        return shown.some((line) => line.includes('Carrot, after the trim.')) ? shown : undefined;
      }, 'the exported conversation in an editor');
      check(/^# Name a colour/.test(lines[0] ?? ''), `the export's heading: ${JSON.stringify(lines[0])}`);
      check(lines.includes(`Model: ${chatModel}`), `the export does not name the model: ${JSON.stringify(lines.slice(0, 4))}`);
      const text = lines.join('\n');
      for (const expected of ['**You**', 'And a vegetable?', `**${chatModel}**`, 'Carrot, after the trim.'])
        check(text.includes(expected), `the export lacks ${expected}`);
      await waitForText(page.locator('[id="status.editor.mode"]'), /Markdown/);
      await shot('exported');
      await runCommand(page, 'View: Revert and Close Editor');
      await webview
        .getByRole('button', { name: /conversations/i })
        .first()
        .click();
    },
  },
  {
    name: 'Copy as Markdown in the conversation list copies the conversation and says so',
    async run({ webview, shot }) {
      await webview.getByRole('button', { name: 'Show conversations' }).click();
      const list = webview.getByRole('navigation', { name: 'Conversations' });
      await list.waitFor();
      const copyButton = list.getByRole('button', { name: /^Copy “Name a colour\.?” as Markdown$/ }).first();
      await copyButton.waitFor({ timeout: 10_000 });
      await copyButton.click();
      await waitForText(webview.locator('.notices'), /Conversation copied as Markdown\./);
      await shot('copied as Markdown');
      await webview
        .getByRole('button', { name: /conversations/i })
        .first()
        .click();
    },
  },
  {
    name: 'JSON mode "JSON schema": Pick schema… lists the workspace\'s .json files; the picked schema goes into response_format',
    async run({ page, webview, emulator, workspace, shot }) {
      const schema = { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] };
      const schemaFile = path.join(workspace, 'colour.schema.json');
      fs.writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
      const options = webview.getByRole('region', { name: 'Conversation options' });
      try {
        await webview.getByRole('button', { name: 'Conversation options' }).click();
        await options.waitFor();
        await options.getByRole('combobox', { name: 'JSON mode' }).selectOption('schema');
        await options.getByRole('button', { name: 'Pick a JSON schema file from the workspace' }).click();
        await waitForText(quickInput(page).locator('.quick-input-title, .quick-input-header'), /JSON schema for the answer/i);
        const rows = await quickInput(page).locator('.quick-input-list .monaco-list-row').allTextContents();
        check(
          rows.some((row) => row.includes('colour.schema.json')) && rows.some((row) => row.includes('data.json')),
          `the schema pick lists ${JSON.stringify(rows)}`,
        );
        await shot('schema pick');
        await pickQuickItem(page, 'colour.schema.json');
        await waitForText(options, /Schema: colour\.schema\.json/);
        emulator.scriptChat({ content: '{"colour":"green"}' });
        const before = chatRequests(emulator).length;
        await sendPrompt(webview, 'Pick a colour as JSON.');
        await answerShowing(webview, 'green');
        const [sent] = chatRequests(emulator).slice(before);
        const format = sent?.body.response_format;
        check(format?.type === 'json_schema', `response_format: ${JSON.stringify(format)}`);
        check(JSON.stringify(format.json_schema?.schema) === JSON.stringify(schema), `the request's schema is ${JSON.stringify(format.json_schema)}`);
        await shot('answered with the schema');
      } finally {
        await options
          .getByRole('combobox', { name: 'JSON mode' })
          .selectOption('off')
          .catch(() => undefined);
        await webview
          .getByRole('button', { name: 'Conversation options' })
          .click()
          .catch(() => undefined);
        fs.rmSync(schemaFile, { force: true });
      }
    },
  },
];
