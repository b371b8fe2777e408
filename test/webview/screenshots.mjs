#!/usr/bin/env node
/* global window, document, DataTransfer, ClipboardEvent -- the page.evaluate callbacks run in the browser */
// The webview tier (part of `npm test`): the chat panel's real bundle in the sandbox, in Debian's headless
// Chromium, in VS Code's dark, light and high-contrast theme variables, checked for what a person sees:
//   - contrast: every visible text at least 4.5:1 against what is behind it (3:1 for large text),
//   - focus: every control reached with Tab shows a focus ring (test/webview/visible.mjs),
//   - overflow: nothing runs off the side at a narrow side bar (240 px),
// in every scenario and theme, plus interaction checks against the real bundle and the CSP. A screenshot of
// each scenario and theme (and its narrow variant) goes to test-results/webview/ (apart from the UI tier's
// test-results/screenshots/, which that tier empties first). Build first:
//   node esbuild.js && node test/webview/screenshots.mjs [--only=scenario] [--no-checks] [--check=title part]
// Prints one line per check and ends with `N passed, N failed, N skipped`; exits non-zero on a failure.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { axeByTheme } from './axe.mjs';
import { keyboardChecks } from './keyboardChecks.mjs';
import { languageChecks } from './languageChecks.mjs';
import { promptChecks } from './promptChecks.mjs';
import { planChecks } from './planChecks.mjs';
import { chromiumOptions, startSandbox } from './server.mjs';
import { contrastProblems, focusProblems, overflowProblems } from './visible.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(root, 'test-results', 'webview');
mkdirSync(outDir, { recursive: true });

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const runChecks = !process.argv.includes('--no-checks');
/** --check=<part of a title>: only the interaction checks whose title has it (with --only=none, nothing else). */
const onlyCheck = process.argv.find((arg) => arg.startsWith('--check='))?.slice('--check='.length);

const scenarios = [
  { name: 'conversation', height: 1500 },
  { name: 'list', scenario: 'conversation', height: 700, prepare: (page) => page.getByRole('button', { name: 'Show conversations' }).click() },
  { name: 'streaming', height: 800, prepare: (page) => page.waitForTimeout(700) },
  { name: 'retrying', height: 560, prepare: (page) => page.waitForTimeout(300) },
  { name: 'errors', height: 900 },
  { name: 'options', height: 1100, prepare: (page) => page.getByRole('button', { name: 'Conversation options' }).click() },
  { name: 'nokey', height: 560 },
  { name: 'audio', height: 620 },
  { name: 'agent', height: 1100 },
  { name: 'agentRepeat', height: 1100 },
  { name: 'plan', height: 1000 },
  { name: 'planRestricted', height: 1000 },
  {
    name: 'keyboard',
    scenario: 'conversation',
    height: 700,
    prepare: async (page) => {
      await page.getByRole('textbox', { name: 'Message to Cadenza' }).focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
    },
  },
  { name: 'authError', height: 600 },
  { name: 'tools', height: 1700, prepare: (page) => page.getByRole('button', { name: /^VS Code tools the agent may use/ }).click() },
  { name: 'toolsRestricted', height: 900, prepare: (page) => page.getByRole('button', { name: /^VS Code tools the agent may use/ }).click() },
  // The panel with the German table the host gives a German VS Code (test/webview/languageChecks.mjs checks its texts).
  { name: 'german', scenario: 'agent', lang: 'de', height: 1100 },
  { name: 'prompts', height: 800, prepare: (page) => page.getByRole('textbox', { name: 'Message to Cadenza' }).pressSequentially('/') },
  // The `@` list open (axe checks the text box that owns it).
  {
    name: 'mentions',
    scenario: 'prompts',
    height: 800,
    prepare: (page) => page.getByRole('textbox', { name: 'Message to Cadenza' }).pressSequentially('@gre'),
  },
];
const themes = ['dark', 'light', 'hc'];
/** A narrow side bar: VS Code lets the side bar shrink to 170 px; 240 px is a narrow one people use. */
const narrowWidth = 240;

