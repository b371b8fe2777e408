// The tools menu as a person uses it: the wrench button by the composer opens a checklist of the tools other
// extensions and MCP servers register in VS Code (here the tools fixture extension the harness installs,
// test/support/fixtures/toolsExtension, with a stand-in MCP server's tool), each with its source and token cost, none
// ticked. Ticking one enables it for the workspace: the next agent request offers it, and the model's call to
// it runs through VS Code and shows its card. The screenshot shows the open menu with the ticked tool. A tool
// not marked read-only (the stand-in MCP server's) waits on its card instead, shown in the second test's shot.
import { check, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { answers, chatRequests, composer, newChatWithModel } from './panel.mjs';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'tools menu: open it, tick a tool, and the agent offers and calls it',
    async run({ webview, page, emulator, shot }) {
      emulator.reset();
      try {
        await setApiKey(page, emulator.key);
        await newChatWithModel(page, webview, toolModel);

        await webview.getByRole('button', { name: /^VS Code tools the agent may use/ }).click();
        const menu = webview.getByRole('region', { name: 'VS Code tools the agent may use' });
        await menu.waitFor({ timeout: 15_000 });
        const wordCount = menu.getByRole('checkbox', { name: /fixture_wordCount/ });
        await wordCount.waitFor({ timeout: 15_000 });
        check(!(await wordCount.isChecked()), 'a tool is ticked before the user ticked it');
        check(await menu.getByText('cadenza-tests.cadenza-test-tools').first().isVisible(), 'the tool\'s source is shown');
        check(await menu.getByText('MCP server cadenza-tests.cadenza-test-tools').isVisible(), 'the MCP-style tool and its server are listed');
        check((await menu.getByRole('checkbox', { name: /cadenza_/ }).count()) === 0, 'Cadenza\'s own tools are offered back to it');
        check(await menu.getByText('None enabled').isVisible(), 'the summary says none is enabled');
        await wordCount.check();
        await waitUntil(async () => /1 enabled, about \d+ tokens per agent request/.test((await menu.locator('.tools-summary').textContent()) ?? ''), 'the summary to count the ticked tool');
        await shot('tools menu with a tool ticked');

        emulator.scriptChat({ toolCalls: [{ name: 'fixture_wordCount', arguments: { text: 'one two three' }, id: 'call_words' }] });
        emulator.scriptChat({ content: 'The text has 3 words.' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('How many words are in "one two three"?', { delay: 2 });
        await box.press('Enter');
        await waitUntil(async () => /3 words\./.test((await answers(webview).last().textContent()) ?? ''), 'the answer after the tool call');
        const sent = chatRequests(emulator).slice(before);
        check(sent[0]?.body.tools?.some((tool) => tool.function.name === 'fixture_wordCount'), 'the ticked tool was not offered');
        check(String(sent[1]?.body.messages.at(-1)?.content) === '3 words', `the tool's result: ${JSON.stringify(sent[1]?.body.messages.at(-1))}`);
        const card = webview.locator('.tool-card', { hasText: 'fixture_wordCount' });
        await card.waitFor({ timeout: 15_000 });
        check(/Tool from cadenza-tests\.cadenza-test-tools/.test((await card.textContent()) ?? ''), 'the card names where the tool comes from');
        await shot('a VS Code tool\'s card');
      } finally {
        emulator.reset();
        // Untick it again, so later tests' requests carry only Cadenza's own functions.
        const box = webview.getByRole('region', { name: 'VS Code tools the agent may use' }).getByRole('checkbox', { name: /fixture_wordCount/ });
        if (await box.isChecked().catch(() => false)) await box.uncheck().catch(() => undefined);
        await webview.getByRole('button', { name: /^VS Code tools the agent may use/ }).click().catch(() => undefined);
      }
    },
  },
  {
    name: 'tools menu: a tool not marked read-only (an MCP server\'s) waits on a card with its origin and arguments; Deny keeps it from running',
    async run({ webview, page, emulator, shot }) {
      emulator.reset();
      const menuButton = webview.getByRole('button', { name: /^VS Code tools the agent may use/ });
      const menu = webview.getByRole('region', { name: 'VS Code tools the agent may use' });
      const note = menu.getByRole('checkbox', { name: /mcp_notes_add_note/ });
      try {
        await setApiKey(page, emulator.key);
        await newChatWithModel(page, webview, toolModel);
        await menuButton.click();
        await note.waitFor({ timeout: 15_000 });
        check(/Asks before each call/.test((await menu.locator('.tools-row', { hasText: 'mcp_notes_add_note' }).textContent()) ?? ''), 'the menu says the tool asks before each call');
        await note.check();
        await waitUntil(async () => /1 enabled/.test((await menu.locator('.tools-summary').textContent()) ?? ''), 'the summary to count the ticked tool');
        await menuButton.click();

        emulator.scriptChat({ toolCalls: [{ name: 'mcp_notes_add_note', arguments: { title: 'Release notes', body: 'Deploy key: sk-live-walrus-0042' }, id: 'call_note_ui' }] });
        emulator.scriptChat({ content: 'I did not save the note.' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Save the release notes as a note.', { delay: 2 });
        await box.press('Enter');

        const card = webview.locator('.tool-card', { hasText: 'mcp_notes_add_note' });
        await waitForText(card.locator('.tool-status'), /Waiting for your approval/, 30_000);
        const text = (await card.textContent()) ?? '';
        check(text.includes('Run mcp_notes_add_note from MCP server cadenza-tests.cadenza-test-tools'), `the card's title: ${text}`);
        check(text.includes('Tool from MCP server cadenza-tests.cadenza-test-tools'), 'the card names the server');
        const input = (await card.getByLabel('Arguments mcp_notes_add_note is sent').textContent()) ?? '';
        check(input.includes('"body": "Deploy key: sk-live-walrus-0042"'), `the arguments shown in full: ${input}`);
        check(text.includes('Changes made by this tool are not in checkpoints'), 'the card says checkpoints do not hold its changes');
        check(await card.getByRole('button', { name: 'Run, and run mcp_notes_add_note again in this conversation without asking' }).isVisible(), 'no per-tool allowance');
        check((await card.getByRole('button', { name: /allow edits and new files/ }).count()) === 0, 'the edit allowance is offered for a tool');
        check(chatRequests(emulator).length === before + 1, 'the turn went on before the user decided');
        await shot('an MCP server tool waiting for approval');

        await card.getByRole('button', { name: 'Deny: Run mcp_notes_add_note from MCP server cadenza-tests.cadenza-test-tools' }).click();
        await waitUntil(async () => /did not save the note/.test((await answers(webview).last().textContent()) ?? ''), 'the answer after the denial');
        await waitForText(card.locator('.tool-status'), /Denied/);
        const sent = chatRequests(emulator).slice(before);
        check(/^The user denied running mcp_notes_add_note/.test(String(sent[1]?.body.messages.at(-1)?.content)), `the model is told: ${JSON.stringify(sent[1]?.body.messages.at(-1))}`);
      } finally {
        emulator.reset();
        if (!(await menu.isVisible().catch(() => false))) await menuButton.click().catch(() => undefined);
        if (await note.isChecked().catch(() => false)) await note.uncheck().catch(() => undefined);
        if (await menu.isVisible().catch(() => false)) await menuButton.click().catch(() => undefined);
      }
    },
  },
];
