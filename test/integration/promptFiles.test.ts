// Prompt files in the real extension host: found in the workspace's `.github/prompts` and `.cadenza/prompts`
// and in the profile's prompts folder, a change picked up by the watchers, a link leading outside never read,
// `@cadenza /name` in VS Code's chat filled in (selection, file, an input answered in the input box) and
// sent, an unknown name answered with the list, and New Prompt File. The suite's title holds "real workspace
// trust", so it also runs in the Restricted Mode tier, where a workspace's prompt must be marked untrusted and
// run without tools (the profile's stays trusted).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HandledRequest } from '../../src/host/lm/participant';
import { recordedText } from '../../src/host/lm/responseTee';
import { cadenzaApi, spyOnDialogs, useEmulator, waitFor } from './helpers';

type Body = { messages?: { role: string; content: unknown }[]; tools?: { function: { name: string } }[]; tool_choice?: unknown };

suite('Prompt files under the real workspace trust', () => {
  const emulator = useEmulator();
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  const outside = path.join(os.tmpdir(), `cadenza-outside-prompt-${process.pid}.prompt.md`);
  const created: string[] = [];
  let profile = '';
  let handled: HandledRequest[] = [];
  let subscription: vscode.Disposable | undefined;
  const trusted = vscode.workspace.isTrusted;
  const chatBodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);

  const write = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    if (!created.includes(file)) created.push(file);
  };

  /** Sends `query` through VS Code's chat view and resolves with what @cadenza answered. */
  async function ask(query: string): Promise<HandledRequest> {
    const before = handled.length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: false });
    await waitFor(() => handled.length > before, `@cadenza to answer "${query}"`, 20_000);
    return handled[before] as HandledRequest;
  }

  suiteSetup(async function () {
    this.timeout(60_000);
    const api = await cadenzaApi();
    profile = api.prompts.profileFolder.fsPath;
    console.log(`[prompts] workspace trusted: ${trusted}; profile prompts folder: ${profile}`);
    // The Restricted Mode tier (the server's environment reaches the extension host) must really be untrusted.
    if (process.env['HARNESS_WORKSPACE_TRUST'] === 'untrusted') assert.equal(trusted, false, 'the Restricted Mode tier runs in a trusted folder');
    subscription = api.lm.onDidHandleRequest((request) => handled.push(request));
    write(
      path.join(root, '.github', 'prompts', 'review.prompt.md'),
      [
        '---',
        'description: Review the selected code',
        'mode: ask',
        'tools: [cadenza_semanticSearch]',
        '---',
        '<!-- ${input:ignored} is in a comment: never asked -->',
        'Review this code from ${fileBasename} (${file}) for ${input:focus:what to look at}:',
        '',
        '${selection}',
      ].join('\n'),
    );
    write(path.join(root, '.cadenza', 'prompts', 'tests.md'), '---\ndescription: Write tests\n---\nWrite tests for ${fileBasename}.');
    write(path.join(root, '.github', 'prompts', 'broken.prompt.md'), '---\ndescription: ok\nthis line is not a field\n---\nBody');
    write(path.join(profile, 'standup.prompt.md'), '---\ndescription: Draft my stand-up note\n---\nDraft a stand-up note about ${input:topic}.');
    fs.writeFileSync(outside, '---\ndescription: SECRET outside\n---\nSECRET');
    fs.symlinkSync(outside, path.join(root, '.github', 'prompts', 'leak.prompt.md'));
    created.push(path.join(root, '.github', 'prompts', 'leak.prompt.md'));
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await vscode.commands.executeCommand('cadenza.refreshModels');
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'cadenza' })).length > 0, 'Cadenza models in VS Code');
  });
  setup(() => {
    emulator().reset();
    handled = [];
  });
  suiteTeardown(async () => {
    subscription?.dispose();
    for (const file of created) fs.rmSync(file, { force: true });
    for (const folder of [path.join(root, '.github'), path.join(root, '.cadenza'), profile]) fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(outside, { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test("finds the workspace's .github and .cadenza prompts and the profile's, marks the workspace's untrusted in Restricted Mode, and never reads a link outside", async () => {
    const api = await cadenzaApi();
    let catalog = await api.prompts.catalog();
    await waitFor(
      async () => {
        catalog = await api.prompts.catalog();
        return catalog.prompts.length === 3;
      },
      () => `three prompts (saw ${JSON.stringify(catalog.prompts.map((prompt) => prompt.name))})`,
    );
    assert.deepEqual(
      catalog.prompts.map((prompt) => [prompt.name, prompt.description, prompt.source.origin, prompt.untrusted]),
      [
        ['review', 'Review the selected code', 'workspace', !trusted],
        ['standup', 'Draft my stand-up note', 'profile', false],
        ['tests', 'Write tests', 'workspace', !trusted],
      ],
    );
    assert.deepEqual(catalog.prompts.find((prompt) => prompt.name === 'review')?.tools, ['cadenza_semanticSearch']);
    const problems = catalog.problems.map((problem) => problem.message).join('\n');
    assert.match(problems, /\.github\/prompts\/broken\.prompt\.md: line 3: expected `key: value`/);
    assert.match(problems, /leak\.prompt\.md is a link that leads outside the workspace folder; it is not read/);
    assert.ok(!JSON.stringify(catalog).includes('SECRET'), 'a file outside the workspace was read through a link');
  });

  test('a changed, an added and a removed prompt file are picked up', async function () {
    this.timeout(120_000);
    const api = await cadenzaApi();
    try {
      write(path.join(root, '.cadenza', 'prompts', 'tests.md'), '---\ndescription: Write unit tests first\n---\nWrite tests for ${fileBasename}.');
      write(path.join(root, '.github', 'prompts', 'docs.prompt.md'), '---\ndescription: Document it\n---\nDocument ${selection}.');
      fs.rmSync(path.join(profile, 'standup.prompt.md'));
      let seen = '';
      await waitFor(
        async () => {
          seen = (await api.prompts.catalog()).prompts.map((prompt) => `${prompt.name}=${prompt.description}`).join(', ');
          return seen === 'docs=Document it, review=Review the selected code, tests=Write unit tests first';
        },
        () => `the changes to show (saw ${seen})`,
        30_000,
      );
    } finally {
      fs.rmSync(path.join(root, '.github', 'prompts', 'docs.prompt.md'), { force: true });
      write(path.join(profile, 'standup.prompt.md'), '---\ndescription: Draft my stand-up note\n---\nDraft a stand-up note about ${input:topic}.');
    }
  });

  test('@cadenza /review fills in the selection, the file and an input, says which prompt ran, and sends the filled-in text', async () => {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, 'src', 'greeting.ts')));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 3, 1);
    const dialogs = spyOnDialogs((call) => (call.kind === 'inputBox' && call.message === '/review: focus' ? 'naming' : undefined));
    emulator().scriptChat({ content: 'Looks fine.' });
    let answer: HandledRequest;
    try {
      answer = await ask('@cadenza /review keep it short');
    } finally {
      dialogs.restore();
    }
    console.log(
      `[prompts] @cadenza /review: command ${String(answer.command)}, prompt ${JSON.stringify(answer.prompt)}, metadata ${JSON.stringify(answer.result.metadata)}`,
    );
    assert.equal(answer.result.errorDetails, undefined, JSON.stringify(answer.result));
    assert.deepEqual(
      dialogs.calls.map((call) => [call.kind, call.message, call.prompt]),
      [['inputBox', '/review: focus', 'what to look at']],
      "only the body's input was asked, not the commented one",
    );
    const text = recordedText(answer.parts);
    assert.match(text, /^\*Prompt file `\/review` \(\.github\/prompts\/review\.prompt\.md\)/);
    assert.equal(/untrusted|not trusted/.test(text), !trusted, text);
    assert.match(text, /Looks fine\.$/);
    assert.equal(answer.result.metadata?.['prompt'], 'review');
    assert.equal(answer.result.metadata?.['untrusted'], !trusted);
    const [body] = chatBodies();
    const sent = String(body?.messages?.at(-1)?.content);
    assert.match(
      sent,
      /Review this code from greeting\.ts \(\S*src[\\/]greeting\.ts\) for naming:\n\nexport function greeting\(name: string\): string \{\n {2}return `Hello, \$\{name\}!`;\n\}\n\nkeep it short$/,
    );
    assert.doesNotMatch(sent, /\$\{(selection|file|input)/);
    if (trusted) {
      assert.doesNotMatch(sent, /NOT trusted/);
      assert.deepEqual(
        body?.tools?.map((tool) => tool.function.name),
        ['cadenza_semanticSearch'],
        "the prompt's tool is offered",
      );
      assert.equal(body?.tool_choice, 'auto');
    } else {
      assert.match(sent, /^The prompt file \/review comes from a workspace the user has NOT trusted/);
      assert.equal(body?.tools, undefined, "an untrusted workspace's prompt was offered tools");
    }
  });

  test('a prompt from the profile runs as trusted; a prompt needing a selection without one says so and sends nothing', async () => {
    const dialogs = spyOnDialogs((call) => (call.kind === 'inputBox' ? 'the release' : undefined));
    emulator().scriptChat({ content: 'Note drafted.' });
    let answer: HandledRequest;
    try {
      answer = await ask('@cadenza /standup');
    } finally {
      dialogs.restore();
    }
    assert.equal(answer.result.metadata?.['untrusted'], false);
    assert.match(String(chatBodies()[0]?.messages?.at(-1)?.content), /^Draft a stand-up note about the release\.$/);

    emulator().reset();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    write(path.join(root, '.github', 'prompts', 'docs.prompt.md'), '---\ndescription: Document it\n---\nDocument ${selection}.');
    const api = await cadenzaApi();
    await waitFor(async () => (await api.prompts.find('docs')) !== undefined, 'the docs prompt');
    const refused = await ask('@cadenza /docs');
    assert.match(recordedText(refused.parts), /\/docs uses \$\{selection\}, but no text is selected/);
    assert.equal(refused.result.metadata?.['ran'], false);
    assert.equal(chatBodies().length, 0, 'nothing was sent');
  });

  test('an unknown /name lists the prompt files there are', async () => {
    const answer = await ask('@cadenza /nosuchprompt');
    const text = recordedText(answer.parts);
    assert.match(text, /There is no prompt file named `\/nosuchprompt`/);
    assert.match(text, /`\/review` Review the selected code \(\.github\/prompts\/review\.prompt\.md/);
    assert.match(text, /`\/standup` Draft my stand-up note \(standup\.prompt\.md in your profile\)/);
    assert.match(text, /Not read:[\s\S]*broken\.prompt\.md: line 3/);
    assert.equal(chatBodies().length, 0, 'nothing was sent');
  });

  test('New Prompt File creates <name>.prompt.md in the place asked, opens it, refuses a path as a name, and the prompt is found', async () => {
    const api = await cadenzaApi();
    const dialogs = spyOnDialogs((call) => (call.kind === 'inputBox' ? 'release-notes' : call.kind === 'quickPick' ? 'Your profile' : undefined));
    let uri: string | undefined;
    try {
      uri = await vscode.commands.executeCommand<string | undefined>('cadenza.newPromptFile');
    } finally {
      dialogs.restore();
    }
    assert.deepEqual(
      dialogs.calls.map((call) => call.kind),
      ['inputBox', 'quickPick'],
    );
    assert.deepEqual(dialogs.calls[1]?.items, ['This workspace', 'Your profile']);
    assert.equal(uri, vscode.Uri.file(path.join(profile, 'release-notes.prompt.md')).toString());
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri);
    const text = fs.readFileSync(path.join(profile, 'release-notes.prompt.md'), 'utf8');
    assert.match(text, /^---\ndescription: '.*'\nmode: ask\n---\n<!--[\s\S]*\$\{selection\}[\s\S]*-->\n/);
    assert.equal((await api.prompts.find('release-notes'))?.source.origin, 'profile');

    const workspaceUri = await vscode.commands.executeCommand<string | undefined>('cadenza.newPromptFile', 'fix-tests', 'workspace');
    assert.equal(workspaceUri, vscode.Uri.file(path.join(root, '.github', 'prompts', 'fix-tests.prompt.md')).toString());
    created.push(path.join(root, '.github', 'prompts', 'fix-tests.prompt.md'));
    assert.ok(fs.existsSync(path.join(root, '.github', 'prompts', 'fix-tests.prompt.md')));
    for (const bad of ['../escape', 'a/b', 'explain']) {
      assert.equal(await vscode.commands.executeCommand('cadenza.newPromptFile', bad, 'workspace'), undefined, `"${bad}" was accepted`);
    }
    assert.ok(!fs.existsSync(path.join(root, '.github', 'escape.prompt.md')));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
