import { strict as assert } from 'node:assert';
import type { ToolCallView } from '../../../src/shared/views';
import { callSummary, changeTitle, diffLineKind, omittedText, prettyArguments, statusText } from '../../../src/webview/toolText';

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

  it('says what a new file card leaves out', () => {
    assert.equal(omittedText({ lines: 1234, characters: 56789 }), '\u2026 1,234 more lines (56,789 characters) not shown');
    assert.equal(omittedText({ lines: 1, characters: 30 }), '\u2026 1 more line (30 characters) not shown');
  });

  it('colours diff lines by their first character', () => {
    assert.deepEqual(['@@ -1 +1 @@', '+x', '-y', ' z'].map(diffLineKind), ['diff-hunk', 'diff-add', 'diff-del', 'diff-context']);
  });
});
