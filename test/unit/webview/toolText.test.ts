import { strict as assert } from 'node:assert';
import type { ToolCallView } from '../../../src/shared/views';
import { panelStrings } from '../../../src/shared/panelStrings';
import { toolFailures, type ToolFailure } from '../../../src/shared/views';
import { useStrings } from '../../../src/webview/l10n';
import { callSummary, changeTitle, diffLineKind, omittedText, prettyArguments, resultTitle, statusText } from '../../../src/webview/toolText';

const call = (args: string): ToolCallView => ({ index: 0, id: 'c', name: 'read_file', arguments: args, status: 'done' });

describe('tool card text', () => {
  it('summarises a call by its path, glob, query or command, and says nothing while the arguments form', () => {
    assert.equal(callSummary(call('{"path":"src/a.ts","start_line":3}')), 'src/a.ts');
    assert.equal(callSummary(call('{"query":"retry upload"}')), 'retry upload');
    assert.equal(callSummary(call(`{"command":"${'x'.repeat(100)}"}`)), `${'x'.repeat(79)}\u2026`);
    assert.equal(callSummary(call('{"path":"src/a')), '');
    assert.equal(callSummary(call('{}')), '');
  });

  it('names each change and each status, and pretty-prints arguments that parse', () => {
    assert.equal(changeTitle({ kind: 'edit', path: 'a.ts', diff: '' }), 'Edit a.ts');
    assert.equal(changeTitle({ kind: 'edit', path: 'a.ts', diff: '', replacements: 3 }), 'Edit a.ts: replace all 3 occurrences');
    assert.equal(changeTitle({ kind: 'create', path: 'b.md', content: '' }), 'Create b.md');
    assert.equal(changeTitle({ kind: 'terminal', command: 'npm test', cwd: 'pkg', timeoutSeconds: 60 }), 'Run a command in pkg (time limit 60 s)');
    assert.equal(changeTitle({ kind: 'external', tool: 'mcp_notes_add_note', origin: 'MCP server notes' }), 'Run mcp_notes_add_note from MCP server notes');
    assert.equal(statusText.awaitingApproval, 'Waiting for your approval');
    assert.equal(prettyArguments('{"a":1}'), '{\n  "a": 1\n}');
    assert.equal(prettyArguments('{"a":'), '{"a":');
  });

  it("opens a failed call's result with why it failed, in the user's language; the model's English stays in the section", () => {
    const failed = (failure: string): ToolCallView => ({
      ...call('{"path":"a.ts"}'),
      status: 'failed',
      result: 'Error: a.ts does not exist.',
      failure: failure as ToolFailure,
    });
    assert.equal(resultTitle(failed('notFound')), 'Not found');
    assert.equal(resultTitle({ ...call('{}'), result: 'export const a = 1;\nmore' }), 'Result: export const a = 1;');
    // Every kind has its own text, and each is the translated one when the page has a translation.
    const marked = Object.fromEntries(Object.entries(panelStrings).map(([id, text]) => [id, `«${text}»`]));
    useStrings(marked);
    try {
      const titles = toolFailures.map((failure) => resultTitle(failed(failure)));
      assert.equal(new Set(titles).size, toolFailures.length, titles.join(' | '));
      for (const title of titles) assert.match(title, /^«[^«»]+»$/);
      assert.equal(resultTitle(failed('changed')), '«The file changed since it was read»');
      // A kind this version does not know (a view restored from another one) reads as a plain result.
      assert.equal(resultTitle(failed('melted')), '«Result: Error: a.ts does not exist.»');
    } finally {
      useStrings(undefined);
    }
  });

  it("opens a denied, invalid, skipped or cancelled call's result with what it is, in the user's language, not the model's English", () => {
    const ended = (status: ToolCallView['status']): ToolCallView => ({ ...call('{"path":".env"}'), status, result: 'The user denied reading .env.' });
    for (const status of ['denied', 'invalid', 'skipped', 'cancelled'] as const) assert.equal(resultTitle(ended(status)), 'What the model was told', status);
    const marked = Object.fromEntries(Object.entries(panelStrings).map(([id, text]) => [id, `«${text}»`]));
    useStrings(marked);
    try {
      assert.equal(resultTitle(ended('denied')), '«What the model was told»');
      // A call that ran keeps its result's first line: that is the tool's output, not a sentence of ours.
      assert.equal(resultTitle({ ...call('{}'), result: 'export const a = 1;' }), '«Result: export const a = 1;»');
    } finally {
      useStrings(undefined);
    }
  });

  it('says what a new file card leaves out', () => {
    assert.equal(omittedText({ lines: 1234, characters: 56789 }), '\u2026 1,234 more lines (56,789 characters) not shown');
    assert.equal(omittedText({ lines: 1, characters: 30 }), '\u2026 1 more line (30 characters) not shown');
  });

  it('colours diff lines by their first character', () => {
    assert.deepEqual(['@@ -1 +1 @@', '+x', '-y', ' z'].map(diffLineKind), ['diff-hunk', 'diff-add', 'diff-del', 'diff-context']);
  });
});
