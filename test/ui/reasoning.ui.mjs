// A reasoning model in the panel, as a person sees it: its thinking streams live in a "Thinking" section
// above the answer, the section collapses with its duration when the answer starts, and opens again on a
// click; the answer itself (and its Copy) holds none of the thinking. The picker marks reasoning models.
import { check, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { keyBanner, composer, modelSelect, answers } from './panel.mjs';

const thinker = 'DeepSeek-R1';
const thought = 'The user asks for a haiku about rain. Five syllables, then seven, then five. Soft rain on the roof.';
const haiku = 'Soft rain on the roof,\nthe gutters hum a slow song,\nthe garden drinks deep.';

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'a reasoning model: thinking streams live apart from the answer, then collapses to "Thought for …" and opens on a click',
    async run({ page, webview, emulator, shot }) {
      await runCommand(page, 'Cadenza: Open Chat');
      if (await keyBanner(webview).isVisible()) await setApiKey(page, emulator.key);
      await runCommand(page, 'Cadenza: New Chat');
      await composer(webview).waitFor({ timeout: 30_000 });
      const label = await modelSelect(webview).locator(`option[value="${thinker}"]`).textContent();
      check(/reasoning/.test(label), `the picker does not mark ${thinker} as a reasoning model: ${label}`);
      await modelSelect(webview).selectOption(thinker);

      emulator.scriptChat({ content: haiku, reasoning: thought, thinkMs: 4000 });
      const box = composer(webview);
      await box.click();
      await box.pressSequentially('Write a haiku about rain.', { delay: 2 });
      await box.press('Enter');

      const answer = answers(webview).last();
      const thinking = answer.locator('details.thinking');
      await thinking.waitFor({ timeout: 15_000 });
      await waitForText(thinking.locator('.thinking-label'), /Thinking/);
      await waitUntil(async () => ((await thinking.locator('.thinking-body').textContent()) ?? '').length > 20, 'thinking text to stream in');
      check(await thinking.evaluate((node) => node.open), 'the thinking section is closed while the model thinks');
      await shot('thinking live');

      await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer to finish', 30_000);
      const summary = await waitForText(thinking.locator('.thinking-label'), /Thought for \d/);
      check(!(await thinking.evaluate((node) => node.open)), 'the thinking section stays open after the answer started');
      const shown = await waitForText(answer.locator('.markdown'), /gutters hum/);
      check(!shown.includes('syllables'), `the answer shows the thinking: ${shown}`);
      await shot('answer with collapsed thinking');

      await thinking.locator('summary').click();
      check(await thinking.evaluate((node) => node.open), 'a click does not open the thinking again');
      const body = await thinking.locator('.thinking-body').textContent();
      check(body === thought, `the thinking shown is not the model's: ${JSON.stringify(body)} (${summary})`);
      await shot('thinking opened again');
    },
  },
];
