// Inline completions as a person sees them: turned on from the command palette, ghost text appears after
// typing in a real editor, the status bar entry says completions are on, and Tab accepts the suggestion.
import fs from 'node:fs';
import path from 'node:path';
import { activeEditorLines, check, discardScratchFile, quickOpen, readEditorLines, runCommand, setApiKey, waitUntil } from './actions.mjs';

const ghost = (page) => page.locator('.editor-group-container.active .monaco-editor').locator('.ghost-text-decoration, .ghost-text').first();

/** @type {{ name: string, run: (ui: import('./cadenza.ui.mjs').Ui & Record<string, any>) => Promise<void> }[]} */
export const tests = [
  {
    name: 'inline completions: ghost text after typing, accepted with Tab',
    async run({ page, emulator, workspace, shot }) {
      fs.writeFileSync(
        path.join(workspace, 'src', 'geometry.ts'),
        '/** The area of a circle. */\nexport function circleArea(radius: number): number {\n  \n}\n',
      );
      await setApiKey(page, emulator.key);
      await runCommand(page, 'Cadenza: Toggle Inline Completions');
      const status = page.locator('.statusbar-item', { hasText: 'Complete' }).first();
      await status.waitFor({ timeout: 15_000 });
      await waitUntil(async () => /sparkle/.test((await status.innerHTML()) ?? ''), 'the status bar to show completions on');

      // Every request while typing gets the same answer: the body of the function, the way a chat model writes it.
      emulator.scriptChat({ content: '```ts\n  return Math.PI * radius ** 2;\n```' }, { times: 20 });
      const before = emulator.requests.length;
      try {
        await quickOpen(page, 'src/geometry.ts');
        await activeEditorLines(page).click();
        await page.keyboard.press('Control+Home');
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('End');
        await page.keyboard.type('return ', { delay: 60 });
        // The suggest widget may have opened on the keyword; with it open, VS Code asks about its item instead.
        await page.keyboard.press('Escape');
        await page.keyboard.press('Alt+Backslash');
        await ghost(page)
          .waitFor({ timeout: 20_000 })
          .catch(async (error) => {
            // Name what happened, so a failure says whether a request went out and what the editor held.
            await shot('no ghost text');
            const asked = emulator.requests.slice(before).filter((request) => request.path === '/v1/chat/completions').length;
            throw new Error(
              `no ghost text after "return " (${asked} completion requests sent; editor: ${JSON.stringify(await readEditorLines(page))}): ${String(error)}`,
            );
          });
        const lines = await readEditorLines(page);
        check(
          lines.some((line) => /return Math\.PI \* radius \*\* 2;/.test(line)),
          `the ghost text is not shown after "return": ${JSON.stringify(lines)}`,
        );
        await shot('ghost text');

        await page.keyboard.press('Tab');
        await waitUntil(async () => (await ghost(page).count()) === 0, 'the ghost text to be accepted');
        const after = await readEditorLines(page);
        check(
          after.some((line) => line.trim() === 'return Math.PI * radius ** 2;'),
          `Tab did not insert the suggestion: ${JSON.stringify(after)}`,
        );
        // Only this test's requests: seven keystrokes and one explicit trigger, debounced.
        const sent = emulator.requests.slice(before).filter((request) => request.path === '/v1/chat/completions');
        check(sent.length >= 1 && sent.length <= 8, `requests while typing seven characters: ${sent.length}`);
        await status.hover();
        await page.locator('.monaco-hover', { hasText: 'apart from chat' }).first().waitFor({ timeout: 10_000 });
        await shot("status bar tooltip with today's completion usage");
      } finally {
        // Completions off again, and the answers scripted for them gone: later tests script their own chats.
        await runCommand(page, 'Cadenza: Toggle Inline Completions');
        emulator.reset();
        // The scratch file goes, or the search test after this one ranks it (a tie with math.py when the
        // suggestion was not accepted).
        await discardScratchFile(page, path.join(workspace, 'src', 'geometry.ts'));
      }
    },
  },
];
