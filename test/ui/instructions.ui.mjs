// Project instructions as a person sees them: a repository keeps AGENTS.md and .cadenza/instructions.md; the
// chat panel shows one chip per file with its token cost above the composer, the next question carries
// them in its system prompt, and a chip opens its file (the screenshot shows both). The files are removed afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { check, runCommand, setApiKey, waitUntil } from './actions.mjs';
import { answers, chatRequests, composer, newChatWithModel } from './panel.mjs';

const chatModel = 'Meta-Llama-3.3-70B-Instruct';

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'project instructions: the files show as chips with their cost, reach the request, and a chip opens its file',
    async run({ page, webview, emulator, workspace, shot }) {
      const agents = path.join(workspace, 'AGENTS.md');
      const folder = path.join(workspace, '.cadenza');
      try {
        fs.writeFileSync(
          agents,
          '# Working on this project\n\n- Answer in British English.\n- Tests live beside the code they test; run them with `npm test`.\n- Never add a default export.\n',
        );
        fs.mkdirSync(folder, { recursive: true });
        fs.writeFileSync(path.join(folder, 'instructions.md'), '# Instructions for Cadenza\n\nPrefer small functions with a one-line comment saying why.\n');
        await setApiKey(page, emulator.key);
        await runCommand(page, 'View: Close All Editors');
        // A general chat model (an earlier test may have left an audio model as the last one used).
        await newChatWithModel(page, webview, chatModel);
        const bar = webview.getByRole('group', { name: 'Project instructions' });
        const agentsChip = bar.getByRole('button', { name: /^Open AGENTS\.md \(\d+ tok\)$/ });
        const ownChip = bar.getByRole('button', { name: /^Open \.cadenza\/instructions\.md \(\d+ tok\)$/ });
        await agentsChip.waitFor({ timeout: 30_000 });
        await ownChip.waitFor({ timeout: 30_000 });
        check(
          await bar.getByRole('checkbox', { name: 'Use the project instructions in this conversation' }).isChecked(),
          'the instructions are not on for the new conversation',
        );

        emulator.scriptChat({ content: 'Understood: British English, tests beside the code, and no default exports.' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('What are the rules of this project?', { delay: 2 });
        await box.press('Enter');
        const answer = answers(webview).last();
        await waitUntil(
          async () => (await answer.getAttribute('aria-busy')) === 'false' && /British English/.test((await answer.textContent()) ?? ''),
          'the answer',
        );
        const sent = chatRequests(emulator).slice(before);
        const system = String(sent[0]?.body.messages[0]?.content ?? '');
        check(
          sent[0]?.body.messages[0]?.role === 'system' && system.includes('Answer in British English.') && system.includes('Prefer small functions'),
          `the system prompt: ${system.slice(0, 300)}`,
        );
        // A chip opens its file; the picture shows the chips beside the file they stand for.
        await agentsChip.click();
        await page.locator('.tabs-container .tab', { hasText: 'AGENTS.md' }).waitFor({ timeout: 15_000 });
        await page.locator('.editor-group-container.active .view-lines', { hasText: 'Answer in British English.' }).waitFor({ timeout: 15_000 });
        await shot('instruction chips');
      } finally {
        fs.rmSync(agents, { force: true });
        fs.rmSync(folder, { recursive: true, force: true });
        await runCommand(page, 'View: Close All Editors').catch(() => undefined);
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
];
