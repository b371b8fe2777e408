// The tools menu as a person uses it: the wrench button by the composer opens a checklist of the tools other
// extensions and MCP servers register in VS Code, each with its source and token cost, none ticked. Ticking
// one enables it for the workspace: the next agent request offers it, and the model's call to it runs through
// VS Code and shows its card. The first test uses the tools fixture extension the harness installs
// (test/support/fixtures/toolsExtension); its screenshot shows the open menu with the ticked tool. The second registers
// a real MCP server (test/support/fixtures/mcpServer) as a user does, in the workspace's .vscode/mcp.json, and starts
// it with the "Start" CodeLens VS Code shows above it in that file; its tool, not marked read-only (no MCP
// server's is), waits on a card naming the server, shown in the second test's shot.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, openFileByPath, runCommand, setApiKey, waitForText, waitUntil } from './actions.mjs';
import { answers, chatRequests, composer, newChatWithModel } from './panel.mjs';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';
/** The real MCP server the second test registers, and the name mcp.json gives it. */
const mcpServer = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'fixtures', 'mcpServer', 'server.mjs');
const serverName = 'notes';

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
        check(await menu.getByText('cadenza-tests.cadenza-test-tools').first().isVisible(), "the tool's source is shown");
        check((await menu.getByRole('checkbox', { name: /cadenza_/ }).count()) === 0, "Cadenza's own tools are offered back to it");
        check(await menu.getByText('None enabled').isVisible(), 'the summary says none is enabled');
        await wordCount.check();
        await waitUntil(
          async () => /1 enabled, about \d+ tokens per agent request/.test((await menu.locator('.tools-summary').textContent()) ?? ''),
          'the summary to count the ticked tool',
        );
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
        check(
          sent[0]?.body.tools?.some((tool) => tool.function.name === 'fixture_wordCount'),
          'the ticked tool was not offered',
        );
        check(String(sent[1]?.body.messages.at(-1)?.content) === '3 words', `the tool's result: ${JSON.stringify(sent[1]?.body.messages.at(-1))}`);
        const card = webview.locator('.tool-card', { hasText: 'fixture_wordCount' });
        await card.waitFor({ timeout: 15_000 });
        check(/Tool from cadenza-tests\.cadenza-test-tools/.test((await card.textContent()) ?? ''), 'the card names where the tool comes from');
        await shot("a VS Code tool's card");
      } finally {
        emulator.reset();
        // Untick it again, so later tests' requests carry only Cadenza's own functions.
        const box = webview.getByRole('region', { name: 'VS Code tools the agent may use' }).getByRole('checkbox', { name: /fixture_wordCount/ });
        if (await box.isChecked().catch(() => false)) await box.uncheck().catch(() => undefined);
        await webview
          .getByRole('button', { name: /^VS Code tools the agent may use/ })
          .click()
          .catch(() => undefined);
      }
    },
  },
  {
    name: 'tools menu: a real MCP server from .vscode/mcp.json, started from its CodeLens; its tool waits on a card naming the server, and Deny keeps it from running',
    async run({ webview, page, emulator, workspace, shot }) {
      emulator.reset();
      const menuButton = webview.getByRole('button', { name: /^VS Code tools the agent may use/ });
      const menu = webview.getByRole('region', { name: 'VS Code tools the agent may use' });
      // VS Code names an MCP server's tools mcp_<the name the server gives itself>_<tool>.
      const note = menu.getByRole('checkbox', { name: /^mcp_.*_add_note\b/ });
      const mcpJson = path.join(workspace, '.vscode', 'mcp.json');
      const notesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-ui-notes-'));
      const createdFolder = !fs.existsSync(path.dirname(mcpJson));
      try {
        // The user adds the server to the workspace's mcp.json (the Node running this test runs it too)...
        fs.mkdirSync(path.dirname(mcpJson), { recursive: true });
        fs.writeFileSync(
          mcpJson,
          `${JSON.stringify({ servers: { [serverName]: { type: 'stdio', command: process.execPath, args: [mcpServer], env: { NOTES_DIR: notesDir } } } }, null, 2)}\n`,
        );
        // ...and starts it from the CodeLens above it, which VS Code shows once it has read the file.
        await openFileByPath(page, path.dirname(mcpJson), 'mcp.json');
        const lens = (label) => page.locator('.monaco-editor .codelens-decoration a', { hasText: new RegExp(`^\\W*${label}$`) });
        await lens('Start').first().waitFor({ timeout: 30_000 });
        await lens('Start').first().click();
        await waitUntil(
          async () => /Running.*\b2 tools\b/.test((await page.locator('.monaco-editor .codelens-decoration').first().textContent()) ?? ''),
          'the CodeLens to say the server runs with its 2 tools',
          30_000,
        );
        await shot('mcp.json with the server running');
        await runCommand(page, 'View: Close All Editors');

        await setApiKey(page, emulator.key);
        await newChatWithModel(page, webview, toolModel);
        await menuButton.click();
        await note.waitFor({ timeout: 15_000 });
        const name = (await menu.locator('.tools-name', { hasText: /^mcp_.*_add_note$/ }).textContent())?.trim();
        check(name !== undefined, "the tool's name in the menu");
        const row = (await menu.locator('.tools-row', { hasText: name }).textContent()) ?? '';
        check(row.includes(`MCP server ${serverName}`), `the menu names the server as mcp.json does: ${row}`);
        check(/Asks before each call/.test(row), 'the menu says the tool asks before each call');
        await note.check();
        await waitUntil(async () => /1 enabled/.test((await menu.locator('.tools-summary').textContent()) ?? ''), 'the summary to count the ticked tool');
        await menuButton.click();

        emulator.scriptChat({ toolCalls: [{ name, arguments: { title: 'Release notes', body: 'Deploy key: sk-live-walrus-0042' }, id: 'call_note_ui' }] });
        emulator.scriptChat({ content: 'I did not save the note.' });
        const before = chatRequests(emulator).length;
        const box = composer(webview);
        await box.click();
        await box.pressSequentially('Save the release notes as a note.', { delay: 2 });
        await box.press('Enter');

        const card = webview.locator('.tool-card', { hasText: name });
        await waitForText(card.locator('.tool-status'), /Waiting for your approval/, 30_000);
        const text = (await card.textContent()) ?? '';
        check(text.includes(`Run ${name} from MCP server ${serverName}`), `the card's title: ${text}`);
        check(text.includes(`Tool from MCP server ${serverName}`), 'the card names the server');
        const input = (await card.getByLabel(`Arguments ${name} is sent`).textContent()) ?? '';
        check(input.includes('"body": "Deploy key: sk-live-walrus-0042"'), `the arguments shown in full: ${input}`);
        check(text.includes('Changes made by this tool are not in checkpoints'), 'the card says checkpoints do not hold its changes');
        check(await card.getByRole('button', { name: `Run, and run ${name} again in this conversation without asking` }).isVisible(), 'no per-tool allowance');
        check((await card.getByRole('button', { name: /allow edits and new files/ }).count()) === 0, 'the edit allowance is offered for a tool');
        check(chatRequests(emulator).length === before + 1, 'the turn went on before the user decided');
        await shot('an MCP server tool waiting for approval');

        await card.getByRole('button', { name: `Deny: Run ${name} from MCP server ${serverName}` }).click();
        await waitUntil(async () => /did not save the note/.test((await answers(webview).last().textContent()) ?? ''), 'the answer after the denial');
        await waitForText(card.locator('.tool-status'), /Denied/);
        const sent = chatRequests(emulator).slice(before);
        check(
          new RegExp(`^The user denied running ${name}`).test(String(sent[1]?.body.messages.at(-1)?.content)),
          `the model is told: ${JSON.stringify(sent[1]?.body.messages.at(-1))}`,
        );
        check(!fs.existsSync(path.join(notesDir, 'notes.md')), 'the server wrote a note');
      } finally {
        emulator.reset();
        if (!(await menu.isVisible().catch(() => false))) await menuButton.click().catch(() => undefined);
        if (await note.isChecked().catch(() => false)) await note.uncheck().catch(() => undefined);
        if (await menu.isVisible().catch(() => false)) await menuButton.click().catch(() => undefined);
        // Without its mcp.json entry VS Code stops the server and drops its tools.
        fs.rmSync(mcpJson, { force: true });
        if (createdFolder && fs.readdirSync(path.dirname(mcpJson)).length === 0) fs.rmdirSync(path.dirname(mcpJson));
        fs.rmSync(notesDir, { recursive: true, force: true });
      }
    },
  },
];
