// The tools menu as a person uses it: the wrench button by the composer opens a checklist of the tools other
// extensions and MCP servers register in VS Code (here the tools fixture extension the harness installs,
// test/fixtures/toolsExtension, with a stand-in MCP server's tool), each with its source and token cost, none
// ticked. Ticking one enables it for the workspace: the next agent request offers it, and the model's call to
// it runs through VS Code and shows its card. The screenshot shows the open menu with the ticked tool.
import { check, setApiKey, waitUntil } from './actions.mjs';
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
];
