// Cadenza in a German workbench: this file runs only in the UI tier's German session (HARNESS_LOCALE=de:
// code-server started with `--locale de`, a German language pack installed). The pack is a stand-in the
// harness builds (test/support/fixtures/languagePack: it declares German and translates none of VS Code's
// own strings; the real one comes from the Marketplace, which the test machine cannot reach), so VS Code's
// words stay English; what is checked is Cadenza's. Every expected German text is read from the catalogues
// (package.nls.de.json, l10n/bundle.l10n.de.json), never copied here.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, escapeRegExp, openActivityBarView, quickInput, runCommand, waitForCadenza, waitForText } from './actions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
const manifestEnglish = readJson('package.nls.json');
const manifestGerman = readJson('package.nls.de.json');
const bundleEnglish = readJson('l10n/bundle.l10n.json');
const bundleGerman = readJson('l10n/bundle.l10n.de.json');

/** The German of a manifest key, failing when the German catalogue lacks it or leaves it English. */
function german(key) {
  const text = manifestGerman[key];
  check(typeof text === 'string', `package.nls.de.json has no ${key}`);
  return text;
}

/** Markdown as the Settings editor shows it (code spans without their backticks), spaces collapsed. */
const plain = (markdown) => markdown.replace(/`/g, '').replace(/\s+/g, ' ').trim();

/**
 * The panel string checked in German once the host localises it: the composer's placeholder. Its key in
 * l10n/bundle.l10n.json is its English text (vscode.l10n.t's key).
 */
const composerPlaceholder = 'Ask Cadenza\u2026 (Enter to send, Shift+Enter for a new line)';

/** The German of a host message (its key is its English text), failing when the German bundle lacks it or leaves it English. */
function germanMessage(key) {
  const text = bundleGerman[key];
  check(typeof text === 'string' && key in bundleEnglish, `l10n/bundle.l10n.de.json has no German for ${JSON.stringify(key)}`);
  check(text !== key, `l10n/bundle.l10n.de.json leaves ${JSON.stringify(key)} English`);
  return text;
}

/** A pattern for a message with its `{n}` placeholders filled by the given patterns (the rest matched as written). */
function filled(message, values) {
  return message
    .split(/(\{\d+\})/)
    .map((part) => {
      const slot = /^\{(\d+)\}$/.exec(part);
      return slot ? `(?:${values[Number(slot[1])]})` : escapeRegExp(part);
    })
    .join('');
}

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: "German display language: the command palette lists Cadenza's New Prompt File in German, with the English title beside it",
    async run({ page, shot }) {
      await waitForCadenza(page);
      const title = `Cadenza: ${german('command.newPromptFile.title')}`;
      const english = `Cadenza: ${manifestEnglish['command.newPromptFile.title']}`;
      check(title !== english, `package.nls.de.json leaves ${JSON.stringify(english)} English`);
      // Typed into the palette up to its first non-ASCII letter: the palette's filter in headless chromium
      // does not take umlauts typed as keys (`Cadenza: Neue Promptdatei` has none, another title may).
      const typed = title.match(/^[\x20-\x7e]*/)[0];
      await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('F1');
      const input = quickInput(page).locator('input');
      await input.waitFor({ timeout: 15_000 });
      await input.fill(`>${typed}`);
      const row = quickInput(page)
        .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }) })
        .first();
      await row.waitFor({ timeout: 30_000 });
      // VS Code writes a translated command's English title beside it (the alias) only when the display
      // language is not English: the workbench really runs in German.
      const text = (await row.textContent()) ?? '';
      check(text.includes(english), `the palette row ${JSON.stringify(text)} does not show the English title ${JSON.stringify(english)} beside the German`);
      await shot('palette in German');
      await page.keyboard.press('Escape');
      await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
    },
  },
  {
    name: "German display language: the Cadenza panel's title bar and view are in German",
    async run({ page, webview, shot }) {
      await openActivityBarView(page, 'Cadenza');
      const sidebar = page.locator('.part.sidebar');
      // The view's name (package.nls.de.json's view.chat.name, "Chat" in German as in English) in the panel's title.
      await waitForText(sidebar.locator('.composite.title .title-label'), new RegExp(escapeRegExp(german('view.chat.name')), 'i'), 30_000);
      // The title bar's actions are Cadenza's commands, named by their German titles.
      for (const key of ['command.newChat.title', 'command.selectModel.title']) {
        check(german(key) !== manifestEnglish[key], `package.nls.de.json leaves ${key} English`);
        await sidebar
          .locator(`.composite.title .action-item a[aria-label="${german(key)}"]`)
          .first()
          .waitFor({ timeout: 30_000 });
      }
      // What a user sees of it: the hover over the New Chat action.
      await sidebar
        .locator(`.composite.title .action-item a[aria-label="${german('command.newChat.title')}"]`)
        .first()
        .hover();
      await waitForText(page.locator('.workbench-hover:visible, .monaco-hover:visible'), new RegExp(escapeRegExp(german('command.newChat.title'))), 15_000);
      // The panel (the webview) shows its words in German once the host localises them: then the English
      // catalogue has the key and the German one must have it too, and the panel must show that.
      const composer = webview.locator('textarea.composer-input');
      await composer.waitFor({ timeout: 60_000 });
      const shown = await composer.getAttribute('placeholder');
      if (composerPlaceholder in bundleEnglish) {
        const expected = bundleGerman[composerPlaceholder];
        check(
          typeof expected === 'string',
          `l10n/bundle.l10n.json has ${JSON.stringify(composerPlaceholder)} but l10n/bundle.l10n.de.json has no German for it`,
        );
        check(
          shown === expected,
          `the composer's placeholder is ${JSON.stringify(shown)}, not the German of l10n/bundle.l10n.de.json: ${JSON.stringify(expected)}`,
        );
      } else {
        // Not localised yet: the panel shows the English, and this test must be told when that changes.
        check(
          shown === composerPlaceholder,
          `the composer's placeholder is ${JSON.stringify(shown)}, and l10n/bundle.l10n.json has no ${JSON.stringify(composerPlaceholder)}: point composerPlaceholder at the placeholder's key`,
        );
      }
      // The open conversation's title: core names an empty conversation in English, the panel shows it in German.
      const title = webview.locator('h1.conversation-title');
      await waitForText(title, new RegExp(`^${escapeRegExp(germanMessage('New chat'))}$`), 15_000);
      await shot('panel in German');
    },
  },
  {
    name: "German display language: the index's question and its buttons are in German, and the German Build Index builds (the answer is compared as shown)",
    async run({ page, shot }) {
      // Asked once the workbench is up (cadenza.index.mode "ask"), with the embeddings model in the middle.
      const question = germanMessage(
        "Build a semantic index of this workspace? Its text files are sent to the service's embeddings ({0}); the index stays on this machine.",
      );
      const toasts = page.locator('.notifications-toasts .notification-toast');
      const asked = toasts.filter({ hasText: question.slice(0, question.indexOf('{0}')).trim() }).first();
      await asked.waitFor({ timeout: 30_000 });
      const build = germanMessage('Build Index');
      await asked
        .locator('.monaco-button', { hasText: germanMessage('Not Now') })
        .first()
        .waitFor({ timeout: 5_000 });
      await shot('index question in German');
      await asked.locator('.monaco-button', { hasText: build }).first().click();
      // The German answer counts as yes: the index builds (its progress), or says in German why it could not.
      const title = germanMessage('Cadenza: indexing the workspace');
      const failed = germanMessage('Cadenza could not index the workspace: {0}');
      const outcome = new RegExp(`${escapeRegExp(title)}|${escapeRegExp(failed.slice(0, failed.indexOf('{0}')).trim())}`);
      await toasts.filter({ hasText: outcome }).first().waitFor({ timeout: 30_000 });
      await shot('index building in German');
    },
  },
  {
    name: "German display language: the completions status bar's tooltip says today's usage in German, its numbers in German format",
    async run({ page, shot }) {
      const status = page.locator('.statusbar-item', { hasText: germanMessage('Complete') }).first();
      await status.waitFor({ timeout: 30_000 });
      await status.hover();
      // The usage phrase (one request or several, with the default daily limit of 1,000,000 tokens), written
      // with German digit grouping ("1.000.000"), inside its German line.
      const limit = new Intl.NumberFormat('de').format(1_000_000);
      check(limit === '1.000.000', `Node's German number format is ${limit}`);
      const number = '\\d{1,3}(?:\\.\\d{3})*';
      // The cost the German way too: "0 $", "0,0011 $" (the sign after the number, a space between).
      const cost = '<?\\d[\\d.,]*\\s\\$';
      const values = [number, number, number, number, cost, escapeRegExp(limit)];
      const phrases = [
        '{0} request, {1} tokens ({2} prompt, {3} answer), {4} of a {5}-token daily limit',
        '{0} requests, {1} tokens ({2} prompt, {3} answer), {4} of a {5}-token daily limit',
      ].map((key) => filled(germanMessage(key), values));
      const line = filled(germanMessage('Today (apart from chat): {0}.'), [phrases.join('|')]);
      const hover = page.locator('.monaco-hover:visible', { hasText: new RegExp(filled(germanMessage('Today (apart from chat): {0}.'), ['.*'])) }).first();
      await hover.waitFor({ timeout: 15_000 });
      const text = ((await hover.textContent()) ?? '').replace(/\s+/g, ' ');
      check(new RegExp(line).test(text), `the completions tooltip ${JSON.stringify(text)} does not say the usage in German (${line})`);
      await shot('completions tooltip in German');
      await page.mouse.move(5, 5);
    },
  },
  {
    name: "German display language: the Settings editor describes Cadenza's settings in German",
    async run({ page, shot }) {
      await runCommand(page, 'Preferences: Open Settings (UI)');
      const search = page.locator('.settings-header .suggest-input-container').first();
      await search.waitFor({ timeout: 30_000 });
      await search.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('cadenza.index.mode');
      const description = plain(german('config.index.mode.markdownDescription'));
      check(description !== plain(manifestEnglish['config.index.mode.markdownDescription']), 'package.nls.de.json leaves config.index.mode English');
      const item = page.locator('.settings-body .setting-item-contents', { has: page.locator('.setting-item-markdown') }).first();
      await waitForText(item.locator('.setting-item-description'), new RegExp(escapeRegExp(description.slice(0, 120))), 30_000);
      await shot('settings in German');
      // The Settings editor opens as a modal editor over the workbench: Escape closes it.
      const modal = page.locator('.monaco-modal-editor-block');
      for (let i = 0; i < 3 && (await modal.count()) > 0 && (await modal.first().isVisible()); i++) await page.keyboard.press('Escape');
      await runCommand(page, 'View: Close All Editors');
    },
  },
];
