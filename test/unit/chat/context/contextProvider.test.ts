// Context parts: fitting a message's mentions into the budget (cut with a note, never silently), the
// preamble that puts them in front of the message, and that a stored message resends the same context.
import assert from 'node:assert/strict';
import { contextPart, contextPreamble, cutToTokens, fitParts, shareOf } from '../../../../src/core/chat/context/contextProvider';
import { estimateTokens } from '../../../../src/core/chat/contextBudget';
import { newConversation } from '../../../../src/core/chat/conversation';
import { buildChatRequest } from '../../../../src/core/chat/requestBuilder';

const lines = (count: number, prefix: string): string => Array.from({ length: count }, (_, index) => `${prefix} line ${index} with some words`).join('\n');

describe('chat/context/contextProvider', () => {
  it('keeps parts that fit whole, and measures each', () => {
    const parts = [contextPart('file', 'a.ts', lines(10, 'a')), contextPart('selection', 'selection', 'x = 1')];
    const fitted = fitParts(parts, 10_000);
    assert.deepEqual(fitted, parts);
    assert.equal(fitted[0]?.tokens, estimateTokens(lines(10, 'a')));
  });

  it('cuts the part that crosses the budget at a line end with a note, and leaves later parts out with a note', () => {
    const first = contextPart('file', 'small.ts', lines(20, 's'));
    const big = contextPart('file', 'big.ts', lines(2_000, 'b'));
    const after = contextPart('git', 'git diff', lines(50, 'd'));
    const budget = first.tokens + 300;
    const [keptFirst, cut, left] = fitParts([first, big, after], budget);
    assert.deepEqual(keptFirst, first);
    assert.ok(cut && cut.tokens <= 300 && cut.tokens > 200, `cut to ${cut?.tokens}`);
    assert.ok(cut.text.endsWith('words'), 'cut at a line end');
    assert.match(cut.note ?? '', new RegExp(`Cut to about ${cut.tokens} of ${big.tokens} tokens`));
    assert.equal(left?.text, '');
    assert.equal(left?.tokens, 0);
    assert.match(left?.note ?? '', /Left out: it needs about \d+ tokens/);
    const total = [keptFirst, cut, left].reduce((sum, part) => sum + (part?.tokens ?? 0), 0);
    assert.ok(total <= budget);
  });

  it('cuts text to a token count', () => {
    const text = lines(500, 'c');
    const cut = cutToTokens(text, 100);
    assert.ok(estimateTokens(cut) <= 100 && estimateTokens(cut) > 70, `${estimateTokens(cut)}`);
    assert.equal(cutToTokens('short', 100), 'short');
  });

  it('labels each part in the preamble, with its note, and fences text that holds a fence', () => {
    const text = contextPreamble([contextPart('file', 'doc.md', 'See:\n```ts\nx\n```'), { ...contextPart('git', 'git diff', ''), note: 'No changes.' }]);
    assert.match(text, /^Context: doc\.md\n````\nSee:/);
    assert.match(text, /Context: git diff\n\(No changes\.\)/);
    assert.equal(contextPreamble([]), '');
  });

  it('gives each provider its share of the room, never less than 256 tokens', () => {
    assert.equal(shareOf(8_000, 1 / 2), 4_000);
    assert.equal(shareOf(100, 1 / 3), 256);
  });

  it('sends a stored message with its context in front of it, every time the request is built (regenerate resends it)', () => {
    const conversation = newConversation('m');
    conversation.messages.push({
      id: '1',
      role: 'user',
      text: 'What does this do?',
      createdAt: 0,
      context: [contextPart('file', 'src/a.ts', 'export const a = 1;')],
    });
    const model = { id: 'm', contextLength: 8_192 } as Parameters<typeof buildChatRequest>[1];
    const first = buildChatRequest(conversation, model, {});
    const again = buildChatRequest(conversation, model, {});
    const content = first.request.messages.at(-1)?.content;
    assert.equal(typeof content, 'string');
    assert.match(String(content), /^Context: src\/a\.ts\n```\nexport const a = 1;\n```\n\nWhat does this do\?$/);
    assert.deepEqual(again.request.messages, first.request.messages);
    assert.ok(first.budget.usedTokens >= estimateTokens('export const a = 1;'));
  });
});
