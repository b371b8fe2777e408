// Completion usage per day, apart from chat, and how the status bars write its cost (the words are the
// host's, in the user's language: test/integration/completions.test.ts reads them).
import assert from 'node:assert/strict';
import { addUsage, overDailyCap, usageOn } from '../../../src/core/completions/ledger';
import { formatCost } from '../../../src/shared/cost';

describe('completions/ledger', () => {
  it('adds requests to today and starts a new day from zero', () => {
    let day = addUsage(undefined, '2026-11-24', { promptTokens: 1_200, completionTokens: 30, costUsd: 0.0004 });
    day = addUsage(day, '2026-11-24', { promptTokens: 800, completionTokens: 12 });
    assert.deepEqual(day, { day: '2026-11-24', requests: 2, promptTokens: 2_000, completionTokens: 42, costUsd: 0.0004 });
    assert.equal(usageOn(day, '2026-11-25').requests, 0);
    assert.equal(addUsage(day, '2026-11-25', { promptTokens: 5, completionTokens: 1 }).requests, 1);
    assert.ok(overDailyCap(day, '2026-11-24', 2_000) && !overDailyCap(day, '2026-11-24', 0) && !overDailyCap(day, '2026-11-25', 2_000));
  });

  it("sums the day's requests, tokens with their split and cost; the status bars' short cost", () => {
    const day = addUsage(addUsage(undefined, 'd', { promptTokens: 12_345, completionTokens: 678, costUsd: 0.0031 }), 'd', {
      promptTokens: 10,
      completionTokens: 2,
      costUsd: 0.00002,
    });
    assert.deepEqual(
      { ...day, costUsd: Number(day.costUsd.toFixed(5)) },
      { day: 'd', requests: 2, promptTokens: 12_355, completionTokens: 680, costUsd: 0.00312 },
    );
    assert.equal(formatCost(day.costUsd, 'short'), '$0.0031');
    assert.equal(formatCost(0.00004, 'short'), '<$0.0001');
    assert.equal(formatCost(0.0031, 'short'), '$0.0031');
    assert.equal(formatCost(0.5, 'short'), '$0.50', 'the status bars keep two decimals from a cent up');
    assert.equal(formatCost(1.5, 'short'), '$1.50');
  });
});
