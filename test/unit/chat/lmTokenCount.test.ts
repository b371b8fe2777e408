import { strict as assert } from 'node:assert';
import { ApiError } from '../../../src/core/api/errors';
import {
  chatMessageText,
  estimateTokensPerChar,
  lmMessageText,
  LmTokenCounter,
  messageOverheadTokens,
  TokenCalibration,
  toolsText,
} from '../../../src/core/chat/lmTokenCount';

/** A tokenizer that counts one token per two characters and records what it was asked. */
function fakeTokenizer(): { calls: string[]; tokenize: (text: string) => Promise<number> } {
  const calls: string[] = [];
  return {
    calls,
    tokenize: (text) => {
      calls.push(text);
      return Promise.resolve(Math.ceil(text.length / 2));
    },
  };
}

const noTokenizer =
  (calls: string[]) =>
  (text: string): Promise<number> => {
    calls.push(text);
    return Promise.reject(new ApiError('unsupported', 'The server does not offer this operation (HTTP 404)', { status: 404 }));
  };

describe('VS Code chat token counts: calibration', () => {
  it('starts at the plain estimate (four characters a token) and learns the ratio the service reports', () => {
    const calibration = new TokenCalibration();
    const json = '{"type":"object","properties":{"path":{"type":"string"}}}'.repeat(40);
    assert.equal(calibration.estimate('m', json), Math.ceil(json.length / 4), 'the first request counts by the plain estimate');
    // The service counted 9,558 tokens for 26,000 characters: denser than four a token.
    calibration.record('m', { chars: 26_000, images: 0 }, 9_558);
    assert.equal(calibration.ratio('m'), 9_558 / 26_000);
    assert.equal(calibration.estimate('m', json), Math.ceil(json.length * (9_558 / 26_000)), 'the second counts by what the first reported');
    assert.ok(calibration.estimate('m', json) > Math.ceil(json.length / 4));
    assert.equal(calibration.ratio('other'), estimateTokensPerChar, 'per model');
  });

  it('errs high: keeps the highest recent ratio, never goes below the plain estimate, forgets old ones', () => {
    const calibration = new TokenCalibration(3);
    calibration.record('m', { chars: 1000, images: 0 }, 400);
    calibration.record('m', { chars: 1000, images: 0 }, 300);
    assert.equal(calibration.ratio('m'), 0.4, 'a lighter request after a dense one does not lower the count');
    calibration.record('m', { chars: 1000, images: 0 }, 100);
    assert.equal(calibration.ratio('m'), 0.4);
    calibration.record('m', { chars: 1000, images: 0 }, 300);
    assert.equal(calibration.ratio('m'), 0.3, 'only the last three are kept');
    const prose = new TokenCalibration();
    prose.record('m', { chars: 1000, images: 0 }, 180);
    assert.equal(prose.ratio('m'), estimateTokensPerChar, "never below today's estimate");
  });

  it('ignores tiny requests and takes images out of the reported count', () => {
    const calibration = new TokenCalibration();
    calibration.record('m', { chars: 20, images: 0 }, 200);
    assert.equal(calibration.ratio('m'), estimateTokensPerChar, "twenty characters say nothing of the model's tokenizer");
    calibration.record('m', { chars: 1000, images: 1 }, 1_600 + 500);
    assert.equal(calibration.ratio('m'), 0.5);
  });
});