const sandbox = await startSandbox();
const browser = await chromium.launch(chromiumOptions);
const violations = [];
let failures = 0;
let passes = 0;
/** Records one named check's outcome: problems (a list; empty passes), printed one per line. */
function report(label, problems, detail) {
  if (problems.length === 0) {
    passes += 1;
    process.stdout.write(`check ok: ${label}${detail ? ` (${detail})` : ''}\n`);
  } else {
    failures += 1;
    process.stdout.write(`check FAILED: ${label}:\n${problems.map((problem) => `    ${problem}`).join('\n')}\n`);
  }
}
/** axe-core over every scenario, one check per theme (test/webview/axe.mjs). */
const axe = axeByTheme(report);

async function open(context, scenario, theme = 'dark', lang = 'en') {
  const page = await context.newPage();
  page.on('pageerror', (error) => violations.push(`page error (${scenario}): ${error.message}`));
  await page.goto(`${sandbox.url}?theme=${theme}&scenario=${scenario}&lang=${lang}`);
  await page.waitForFunction(() => window.__sandbox.posted.some((message) => message.type === 'ready'));
  await page.waitForTimeout(400);
  return page;
}

async function collectViolations(page, label) {
  const seen = await page.evaluate(() => window.__sandbox.cspViolations);
  for (const violation of seen) violations.push(`${label}: ${violation}`);
}

