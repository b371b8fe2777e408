// The tool shapes and errors a small model can act on (issue #35): edit_file's replace_all, the count of
// occurrences when old_text is not unique, the closest lines when it is missing, create_file of a folder, and
// a path that does not exist. Each error ends with what to do next.
import { strict as assert } from 'node:assert';
import { changeTools } from '../../../src/core/tools/changeTools';
import { changeToolDefinitions } from '../../../src/core/tools/definitions';
import { readTools } from '../../../src/core/tools/readTools';
import { ToolError, ToolSession, type ChangeTool, type ReadTool, type ToolContext } from '../../../src/core/tools/toolTypes';
import { checkArguments } from '../../../src/core/tools/validateArgs';
import { MemoryPort } from './memoryPort';

function context(): ToolContext {
  return { signal: new AbortController().signal, session: new ToolSession() };
}

function changeTool(port: MemoryPort, name: string): ChangeTool {
  const found = changeTools(port, { terminalTimeoutSeconds: 30 }).find((tool) => tool.definition.name === name);
  assert.ok(found, name);
  return found;
}

function readTool(port: MemoryPort, name: string): ReadTool {
  const found = readTools(port).find((tool) => tool.definition.name === name);
  assert.ok(found, name);
  return found;
}

/** The message of the ToolError `work` rejects with (fails when it resolves or throws something else). */
async function errorOf(work: Promise<unknown>): Promise<{ reason: string; message: string }> {
  try {
    await work;
  } catch (error) {
    assert.ok(ToolError.is(error), `not a ToolError: ${String(error)}`);
    return { reason: error.reason, message: error.message };
  }
  assert.fail('resolved instead of failing');
}

const greeting =
  'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n\nexport const defaultName = "world";\nconsole.log(greet(defaultName));\n';

