import { strict as assert } from 'node:assert';
import { isRecord, parseJsonObject } from '../../../src/shared/jsonObject';

describe('shared/jsonObject (the one test for a JSON object)', () => {
  it('isRecord takes a plain object, never null, an array or a scalar', () => {
    assert.equal(isRecord({ content: 'x' }), true);
    assert.equal(isRecord({}), true);
    for (const other of [null, undefined, [], ['a'], 'text', 3, true]) assert.equal(isRecord(other), false, JSON.stringify(other));
  });

  it('parseJsonObject reads an object, and nothing else', () => {
    assert.deepEqual(parseJsonObject('{"type":"object"}'), { type: 'object' });
    for (const text of [undefined, '', 'not json', '[1]', 'null', '"text"']) assert.equal(parseJsonObject(text), undefined, String(text));
  });
});