describe("VS Code chat token counts: the server's tokenizer", () => {
  it('counts with the tokenizer where the server has one, each text once (cached)', async () => {
    const fake = fakeTokenizer();
    const counter = new LmTokenCounter({ tokenize: fake.tokenize, calibration: new TokenCalibration() });
    assert.equal(counter.hasTokenizer, undefined, 'not known before the first count');
    assert.equal(await counter.countText('m', 'abcdefghij'), 5);
    assert.equal(counter.hasTokenizer, true);
    assert.equal(await counter.countText('m', 'abcdefghij'), 5);
    assert.equal(await counter.countText('m', 'abcd'), 2);
    assert.deepEqual(fake.calls, ['abcdefghij', 'abcd'], 'the same text is not tokenised twice');
    assert.equal(await counter.countText('m', ''), 0);
    assert.equal(fake.calls.length, 2, 'an empty text needs no tokenizer');
  });

  it('keeps the cache bounded: the least recently used text is forgotten', async () => {
    const fake = fakeTokenizer();
    const counter = new LmTokenCounter({ tokenize: fake.tokenize, calibration: new TokenCalibration(), cacheEntries: 2 });
    await counter.countText('m', 'one');
    await counter.countText('m', 'two');
    await counter.countText('m', 'one');
    await counter.countText('m', 'three');
    await counter.countText('m', 'one');
    assert.deepEqual(fake.calls, ['one', 'two', 'three'], '"one" was used recently, so it stayed');
    await counter.countText('m', 'two');
    assert.deepEqual(fake.calls, ['one', 'two', 'three', 'two'], '"two" had been forgotten');
  });

  it('a server without one (404) is asked once; counts are then the calibrated estimate', async () => {
    const calls: string[] = [];
    const calibration = new TokenCalibration();
    const counter = new LmTokenCounter({ tokenize: noTokenizer(calls), calibration });
    const text = 'x'.repeat(400);
    assert.equal(await counter.countText('m', text), 100);
    assert.equal(counter.hasTokenizer, false);
    calibration.record('m', { chars: 1000, images: 0 }, 500);
    assert.equal(await counter.countText('m', text), 200, 'the estimate follows the calibration');
    assert.equal(await counter.countText('m', 'another text'), 6);
    assert.deepEqual(calls, [text], 'never asked again');
  });

  it('counts asked while the first is out wait for it: one probe, not one per count', async () => {
    const calls: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const counter = new LmTokenCounter({
      tokenize: async (text) => {
        calls.push(text);
        await gate;
        throw new ApiError('unsupported', 'no tokenizer', { status: 404 });
      },
      calibration: new TokenCalibration(),
    });
    const counts = Promise.all(['aaaa', 'bbbbbbbb', 'cccccccccccc'].map((text) => counter.countText('m', text)));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    assert.deepEqual(await counts, [1, 2, 3]);
    assert.deepEqual(calls, ['aaaa'], 'one request found out the server has no tokenizer');
  });

  it('a passing fault (network, 5xx) falls back to the estimate for that count and asks again next time', async () => {
    const calls: string[] = [];
    let fail = true;
    const counter = new LmTokenCounter({
      tokenize: (text) => {
        calls.push(text);
        return fail ? Promise.reject(new ApiError('network', 'connection refused')) : Promise.resolve(1);
      },
      calibration: new TokenCalibration(),
    });
    assert.equal(await counter.countText('m', 'abcdefgh'), 2, 'the estimate');
    assert.equal(counter.hasTokenizer, undefined);
    fail = false;
    assert.equal(await counter.countText('m', 'abcdefgh'), 1, 'the tokenizer, once the server answers');
    assert.equal(calls.length, 2);
  });

  it('a cancel is not swallowed', async () => {
    const controller = new AbortController();
    controller.abort();
    const counter = new LmTokenCounter({
      tokenize: () => Promise.reject(new ApiError('canceled', 'The request was canceled')),
      calibration: new TokenCalibration(),
    });
    await assert.rejects(counter.countText('m', 'abc', controller.signal), (error: unknown) => ApiError.is(error, 'canceled'));
  });

  it('counts a message as its text, images and a fixed overhead; tool calls as name and arguments', async () => {
    const counter = new LmTokenCounter({ calibration: new TokenCalibration() });
    const message = lmMessageText({
      role: 'assistant',
      parts: [
        { kind: 'text', text: 'Looking.' },
        { kind: 'toolCall', callId: 'c1', name: 'read_file', input: { path: 'a.ts' } },
      ],
    });
    assert.equal(message.text, 'Looking.\nread_file{"path":"a.ts"}');
    assert.equal(await counter.countMessage('m', message), messageOverheadTokens + Math.ceil(message.text.length / 4));
    const image = lmMessageText({ role: 'user', parts: [{ kind: 'data', mimeType: 'image/png', data: new Uint8Array([1]) }] });
    assert.equal(await counter.countMessage('m', image), messageOverheadTokens + 1600);
    assert.deepEqual(chatMessageText({ role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' }] }), {
      text: 'read_file{"path":"a.ts"}',
      images: 0,
    });
    assert.deepEqual(
      chatMessageText({
        role: 'user',
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', dataUrl: 'data:image/png;base64,AA==' },
        ],
      }),
      { text: 'see', images: 1 },
    );
    assert.equal(toolsText([]), '');
    assert.equal(toolsText([{ name: 't', parameters: { type: 'object' } }]), '[{"name":"t","parameters":{"type":"object"}}]');
  });
});