describe('agent tools: shapes and errors a small model can act on', () => {
  it('edit_file offers replace_all, a boolean the schema check accepts', () => {
    const edit = changeToolDefinitions.find((definition) => definition.name === 'edit_file');
    assert.ok(edit);
    const properties = (edit.parameters as { properties: Record<string, { type: string }> }).properties;
    assert.equal(properties['replace_all']?.type, 'boolean');
    assert.equal(checkArguments(edit, '{"path":"a.ts","old_text":"a","new_text":"b","replace_all":true}').ok, true);
  });

  it('edit_file with replace_all replaces every occurrence, and the preview says how many', async () => {
    const port = new MemoryPort({ 'src/greet.ts': greeting });
    const prepared = await changeTool(port, 'edit_file').prepare(
      { path: 'src/greet.ts', old_text: 'greet', new_text: 'welcome', replace_all: true },
      context(),
    );
    assert.equal(prepared.preview.kind, 'edit');
    if (prepared.preview.kind !== 'edit') return;
    assert.equal(prepared.preview.replacements, 2);
    assert.equal(prepared.preview.after, greeting.replaceAll('greet', 'welcome'));
    assert.equal(port.files.get('src/greet.ts'), greeting, 'nothing changes before apply');
    assert.equal(await prepared.apply(new AbortController().signal), 'Edited src/greet.ts: replaced all 2 occurrences (lines 1, 6).');
    assert.equal(port.files.get('src/greet.ts'), greeting.replaceAll('greet', 'welcome'));
  });

  it('edit_file with replace_all and a single occurrence is an ordinary edit; false keeps the unique rule', async () => {
    const port = new MemoryPort({ 'a.ts': 'x\ny\nx\n' });
    const single = await changeTool(port, 'edit_file').prepare({ path: 'a.ts', old_text: 'y', new_text: 'z', replace_all: true }, context());
    assert.equal(single.preview.kind === 'edit' ? single.preview.replacements : 'not an edit', undefined);
    assert.equal(await single.apply(new AbortController().signal), 'Edited a.ts at line 2: replaced 1 line(s) with 1 line(s).');
    const refused = await errorOf(changeTool(port, 'edit_file').prepare({ path: 'a.ts', old_text: 'x', new_text: 'w', replace_all: false }, context()));
    assert.equal(refused.reason, 'invalid');
  });

  it('edit_file says how many times old_text occurs and suggests replace_all or more context', async () => {
    const port = new MemoryPort({ 'src/greet.ts': greeting });
    const { reason, message } = await errorOf(
      changeTool(port, 'edit_file').prepare({ path: 'src/greet.ts', old_text: 'greet', new_text: 'welcome' }, context()),
    );
    assert.equal(reason, 'invalid');
    assert.equal(
      message,
      'old_text occurs 2 times in src/greet.ts (lines 1, 6). Set replace_all to true to replace every one, or include more surrounding lines so that it occurs once.',
    );
  });

  it('edit_file shows the closest lines of the file when old_text is not in it', async () => {
    const port = new MemoryPort({ 'src/greet.ts': greeting });
    const { reason, message } = await errorOf(
      changeTool(port, 'edit_file').prepare({ path: 'src/greet.ts', old_text: 'return `Hi, ${name}!`;', new_text: 'return `Hey`;' }, context()),
    );
    assert.equal(reason, 'notFound');
    assert.equal(
      message,
      'old_text was not found in src/greet.ts. The closest line is:\n2:   return `Hello, ${name}!`;\nCopy old_text exactly from the file, whitespace included (without the line numbers).',
    );
  });

  it('edit_file shows a few lines at most, and says when nothing in the file resembles old_text', async () => {
    const long = Array.from({ length: 40 }, (_, index) => `const value${index} = ${index};`).join('\n');
    const port = new MemoryPort({ 'long.ts': long });
    const close = await errorOf(
      changeTool(port, 'edit_file').prepare(
        { path: 'long.ts', old_text: 'const value7 = 70;\nconst value8 = 80;\nconst value9 = 90;\nconst value10 = 100;\nconst value11 = 110;', new_text: '' },
        context(),
      ),
    );
    const shown = close.message.split('\n').filter((line) => /^\d+: /.test(line));
    assert.deepEqual(shown, ['8: const value7 = 7;', '9: const value8 = 8;', '10: const value9 = 9;']);
    const none = await errorOf(changeTool(port, 'edit_file').prepare({ path: 'long.ts', old_text: 'zzzz qqqq', new_text: '' }, context()));
    assert.equal(
      none.message,
      'old_text was not found in long.ts, and no line of it looks like old_text. Read the file with read_file, then copy the text to replace exactly.',
    );
  });

  it('create_file refuses a path that names a folder, and says to name a file', async () => {
    const port = new MemoryPort({ 'src/a.ts': 'x' });
    const create = changeTool(port, 'create_file');
    for (const path of ['.', '', './', 'src/']) {
      const { reason, message } = await errorOf(create.prepare({ path, content: 'y' }, context()));
      assert.equal(reason, 'invalid', path);
      assert.equal(message, 'path must name a file, e.g. src/new.ts.', JSON.stringify(path));
    }
    const folder = await errorOf(create.prepare({ path: 'src', content: 'y' }, context()));
    assert.equal(folder.message, 'src is a folder; path must name a file, e.g. src/new.ts.');
    assert.equal(port.calls.includes('createFile'), false);
  });

  it('a path that does not exist says how to find the right one', async () => {
    const port = new MemoryPort({ 'src/a.ts': 'x' });
    const read = await errorOf(readTool(port, 'read_file').run({ path: 'src/b.ts' }, context()));
    assert.equal(read.message, 'src/b.ts does not exist. Find the right path with find_files or list_directory.');
    const list = await errorOf(readTool(port, 'list_directory').run({ path: 'lib' }, context()));
    assert.equal(list.message, 'lib is not a directory that exists. Find the right path with find_files or list_directory.');
    const edit = await errorOf(changeTool(port, 'edit_file').prepare({ path: 'src/b.ts', old_text: 'x', new_text: 'y' }, context()));
    assert.equal(edit.message, 'src/b.ts does not exist. Find the right path with find_files or list_directory; to make a new file use create_file.');
  });
});
