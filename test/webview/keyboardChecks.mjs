/* global window, document, MutationObserver, getComputedStyle -- the page.evaluate callbacks run in the browser */
// The webview tier's keyboard and screen reader checks (issue #38): every action has a key, the keys are
// where the Alt+F1 help says, and a streamed answer is read out once. Only page.keyboard drives the panel
// here (after a first focus in the message box, as the workbench's "focus the panel" gives it).
import { axeProblems } from './axe.mjs';

/** The element with focus, described by its role, name and classes. */
const focused = (page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element
      ? {
          tag: element.tagName.toLowerCase(),
          name: element.getAttribute('aria-label') ?? '',
          className: String(element.className),
          id: element.dataset?.id ?? '',
          text: (element.textContent ?? '').slice(0, 80),
        }
      : undefined;
  });

/** Presses Tab until the focused element's name starts with `name` (at most `limit` times); returns the presses. */
async function tabTo(page, name, limit = 30) {
  for (let presses = 1; presses <= limit; presses += 1) {
    await page.keyboard.press('Tab');
    if ((await focused(page))?.name.startsWith(name)) return presses;
  }
  throw new Error(`Tab did not reach "${name}" in ${limit} presses (at ${JSON.stringify(await focused(page))})`);
}

/** Records what the panel's live region says (each non-empty text once it is set). */
const listen = (page) =>
  page.evaluate(() => {
    window.__said = [];
    const region = document.querySelector('.visually-hidden[role="status"][aria-live="polite"]');
    new MutationObserver(() => {
      const text = region.textContent.trim();
      if (text !== '') window.__said.push(text);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });

/** Adds the keyboard checks through the tier's `check(label, fn)`; `open`, `posted` and `expect` are its helpers. */
export async function keyboardChecks({ check, open, posted, expect, outDir }) {
  const focusComposer = (page) => page.getByRole('textbox', { name: 'Message to Cadenza' }).focus();

  await check(
    'keyboard: Ctrl+Up goes from the message box to the last message, Up/Down/Home/End move between messages with a ring, Ctrl+Down goes back',
    async (context) => {
      const page = await open(context, 'conversation');
      await focusComposer(page);
      await page.keyboard.press('Control+ArrowUp');
      let at = await focused(page);
      expect(
        at?.tag === 'article' && at.name === 'Answer from Meta-Llama-3.3-70B-Instruct' && at.text.includes('Cadenza'),
        `Ctrl+Up focused ${JSON.stringify(at)}`,
      );
      const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
      expect(ring !== 'none', 'the focused message shows no outline');
      await page.keyboard.press('ArrowUp');
      at = await focused(page);
      expect(at?.name === 'Your message' && at.text.includes('cancel()'), `Up focused ${JSON.stringify(at)}`);
      await page.keyboard.press('Home');
      at = await focused(page);
      expect(at?.name === 'Your message' && at.text.includes('debounce fire twice'), `Home focused ${JSON.stringify(at)}`);
      await page.keyboard.press('ArrowDown');
      at = await focused(page);
      expect(at?.name === 'Answer from Meta-Llama-3.3-70B-Instruct' && at.text.includes('never cleared'), `Down focused ${JSON.stringify(at)}`);
      await page.keyboard.press('End');
      expect((await focused(page))?.text.includes('Rate limited'), 'End did not reach the last answer');
      await page.keyboard.press('Control+ArrowDown');
      expect((await focused(page))?.name === 'Message to Cadenza', 'Ctrl+Down did not go back to the message box');
    },
  );

  await check("keyboard: from an answer, Tab reaches its code block's Copy and Enter copies the code", async (context) => {
    const page = await open(context, 'conversation');
    await focusComposer(page);
    await page.keyboard.press('Control+ArrowUp');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    const presses = await tabTo(page, 'Copy code', 3);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__sandbox.posted.some((message) => message.type === 'code/copy'));
    const [copy] = await posted(page, 'code/copy');
    expect(copy.code.startsWith('export function debounce<T'), `copied ${JSON.stringify(copy.code.slice(0, 40))}`);
    // The block itself is the next stops after its actions: its code scrolls with the arrow keys.
    await tabTo(page, 'ts code', 4);
    return `Copy code ${presses} Tab from the answer`;
  });

  await check('keyboard: a tool card is approved with Enter and another denied with Space, reached with Tab', async (context) => {
    const page = await open(context, 'agent');
    await focusComposer(page);
    await page.keyboard.press('Control+ArrowUp');
    const presses = await tabTo(page, 'Approve: Edit src/greeting.ts');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Deny: Create .vscode/tasks.json');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.__sandbox.posted.filter((message) => message.type === 'tool/approve').length === 2);
    const decisions = (await posted(page, 'tool/approve')).map((message) => `${message.callId} ${message.decision}`);
    expect(decisions.join(', ') === 'call-3 approve, call-4 deny', `decisions: ${decisions.join(', ')}`);
    return `Approve ${presses} Tab from the answer`;
  });

  for (const theme of ['dark', 'light', 'hc']) {
    await check(
      `keyboard: Alt+F1 shows the keyboard help (${theme}), which lists the keys and passes axe; Escape closes it and focus goes back`,
      async (context) => {
        const page = await open(context, 'streaming', theme);
        await focusComposer(page);
        await page.keyboard.press('Alt+F1');
        const help = page.getByRole('dialog', { name: 'Keyboard' });
        await help.waitFor();
        const text = await help.textContent();
        for (const key of ['Enter', 'Escape', 'Ctrl+Up', 'Up / Down', 'Tab', 'Ctrl+Down', 'Alt+F1', 'announceProgress'])
          expect(text.includes(key), `the help does not mention ${key}`);
        expect(await help.evaluate((element) => element === document.activeElement), 'focus did not move to the help');
        await page.screenshot({ path: `${outDir}/keyboardHelp-${theme}.png` });
        const axe = await axeProblems(page);
        expect(axe.problems.length === 0, axe.problems.join('; '));
        await page.keyboard.press('Escape');
        await help.waitFor({ state: 'hidden' });
        expect((await focused(page))?.name === 'Message to Cadenza', 'focus did not go back to the message box');
        // That Escape closed the help only: the answer streaming behind it was not stopped.
        expect((await posted(page, 'chat/stop')).length === 0, 'the Escape that closed the help also stopped the answer');
      },
    );
  }

  await check('screen reader: a streamed answer is announced once, when it is done (the panel itself is not a live region)', async (context) => {
    const page = await open(context, 'bench');
    expect((await page.locator('#app').getAttribute('aria-live')) === 'off', 'the panel root is a live region');
    await listen(page);
    await page.getByRole('textbox', { name: 'Message to Cadenza' }).fill('Go');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.message.assistant .usage-line');
    await page.waitForTimeout(300);
    const said = await page.evaluate(() => window.__said);
    expect(said.length === 1 && said[0].startsWith('Answer complete. The timer is never cleared'), `said: ${JSON.stringify(said)}`);
  });

  await check('screen reader: with announceProgress, the start of an answer is announced too, then its end once', async (context) => {
    const page = await open(context, 'bench&announceProgress=1');
    await listen(page);
    await page.getByRole('textbox', { name: 'Message to Cadenza' }).fill('Go');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.message.assistant .usage-line');
    await page.waitForTimeout(300);
    const said = await page.evaluate(() => window.__said);
    expect(said.length === 2 && said[0] === 'Cadenza is answering\u2026' && said[1].startsWith('Answer complete.'), `said: ${JSON.stringify(said)}`);
  });
}