try {
  for (const theme of themes) {
    for (const { name, scenario = name, lang, height, prepare } of scenarios) {
      if (only && only !== name) continue;
      const context = await browser.newContext({ viewport: { width: 420, height }, deviceScaleFactor: 1 });
      const page = await open(context, scenario, theme, lang);
      if (prepare) await prepare(page);
      await page.waitForTimeout(150);
      const file = join(outDir, `${name}-${theme}.png`);
      await page.screenshot({ path: file });
      process.stdout.write(`screenshot: ${file}\n`);
      if (runChecks) {
        const contrast = await contrastProblems(page);
        report(
          `contrast ${name}/${theme}`,
          contrast.measured > 0 ? contrast.problems : ['no text was measured'],
          `${contrast.measured} texts, lowest ${contrast.worst}:1`,
        );
        await axe.run(page, name, theme);
        // Focus walks the page with Tab: once per scenario and theme (the keyboard scenario has focus moved already).
        if (name !== 'keyboard') {
          const focus = await focusProblems(page);
          report(`focus ${name}/${theme}`, focus.stops.length > 0 ? focus.problems : ['Tab reached no control'], `${focus.stops.length} controls`);
        }
      }
      await collectViolations(page, `${name}/${theme}`);
      await context.close();

      // The same at a narrow side bar: nothing may run off the side.
      const narrow = await browser.newContext({ viewport: { width: narrowWidth, height }, deviceScaleFactor: 1 });
      const narrowPage = await open(narrow, scenario, theme, lang);
      if (prepare) await prepare(narrowPage);
      await narrowPage.waitForTimeout(150);
      await narrowPage.screenshot({ path: join(outDir, `${name}-${theme}-narrow.png`) });
      if (runChecks) report(`overflow ${name}/${theme} at ${narrowWidth} px`, (await overflowProblems(narrowPage)).problems);
      await collectViolations(narrowPage, `${name}/${theme}/narrow`);
      await narrow.close();
    }
    axe.report(theme);
  }

  if (runChecks) {
    const check = async (label, fn) => {
      if (onlyCheck !== undefined && !label.includes(onlyCheck)) return;
      const context = await browser.newContext({ viewport: { width: 420, height: 900 } });
      try {
        const detail = await fn(context);
        report(label, [], detail);
      } catch (error) {
        report(label, [error instanceof Error ? error.message : String(error)]);
      } finally {
        await context.close();
      }
    };
    const posted = (page, type) => page.evaluate((wanted) => window.__sandbox.posted.filter((message) => message.type === wanted), type);
    const expect = (condition, message) => {
      if (!condition) throw new Error(message);
    };

    await check("the note of an answer asked for without tools, and a replace_all card's count, are visible", async (context) => {
      const page = await open(context, 'agentRepeat');
      const note = page.locator('.message.assistant .agent-stop');
      await note.first().waitFor();
      const notes = await note.allTextContents();
      expect(notes.length === 1 && notes[0] === 'Cadenza asked for the answer without tools: the same call repeated.', `notes: ${JSON.stringify(notes)}`);
      expect(await note.first().isVisible(), 'the note is not visible');
      const title = page.getByText('Edit src/shop.py: replace all 2 occurrences', { exact: true });
      expect(await title.isVisible(), 'the replace_all card does not give the count');
    });
    await check('ready is posted exactly once', async (context) => {
      const page = await open(context, 'conversation');
      expect((await posted(page, 'ready')).length === 1, 'ready count');
    });
    await check('Enter sends; the draft clears only when the host adds the message', async (context) => {
      const page = await open(context, 'bench');
      const input = page.getByRole('textbox', { name: 'Message to Cadenza' });
      await page.evaluate(() => {
        window.__sandbox.holdStream = true;
      });
      await input.fill('First line');
      await input.press('Shift+Enter');
      await input.pressSequentially('second line');
      expect((await posted(page, 'chat/send')).length === 0, 'Shift+Enter sent');
      await input.press('Enter');
      await page.waitForFunction(() => window.__sandbox.posted.some((message) => message.type === 'chat/send'));
      const [sent] = await posted(page, 'chat/send');
      expect(sent.text === 'First line\nsecond line', `text was ${JSON.stringify(sent.text)}`);
      await page.waitForFunction(() => document.querySelector('.composer-input').value === '');
      return JSON.stringify(sent.options);
    });
    await check('a failed send keeps the text', async (context) => {
      const page = await open(context, 'bench');
      await page.evaluate(() => {
        window.__sandbox.failNextSend = true;
      });
      const input = page.getByRole('textbox', { name: 'Message to Cadenza' });
      await input.fill('Do not lose me');
      await input.press('Enter');
      await page.waitForSelector('.notice.error');
      expect((await input.inputValue()) === 'Do not lose me', 'text lost');
      expect(!(await input.evaluate((element) => element.readOnly)), 'still read-only');
    });
    await check('the draft survives a reload (setState)', async (context) => {
      const page = await open(context, 'bench');
      await page.getByRole('textbox', { name: 'Message to Cadenza' }).fill('half-written thought');
      await page.reload();
      await page.waitForTimeout(400);
      const value = await page.getByRole('textbox', { name: 'Message to Cadenza' }).inputValue();
      expect(value === 'half-written thought', `after reload: ${JSON.stringify(value)}`);
      expect((await posted(page, 'ready')).length === 1, 'ready after reload');
    });
    await check('Escape stops a streaming answer, which stays and is marked stopped', async (context) => {
      const page = await open(context, 'streaming');
      await page.waitForTimeout(300);
      await page.keyboard.press('Escape');
      await page.waitForSelector('.stopped-mark');
      expect((await posted(page, 'chat/stop')).length === 1, 'no chat/stop');
      const text = await page.locator('.message.assistant .markdown').last().textContent();
      expect(text.length > 20, 'partial answer gone');
    });
    await check('code block Copy posts the code', async (context) => {
      const page = await open(context, 'conversation');
      // One click each, as a user would: a click the panel loses must fail here. (A press on a block that is
      // rendered again before the release is the check below; this conversation is rendered once.)
      const clickOnce = async (name, type) => {
        await page.locator('.message.assistant .code-block').first().getByRole('button', { name }).click();
        await page.waitForFunction((t) => window.__sandbox.posted.some((message) => message.type === t), type, { timeout: 5000 });
      };
      await clickOnce('Copy code', 'code/copy');
      const [copy] = await posted(page, 'code/copy');
      expect(copy?.code.startsWith('export function debounce<T'), `code was ${JSON.stringify(copy?.code.slice(0, 40))}`);
      expect(!copy.code.endsWith('\n'), 'trailing newline');
      await clickOnce('Open code in a new editor', 'code/open');
      const [opened] = await posted(page, 'code/open');
      expect(opened?.language === 'ts', `language ${opened?.language}`);
    });
    await check('code block Copy pressed while the block streams posts the code it showed', async (context) => {
      const page = await open(context, 'codeStreaming');
      const copy = page.locator('.message.assistant .code-block').first().getByRole('button', { name: 'Copy code' });
      await copy.waitFor();
      await page.waitForFunction(() => document.querySelector('.message.assistant .code-block pre > code').textContent.length > 80);
      // A press as long as a hand's: deltas arrive meanwhile, and the open block is rendered again with them.
      // (The rectangle is read in the page: the button a locator resolved may be replaced before it is measured.)
      const box = await page.evaluate(() => {
        const rect = document.querySelector('.message.assistant .code-block button[aria-label="Copy code"]').getBoundingClientRect();
        return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
      });
      await page.mouse.move(box.x, box.y);
      await page.mouse.down();
      await page.waitForTimeout(250);
      await page.mouse.up();
      const [copied] = await posted(page, 'code/copy');
      expect(copied !== undefined, 'the press posted no code/copy');
      expect(
        copied?.code.startsWith('export function sum(values: number[]): number {\n  let total = 0;'),
        `code was ${JSON.stringify(copied?.code.slice(0, 80))}`,
      );
      const shown = await page.locator('.message.assistant .code-block').first().locator('pre > code').textContent();
      expect(shown.startsWith(copied?.code ?? '\u0000'), 'copied code the block did not show');
    });
    await check('only the last answer offers Regenerate', async (context) => {
      const page = await open(context, 'bench');
      await page.getByRole('textbox', { name: 'Message to Cadenza' }).fill('Go');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.message.assistant .usage-line');
      await page.getByRole('textbox', { name: 'Message to Cadenza' }).fill('Again');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('.message.assistant .usage-line').length === 2);
      const visible = await page.getByRole('button', { name: 'Regenerate this answer' }).count();
      expect(visible === 1, `${visible} visible`);
      await page.getByRole('button', { name: 'Regenerate this answer' }).click();
      expect((await posted(page, 'chat/regenerate')).length === 1, 'no chat/regenerate');
    });
    await check('options are clamped and the fifth stop sequence is disabled', async (context) => {
      const page = await open(context, 'conversation');
      await page.getByRole('button', { name: 'Conversation options' }).click();
      const temperature = page.getByRole('spinbutton', { name: /Temperature/ });
      await temperature.fill('5');
      await temperature.press('Tab');
      expect((await temperature.inputValue()) === '1', `temperature ${await temperature.inputValue()}`);
      const topK = page.getByRole('spinbutton', { name: /Top K/ });
      await topK.fill('2.6');
      await topK.press('Tab');
      expect((await topK.inputValue()) === '3', `top_k ${await topK.inputValue()}`);
      const maxTokens = page.getByRole('spinbutton', { name: /Max tokens/ });
      await maxTokens.fill('999999');
      await maxTokens.press('Tab');
      expect((await maxTokens.inputValue()) === '4096', `max_tokens ${await maxTokens.inputValue()}`);
      const add = page.getByRole('button', { name: 'Add stop sequence' });
      for (let index = 0; index < 4; index += 1) {
        await add.click();
        await page.getByRole('textbox', { name: `Stop sequence ${index + 1}` }).fill(`STOP${index}`);
      }
      expect(await add.isDisabled(), 'add enabled after 4');
      await page.getByRole('textbox', { name: 'Message to Cadenza' }).fill('Go');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => window.__sandbox.posted.some((message) => message.type === 'chat/send'));
      const [sent] = await posted(page, 'chat/send');
      expect(
        sent.options.temperature === 1 && sent.options.topK === 3 && sent.options.maxTokens === 4096 && sent.options.stop.length === 4,
        JSON.stringify(sent.options),
      );
      return JSON.stringify(sent.options);
    });
    await check('attach is disabled, with the reason, for a model without vision', async (context) => {
      const page = await open(context, 'conversation');
      const attach = page.locator('.composer-toolbar button[title*="image" i]').first();
      expect(await attach.isDisabled(), 'attach enabled');
      const title = await attach.getAttribute('title');
      expect(/cannot read images/.test(title ?? ''), `title ${title}`);
      await page.getByRole('combobox', { name: 'Model' }).selectOption('Llama-4-Maverick-17B-128E-Instruct');
      await page.waitForTimeout(100);
      expect(!(await attach.isDisabled()), 'attach still disabled for a vision model');
      await attach.click();
      await page.waitForSelector('.image-thumbnail');
      return title;
    });
    await check('audio: attach is disabled without audio reasoning; the chip sends only the token', async (context) => {
      const page = await open(context, 'conversation');
      const attach = page.getByRole('button', { name: 'Attach audio', exact: true });
      expect(await attach.isDisabled(), 'attach audio enabled for a text model');
      const title = await attach.getAttribute('title');
      expect(/cannot listen to audio/.test(title ?? ''), `title ${title}`);
      expect(!(await page.getByRole('button', { name: 'Transcribe audio into the prompt' }).isDisabled()), 'transcribe disabled although Whisper is listed');
      await page.getByRole('combobox', { name: 'Model' }).selectOption('Qwen2-Audio-7B-Instruct');
      await page.waitForTimeout(100);
      await attach.click();
      const chip = page.getByRole('group', { name: 'Attached audio' });
      await chip.waitFor();
      const text = await chip.textContent();
      expect(text.includes('standup-2024-05-02.m4a') && text.includes('27.4 s') && text.includes('402.7 KB'), `chip says ${text}`);
      await page.getByRole('textbox', { name: 'Message to Cadenza' }).fill('What was decided?');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => window.__sandbox.posted.some((message) => message.type === 'chat/send'));
      const [sent] = await posted(page, 'chat/send');
      expect(sent.audio === 'sandbox-audio-0001' && !JSON.stringify(sent).includes('base64'), JSON.stringify(sent));
      await page.getByRole('img', { name: 'Attached audio standup-2024-05-02.m4a' }).waitFor();
      await chip.waitFor({ state: 'hidden' });
      return title;
    });
    await check('audio: a chip without text can be sent; removing it empties the composer', async (context) => {
      const page = await open(context, 'audio');
      const send = page.getByRole('button', { name: 'Send (Enter)' });
      expect(!(await send.isDisabled()), 'Send disabled with only audio attached');
      await page.getByRole('button', { name: 'Remove the audio standup-2024-05-02.m4a' }).click();
      expect(await send.isDisabled(), 'Send enabled with nothing to send');
      expect(!(await page.getByRole('group', { name: 'Attached audio' }).isVisible()), 'chip still shown');
    });
    await check('composer/insertText puts a transcript at the caret', async (context) => {
      const page = await open(context, 'bench');
      const input = page.getByRole('textbox', { name: 'Message to Cadenza' });
      await input.fill('Please: thanks');
      await input.evaluate((element) => element.setSelectionRange(7, 7));
      await page.getByRole('button', { name: 'Transcribe audio into the prompt' }).click();
      await page.waitForFunction(() => document.querySelector('.composer-input').value.includes('Summarise'));
      const value = await input.inputValue();
      expect(value === 'Please: Summarise the stand-up: what was decided about the release? thanks', JSON.stringify(value));
    });
    await check('error actions post the right message', async (context) => {
      const page = await open(context, 'errors');
      await page.getByRole('button', { name: 'Drop oldest messages and retry' }).click();
      const [retry] = await posted(page, 'chat/retry');
      expect(retry?.trim === true, JSON.stringify(retry));
      const page2 = await open(context, 'authError');
      await page2.locator('.error-block').getByRole('button', { name: 'Set API key' }).click();
      const [action] = await posted(page2, 'action/run');
      expect(action?.action === 'setApiKey', JSON.stringify(action));
    });
    await check('a pasted image goes to the host for checking; one over 20 MB is refused in the panel', async (context) => {
      const page = await open(context, 'conversation');
      await page.getByRole('combobox', { name: 'Model' }).selectOption('Llama-4-Maverick-17B-128E-Instruct');
      await page.evaluate(async () => {
        const canvas = document.createElement('canvas');
        canvas.width = 8;
        canvas.height = 8;
        const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
        const paste = (file) => {
          const data = new DataTransfer();
          data.items.add(file);
          document.querySelector('.composer-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        };
        paste(new File([new Uint8Array(21 * 1024 * 1024)], 'huge.png', { type: 'image/png' }));
        paste(new File([blob], 'small.png', { type: 'image/png' }));
      });
      await page.waitForSelector('.image-thumbnail');
      const checks = await posted(page, 'image/check');
      expect(
        checks.length === 1 && checks[0].image.name === 'small.png' && checks[0].image.dataUrl.startsWith('data:image/png;base64,'),
        JSON.stringify(checks.map((c) => c.image.name)),
      );
      expect((await page.locator('.notice.warning').count()) === 1, 'no warning for the huge image');
    });
    await check('composer/addContext inserts a fenced block', async (context) => {
      const page = await open(context, 'bench');
      await page.evaluate(() =>
        window.__sandbox.send({ type: 'composer/addContext', label: 'src/a.ts:1-2', text: 'const a = 1;\nconst b = 2;', language: 'typescript' }),
      );
      await page.waitForTimeout(100);
      const value = await page.getByRole('textbox', { name: 'Message to Cadenza' }).inputValue();
      expect(value.includes('src/a.ts:1-2:\n```typescript\nconst a = 1;\nconst b = 2;\n```'), JSON.stringify(value));
    });
    await check('a long conversation shows its newest messages at once, then fills in every older one, in order', async (context) => {
      const page = await open(context, 'bench');
      const messages = [];
      for (let turn = 0; turn < 150; turn += 1) {
        messages.push({ id: `u${turn}`, role: 'user', text: `Question ${turn}: what does step ${turn} do?` });
        messages.push({
          id: `a${turn}`,
          role: 'assistant',
          model: 'Meta-Llama-3.3-70B-Instruct',
          text: `Answer ${turn}.\n\n\`\`\`ts\nconst step${turn} = ${turn};\n\`\`\``,
        });
      }
      // Read right after the panel has handled the show (a listener added after the panel's runs after it),
      // before any background slice has run.
      const first = await page.evaluate(
        (view) =>
          new Promise((resolve) => {
            const seen = (event) => {
              if (event.data?.type !== 'conversation/show') return;
              window.removeEventListener('message', seen);
              const list = document.querySelector('.messages');
              resolve({
                shown: document.querySelectorAll('.message.user, .message.assistant').length,
                pending: list?.dataset.pending === 'true',
                atBottom: list ? list.scrollHeight - list.scrollTop - list.clientHeight < 60 : false,
              });
            };
            window.addEventListener('message', seen);
            window.__sandbox.send({ type: 'conversation/show', conversation: view });
          }),
        { id: 'long', title: 'Long', model: 'Meta-Llama-3.3-70B-Instruct', options: {}, messages },
      );
      expect(first.shown > 0 && first.shown < 300 && first.pending, `at first ${first.shown} of 300 messages were built (pending ${first.pending}): not lazy`);
      expect(first.atBottom, 'the list did not open at its newest message');
      await page.waitForFunction(() => document.querySelector('.messages')?.dataset.pending !== 'true', undefined, { timeout: 30_000 });
      const order = await page.evaluate(() =>
        [...document.querySelectorAll('.message.user, .message.assistant')].map((element) =>
          (/(Question|Answer) (\d+)/.exec(element.textContent ?? '') ?? []).slice(1).join(' '),
        ),
      );
      expect(order.length === 300, `${order.length} messages after the fill`);
      const expected = Array.from({ length: 300 }, (_, index) => `${index % 2 === 0 ? 'Question' : 'Answer'} ${Math.floor(index / 2)}`);
      const wrong = order.findIndex((label, index) => label !== expected[index]);
      expect(wrong === -1, `message ${wrong} is "${order[wrong]}", expected "${expected[wrong]}"`);
      const regenerate = await page.getByRole('button', { name: 'Regenerate this answer' }).count();
      expect(regenerate === 1, `${regenerate} Regenerate buttons (only the last answer offers it)`);
      return `${first.shown} built at once, 300 after the fill`;
    });
    await check('edit and resend posts chat/editResend', async (context) => {
      const page = await open(context, 'conversation');
      await page.getByRole('button', { name: 'Edit this message and resend' }).last().click();
      const editor = page.getByRole('textbox', { name: 'Edit your message' });
      await editor.fill('Now add a cancel() method.');
      await editor.press('Enter');
      const [edit] = await posted(page, 'chat/editResend');
      expect(edit?.messageId === 'u3' && edit.text === 'Now add a cancel() method.', JSON.stringify(edit));
    });
    await keyboardChecks({ check, open, posted, expect, outDir });
    await languageChecks({ check, open, expect });
    await promptChecks({ check, open, posted, expect });
    await planChecks({ check, open, posted, expect });

    await check('Copy as Markdown in the conversation list posts conversation/copyMarkdown', async (context) => {
      const page = await open(context, 'conversation');
      await page.getByRole('button', { name: 'Show conversations' }).click();
      await page.getByRole('button', { name: 'Copy \u201cExtract invoice fields\u201d as Markdown' }).click();
      expect(
        JSON.stringify(await posted(page, 'conversation/copyMarkdown')) === '[{"type":"conversation/copyMarkdown","id":"c2"}]',
        JSON.stringify(await posted(page, 'conversation/copyMarkdown')),
      );
    });
  }
} finally {
  await browser.close();
  await sandbox.close();
}

report(
  'no CSP violation and no page error in any scenario',
  violations.map((violation) => `CSP/page problem: ${violation}`),
);
process.stdout.write(`${passes} passed, ${failures} failed, 0 skipped\n`);
process.exitCode = failures > 0 || passes === 0 ? 1 : 0;
