import { strict as assert } from 'node:assert';
import { ToolCallAssembler } from '../../../src/core/chat/lmToolCalls';

describe('tool-call fragments assembled for VS Code', () => {
  it('hands over a call once a later call starts, and the last one at the end', () => {
    const assembler = new ToolCallAssembler();
    assert.deepEqual(assembler.push({ index: 0, id: 'a', name: 'search', argumentsDelta: '' }), []);
    assert.deepEqual(assembler.push({ index: 0, argumentsDelta: '{"query":' }), []);
    assert.deepEqual(assembler.push({ index: 0, argumentsDelta: '"greeting"}' }), []);
    const first = assembler.push({ index: 1, id: 'b', name: 'read', argumentsDelta: '{"path":"a.ts"}' });
    assert.deepEqual(first, [{ index: 0, id: 'a', name: 'search', input: { query: 'greeting' } }]);
    assert.deepEqual(assembler.flush(), [{ index: 1, id: 'b', name: 'read', input: { path: 'a.ts' } }]);
    assert.deepEqual(assembler.flush(), [], 'each call exactly once');
  });

  it('keeps the first id and name when fragments repeat them, and names a call without an id', () => {
    const assembler = new ToolCallAssembler();
    assembler.push({ index: 0, name: 'search', argumentsDelta: '{}' });
    assembler.push({ index: 0, name: 'search', argumentsDelta: '' });
    assert.deepEqual(assembler.flush(), [{ index: 0, id: 'call_0', name: 'search', input: {} }]);
  });

  it('passes malformed or non-object arguments on as {} and reports them', () => {
    const assembler = new ToolCallAssembler();
    assembler.push({ index: 0, id: 'a', name: 'x', argumentsDelta: '{"query": ' });
    const calls = [...assembler.push({ index: 1, id: 'b', name: 'y', argumentsDelta: '[1,2]' }), ...assembler.flush()];
    assert.deepEqual(calls, [
      { index: 0, id: 'a', name: 'x', input: {}, malformed: '{"query": ' },
      { index: 1, id: 'b', name: 'y', input: {}, malformed: '[1,2]' },
    ]);
  });

  it('ignores late fragments of a call already handed over', () => {
    const assembler = new ToolCallAssembler();
    assembler.push({ index: 0, id: 'a', name: 'x', argumentsDelta: '{}' });
    assembler.push({ index: 1, id: 'b', name: 'y', argumentsDelta: '{}' });
    assert.deepEqual(assembler.push({ index: 0, argumentsDelta: 'late' }), []);
    assert.deepEqual(
      assembler.flush().map((call) => call.id),
      ['b'],
    );
  });
});
