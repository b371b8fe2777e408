import { strict as assert } from 'node:assert';
import { estimateTokens, fitToContext, imageTokenEstimate, type BudgetMessage } from '../../../src/core/chat/contextBudget';

function message(role: BudgetMessage['role'], words: number, hasImage = false): BudgetMessage {
  return { role, text: 'word '.repeat(words).trim(), hasImage };
}

describe('context budget', () => {
  it('estimates about four characters a token, and more for images', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.ok(imageTokenEstimate > 500);
  });

  it('keeps everything when it fits', () => {
    const messages = [message('system', 10), message('user', 10), message('assistant', 10), message('user', 10)];
    const result = fitToContext(messages, 1000, 100);
    assert.equal(result.kept.length, 4);
    assert.equal(result.droppedCount, 0);
    assert.ok(result.fits);
    assert.equal(result.limitTokens, 900);
    assert.ok(result.usedTokens > 0 && result.usedTokens < 900);
  });

  it('drops the oldest whole turns first, keeping the system prompt and the newest turn', () => {
    const messages = [
      message('system', 20),
      message('user', 200),
      message('assistant', 200),
      message('user', 200),
      message('assistant', 200),
      message('user', 50),
    ];
    // Each 200-word message is ~250 tokens; limit leaves room for system + one old turn + the newest.
    const result = fitToContext(messages, 1000, 300);
    assert.ok(result.fits);
    assert.equal(result.kept[0], messages[0]);
    assert.equal(result.kept.at(-1), messages[5]);
    assert.deepEqual(result.kept, [messages[0], messages[3], messages[4], messages[5]]);
    assert.equal(result.droppedCount, 2);
    assert.ok(result.usedTokens <= result.limitTokens);
  });

  it('drops a user message together with the answers and tool results that follow it', () => {
    const messages = [message('user', 400), message('assistant', 10), message('tool', 400), message('assistant', 10), message('user', 10)];
    const result = fitToContext(messages, 600, 100);
    assert.deepEqual(result.kept, [messages[4]]);
    assert.equal(result.droppedCount, 4);
  });

  it('says when even the system prompt and the newest turn do not fit', () => {
    const messages = [message('system', 10), message('user', 5000)];
    const result = fitToContext(messages, 1000, 100);
    assert.equal(result.fits, false);
    assert.deepEqual(result.kept, messages);
    assert.ok(result.usedTokens > result.limitTokens);
  });

  it('counts an image in the budget', () => {
    const withImage = fitToContext([message('user', 10, true)], 100_000, 100);
    const without = fitToContext([message('user', 10)], 100_000, 100);
    assert.equal(withImage.usedTokens - without.usedTokens, imageTokenEstimate);
  });
});
