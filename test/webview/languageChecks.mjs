/* global document -- the page.evaluate callbacks run in the browser */
// The webview tier's language check (issue #38, "in the user's language"): the panel draws its texts from the
// table the host puts in the page (src/host/views/webviewHtml.ts; the sandbox's server builds it the same way).
// With the German table, no English text of the catalogue (src/shared/panelStrings.ts) is left on screen, in a
// tooltip or in an accessible name, and the German ones are there, on the first paint; numbers are written the
// German way.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importTypeScript } from '../../scripts/checkL10n.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A pattern that matches a catalogue text whole, whatever its placeholders were filled with. */
function patternOf(text) {
  return `^${text
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+')}$`;
}

/**
 * Every text the user can see or hear in the page, with where it is: element texts (not what the conversation
 * itself says: its Markdown, code and the user's words) and the names, tooltips, placeholders and alt texts.
 */
function pageTexts(page) {
  return page.evaluate(() => {
    const found = [];
    const mine = (element) => !element.closest('.markdown, pre, code, textarea, .message.user p, .conversation-name, .message-model, .mention-label');
    for (const element of document.querySelectorAll('#app *')) {
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) found.push({ where: `${element.tagName.toLowerCase()}[${name}]`, text: value });
      }
      if (!mine(element)) continue;
      for (const node of element.childNodes) {
        const text = node.nodeType === 3 ? node.textContent.trim() : '';
        if (text) found.push({ where: element.tagName.toLowerCase(), text });
      }
    }
    return found;
  });
}

/** Adds the language checks to the webview tier's run (`check`, `open` and `expect` are screenshots.mjs's). */
export async function languageChecks({ check, open, expect }) {
  const { panelStrings } = await importTypeScript(join(root, 'src', 'shared', 'panelStrings.ts'));
  const german = JSON.parse(await readFile(join(root, 'l10n', 'bundle.l10n.de.json'), 'utf8'));
  // Texts German writes the same way ("Tab", "Alt+F1", "Top P (0–1)") say nothing about the language shown.
  const english = Object.values(panelStrings).filter((text) => german[text] !== text);

  await check('with the German table, the panel shows German and no English text of the catalogue (conversation)', async (context) => {
    const page = await open(context, 'conversation', 'dark', 'de');
    expect((await page.getAttribute('html', 'lang')) === 'de', 'the page is not marked lang="de"');
    const textbox = page.getByRole('textbox', { name: german['Message to Cadenza'] });
    expect((await textbox.getAttribute('placeholder')) === german[panelStrings.composerPlaceholder], 'the message box is not in German');
    await textbox.focus();
    await page.keyboard.press('Alt+F1');
    const help = page.getByRole('dialog', { name: german.Keyboard });
    await help.waitFor();
    expect(await help.getByText(german[panelStrings.keyAltF1Does], { exact: true }).isVisible(), 'the keyboard help is not in German');
    await page.keyboard.press('Escape');
    // Its numbers as German writes them (Intl, in the page's language): thousands grouped with a point, a decimal
    // comma, the dollar sign after the amount. The sandbox's meter says 18,240 of 131,072 tokens; the first
    // answer's usage 1,240 tokens in, 268.4 tok/s, 1,570 ms and $0.00112.
    const nbsp = (text) => text?.replace(/[\u00a0\u202f]/g, ' ');
    const meter = page.locator('.meter-label');
    expect(await meter.isVisible(), 'the context meter is not shown');
    const meterText = nbsp(await meter.textContent());
    expect(meterText === 'Kontext 18.240 / 131.072 Token (14 %)', `the context meter says ${JSON.stringify(meterText)}`);
    const usage = nbsp(await page.locator('.usage-line').first().innerText());
    for (const figure of ['1.240 ', ' 268 Tok./s', ' 1,6 s', ' 0,0011 $'])
      expect(usage.includes(figure), `the usage line ${JSON.stringify(usage)} lacks ${JSON.stringify(figure)}`);
    // The model line's capabilities in German words, joined as German joins a list.
    const facts = nbsp(await page.locator('.model-facts').textContent());
    const capabilities = `${german[panelStrings.capabilityTools]} und ${german[panelStrings.capabilityJson]}`;
    expect(facts?.endsWith(capabilities), `the model line ${JSON.stringify(facts)} does not end with ${JSON.stringify(capabilities)}`);
    await page.getByRole('button', { name: german['Show conversations'] }).click();
    await page.getByRole('button', { name: german['Conversation options'] }).click();
    return noEnglish(page);
  });
  // Tool cards, approvals, a checkpoint, usage lines and the tools menu.
  await check('with the German table, the panel shows German and no English text of the catalogue (agent)', async (context) => {
    const page = await open(context, 'agent', 'dark', 'de');
    // A failed call says why in German; what the model was sent (English) is the detail under it.
    const failed = page.locator('.tool-card.status-failed .tool-result');
    const why = german[panelStrings.toolFailedInvalid];
    expect(typeof why === 'string' && why !== panelStrings.toolFailedInvalid, 'bundle.l10n.de.json does not translate the failure');
    expect(
      (await failed.locator('summary').textContent()) === why,
      `the failed card opens with ${JSON.stringify(await failed.locator('summary').textContent())}, not ${JSON.stringify(why)}`,
    );
    expect(
      /^Error: query is not a regular expression/.test((await failed.locator('pre').textContent()) ?? ''),
      "the failed card does not keep the model's text",
    );
    // A file that can run code says why it is always asked, in German: the reason's id, not the core's English.
    const caution = await page.locator('.tool-change-create .tool-caution').textContent();
    const asked = german[panelStrings.alwaysAsked].replace('{reason}', german[panelStrings.cautionVscode]);
    expect(german[panelStrings.cautionVscode] !== panelStrings.cautionVscode, 'bundle.l10n.de.json does not translate the caution');
    expect(caution === asked, `the caution reads ${JSON.stringify(caution)}, not ${JSON.stringify(asked)}`);
    // Reading a secret says why it is asked first in German, with the file's name.
    const secret = await page.locator('.tool-change-read .tool-caution').textContent();
    const secretWhy = german[panelStrings.readSecretFile].replace('{name}', '.env');
    expect(german[panelStrings.readSecretFile] !== panelStrings.readSecretFile, 'bundle.l10n.de.json does not translate the secret reason');
    expect(secret === secretWhy, `the secret's reason reads ${JSON.stringify(secret)}, not ${JSON.stringify(secretWhy)}`);
    await page.getByRole('button', { name: new RegExp(`^${german['VS Code tools the agent may use']}`) }).click();
    return noEnglish(page);
  });

  /** Throws when a text of the page is one of the English texts; says how many texts it read. */
  async function noEnglish(page) {
    const texts = await pageTexts(page);
    const patterns = english.map((text) => ({ text, pattern: new RegExp(patternOf(text), 's') }));
    const left = texts.flatMap(({ where, text }) =>
      patterns.filter(({ pattern }) => pattern.test(text)).map((match) => `${where}: ${JSON.stringify(text)} (English ${JSON.stringify(match.text)})`),
    );
    expect(left.length === 0, `English left in the German panel:\n      ${[...new Set(left)].join('\n      ')}`);
    expect(texts.length > 50, `only ${texts.length} texts were read`);
    return `${texts.length} texts, none of ${english.length} English texts`;
  }
}
