import { strict as assert } from 'node:assert';
import { planSection } from '../../../src/webview/planText';

describe('the plan of a Plan answer', () => {
  it('takes what follows the last heading that names a plan', () => {
    const answer = 'I read src/a.ts.\n\n## Findings\nIt exports a.\n\n## Plan\n1. Change a to 2 in src/a.ts.\n2. Update the test.\n';
    assert.equal(planSection(answer), '1. Change a to 2 in src/a.ts.\n2. Update the test.');
    assert.equal(planSection('Looked.\n\n**Plan:**\n1. Do it.'), '1. Do it.');
  });

  it('takes the numbered list the answer ends with when there is no heading, with its indented lines', () => {
    const answer = 'Here is what I would do:\n\n1. Rename x.\n   Keep the old name as an alias.\n2. Fix the callers.\n';
    assert.equal(planSection(answer), '1. Rename x.\n   Keep the old name as an alias.\n2. Fix the callers.');
  });

  it('falls back to the whole answer', () => {
    assert.equal(planSection('  Nothing to change.  '), 'Nothing to change.');
    assert.equal(planSection('## Plan\n'), '## Plan');
  });
});
