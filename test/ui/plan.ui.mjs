// Plan, then act, in the packaged extension, used as a person would: the composer's switch is set to Plan,
// a question makes the model (scripted in the emulator) read a file and try an edit anyway; the edit is
// refused (its card says Denied, nothing is asked, the file is unchanged) and the answer, labelled Plan,
// ends with a plan in an editable box. The user adds a step to the plan and clicks Act on this plan: the
// switch goes to Act, the edited plan is sent, the edit now waits for approval, the user approves it and
// the file changes. A screenshot of each step. The file is put back and a new chat opened afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { check, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { answers, chatRequests, composer, newChatWithModel, userMessages } from './panel.mjs';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';
const planText = '1. In src/greeting.ts, change "Hello" to "Welcome".\n2. Keep the function name.';
const editCall = { name: 'edit_file', arguments: { path: 'src/greeting.ts', old_text: 'return `Hello, ${name}!`;', new_text: 'return `Welcome, ${name}!`;' } };

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'Plan refuses a forced edit and ends with an editable plan; Act on this plan sends the edited plan and the edit is approved',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = path.join(workspace, 'src', 'greeting.ts');
      const original = fs.readFileSync(file, 'utf8');
      try {
        await setApiKey(page, emulator.key);
        if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
        await newChatWithModel(page, webview, toolModel);
        const modes = webview.getByRole('group', { name: 'Agent mode' });
        await modes.locator('label', { hasText: 'Plan' }).click();
        await waitUntil(async () => modes.getByRole('radio', { name: 'Plan' }).isChecked(), 'Plan checked in the switch');

        // 1. Plan: the model reads, then calls edit_file although it was not offered.
        emulator.scriptChat({ content: 'Let me read the file.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/greeting.ts' } }, editCall] });
        emulator.scriptChat({ content: `It returns "Hello, <name>!".\n\n## Plan\n${planText}` });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Plan a friendlier greeting in src/greeting.ts.', { delay: 2 });
        await box.press('Enter');
        const refused = webview.locator('section.tool-card').filter({ hasText: 'edit_file' }).first();
        await waitForText(refused.locator('.tool-status'), /Denied/, 30_000);
        const planBox = webview.getByRole('textbox', { name: 'Plan (edit it, then act on it)' });
        await planBox.waitFor({ timeout: 30_000 });
        check(fs.readFileSync(file, 'utf8') === original, 'the file changed in Plan mode');
        const planned = chatRequests(emulator).slice(before);
        check(planned.length === 2, `expected 2 requests in Plan, the emulator received ${planned.length}`);
        const offered = planned[0].body.tools?.map((tool) => tool.function.name) ?? [];
        check(!offered.includes('edit_file') && offered.includes('read_file'), `Plan offered ${JSON.stringify(offered)}`);
        const told = planned[1].body.messages.at(-1);
        check(/edit_file was refused: this conversation is in Plan mode/.test(told.content), `the model was told: ${JSON.stringify(told)}`);
        const label = await answers(webview).first().locator('.message-mode').textContent();
        check(label === 'Plan', `the answer's mode label: ${label}`);
        check((await planBox.inputValue()) === planText, `the plan box holds ${JSON.stringify(await planBox.inputValue())}`);
        await refused.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await shot('1 plan answer with the refused edit and the plan');

        // 2. The user edits the plan.
        const edited = `${planText}\n3. Say so in the answer.`;
        await planBox.fill(edited);
        await planBox.evaluate((element) => element.scrollIntoView({ block: 'center' }));
        await shot('2 plan edited');
        // The panel keeps no context while hidden: hiding the side bar drops the webview, showing it makes it anew
        // from its saved state, which holds the edit.
        await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
        await waitUntil(async () => !(await page.locator('.part.sidebar').isVisible()), 'the side bar hidden');
        await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
        await planBox.waitFor({ timeout: 30_000 });
        check((await planBox.inputValue()) === edited, `after hiding and showing the panel, the plan box holds ${JSON.stringify(await planBox.inputValue())}`);

        // 3. Act on this plan: the switch goes to Act, the edited plan is the next message, the edit waits for approval.
        emulator.scriptChat({ content: 'Acting on the plan.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/greeting.ts' } }, editCall] });
        emulator.scriptChat({ content: 'Done: the greeting now says Welcome.' });
        const actBefore = chatRequests(emulator).length;
        await webview.getByRole('button', { name: /^Act on this plan/ }).click();
        await waitUntil(async () => modes.getByRole('radio', { name: 'Act' }).isChecked(), 'Act checked in the switch after Act on this plan');
        const sentPlan = await userMessages(webview).last().textContent();
        check(sentPlan.includes('Say so in the answer.'), `the message sent: ${sentPlan}`);
        const edit = webview.locator('section.tool-card').filter({ hasText: 'edit_file' }).last();
        await waitForText(edit.locator('.tool-status'), /Waiting for your approval/, 30_000);
        check(fs.readFileSync(file, 'utf8') === original, 'the file changed before approval');
        check(chatRequests(emulator)[actBefore].body.messages.at(-1).content === edited, 'the edited plan is not what was sent');
        await edit.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await shot('3 acting on the plan: the edit waits for approval');

        // 4. Approve: the file changes, the answer is labelled Act.
        await webview.getByRole('button', { name: 'Approve: Edit src/greeting.ts' }).click();
        await waitForText(edit.locator('.tool-status'), /Done/, 30_000);
        const last = answers(webview).last();
        await waitUntil(
          async () => (await last.getAttribute('aria-busy')) === 'false' && /now says Welcome/.test((await last.textContent()) ?? ''),
          'the final answer',
        );
        await waitUntil(() => fs.readFileSync(file, 'utf8').includes('Welcome, ${name}!'), 'the approved edit on disk');
        // The answer's header (with its label) is on its first step, the one holding the edit's card.
        const actAnswer = edit.locator('xpath=ancestor::article[1]');
        check((await actAnswer.locator('.message-mode').textContent()) === 'Act', 'the new answer is not labelled Act');
        await actAnswer.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await shot('4 approved and answered in Act');
      } finally {
        fs.writeFileSync(file, original);
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
];
