// Condensing a long conversation in the packaged extension, used as a person would: four long questions
// to the 16,384-token model leave the oldest turn out of the fourth request, so the context meter says so
// and offers Condense; the user clicks it, the emulator (scripted) answers with the summary, which appears
// after the last message it covers, in an editable box, while every message stays shown; the meter's offer
// goes away. The user edits the summary and saves it, and the next request carries the edited summary
// (as its first turn) instead of the older turns. Screenshots: the offer, the summary, the edited summary.
import { check, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { answers, chatRequests, composer, userMessages, newChatWithModel } from './panel.mjs';

const smallModel = 'Meta-Llama-3.1-8B-Instruct';
const summary = 'The user asked about topics one and two at length; both were answered.';
const edited = 'EDITED: topics one and two are settled; do not repeat them.';
const meterNote = (webview) => webview.locator('.meter-note');
const summaryBlock = (webview) => webview.getByRole('region', { name: 'Summary of earlier messages' });
const notices = (webview) => webview.locator('.notices .notice');

/** About 3,500 tokens: four of them do not fit the 12,288 tokens the model leaves besides the answer. */
const longQuestion = (word) => `Question about topic ${word}: ${`the ${word} topic needs careful thought `.repeat(350)}`;

function textOf(content) {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** Sends `text` from the composer and waits for the scripted answer `reply` to be shown whole. */
async function ask(webview, emulator, text, reply) {
  emulator.scriptChat({ content: reply });
  const before = await answers(webview).count();
  const box = composer(webview);
  await box.fill(text);
  await box.press('Enter');
  await waitUntil(async () => (await answers(webview).count()) > before, `the answer "${reply}"`, 60_000);
  await waitForText(answers(webview).last(), new RegExp(reply.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 30_000);
}

/** Scrolls the panel until all of `locator` is in view and stays there (the list follows its own layout changes). */
async function reveal(locator, what) {
  await waitUntil(async () => {
    await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    return locator.evaluate((element) => {
      let box = element.parentElement;
      while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(globalThis.getComputedStyle(box).overflowY))) box = box.parentElement;
      const rect = element.getBoundingClientRect();
      const view = box ? box.getBoundingClientRect() : { top: 0, bottom: globalThis.innerHeight };
      return rect.top >= view.top && rect.bottom <= view.bottom;
    });
  }, what);
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'a conversation that no longer fits offers Condense; the summary appears, editable, and the edit is what is sent',
    async run({ page, webview, emulator, shot }) {
      try {
        emulator.reset();
        await setApiKey(page, emulator.key);
        if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
        await newChatWithModel(page, webview, smallModel);

        for (const word of ['one', 'two', 'three']) await ask(webview, emulator, longQuestion(word), `Answer about topic ${word}.`);
        check(!(await meterNote(webview).isVisible()), 'the meter offered to condense before the conversation stopped fitting');
        await ask(webview, emulator, longQuestion('four'), 'Answer about topic four.');
        const fourth = chatRequests(emulator).at(-1);
        check(!JSON.stringify(fourth.body.messages).includes('Question about topic one'), 'the fourth request still carried the first question');
        await waitForText(meterNote(webview), /2 older messages were left out to fit the context\./);
        const offer = meterNote(webview).getByRole('button', { name: /^Condense the conversation/ });
        check(await offer.isVisible(), 'the meter shows no Condense button');
        await shot('the meter offers to condense');

        emulator.scriptChat({ content: summary });
        const before = chatRequests(emulator).length;
        await offer.click();
        const block = summaryBlock(webview);
        await block.waitFor({ timeout: 30_000 });
        const condensing = chatRequests(emulator).slice(before);
        check(condensing.length === 1, `condensing sent ${condensing.length} requests`);
        const transcript = JSON.stringify(condensing[0].body.messages);
        check(
          transcript.includes('Question about topic one') && transcript.includes('Answer about topic two.'),
          'the condensing request lacks the older turns',
        );
        check(!transcript.includes('Question about topic three'), 'the condensing request carried the newest two turns');
        const title = await waitForText(block.locator('.condensed-title'), /The 4 messages above are condensed/);
        check(title.includes(`by ${condensing[0].body.model}`), `the summary's title does not name its model: ${title}`);
        const box = block.getByRole('textbox', { name: 'Summary sent instead of the earlier messages' });
        check((await box.inputValue()) === summary, `the summary box holds ${JSON.stringify(await box.inputValue())}`);
        check(await box.isEditable(), 'the summary box is not editable');
        check((await userMessages(webview).count()) === 4, 'the condensed messages are no longer shown');
        await waitUntil(async () => !(await meterNote(webview).isVisible()), "the meter's offer to go away once the summary stands in for the older turns");
        // The "Condensing…" notice gives way to its outcome (it does not linger beside the summary).
        await notices(webview).filter({ hasText: 'Condensed 4 older messages' }).waitFor({ timeout: 15_000 });
        check(
          (await notices(webview).filter({ hasText: 'Condensing the older turns' }).count()) === 0,
          'the condensing notice is still shown beside its outcome',
        );
        await reveal(block, 'the summary in view');
        await shot('the summary, editable, after the messages it covers');

        const save = block.getByRole('button', { name: 'Send this edited summary instead of the earlier messages from now on' });
        check(await save.isDisabled(), 'Save summary is enabled before any edit');
        await box.fill(edited);
        await save.click();
        await waitForText(summaryBlock(webview).locator('.condensed-title'), /this summary \(edited\) is sent instead of them/);
        check((await summaryBlock(webview).getByRole('textbox').inputValue()) === edited, 'the saved summary box does not hold the edit');
        await reveal(summaryBlock(webview), 'the edited summary in view');
        await shot('the edited summary');

        await ask(webview, emulator, 'And topic five, briefly?', 'Answer about topic five.');
        const next = chatRequests(emulator).at(-1).body.messages;
        // The summary is sent as the first turn (a user message), never as system text.
        const summaryTurn = textOf(next.find((message) => message.role === 'user')?.content);
        check(summaryTurn.includes(edited), 'the next request does not carry the edited summary in its first turn');
        check(!summaryTurn.includes(summary), "the next request still carries the model's summary");
        check(!textOf(next.find((message) => message.role === 'system')?.content).includes(edited), 'the summary was sent as system text');
        const sent = JSON.stringify(next);
        check(!sent.includes('Question about topic one') && !sent.includes('Question about topic two'), 'the next request carried the condensed turns');
        check(sent.includes('Question about topic three') && sent.includes('Question about topic four'), 'the next request lacks the newest turns');
      } finally {
        emulator.reset();
        await composer(webview)
          .fill('')
          .catch(() => undefined);
        await runCommand(page, 'Cadenza: New Chat').catch(() => undefined);
      }
    },
  },
];
