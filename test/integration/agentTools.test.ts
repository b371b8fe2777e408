// Every workspace function of the agent, run in the real extension host on the fixture workspace through
// the extension's own port (`CadenzaApi.agent.port`), with core's tools on top to check what the model
// would be sent. Errors are checked by name and reason: the extension's bundle and this suite load
// separate copies of core, so `instanceof` does not hold across them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readTools } from '../../src/core/tools/readTools';
import { ToolSession, type ReadTool } from '../../src/core/tools/toolTypes';
import type { WorkspacePort } from '../../src/core/tools/workspacePort';
import { cadenzaApi, useEmulator, waitFor } from './helpers';

function reasonOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'reason' in error ? String(error.reason) : String(error);
}

async function rejectsWithReason(work: Promise<unknown>, reason: string, pattern?: RegExp): Promise<void> {
  await assert.rejects(work, (error: unknown) => {
    assert.equal(reasonOf(error), reason, String(error));
    if (pattern) assert.match(error instanceof Error ? error.message : '', pattern);
    return true;
  });
}

suite('Agent: workspace functions in the real extension host', () => {
  const emulator = useEmulator();
  let port: WorkspacePort;
  let root: string;
  let tools: ReadTool[];
  const signal = new AbortController().signal;
  const context = { signal, session: new ToolSession() };
  const tool = (name: string): ReadTool => {
    const found = tools.find((entry) => entry.definition.name === name);
    assert.ok(found, name);
    return found;
  };
  const created: string[] = [];

  suiteSetup(async () => {
    const api = await cadenzaApi();
    port = api.agent.port;
    tools = readTools(port);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    root = folder.uri.fsPath;
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const file of created) fs.rmSync(path.join(root, file), { force: true, recursive: true });
  });

  test('read_file reads a file whole or by lines, unsaved editor text included', async () => {
    assert.equal(
      await tool('read_file').run({ path: 'src/greeting.ts' }, context),
      `src/greeting.ts (4 lines)\n${fs.readFileSync(path.join(root, 'src/greeting.ts'), 'utf8').trimEnd()}`,
    );
    assert.equal(
      await tool('read_file').run({ path: 'src/greeting.ts', start_line: 2, end_line: 2 }, context),
      'src/greeting.ts (lines 2-2 of 4)\nexport function greeting(name: string): string {',
    );
    // The web workbench saves edits after a second by default (files.autoSave afterDelay); under load the
    // unsaved text would reach the disk before the revert, and the later tests would read it.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const document = await vscode.workspace.openTextDocument(path.join(root, 'docs', 'notes.md'));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'UNSAVED\n'));
    try {
      assert.match((await port.readFile('docs/notes.md', signal)).text, /^UNSAVED\n# Notes/);
    } finally {
      // The notes editor must be the one reverted: another editor may have taken the focus meanwhile.
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      assert.ok(!document.isDirty || document.isClosed, 'docs/notes.md was left with unsaved text');
    }
  });

  test('paths outside the workspace folders are refused, by .., by absolute path and through a link', async () => {
    await rejectsWithReason(port.readFile('../outside.txt', signal), 'outsideWorkspace', /outside the workspace folders/);
    await rejectsWithReason(port.readFile('/etc/hostname', signal), 'outsideWorkspace');
    await rejectsWithReason(port.listDirectory('src/../..', signal), 'outsideWorkspace');
    const link = path.join(root, 'escape');
    fs.symlinkSync(path.dirname(root), link);
    try {
      await rejectsWithReason(port.readFile('escape/not-there-yet.txt', signal), 'outsideWorkspace', /leads outside the workspace folders/);
    } finally {
      fs.unlinkSync(link);
    }
    await rejectsWithReason(port.readFile('missing.txt', signal), 'notFound');
  });

  test('list_directory and find_files list the workspace, honouring files.exclude', async () => {
    const listing = await tool('list_directory').run({ path: '.' }, context);
    assert.match(listing, /^\.\/ \(\d+ entries\)\n/);
    for (const name of ['docs/', 'src/', 'README.md', 'data.json']) assert.ok(listing.split('\n').includes(name), `${name} in ${listing}`);
    assert.equal(await tool('list_directory').run({ path: 'src' }, context), 'src/ (2 entries)\ngreeting.ts\nmath.py');
    assert.equal(await tool('find_files').run({ glob: '**/*.ts' }, context), 'src/greeting.ts');
    await vscode.workspace.getConfiguration('files').update('exclude', { '**/*.py': true }, vscode.ConfigurationTarget.Workspace);
    try {
      assert.equal(await tool('find_files').run({ glob: 'src/*' }, context), 'src/greeting.ts');
    } finally {
      await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('search_text finds lines by text, by regex and within a glob', async () => {
    assert.equal(await tool('search_text').run({ query: 'function greeting' }, context), 'src/greeting.ts:2: export function greeting(name: string): string {');
    assert.match(await tool('search_text').run({ query: 'def \\w+\\(', regex: true }, context), /^src\/math\.py:1: def mean\(values\):$/);
    assert.equal(
      await tool('search_text').run({ query: 'secret storage', glob: 'docs/**' }, context),
      "docs/notes.md:4: - The API key is kept in VS Code's secret storage only.",
    );
    assert.match(await tool('search_text').run({ query: 'no such text anywhere' }, context), /^No matches in \d+ files\.$/);
  });

  test('search_text never reads through links out of the workspace (file and folder, relative and absolute) and respects ignore files', async () => {
    const outside = path.join(path.dirname(root), 'search-outside');
    fs.mkdirSync(path.join(outside, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'credentials'), 'aws_secret_access_key = okapiSecretValue\n');
    fs.writeFileSync(path.join(outside, '.ssh', 'config'), 'Host okapiSecretHost\n');
    const links: [string, string, 'file' | 'dir'][] = [
      ['notes.txt', '../search-outside/credentials', 'file'],
      ['docs/ssh', '../../search-outside/.ssh', 'dir'],
      ['keys.txt', path.join(outside, '.ssh', 'config'), 'file'],
      ['home', outside, 'dir'],
    ];
    for (const [link, target, kind] of links) fs.symlinkSync(target, path.join(root, link), kind);
    fs.writeFileSync(path.join(root, '.gitignore'), 'local/\n');
    fs.mkdirSync(path.join(root, 'local'), { recursive: true });
    fs.writeFileSync(path.join(root, 'local', 'todo.txt'), 'okapiIgnoredLocal\n');
    fs.writeFileSync(path.join(root, 'src', 'okapi.ts'), 'export const okapiInside = 1;\n');
    try {
      assert.equal(await tool('search_text').run({ query: 'okapi' }, context), 'src/okapi.ts:1: export const okapiInside = 1;');
      assert.equal(await tool('search_text').run({ query: 'okapi\\w+', regex: true }, context), 'src/okapi.ts:1: export const okapiInside = 1;');
    } finally {
      for (const [link] of links) fs.rmSync(path.join(root, link), { force: true });
      for (const file of ['.gitignore', 'local', 'src/okapi.ts']) fs.rmSync(path.join(root, file), { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  test('semantic_search asks the workspace index', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    try {
      const result = await vscode.commands.executeCommand<{ status: string }>('cadenza.index.rebuild', { fromScratch: true });
      assert.equal(result.status, 'complete');
      const answer = await tool('semantic_search').run({ query: 'greeting for a name' }, context);
      assert.match(answer, /^\[1\] [^\n]+:\d+-\d+\n/);
      assert.match(answer, /src\/greeting\.ts:\d+-\d+\n/);
    } finally {
      await vscode.commands.executeCommand('cadenza.clearApiKey');
    }
  });

  test("get_diagnostics reports a file's problems and the workspace's", async () => {
    const collection = vscode.languages.createDiagnosticCollection('cadenza-agent-test');
    try {
      const uri = vscode.Uri.file(path.join(root, 'src', 'math.py'));
      collection.set(uri, [
        new vscode.Diagnostic(new vscode.Range(2, 11, 2, 14), 'mean() of an empty list divides by zero', vscode.DiagnosticSeverity.Warning),
      ]);
      assert.equal(await tool('get_diagnostics').run({ path: 'src/math.py' }, context), 'src/math.py:3:12 warning: mean() of an empty list divides by zero');
      assert.match(await tool('get_diagnostics').run({}, context), /src\/math\.py:3:12 warning: mean\(\) of an empty list divides by zero/);
      assert.equal(await tool('get_diagnostics').run({ path: 'data.json' }, context), 'No problems reported in data.json.');
    } finally {
      collection.dispose();
    }
  });

  test("get_symbols gives a file's outline from the language providers", async function () {
    this.timeout(60_000);
    let outline = '';
    // The TypeScript server starts on first use; poll until it answers.
    await waitFor(
      async () => {
        outline = await tool('get_symbols').run({ path: 'src/greeting.ts' }, context);
        return outline.includes('greeting');
      },
      () => `an outline of src/greeting.ts (last: ${outline})`,
      50_000,
    );
    assert.equal(outline, 'src/greeting.ts:\n  function greeting (lines 2-4)');
    assert.match(
      await tool('get_symbols').run({ path: 'docs/notes.md' }, context),
      /^docs\/notes\.md:\n {2}\w+ # Notes \(lines 1-\d+\)|^docs\/notes\.md:\n {2}\w+ Notes/,
    );
  });

  test('get_selection reports the active editor, its selection and the open editors', async () => {
    const document = await vscode.workspace.openTextDocument(path.join(root, 'src', 'greeting.ts'));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 16, 1, 24);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(root, 'data.json')), {
      preview: false,
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
    });
    const answer = await tool('get_selection').run({}, context);
    assert.match(answer, /^Active editor: src\/greeting\.ts \(typescript\)\nSelection 2:17-2:25:\ngreeting\nOpen editors: /);
    assert.match(answer, /Open editors: .*src\/greeting\.ts/);
    assert.match(answer, /Open editors: .*data\.json/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('edit_file applies one undoable edit, saved, and refuses text that changed', async () => {
    const file = 'src/agentEdit.ts';
    created.push(file);
    fs.writeFileSync(path.join(root, file), 'export const value = 1;\nexport const other = 2;\n');
    const before = (await port.readFile(file, signal)).text;
    await port.editFile({ path: file, expectedText: before, offset: before.indexOf('1;'), length: 1, newText: '42' }, signal);
    assert.equal(fs.readFileSync(path.join(root, file), 'utf8'), 'export const value = 42;\nexport const other = 2;\n', 'saved to disk');
    const document = await vscode.workspace.openTextDocument(path.join(root, file));
    await vscode.window.showTextDocument(document);
    // `undo` acts on the focused editor, and its change reaches this host after the command returns (under
    // load, later): one undo, once the editor has focus, then wait for its change.
    await waitFor(() => vscode.window.activeTextEditor?.document === document, 'the edited file to be the active editor');
    await vscode.commands.executeCommand('undo');
    await waitFor(
      () => document.getText() === before,
      () => `one undo to take the whole edit back (the text is ${JSON.stringify(document.getText())})`,
      10_000,
    );
    await document.save();
    await rejectsWithReason(
      port.editFile({ path: file, expectedText: 'something else', offset: 0, length: 1, newText: 'x' }, signal),
      'changed',
      /changed after the edit was proposed/,
    );
    assert.equal(fs.readFileSync(path.join(root, file), 'utf8'), before);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('create_file creates a file and never overwrites one', async () => {
    created.push('generated');
    await port.createFile('generated/new.md', '# New\n', signal);
    assert.equal(fs.readFileSync(path.join(root, 'generated', 'new.md'), 'utf8'), '# New\n');
    await rejectsWithReason(port.createFile('src/greeting.ts', 'overwritten', signal), 'exists');
    assert.match(fs.readFileSync(path.join(root, 'src', 'greeting.ts'), 'utf8'), /export function greeting/);
    await rejectsWithReason(port.createFile('../escaped.md', 'x', signal), 'outsideWorkspace');
  });

  test('run_in_terminal captures the output and the exit code, in a workspace folder, within the time limit', async () => {
    const done = await port.runInTerminal('echo "out $PWD" && echo err 1>&2 && exit 3', { cwd: 'src', timeoutMs: 10_000, signal });
    assert.equal(done.exitCode, 3);
    assert.equal(done.timedOut, false);
    assert.match(done.output, new RegExp(`out ${path.join(root, 'src').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
    assert.match(done.output, /err\n/);
    const started = Date.now();
    const slow = await port.runInTerminal('echo begun; sleep 20; echo never', { timeoutMs: 500, signal });
    assert.ok(Date.now() - started < 5000, 'killed at the time limit');
    assert.equal(slow.timedOut, true);
    assert.equal(slow.exitCode, null);
    assert.match(slow.output, /begun/);
    assert.doesNotMatch(slow.output, /never/);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const aborted = await port.runInTerminal('sleep 20', { timeoutMs: 30_000, signal: controller.signal });
    assert.equal(aborted.exitCode, null);
    await rejectsWithReason(port.runInTerminal('pwd', { cwd: '..', timeoutMs: 1000, signal }), 'outsideWorkspace');
  });
});
