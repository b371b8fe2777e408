// @-mentions in the composer, used as a person would: typing `@` and part of a file name opens the list,
// the arrows move through it and Tab picks, the chip shows the file and its token cost, Escape closes the
// list without picking, and the request the emulator saw carries the file's text in front of the message,
// whose chip stays on the sent message.
import { check, setApiKey, waitUntil } from './actions.mjs';
import { composer, userMessages, chatRequests, newChatWithModel } from './panel.mjs';

const chatModel = 'Meta-Llama-3.3-70B-Instruct';
const mentionList = (webview) => webview.getByRole('listbox', { name: 'Attach context' });
const composerChips = (webview) => webview.locator('.composer').getByRole('group', { name: 'Attached context' });

function textOf(content) {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'typing @ offers files, the keyboard picks one, its chip shows the token cost, and the request carries the file',
    async run({ page, webview, emulator, shot }) {
      try {
        await setApiKey(page, emulator.key);
        await newChatWithModel(page, webview, chatModel);
        const box = composer(webview);
        await box.click();
        await box.fill('');

        // Escape closes the list and leaves the text as typed.
        await box.pressSequentially('@', { delay: 5 });
        await mentionList(webview).waitFor({ timeout: 15_000 });
        await box.press('Escape');
        await waitUntil(async () => !(await mentionList(webview).isVisible()), 'Escape to close the @ list');
        check((await box.inputValue()) === '@', `Escape changed the text to ${await box.inputValue()}`);
        await box.fill('');

        await box.pressSequentially('What does @greetts', { delay: 5 });
        // Each keystroke asks anew; wait for the list of the whole query, not one typed half-way.
        const list = webview.locator('[role="listbox"][aria-label="Attach context"][data-query="greetts"]');
        await list.waitFor({ timeout: 20_000 });
        const wanted = list.getByRole('option').filter({ hasText: 'src/greeting.ts' }).first();
        await wanted.waitFor({ timeout: 20_000 });
        // The arrows move the active offer (and wrap); it is the fuzzy best match that starts active.
        const active = () => list.locator('[role="option"][aria-selected="true"]');
        const first = await active().textContent();
        await box.press('ArrowDown');
        await box.press('ArrowUp');
        check((await active().textContent()) === first, 'ArrowDown then ArrowUp did not come back to the first offer');
        check(first.includes('src/greeting.ts'), `the best offer for "greetts" is ${first}`);
        await shot('mention list');
        await box.press('Tab');
        const chip = composerChips(webview).locator('.mention-chip', { hasText: '@src/greeting.ts' });
        await chip.waitFor({ timeout: 15_000 });
        const facts = await chip.textContent();
        check(/\d+ tokens/.test(facts), `the chip says ${facts}`);
        check((await box.inputValue()) === 'What does ', `the typed @query was not replaced: ${await box.inputValue()}`);
        await box.pressSequentially('this file do?', { delay: 2 });
        await shot('mention chip');

        emulator.scriptChat({ content: 'It returns a greeting for a name.' });
        const before = chatRequests(emulator).length;
        const sentBefore = await userMessages(webview).count();
        await box.press('Enter');
        await waitUntil(async () => chatRequests(emulator).length > before, 'the chat request');
        const sent = chatRequests(emulator).slice(before)[0];
        const user = textOf(sent.body.messages.filter((message) => message.role === 'user').at(-1)?.content);
        check(user.startsWith('Context: src/greeting.ts\n```\n/** Returns a greeting'), `the request's message starts ${JSON.stringify(user.slice(0, 80))}`);
        check(user.endsWith('What does this file do?'), `the request's message ends ${JSON.stringify(user.slice(-40))}`);
        await waitUntil(async () => (await userMessages(webview).count()) > sentBefore, 'the sent message');
        const sentChip = userMessages(webview).last().getByRole('group', { name: 'Attached context' });
        await sentChip.waitFor({ timeout: 10_000 });
        check((await sentChip.textContent()).includes('@src/greeting.ts'), 'the sent message does not show its chip');
        await waitUntil(async () => !(await composerChips(webview).isVisible()), 'the composer chips to clear after sending');
        await shot('sent with mention');
      } finally {
        emulator.reset();
        await composer(webview)
          .fill('')
          .catch(() => undefined);
      }
    },
  },
];
