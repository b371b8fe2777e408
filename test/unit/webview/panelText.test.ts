import { strict as assert } from 'node:assert';
import { contextBlock, insertBlock, insertInline } from '../../../src/webview/contextBlock';
import { formatCost } from '../../../src/shared/cost';
import { formatAge, formatDuration, formatTokensShort, meterText, modelFacts, usageParts } from '../../../src/webview/format';
import { formatBytes, imageProblem, maxImageBytes } from '../../../src/webview/imageRules';
import { useLocale } from '../../../src/webview/l10n';

// Intl puts a no-break space (U+00A0) or a narrow one (U+202F) between a German number and its unit.
const spaces = (text: string): string => text.replace(/[\u00a0\u202f]/g, ' ');

describe('panel text', () => {
  it('writes token counts short', () => {
    assert.equal(formatTokensShort(950), '950');
    assert.equal(formatTokensShort(12_340), '12.3K');
    assert.equal(formatTokensShort(131_072), '131K');
    assert.equal(formatTokensShort(1_048_576), '1.05M');
  });

  it('writes durations and costs', () => {
    assert.equal(formatDuration(850), '850 ms');
    assert.equal(formatDuration(2400), '2.4 s');
    assert.equal(formatDuration(65_000), '1 min 5 s');
    assert.equal(formatCost(0), '$0');
    assert.equal(formatCost(0.00005), '< $0.0001');
    assert.equal(formatCost(0.00112), '$0.0011');
    assert.equal(formatCost(0.5), '$0.500');
    assert.equal(formatCost(12.345), '$12.35');
  });

  it('lists the usage figures it has and says where they came from', () => {
    const parts = usageParts({
      promptTokens: 1240,
      completionTokens: 312,
      timeToFirstTokenMs: 410,
      tokensPerSecond: 268.44,
      totalTimeMs: 1570,
      costUsd: 0.00112,
      source: 'service',
    });
    assert.deepEqual(
      parts.map((part) => part.text),
      ['1,240 in', '312 out', 'first token 410 ms', '268 tok/s', '1.6 s', '$0.0011', 'reported by the service'],
    );
    assert.deepEqual(
      usageParts({ completionTokens: 5, tokensPerSecond: 41.25, source: 'client' }).map((part) => part.text),
      ['5 out', '41.3 tok/s', 'measured by Cadenza'],
    );
    assert.equal(usageParts({ source: 'mixed' })[0]?.text, 'partly measured by Cadenza');
  });

  it('describes how full the context is', () => {
    assert.deepEqual(meterText(18_240, 131_072, 0), { fraction: 18_240 / 131_072, label: 'Context 18.2K / 131K tokens (14%)', level: 'ok' });
    assert.equal(meterText(110_000, 131_072, 0).level, 'warning');
    const full = meterText(140_000, 131_072, 3);
    assert.equal(full.fraction, 1);
    assert.equal(full.level, 'full');
    assert.equal(full.note, '3 older messages were left out to fit the context.');
    assert.equal(meterText(10, 100, 1).note, '1 older message was left out to fit the context.');
    assert.equal(meterText(10, 0, 0).label, 'Context 10 tokens');
  });

  it('sums up a model in one line', () => {
    assert.equal(
      modelFacts({
        id: 'm',
        capabilities: ['chat', 'vision', 'json'],
        contextLength: 131_072,
        maxCompletionTokens: 4096,
        pricePerMillionInput: 0.6,
        pricePerMillionOutput: 1.2,
      }),
      '131K context \u00b7 max 4.1K out \u00b7 $0.6 in / $1.2 out per 1M \u00b7 vision, json',
    );
    assert.equal(modelFacts({ id: 'm', capabilities: ['chat'] }), '');
  });

  it('writes its numbers in the language of the page', () => {
    useLocale('de');
    try {
      assert.deepEqual(
        usageParts({
          promptTokens: 1240,
          completionTokens: 312,
          timeToFirstTokenMs: 410,
          tokensPerSecond: 41.25,
          totalTimeMs: 1570,
          costUsd: 0.00112,
          source: 'service',
        }).map((part) => spaces(part.text)),
        ['1.240 in', '312 out', 'first token 410 ms', '41,3 tok/s', '1,6 s', '0,0011 $', 'reported by the service'],
      );
      assert.equal(meterText(18_240, 1_048_576, 0).label.replace(/\u00a0/g, ' '), 'Context 18.240 / 1,05 Mio. tokens (2%)');
      assert.equal(
        spaces(modelFacts({ id: 'm', capabilities: ['chat'], contextLength: 131_072, pricePerMillionInput: 0.6, pricePerMillionOutput: 1.25 })),
        '131.072 context \u00b7 0,6 $ in / 1,25 $ out per 1M',
      );
      assert.equal(formatBytes(3482), '3,4 KB');
    } finally {
      useLocale('en');
    }
  });

  it('writes how long ago a conversation changed', () => {
    const now = Date.UTC(2025, 0, 31);
    assert.equal(formatAge(now - 5000, now), 'just now');
    assert.equal(formatAge(now - 5 * 60_000, now), '5 min ago');
    assert.equal(formatAge(now - 3 * 3_600_000, now), '3 h ago');
    assert.equal(formatAge(now - 86_400_000, now), '1 day ago');
    assert.equal(formatAge(Date.UTC(2025, 0, 1), now), '2025-01-01');
  });

  it('accepts only JPEG, PNG, WebP and GIF up to 20 MB', () => {
    assert.equal(imageProblem('image/png', 1000), undefined);
    assert.equal(imageProblem('IMAGE/JPEG', maxImageBytes), undefined);
    assert.match(imageProblem('image/svg+xml', 1000) ?? '', /Only JPEG, PNG, WebP and GIF/);
    assert.match(imageProblem('image/webp', maxImageBytes + 1) ?? '', /limit is 20 MB/);
    assert.match(imageProblem('image/gif', 0) ?? '', /empty/);
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(3482), '3.4 KB');
    assert.equal(formatBytes(24.3 * 1024 * 1024), '24.3 MB');
  });

  it('quotes context in a fence the text cannot close', () => {
    assert.equal(contextBlock('src/a.ts:1-2', 'const a = 1;', 'typescript'), 'src/a.ts:1-2:\n```typescript\nconst a = 1;\n```\n');
    assert.equal(contextBlock('README.md', 'Use ```js fences```\n', 'markdown'), 'README.md:\n````markdown\nUse ```js fences```\n````\n');
    assert.equal(contextBlock('x', 'y', 'not a language!'), 'x:\n```\ny\n```\n');
  });

  it('inserts a block at the caret with blank lines around it', () => {
    assert.deepEqual(insertBlock('', 0, 'B\n'), { text: 'B\n\n', caret: 3 });
    assert.deepEqual(insertBlock('Explain this:', 13, 'B\n'), { text: 'Explain this:\n\nB\n\n', caret: 18 });
    assert.deepEqual(insertBlock('before\n\nafter', 8, 'B\n'), { text: 'before\n\nB\n\nafter', caret: 11 });
  });

  it('inserts a transcript at the caret (or over the selection) as running text', () => {
    assert.deepEqual(insertInline('', 0, 0, ' Hello there. '), { text: 'Hello there.', caret: 12 });
    assert.deepEqual(insertInline('Summarise:', 10, 10, 'Hello.'), { text: 'Summarise: Hello.', caret: 17 });
    assert.deepEqual(insertInline('Say  now', 4, 4, 'hi'), { text: 'Say hi now', caret: 6 });
    assert.deepEqual(insertInline('Say X now', 4, 5, 'hi'), { text: 'Say hi now', caret: 6 });
    assert.deepEqual(insertInline('ab', 1, 1, 'X'), { text: 'a X b', caret: 3 });
    assert.deepEqual(insertInline('line\n', 99, 99, 'next'), { text: 'line\nnext', caret: 9 });
  });
});

describe("a conversation's title", () => {
  it("shows the untitled conversation's title in the panel's language, and a title someone gave as it is", async () => {
    const { conversationTitle } = await import('../../../src/webview/format');
    const { useStrings } = await import('../../../src/webview/l10n');
    const { panelStrings } = await import('../../../src/shared/panelStrings');
    const { newConversation, titleFromText } = await import('../../../src/core/chat/conversation');
    useStrings(Object.fromEntries(Object.entries(panelStrings).map(([id, text]) => [id, `«${text}»`])));
    try {
      // What core names a conversation before its first message, and what a blank first line gives.
      assert.equal(conversationTitle(newConversation().title), '«New chat»');
      assert.equal(conversationTitle(titleFromText('  ')), '«New chat»');
      assert.equal(conversationTitle(''), '«New chat»');
      assert.equal(conversationTitle('Friendlier greeting'), 'Friendlier greeting');
    } finally {
      useStrings(undefined);
    }
  });
});
