// Completion usage per day, apart from chat, and how the status bars say it.
import assert from 'node:assert/strict';
import { addUsage, describeUsage, overDailyCap, usageOn } from '../../../src/core/completions/ledger';
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

  it("says the day's requests, tokens with their split, cost and the limit", () => {
    const day = addUsage(addUsage(undefined, 'd', { promptTokens: 12_345, completionTokens: 678, costUsd: 0.0031 }), 'd', {
      promptTokens: 10,
      completionTokens: 2,
      costUsd: 0.00002,
    });
    assert.equal(describeUsage(day, 200_000), '2 requests, 13,035 tokens (12,355 prompt, 680 answer), $0.0031 of a 200,000-token daily limit');
    assert.equal(describeUsage(addUsage(undefined, 'd', { promptTokens: 3, completionTokens: 1 }), 0), '1 request, 4 tokens (3 prompt, 1 answer), $0');
    assert.equal(formatCost(0.00004, 'short'), '<$0.0001');
    assert.equal(formatCost(0.0031, 'short'), '$0.0031');
    assert.equal(formatCost(0.5, 'short'), '$0.50', 'the status bars keep two decimals from a cent up');
    assert.equal(formatCost(1.5, 'short'), '$1.50');
  });
});
