// The chat panel used as a person would: a model picked from the palette, prompts typed into the
// composer, answers watched while they stream, a stopped answer, an image attached through VS Code's file
// dialog, two conversations, "Explain Selection" from the editor's context menu, and the panel in a dark
// and a light theme. Every answer is scripted in the emulator; the checks read the panel's DOM, the
// editor and the requests the emulator recorded. The tests run in order and build on each other (the
// key and model of the first, the conversation of the first three).
import fs from 'node:fs';
import path from 'node:path';
import {
  activeEditorLines,
  check,
  chooseInFileDialog,
  clickMenuPath,
  closeQuickInput,
  escapeRegExp,
  makePng,
  pickQuickItem,
  quickInput,
  quickOpen,
  runCommand,
  setApiKey,
  waitForText,
  waitUntil,
} from './actions.mjs';
import { composer, stopButton, modelSelect, answers, userMessages, conversationRegion, chatRequests } from './panel.mjs';

const chatModel = 'Meta-Llama-3.3-70B-Instruct';
const visionModel = 'Llama-4-Maverick-17B-128E-Instruct';

/** The text of a user message's content (a string, or the text parts of a content array). */
function textOf(content) {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** Types a prompt into the composer and presses Enter; waits until the panel shows it as sent. */
async function sendPrompt(webview, prompt) {
  const before = await userMessages(webview).count();
  const box = composer(webview);
  await box.click();
  await box.pressSequentially(prompt, { delay: 2 });
  await box.press('Enter');
  await waitUntil(async () => (await userMessages(webview).count()) > before, 'the sent message to appear in the conversation');
  const shown = await userMessages(webview).last().textContent();
  check(shown.includes(prompt.split('\n')[0]), `the panel shows a different message: ${shown}`);
  await waitUntil(async () => (await box.inputValue()) === '', 'the composer to be cleared after sending');
}

/** Waits until the last answer has finished streaming (no Stop button, not busy), and returns it. */
async function finishedAnswer(webview, timeout = 30_000) {
  const answer = answers(webview).last();
  await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer to finish streaming', timeout);
  return answer;
}

/** The markdown source words a rendered answer must show: all of them, in order. */
function renderedWords(markdown) {
  return markdown
    .replace(/^\d+\. /gm, ' ')
    .replace(/[`#*]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function showsInOrder(text, words) {
  let at = 0;
  for (const word of words) {
    const found = text.indexOf(word, at);
    if (found < 0) return false;
    at = found + word.length;
  }
  return true;
}

// Shared by the tests of this file, in order.
const session = { firstPrompt: '', firstAnswer: '', stoppedPrompt: '' };

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'Select Model from the palette, then a typed prompt streams its answer in, with the usage line under it',
    async run({ page, webview, emulator, shot }) {
      await setApiKey(page, emulator.key);
      // A bottom panel left open by an earlier test (the Output of Show Log) only takes room: hide it.
      if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
      await runCommand(page, 'Cadenza: Open Chat');
      await composer(webview).waitFor({ timeout: 30_000 });

      // The quick pick lists the live models with capabilities, context, output limit and prices.
      await runCommand(page, 'Cadenza: Select Model');
      const listed = emulator.models.find((model) => model.id === chatModel);
      check(listed, `the emulator's catalogue has no ${chatModel}`);
      const list = quickInput(page).locator('.quick-input-list');
      await waitForText(list, new RegExp(escapeRegExp(chatModel)), 20_000);
      const rows = await list.locator('.monaco-list-row').allTextContents();
      for (const model of emulator.models.filter((entry) => entry.kind === 'chat' || entry.kind === 'vision')) {
        check(
          rows.some((row) => row.includes(model.id)),
          `the model quick pick does not list ${model.id}: ${JSON.stringify(rows)}`,
        );
      }
      const row = rows.find((text) => text.includes(chatModel)) ?? '';
      const perMillion = (perToken) => `$${(Number(perToken) * 1e6).toFixed(2)}`;
      for (const fact of [
        'chat',
        `context ${listed.contextLength.toLocaleString('en-US')}`,
        `max out ${listed.maxCompletionTokens.toLocaleString('en-US')}`,
        `${perMillion(listed.pricing.prompt)} in / ${perMillion(listed.pricing.completion)} out per 1M`,
      ])
        check(row.includes(fact), `the quick pick row of ${chatModel} lacks "${fact}": ${row}`);
      await shot('model quick pick');
      await pickQuickItem(page, chatModel);
      await waitUntil(async () => (await modelSelect(webview).inputValue()) === chatModel, `the panel's model picker to show ${chatModel}`);

      // A long answer in many small chunks, slowly, so it can be seen growing.
      const answer = [
        '## How streaming works here',
        '',
        'The service sends the answer in small pieces, and Cadenza renders each piece as soon as it arrives, so the text grows while you read it.',
        '',
        '1. The first piece opens the answer.',
        '2. Later pieces extend the paragraph and the list.',
        '3. The last piece closes it, and the usage line appears.',
        '',
        '```ts',
        'const pieces = answer.split(" ");',
        '```',
        '',
        'That is the whole answer.',
      ].join('\n');
      emulator.scriptChat({ content: answer, chunkCount: 60 });
      emulator.setChunkDelay(110);
      try {
        session.firstPrompt = 'How does streaming work in Cadenza?';
        session.firstAnswer = answer;
        const requestsBefore = chatRequests(emulator).length;
        await sendPrompt(webview, session.firstPrompt);
        const body = answers(webview).last().locator('.markdown');
        await waitUntil(async () => ((await body.textContent()) ?? '').includes('The first piece'), 'the first part of the answer to stream in');
        await stopButton(webview).waitFor({ state: 'visible' });
        await shot('mid-stream');
        const partial = await body.textContent();
        check(!partial.includes('That is the whole answer.'), `the answer was already complete at the mid-stream screenshot: ${partial}`);
        check((await answers(webview).last().getAttribute('aria-busy')) === 'true', 'the answer is not marked busy while streaming');

        const done = await finishedAnswer(webview);
        const text = (await done.locator('.markdown').textContent()) ?? '';
        check(showsInOrder(text, renderedWords(answer)), `the finished answer does not show the scripted text: ${text}`);
        check(await done.locator('.markdown h2', { hasText: 'How streaming works here' }).isVisible(), 'the heading is not rendered as a heading');
        check((await done.locator('.markdown ol li').count()) === 3, 'the numbered list is not rendered as a list of 3');
        check(await done.locator('.markdown pre code', { hasText: 'answer.split' }).isVisible(), 'the code block is not rendered');
        check(
          (await done.getAttribute('aria-label')) === `Answer from ${chatModel}, Act mode`,
          `the answer is not labelled with its model: ${await done.getAttribute('aria-label')}`,
        );

        // The usage line: tokens in and out, speed, and the cost at the model's list price.
        const usage = (await waitForText(done.locator('.usage-line'), /\$/)).replace(/\s+/g, ' ');
        const figures = /([\d,]+) in · ([\d,]+) out/.exec(usage);
        check(figures, `the usage line has no token counts: ${usage}`);
        const [promptTokens, completionTokens] = [figures[1], figures[2]].map((value) => Number(value.replace(/,/g, '')));
        check(promptTokens > 0 && completionTokens > 0, `the usage line counts no tokens: ${usage}`);
        check(/[\d.]+ tok\/s/.test(usage), `the usage line has no speed: ${usage}`);
        const cost = promptTokens * Number(listed.pricing.prompt) + completionTokens * Number(listed.pricing.completion);
        const shownCost = /\$([\d.]+)/.exec(usage)?.[1];
        check(
          shownCost !== undefined && Math.abs(Number(shownCost) - cost) <= cost * 0.01 + 0.00005,
          `the usage line's cost ${shownCost} is not ${cost} (${promptTokens} in, ${completionTokens} out at ${chatModel}'s prices): ${usage}`,
        );

        // What went over the wire: one streamed request for the picked model, with the typed prompt.
        const sent = chatRequests(emulator).slice(requestsBefore);
        check(sent.length === 1, `expected 1 chat request, the emulator received ${sent.length}`);
        check(sent[0].body.model === chatModel, `the request asked for ${sent[0].body.model}, not ${chatModel}`);
        check(sent[0].body.stream === true, 'the request did not ask for a stream');
        check(textOf(sent[0].body.messages.at(-1).content) === session.firstPrompt, 'the request does not end with the typed prompt');
        await done.locator('.usage-line').scrollIntoViewIfNeeded();
      } finally {
        emulator.setChunkDelay(0);
      }
    },
  },
  {
    name: 'Stop mid-stream: the partial answer stays and is marked stopped',
    async run({ webview, emulator, shot }) {
      const answer = Array.from({ length: 40 }, (_, index) => `Sentence ${index + 1} of a long answer that is stopped before it ends.`).join(' ');
      emulator.scriptChat({ content: answer, chunkCount: 200 });
      emulator.setChunkDelay(100);
      try {
        session.stoppedPrompt = 'Tell me something long, please.';
        await sendPrompt(webview, session.stoppedPrompt);
        const last = answers(webview).last();
        const body = last.locator('.markdown');
        await waitUntil(async () => ((await body.textContent()) ?? '').includes('Sentence 2 '), 'the answer to start streaming');
        await stopButton(webview).click();
        await waitUntil(async () => (await last.getAttribute('aria-busy')) === 'false', 'the stopped answer to end', 10_000);
        const mark = await waitForText(last.locator('.stopped-mark'), /Stopped/);
        check(/partial/.test(mark), `the stopped mark says: ${mark}`);
        const kept = ((await body.textContent()) ?? '').trim();
        check(kept.length > 0, 'the partial answer was removed');
        check(answer.startsWith(kept), `the kept text is not the start of the scripted answer: ${kept.slice(0, 200)}`);
        check(kept.length < answer.length, 'the answer ran to the end although Stop was clicked');
        // It stays stopped: nothing more arrives after a while, and Send is back.
        await new Promise((resolve) => setTimeout(resolve, 600));
        check(((await body.textContent()) ?? '').trim() === kept, 'text kept arriving after Stop');
        check(!(await stopButton(webview).isVisible()), 'the Stop button is still shown');
        check(await webview.getByRole('button', { name: 'Send (Enter)' }).isVisible(), 'the Send button is not back');
        await shot('stopped');
      } finally {
        emulator.setChunkDelay(0);
      }
    },
  },
  {
    name: "attach an image with the vision model: VS Code's file dialog, the preview, one image_url in the request",
    async run({ page, webview, emulator, workspace, shot }) {
      // The image to attach, in the workspace (where a user keeps it).
      const png = await makePng(48, 32, [40, 140, 90]);
      const pngPath = path.join(workspace, 'diagram.png');
      fs.writeFileSync(pngPath, png);

      const attach = webview.getByRole('button', { name: 'Attach an image (or drop or paste one)' });
      // With a text-only model the attach button is disabled and says why.
      check(await attach.isDisabled(), `the attach button is enabled for ${chatModel}, which cannot read images`);
      await modelSelect(webview).selectOption(visionModel);
      await waitUntil(async () => !(await attach.isDisabled()), `the attach button to be enabled for ${visionModel}`);
      const facts = await webview.locator('#model-facts').textContent();
      check(/vision/.test(facts), `the model facts line does not say vision: ${facts}`);

      // VS Code's own open dialog (in code-server: the simple file dialog, a quick input with a path box that
      // starts at the folder last used: the first-run test opened a file under src/). The whole path is typed.
      await attach.click();
      await chooseInFileDialog(page, workspace, 'diagram.png', () => shot('file dialog'));

      const thumbnail = webview.getByRole('img', { name: 'Attached image diagram.png' });
      await thumbnail.waitFor({ timeout: 15_000 });
      const naturalWidth = await thumbnail.evaluate((image) => image.complete && image.naturalWidth);
      check(naturalWidth === 48, `the preview image did not decode to the 48 px wide PNG: ${naturalWidth}`);
      const label = await webview.locator('.image-preview .image-name').textContent();
      check(label === `diagram.png (${png.length} B)`, `the preview says ${label}`);
      await shot('image preview');

      emulator.scriptChat({ content: 'A green rectangle crossed by a white diagonal line.' });
      const before = chatRequests(emulator).length;
      await sendPrompt(webview, 'What is in this picture?');
      const done = await finishedAnswer(webview);
      await waitForText(done.locator('.markdown'), /A green rectangle crossed by a white diagonal line\./);
      check(!(await webview.locator('.image-preview').isVisible()), 'the preview stayed after sending');
      const shownImage = userMessages(webview).last().getByRole('img', { name: 'Attached image' });
      check(await shownImage.isVisible(), 'the sent message does not show its image');

      const sent = chatRequests(emulator).slice(before);
      check(sent.length === 1, `expected 1 chat request, got ${sent.length}`);
      check(sent[0].body.model === visionModel, `the request used ${sent[0].body.model}`);
      const parts = sent[0].body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
      const images = parts.filter((part) => part.type === 'image_url');
      check(images.length === 1, `the request holds ${images.length} image_url parts, not 1`);
      check(
        images[0].image_url?.url === `data:image/png;base64,${png.toString('base64')}`,
        `the image_url is not the attached PNG as a data URL: ${String(images[0].image_url?.url).slice(0, 80)}…`,
      );
      check(textOf(sent[0].body.messages.at(-1).content).includes('What is in this picture?'), 'the prompt is not in the last message');
    },
  },
  {
    name: 'New chat, send, then switch back to the first conversation from the list: its messages come back',
    async run({ webview, emulator, shot }) {
      const title = webview.locator('.conversation-title');
      check((await title.textContent()) === session.firstPrompt, `the open conversation is titled ${await title.textContent()}`);
      await webview.getByRole('button', { name: 'New chat' }).click();
      await waitForText(title, /^New chat$/);
      await waitUntil(async () => (await userMessages(webview).count()) === 0, 'the new conversation to be empty');
      check(await webview.getByText('Ask Cadenza anything.').isVisible(), 'the new conversation does not show the welcome text');

      const secondPrompt = 'A second conversation starts here';
      emulator.scriptChat({ content: 'This answer belongs to the second conversation.' });
      await sendPrompt(webview, secondPrompt);
      await waitForText((await finishedAnswer(webview)).locator('.markdown'), /belongs to the second conversation/);
      await waitForText(title, new RegExp(`^${escapeRegExp(secondPrompt)}$`));

      await webview.getByRole('button', { name: 'Show conversations' }).click();
      const list = webview.getByRole('navigation', { name: 'Conversations' });
      const names = list.locator('.conversation-name');
      await waitUntil(async () => (await names.count()) >= 2, 'the conversation list to show both conversations');
      const listed = await names.allTextContents();
      check(listed.includes(session.firstPrompt) && listed.includes(secondPrompt), `the list shows ${JSON.stringify(listed)}`);
      const current = await list.locator('[aria-current="true"] .conversation-name').textContent();
      check(current === secondPrompt, `the list marks ${current} as the open conversation`);
      await shot('conversation list');

      await list.locator('button.conversation-open', { hasText: session.firstPrompt }).click();
      await waitForText(title, new RegExp(`^${escapeRegExp(session.firstPrompt)}$`));
      check(!(await list.isVisible()), 'the list stayed open after switching');
      const conversation = conversationRegion(webview);
      await waitForText(conversation.getByRole('article', { name: 'Your message' }), new RegExp(escapeRegExp(session.stoppedPrompt)));
      const text = await conversation.textContent();
      for (const expected of [
        session.firstPrompt,
        session.stoppedPrompt,
        'What is in this picture?',
        'That is the whole answer.',
        'A green rectangle crossed by a white diagonal line.',
        'Stopped',
      ]) {
        check(text.includes(expected), `the first conversation lacks "${expected}" after switching back`);
      }
      check(!text.includes(secondPrompt), "the first conversation shows the second one's message");
      check((await userMessages(webview).count()) === 3, `the first conversation shows ${await userMessages(webview).count()} messages of yours, not 3`);
      await userMessages(webview).first().scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'Explain Selection from the editor context menu streams the explanation into the panel',
    async run({ page, webview, emulator, workspace, shot }) {
      const file = 'src/greeting.ts';
      const source = fs.readFileSync(path.join(workspace, file), 'utf8');
      await quickOpen(page, file);
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      await waitForText(activeEditorLines(page), /export function greeting/);
      // Select the function: click at the start of line 2, then Shift+Down to the end of the file.
      await editor.locator('.view-line', { hasText: 'export function greeting' }).click({ position: { x: 2, y: 5 } });
      await page.keyboard.press('Home');
      await page.keyboard.press('Control+Shift+End');
      const selected = source.slice(source.indexOf('export function greeting'));
      await editor.locator('.selected-text').first().waitFor({ timeout: 5_000 });

      const explanation = '`greeting` builds a friendly greeting: it puts the name into a template string and returns "Hello, name!".';
      emulator.scriptChat({ content: explanation, chunkCount: 20 });
      emulator.setChunkDelay(40);
      const before = chatRequests(emulator).length;
      const userCount = await userMessages(webview).count();
      try {
        await editor.locator('.view-line', { hasText: 'Hello' }).click({ button: 'right' });
        await shot('context menu');
        await clickMenuPath(page, ['Cadenza', 'Explain Selection']);
        await waitUntil(async () => (await userMessages(webview).count()) > userCount, 'the explain prompt to appear in the panel');
        const prompt = await userMessages(webview).last().textContent();
        check(
          prompt.includes('Explain this code') && prompt.includes('return `Hello, ${name}!`;'),
          `the panel's prompt does not quote the selection: ${prompt}`,
        );
        const done = await finishedAnswer(webview);
        const text = await waitForText(done.locator('.markdown'), /returns "Hello, name!"\./);
        check(showsInOrder(text, renderedWords(explanation)), `the explanation is not the scripted one: ${text}`);
        check(await done.locator('.markdown code', { hasText: 'greeting' }).first().isVisible(), 'the inline code is not rendered');
        await done.locator('.usage-line').waitFor({ timeout: 10_000 });
      } finally {
        emulator.setChunkDelay(0);
      }
      const sent = chatRequests(emulator).slice(before);
      check(sent.length === 1, `expected 1 chat request, got ${sent.length}`);
      const last = textOf(sent[0].body.messages.at(-1).content);
      check(last.includes(selected.trimEnd()), `the request does not carry the selected code:\n${last}`);
      check(last.includes(file), `the request does not name ${file}`);
    },
  },
  {
    name: 'the panel in a dark and a light theme, switched live with Preferences: Color Theme',
    async run({ page, webview, log, shot }) {
      // Close the editors so the panel has the window to itself.
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'Cadenza: Open Chat');
      await composer(webview).waitFor();
      // (These functions run in the webview: its window is the element's document's defaultView.)
      const themeOf = () =>
        webview.locator('body').evaluate((body) => {
          const style = (element) => element.ownerDocument.defaultView.getComputedStyle(element);
          return {
            kind: body.getAttribute('data-vscode-theme-kind'),
            name: body.getAttribute('data-vscode-theme-name'),
            // The webview's own body is transparent over the side bar: the side bar colour VS Code hands the
            // webview is what shows.
            background: style(body.ownerDocument.documentElement).getPropertyValue('--vscode-sideBar-background').trim(),
            text: style(body).color,
          };
        });
      const luminance = (colour) => {
        const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(colour);
        const [r, g, b] = hex ? hex.slice(1).map((part) => parseInt(part, 16)) : (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      // The session's theme follows the browser's colour scheme; note it, to put it back afterwards.
      const { kind: started, name: original } = await themeOf();
      log(`the session's theme: ${original} (${started})`);
      const picker = quickInput(page);
      let failure;
      try {
        for (const [theme, kind, shade] of [
          ['Dark Modern', 'vscode-dark', 'dark'],
          ['Light Modern', 'vscode-light', 'light'],
        ]) {
          await runCommand(page, 'Preferences: Color Theme');
          await pickQuickItem(page, theme);
          await picker.waitFor({ state: 'hidden', timeout: 10_000 });
          await waitUntil(async () => (await themeOf()).kind === kind, `the panel to switch to ${theme}`);
          const colours = await themeOf();
          check(colours.name === theme, `the panel reports the theme ${colours.name}, not ${theme}`);
          const [background, text] = [luminance(colours.background), luminance(colours.text)];
          check(
            shade === 'dark' ? background < 80 && text > 150 : background > 180 && text < 100,
            `${theme}: the panel's colours do not match: ${JSON.stringify(colours)}`,
          );
          check((await page.locator(`.monaco-workbench.${shade === 'dark' ? 'vs-dark' : 'vs'}`).count()) === 1, `the workbench is not in a ${shade} theme`);
          // The composer's box takes the theme's colours too.
          const input = await webview.locator('.composer-box').evaluate((box) => box.ownerDocument.defaultView.getComputedStyle(box).backgroundColor);
          check(shade === 'dark' ? luminance(input) < 100 : luminance(input) > 160, `${theme}: the composer's background ${input} does not follow the theme`);
          await shot(shade);
        }
      } catch (error) {
        failure = error;
      }
      // Back to the theme the session started with, for the tests after this one; a failure above wins.
      try {
        await closeQuickInput(page);
        await runCommand(page, 'Preferences: Color Theme');
        await pickQuickItem(page, original);
        await waitUntil(async () => (await themeOf()).name === original, `the panel to return to ${original}`);
      } catch (error) {
        if (!failure) throw error;
        log(`could not restore the theme ${original}: ${error.message}`);
      }
      if (failure) throw failure;
    },
  },
];
