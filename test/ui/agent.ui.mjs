// The agent in the packaged extension, used as a person would: a question typed into the panel makes the
// model (scripted in the emulator) read a file, then propose an edit; the edit's card shows the diff and
// waits; the proposal also opens in the editor's diff view; the user clicks Approve in the card; the file
// changes; the answer ends. Screenshots: the approval card with the diff beside it, and the finished
// answer with its cards. The file is put back and a new chat opened afterwards for the tests that follow.
import fs from 'node:fs';
import path from 'node:path';
import { check, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { composer, modelSelect, chatRequests, newChatWithModel } from './panel.mjs';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';

const cards = (webview) => webview.locator('section.tool-card');
/**
 * Drags the sash at the side bar's right edge by `dx` pixels (the narrow default panel wraps every line of a
 * card; the screenshots read better wider). Returns the drag that undoes it.
 */
async function widenSideBar(page, dx) {
  const box = await page.locator('.part.sidebar').boundingBox();
  const drag = async (from, to) => {
    const y = box.y + box.height / 2;
    await page.mouse.move(from, y);
    await page.mouse.down();
    await page.mouse.move(from + (to - from) / 2, y, { steps: 4 });
    await page.mouse.move(to, y, { steps: 4 });
    await page.mouse.up();
  };
  const edge = box.x + box.width + 1;
  await drag(edge, edge + dx);
  return () => drag(edge + dx, edge);
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'a question makes the agent read a file and propose an edit; the user approves it in the panel',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, 'src', 'greeting.ts');
      const original = fs.readFileSync(file, 'utf8');
      let narrow = async () => undefined;
      try {
        await setApiKey(page, emulator.key);
        if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
        await runCommand(page, 'Cadenza: New Chat');
        await composer(webview).waitFor({ timeout: 30_000 });
        narrow = await widenSideBar(page, 260);
        await waitUntil(async () => (await modelSelect(webview).locator('option').count()) > 1, 'the model list in the panel');
        await modelSelect(webview).selectOption(toolModel);
        await waitUntil(async () => (await modelSelect(webview).inputValue()) === toolModel, `the panel's model picker to show ${toolModel}`);

        emulator.scriptChat({ content: 'Let me read the file first.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/greeting.ts' } }] });
        emulator.scriptChat({
          content: 'It returns "Hello, <name>!". Here is the friendlier version:',
          toolCalls: [
            {
              name: 'edit_file',
              arguments: { path: 'src/greeting.ts', old_text: 'return `Hello, ${name}!`;', new_text: 'return `Welcome, ${name}! Good to see you.`;' },
            },
          ],
        });
        emulator.scriptChat({ content: 'Done: `greeting()` now welcomes the person by name.' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Make the greeting in src/greeting.ts friendlier.', { delay: 2 });
        await box.press('Enter');

        // The read runs without asking; its card says Done and keeps the result collapsed.
        const read = cards(webview).filter({ hasText: 'read_file' }).first();
        await waitForText(read.locator('.tool-status'), /Done/, 30_000);
        check((await read.locator('.tool-summary').textContent()) === 'src/greeting.ts', 'the read card does not name the file');

        // The edit waits for approval: its card shows the diff and the buttons; the file is unchanged.
        const edit = cards(webview).filter({ hasText: 'edit_file' }).first();
        await waitForText(edit.locator('.tool-status'), /Waiting for your approval/, 30_000);
        const diff = await edit.locator('.tool-diff').textContent();
        check(diff.includes('-  return `Hello, ${name}!`;') && diff.includes('+  return `Welcome, ${name}! Good to see you.`;'), `the card's diff: ${diff}`);
        const approve = webview.getByRole('button', { name: 'Approve: Edit src/greeting.ts' });
        await approve.waitFor();
        check(await webview.getByRole('button', { name: 'Deny: Edit src/greeting.ts' }).isVisible(), 'no Deny button');
        check(
          await edit.getByRole('button', { name: /allow edits and new files for the rest of this conversation/ }).isVisible(),
          'no "Allow edits for this conversation" button',
        );
        // The proposal also opens in the editor's diff view, beside the panel.
        await page.locator('.tabs-container .tab', { hasText: 'Cadenza proposes: src/greeting.ts' }).waitFor({ timeout: 15_000 });
        check(fs.readFileSync(file, 'utf8') === original, 'the file changed before approval');
        await read.locator('details.tool-result > summary').click();
        await shot('edit waiting for approval');

        await approve.click();
        await waitForText(edit.locator('.tool-status'), /Done/, 30_000);
        const answer = webview.locator('article.message.assistant').last();
        await waitUntil(
          async () => (await answer.getAttribute('aria-busy')) === 'false' && /welcomes the person/.test((await answer.textContent()) ?? ''),
          'the final answer',
        );
        await waitUntil(() => fs.readFileSync(file, 'utf8').includes('Welcome, ${name}! Good to see you.'), 'the approved edit on disk');
        check(
          fs.readFileSync(file, 'utf8') === original.replace('Hello, ${name}!', 'Welcome, ${name}! Good to see you.'),
          'the file is not exactly the approved edit',
        );
        const result = await edit.locator('details.tool-result > summary').textContent();
        check(/Edited src\/greeting\.ts at line 3/.test(result), `the edit's result: ${result}`);
        const sent = chatRequests(emulator).slice(before);
        check(sent.length === 3, `expected 3 requests (read, edit, answer), the emulator received ${sent.length}`);
        check(
          sent[0].body.tools?.length === 11 && sent[0].body.tool_choice === 'auto',
          'the first request did not offer the 11 functions with tool_choice auto',
        );
        const last = sent[2].body.messages.at(-1);
        check(
          last.role === 'tool' && /^Edited src\/greeting\.ts/.test(last.content),
          `the edit's result did not go back to the model: ${JSON.stringify(last)}`,
        );
        await page.locator('.tabs-container .tab', { hasText: 'Cadenza proposes' }).waitFor({ state: 'detached', timeout: 15_000 });
        await edit.locator('details.tool-result > summary').click();
        await edit.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await shot('approved and answered');
      } finally {
        fs.writeFileSync(file, original);
        await narrow().catch(() => undefined);
        // The tests that follow start from a fresh conversation, as in a session without this one.
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
  {
    name: 'Deny on an edit card leaves the file untouched and tells the model the edit was denied',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, 'src', 'greeting.ts');
      const original = fs.readFileSync(file, 'utf8');
      const mtime = fs.statSync(file).mtimeMs;
      try {
        await setApiKey(page, emulator.key);
        await newChatWithModel(page, webview, toolModel);
        emulator.scriptChat({
          content: 'I will make it shout.',
          toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hello', new_text: 'HELLO' } }],
        });
        emulator.scriptChat({ content: 'Understood, I left src/greeting.ts as it was.' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Make the greeting shout.', { delay: 2 });
        await box.press('Enter');

        const edit = cards(webview).filter({ hasText: 'edit_file' }).first();
        await waitForText(edit.locator('.tool-status'), /Waiting for your approval/, 30_000);
        await webview.getByRole('button', { name: 'Deny: Edit src/greeting.ts' }).click();
        await waitForText(edit.locator('.tool-status'), /Denied/, 30_000);
        const answer = webview.locator('article.message.assistant').last();
        await waitUntil(
          async () => (await answer.getAttribute('aria-busy')) === 'false' && /left src\/greeting\.ts as it was/.test((await answer.textContent()) ?? ''),
          'the answer after the denial',
        );
        // The proposal's diff closes, the file is untouched (content and modification time), and nothing is left unsaved.
        await page.locator('.tabs-container .tab', { hasText: 'Cadenza proposes' }).waitFor({ state: 'detached', timeout: 15_000 });
        check(fs.readFileSync(file, 'utf8') === original, 'the denied edit reached the file');
        check(fs.statSync(file).mtimeMs === mtime, 'the denied edit touched the file');
        check((await page.locator('.tabs-container .tab.dirty', { hasText: 'greeting.ts' }).count()) === 0, 'greeting.ts has unsaved changes after the denial');
        const sent = chatRequests(emulator).slice(before);
        check(sent.length === 2, `expected 2 requests (the edit, the answer), the emulator received ${sent.length}`);
        const told = sent[1].body.messages.at(-1);
        check(
          told.role === 'tool' &&
            told.content === 'The user denied the edit of src/greeting.ts; the file was not changed. Do not try it again unless the user asks.',
          `the model was told: ${JSON.stringify(told)}`,
        );
        await edit.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await shot('denied edit');
      } finally {
        fs.writeFileSync(file, original);
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
  {
    name: 'after "Allow edits for this conversation", files that can run code still ask, each with its reason; the panel shows the allowance and ends it',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, 'src', 'greeting.ts');
      const tasks = path.join(workspace, '.vscode', 'tasks.json');
      const eslintConfig = path.join(workspace, 'eslint.config.mjs');
      const original = fs.readFileSync(file, 'utf8');
      let narrow = async () => undefined;
      try {
        await setApiKey(page, emulator.key);
        await runCommand(page, 'Cadenza: New Chat');
        await composer(webview).waitFor({ timeout: 30_000 });
        narrow = await widenSideBar(page, 260);
        await waitUntil(async () => (await modelSelect(webview).locator('option').count()) > 1, 'the model list in the panel');
        await modelSelect(webview).selectOption(toolModel);
        await waitUntil(async () => (await modelSelect(webview).inputValue()) === toolModel, `the panel's model picker to show ${toolModel}`);
        emulator.scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hello', new_text: 'Hi' } }] });
        // A later ordinary edit in the same conversation: covered by the allowance, so it runs without a card's question.
        emulator.scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'Hi, ', new_text: 'Hi there, ' } }] });
        // A configuration script the ESLint extension would load on its next lint: not an ordinary file either.
        emulator.scriptChat({
          toolCalls: [
            {
              name: 'create_file',
              arguments: {
                path: '.vscode/tasks.json',
                content: '{"version":"2.0.0","tasks":[{"label":"setup","type":"shell","command":"./setup.sh","runOptions":{"runOn":"folderOpen"}}]}',
              },
            },
            { name: 'create_file', arguments: { path: 'eslint.config.mjs', content: 'import "./setup.mjs";\nexport default [];\n' } },
          ],
        });
        emulator.scriptChat({ content: 'Left the tasks alone.' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Shorten the greeting and add a setup task.', { delay: 2 });
        await box.press('Enter');

        const edit = cards(webview).filter({ hasText: 'edit_file' }).first();
        await waitForText(edit.locator('.tool-status'), /Waiting for your approval/, 30_000);
        await edit.getByRole('button', { name: /allow edits and new files for the rest of this conversation/ }).click();
        const endAllowance = webview.getByRole('button', { name: 'Stop allowing edits without asking in this conversation' });
        await endAllowance.waitFor({ timeout: 15_000 });

        // The second, ordinary edit never waits: its card goes straight to Done and the file has both edits.
        const second = cards(webview).filter({ hasText: 'edit_file' }).nth(1);
        await waitForText(second.locator('.tool-status'), /Done/, 30_000);
        check((await second.getByRole('button', { name: /^Approve/ }).count()) === 0, 'the allowed edit still shows an Approve button');
        await waitUntil(() => fs.readFileSync(file, 'utf8').includes('Hi there, ${name}!'), 'the allowed edit on disk');
        check(
          fs.readFileSync(file, 'utf8') === original.replace('Hello, ${name}!', 'Hi there, ${name}!'),
          `the file after the allowed edits: ${fs.readFileSync(file, 'utf8')}`,
        );

        const create = cards(webview).filter({ hasText: 'create_file' }).first();
        await waitForText(create.locator('.tool-status'), /Waiting for your approval/, 30_000);
        const caution = (await create.locator('.tool-caution').textContent()) ?? '';
        check(/^Always asked: .*tasks/.test(caution), `the card's reason: ${caution}`);
        check((await create.getByRole('button', { name: /allow edits and new files/ }).count()) === 0, 'the sensitive card offers the allowance');
        check(!fs.existsSync(tasks), 'tasks.json was created before approval');
        await create.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await shot('a file that can run code asks despite the allowance');
        await webview.getByRole('button', { name: 'Deny: Create .vscode/tasks.json' }).click();
        const config = cards(webview).filter({ hasText: 'create_file' }).nth(1);
        await waitForText(config.locator('.tool-status'), /Waiting for your approval/, 30_000);
        const configCaution = (await config.locator('.tool-caution').textContent()) ?? '';
        check(/^Always asked: A tool's configuration .*ESLint extension/.test(configCaution), `the config card's reason: ${configCaution}`);
        check((await config.getByRole('button', { name: /allow edits and new files/ }).count()) === 0, 'the config card offers the allowance');
        await config.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await shot('a configuration script asks despite the allowance');
        await webview.getByRole('button', { name: 'Deny: Create eslint.config.mjs' }).click();
        const answer = webview.locator('article.message.assistant').last();
        await waitUntil(
          async () => (await answer.getAttribute('aria-busy')) === 'false' && /Left the tasks alone/.test((await answer.textContent()) ?? ''),
          'the final answer',
        );
        check(!fs.existsSync(tasks), 'tasks.json was created although denied');
        check(!fs.existsSync(eslintConfig), 'eslint.config.mjs was created although denied');
        // The model was told: the denials are the tool results of the request after the create_file calls.
        const sent = chatRequests(emulator).slice(before);
        check(sent.length === 4, `expected 4 requests (edit, edit, create, answer), the emulator received ${sent.length}`);
        const [toldTasks, toldConfig] = sent[3].body.messages.slice(-2);
        check(
          toldTasks.role === 'tool' && /^The user denied creating \.vscode\/tasks\.json; nothing was created/.test(toldTasks.content),
          `the model was told: ${JSON.stringify(toldTasks)}`,
        );
        check(
          toldConfig.role === 'tool' && /^The user denied creating eslint\.config\.mjs; nothing was created/.test(toldConfig.content),
          `the model was told: ${JSON.stringify(toldConfig)}`,
        );
        await endAllowance.click();
        await endAllowance.waitFor({ state: 'hidden', timeout: 15_000 });
      } finally {
        fs.writeFileSync(file, original);
        fs.rmSync(tasks, { force: true });
        fs.rmSync(eslintConfig, { force: true });
        await narrow().catch(() => undefined);
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
  {
    name: 'a long new file: the card shows its head, says how much is not shown, and Show diff opens the whole file in the diff editor',
    async run({ page, webview, emulator, workspace, shot }) {
      const created = path.join(workspace, 'src', 'generated.ts');
      const lines = Array.from({ length: 2500 }, (_, i) => `export const value${String(i).padStart(4, '0')} = ${i}; // generated`);
      let narrow = async () => undefined;
      try {
        await setApiKey(page, emulator.key);
        await runCommand(page, 'Cadenza: New Chat');
        await composer(webview).waitFor({ timeout: 30_000 });
        narrow = await widenSideBar(page, 260);
        await waitUntil(async () => (await modelSelect(webview).locator('option').count()) > 1, 'the model list in the panel');
        await modelSelect(webview).selectOption(toolModel);
        await waitUntil(async () => (await modelSelect(webview).inputValue()) === toolModel, `the panel's model picker to show ${toolModel}`);
        emulator.scriptChat({ toolCalls: [{ name: 'create_file', arguments: { path: 'src/generated.ts', content: `${lines.join('\n')}\n` } }] });
        emulator.scriptChat({ content: 'Left it out.' });
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Generate the constants file.', { delay: 2 });
        await box.press('Enter');

        const create = cards(webview).filter({ hasText: 'create_file' }).first();
        await waitForText(create.locator('.tool-status'), /Waiting for your approval/, 30_000);
        const shown = (await create.locator('.tool-content').textContent()) ?? '';
        check(shown.startsWith('export const value0000') && shown.length <= 20_000, `the card shows ${shown.length} characters`);
        const omitted = (await create.locator('.tool-omitted').textContent()) ?? '';
        const shownLines = shown.split('\n').length - 1;
        check(
          omitted ===
            `\u2026 ${(2500 - shownLines).toLocaleString('en-US')} more lines (${(lines.join('\n').length + 1 - shown.length).toLocaleString('en-US')} characters) not shown`,
          `the card says: ${omitted}`,
        );
        await create.getByRole('button', { name: 'Open the diff of src/generated.ts in the editor' }).click();
        await page.locator('.tabs-container .tab', { hasText: 'Cadenza proposes: src/generated.ts (new file)' }).waitFor({ timeout: 15_000 });
        // The diff editor holds the whole proposal: its modified side has all 2,500 lines (the last is reachable).
        const modified = page.locator('.monaco-diff-editor .editor.modified');
        await modified.waitFor({ timeout: 15_000 });
        await waitForText(modified.locator('.view-lines'), /export const value0000 = 0;/, 15_000);
        await create.evaluate((element) => element.scrollIntoView({ block: 'end' }));
        await shot('a long new file with its full diff');
        await modified.click({ position: { x: 200, y: 40 } });
        await page.keyboard.press('Control+End');
        await waitForText(modified.locator('.view-lines'), /export const value2499 = 2499;/, 15_000);
        await webview.getByRole('button', { name: 'Deny: Create src/generated.ts' }).click();
        const answer = webview.locator('article.message.assistant').last();
        await waitUntil(
          async () => (await answer.getAttribute('aria-busy')) === 'false' && /Left it out/.test((await answer.textContent()) ?? ''),
          'the final answer',
        );
        check(!fs.existsSync(created), 'the file was created although denied');
        // Decided: the proposal's diff closes.
        await page.locator('.tabs-container .tab', { hasText: 'Cadenza proposes' }).waitFor({ state: 'detached', timeout: 15_000 });
      } finally {
        fs.rmSync(created, { force: true });
        await narrow().catch(() => undefined);
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
];
