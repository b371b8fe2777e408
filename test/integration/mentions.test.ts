// @-mentions in the real extension host, driven through the chat panel's own messages (`mention/query`,
// `mention/attach`, `chat/send`): files and folders (a git-ignored file is not offered), a symbol from the
// TypeScript symbol provider, the selection, the active file's problems, the git diffs of a real repository
// (unstaged, staged, against a branch), `@codebase` over the index, the budget cut, and that the attached
// context is stored with the message (the panel shows it again) and resent by regenerate.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import type { MentionCandidate, MentionChip } from '../../src/shared/mentionCandidates';
import type { ToWebview } from '../../src/shared/protocol';
import { cadenzaApi, openChatView, removeGitRepository, storedConversation, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };

suite('@-mentions in the chat panel', function () {
  this.timeout(120_000);
  const emulator = useEmulator();
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  let api: CadenzaApi;
  let panel: Panel;

  /** Asks the `@` list for `query` until an offer satisfies `match` (symbol providers start slowly), then picks it. */
  async function pick(
    query: string,
    match: (candidate: MentionCandidate) => boolean,
    timeoutMs = 20_000,
  ): Promise<{ candidate: MentionCandidate; chip: MentionChip }> {
    let candidate: MentionCandidate | undefined;
    let seen: readonly MentionCandidate[] = [];
    await waitFor(
      async () => {
        seen = await panel.queryMentions(query);
        candidate = seen.find(match);
        return candidate !== undefined;
      },
      () => `an offer for @${query} (saw ${JSON.stringify(seen.map((entry) => `${entry.kind}:${entry.label}`))})`,
      timeoutMs,
    );
    if (!candidate) throw new Error('unreachable');
    const chip = await panel.attachMention(candidate);
    assert.ok(chip, `no chip for ${candidate.label}`);
    return { candidate, chip };
  }

  /** Sends a message with chips; returns the user message's text as the service received it. */
  async function send(text: string, chips: readonly MentionChip[]): Promise<string> {
    emulator().reset();
    await panel.send(text, {}, { mentions: chips.map((chip) => chip.token) });
    return lastUserContent();
  }

  function lastUserContent(): string {
    const body = emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .at(-1)?.body as Body | undefined;
    const content = body?.messages.filter((message) => message.role === 'user').at(-1)?.content;
    return typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');
  }

  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], {
      cwd: root,
      encoding: 'utf8',
    });

  suiteSetup(async () => {
    api = await cadenzaApi();
    panel = drivePanel(api);
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await openChatView(api);
    fs.writeFileSync(path.join(root, '.gitignore'), 'ignored/\n');
    fs.mkdirSync(path.join(root, 'ignored'), { recursive: true });
    fs.writeFileSync(path.join(root, 'ignored', 'hiddenSecret.ts'), 'export const hiddenSecret = 1;\n');
    // The catalog follows file events; a fresh walk here keeps the suite independent of their timing.
    api.mentions.catalog.invalidate();
    await panel.newConversation();
    await panel.selectModel('Meta-Llama-3.1-8B-Instruct');
  });
  suiteTeardown(async () => {
    panel.dispose();
    await removeGitRepository(root);
    for (const name of ['.gitignore', 'ignored', 'big.txt']) fs.rmSync(path.join(root, name), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('the panel walks the workspace for the @ list when it opens, before any @ is typed', async () => {
    api.mentions.catalog.invalidate();
    const walks = api.mentions.catalog.walks;
    const queries = panel.messages.length;
    // The webview says it is ready each time the panel's page loads (opened, or restored after a reload).
    await panel.ready();
    await waitFor(
      () => api.mentions.catalog.walks > walks,
      () => 'the @ list to be walked after the panel opened',
      20_000,
    );
    assert.ok(!panel.messages.slice(queries).some((message) => message.type === 'mention/candidates'), 'an @ query ran: the walk was not ahead of it');
  });

  test('a file is offered by a fuzzy query, git-ignored files are not, and its text reaches the request; reload and regenerate keep it', async () => {
    const { chip } = await pick('greetts', (candidate) => candidate.kind === 'file' && candidate.label === 'src/greeting.ts');
    assert.equal(chip.label, 'src/greeting.ts');
    assert.ok(chip.tokens > 10, `tokens ${chip.tokens}`);
    // .gitignore is respected: the ignored file is not offered even for its exact name.
    const offered = await panel.queryMentions('hiddenSecret');
    assert.ok(!offered.some((candidate) => candidate.label.includes('hiddenSecret')), JSON.stringify(offered));

    const sent = await send('What does this file do?', [chip]);
    assert.match(sent, /^Context: src\/greeting\.ts\n```\n\/\*\* Returns a greeting/);
    assert.ok(sent.endsWith('What does this file do?'), sent);
    const stored = (await storedConversation(api, (await panel.conversation()).id))?.messages.filter((message) => message.role === 'user').at(-1);
    assert.deepEqual(
      stored?.context?.map((part) => [part.kind, part.label, part.tokens]),
      [['file', 'src/greeting.ts', chip.tokens]],
    );
    // The panel shows it again on reload (conversation/show carries the chips).
    panel.clear();
    await panel.ready();
    const shown = panel.messages.find((message): message is Extract<ToWebview, { type: 'conversation/show' }> => message.type === 'conversation/show');
    assert.deepEqual(
      shown?.conversation.messages.find((message) => message.role === 'user')?.context?.map((part) => part.label),
      ['src/greeting.ts'],
    );
    // Regenerate resends the same context.
    emulator().reset();
    await panel.regenerate();
    assert.equal(lastUserContent(), sent);
  });

  test('a folder adds the list of its files', async () => {
    const { chip } = await pick('src/', (candidate) => candidate.kind === 'folder' && candidate.label === 'src/');
    const sent = await send('What is in this folder?', [chip]);
    assert.match(sent, /Context: src\/\n```\nFiles in src\/ \(workspace-relative\):\n(.*\n)*src\/greeting\.ts/);
    assert.match(sent, /src\/math\.py/);
  });

  test('a symbol from the workspace symbol provider adds its declaration', async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'src', 'greeting.ts')));
    // TypeScript names a function `greeting()` in the workspace symbol list.
    const { chip } = await pick('greeting', (candidate) => candidate.kind === 'symbol' && candidate.label.startsWith('greeting'), 90_000);
    assert.match(chip.label, /^greeting\S* \(src\/greeting\.ts:[12]-4\)$/);
    const sent = await send('Explain it', [chip]);
    assert.match(sent, /export function greeting\(name: string\): string \{\n {2}return `Hello, \$\{name\}!`;\n\}/);
  });

  test('the selection adds the selected text with its place', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'src', 'greeting.ts')));
    editor.selection = new vscode.Selection(2, 0, 2, editor.document.lineAt(2).text.length);
    const { chip } = await pick('sel', (candidate) => candidate.kind === 'selection');
    assert.equal(chip.label, 'selection (src/greeting.ts:3-3)');
    const sent = await send('Why the exclamation mark?', [chip]);
    assert.match(sent, /Context: selection \(src\/greeting\.ts:3-3\)\n```\n {2}return `Hello, \$\{name\}!`;\n```/);
  });

  test("problems add the active file's diagnostics", async () => {
    const uri = vscode.Uri.file(path.join(root, 'src', 'greeting.ts'));
    const diagnostics = vscode.languages.createDiagnosticCollection('mentions-test');
    try {
      diagnostics.set(uri, [
        new vscode.Diagnostic(new vscode.Range(1, 16, 1, 24), 'Parameter name shadows a global (mentions test).', vscode.DiagnosticSeverity.Warning),
      ]);
      await vscode.window.showTextDocument(uri);
      const { chip } = await pick('problems', (candidate) => candidate.kind === 'problems' && candidate.id === 'file');
      assert.equal(chip.label, 'problems (src/greeting.ts)');
      const sent = await send('Fix these', [chip]);
      assert.match(sent, /src\/greeting\.ts:2:17 warning: Parameter name shadows a global \(mentions test\)\./);
      const workspace = await pick('problems work', (candidate) => candidate.kind === 'problems' && candidate.id === 'workspace');
      assert.ok(workspace.chip.tokens > 0);
    } finally {
      diagnostics.dispose();
    }
  });

  test('git diffs: unstaged, staged and against a branch, through the built-in git extension', async () => {
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    git('branch', 'base');
    await vscode.commands.executeCommand('git.openRepository', root);
    fs.appendFileSync(path.join(root, 'src', 'greeting.ts'), '// unstaged change marker\n');
    fs.appendFileSync(path.join(root, 'docs', 'notes.md'), 'staged change marker\n');
    git('add', 'docs/notes.md');
    await vscode.commands.executeCommand('git.refresh');
    const unstaged = await pick('git diff', (candidate) => candidate.kind === 'git' && candidate.id === 'unstaged');
    const staged = await pick('git staged', (candidate) => candidate.kind === 'git' && candidate.id === 'staged');
    const branch = await pick('git base', (candidate) => candidate.kind === 'git' && candidate.id === 'branch:base');
    const sent = await send('Review my changes', [unstaged.chip, staged.chip, branch.chip]);
    const sections = sent.split(/\n\nContext: /);
    assert.match(sections[0] ?? '', /^Context: git diff\n```\ndiff --git a\/src\/greeting\.ts[\s\S]*\+\/\/ unstaged change marker/);
    assert.ok(!(sections[0] ?? '').includes('docs/notes.md'), 'the unstaged diff holds the staged file');
    assert.match(sections[1] ?? '', /^git diff \(staged\)\n```\ndiff --git a\/docs\/notes\.md[\s\S]*\+staged change marker/);
    assert.match(sections[2] ?? '', /^git diff base\n```\n(?=[\s\S]*\+\/\/ unstaged change marker)(?=[\s\S]*\+staged change marker)/);
  });

  test('a git mention runs git diff only against a branch the repository lists: a ref that reads as an option writes nothing', async () => {
    // The repository of the test above. A mention's id comes from the webview, so the host checks it.
    const written = path.join(os.tmpdir(), `cadenza-git-output-${process.pid}-${Date.now()}.txt`);
    const attach = (id: string): Promise<MentionChip | undefined> => panel.attachMention({ kind: 'git', id, label: 'git diff' });
    const option = await attach(`branch:--output=${written}`);
    const exists = fs.existsSync(written);
    fs.rmSync(written, { force: true });
    assert.equal(exists, false, 'git wrote the file the mention named');
    assert.equal(option?.note, `Not a branch of this repository: --output=${written}`);
    assert.equal((await attach('branch:no-such-branch'))?.note, 'Not a branch of this repository: no-such-branch');
    assert.equal((await attach('branch:base'))?.note, undefined, 'a listed branch still gives its diff');
  });

  test('@codebase searches the index with the question', async () => {
    fs.writeFileSync(
      path.join(root, 'src', 'uploadRetry.ts'),
      'export function retryFailedUploads(queue: string[]): number {\n  return queue.length; // zebraRetryMarker\n}\n',
    );
    await vscode.commands.executeCommand('cadenza.index.rebuild', { fromScratch: true });
    const { chip } = await pick('codeb', (candidate) => candidate.kind === 'codebase');
    assert.equal(chip.tokens, 0);
    const sent = await send('@codebase where do we retry failed uploads?', [chip]);
    assert.match(sent, /^Context: codebase: \d+ excerpts\n````\nWorkspace context:[\s\S]*src\/uploadRetry\.ts[\s\S]*zebraRetryMarker/);
    assert.ok(sent.endsWith('@codebase where do we retry failed uploads?'));
    fs.rmSync(path.join(root, 'src', 'uploadRetry.ts'), { force: true });
  });

  test('a mention larger than the budget is cut, with a note on its chip and in the request', async () => {
    // The 8B model has 16,384 tokens and answers in at most 4,096: mentions get half of the rest.
    fs.writeFileSync(path.join(root, 'big.txt'), Array.from({ length: 6_000 }, (_, index) => `line ${index} of a long generated file`).join('\n'));
    api.mentions.catalog.invalidate();
    const { chip } = await pick('big.txt', (candidate) => candidate.kind === 'file' && candidate.label === 'big.txt');
    assert.ok(chip.tokens > 6_144, `tokens ${chip.tokens}`);
    const sent = await send('Summarise', [chip]);
    assert.match(sent, /^Context: big\.txt\n\(Cut to about \d+ of \d+ tokens to fit the context budget\.\)/);
    const stored = (await storedConversation(api, (await panel.conversation()).id))?.messages.filter((message) => message.role === 'user').at(-1)?.context?.[0];
    assert.ok(stored && stored.tokens <= 6_144 && stored.note?.startsWith('Cut to about'), JSON.stringify({ ...stored, text: undefined }));
    const meter = panel.messages.filter((message) => message.type === 'context/meter').at(-1);
    assert.ok(meter?.type === 'context/meter' && meter.usedTokens >= stored.tokens, JSON.stringify(meter));
  });
});
