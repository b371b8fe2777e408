import assert from 'node:assert/strict';
import { audioDurationSeconds, sniffAudioFormat } from '../../support/emulator/audioFormat';
import { parseDurationMs } from '../../support/emulator/faults';
import { applyStop, splitPieces, valueForSchema } from '../../support/emulator/replies';
import { countTokens, tokenPieces, truncateTokens } from '../../support/emulator/tokens';
import { startEmulator } from '../../support/emulator/emulator';
import { chatBody, parseSse, postJson, makeWav } from './helpers';

describe('emulator: building blocks', () => {
  it('tokenizes words and punctuation, and the pieces rebuild the text', () => {
    const text = '  Hello, world! Ça va? 42 times\n';
    assert.equal(countTokens(text), 9);
    assert.equal(tokenPieces(text).join(''), text);
    assert.deepEqual(truncateTokens('one two, three', 2), { text: 'one two', truncated: true });
    assert.deepEqual(truncateTokens('one two', 2), { text: 'one two', truncated: false });
  });

  it('splits into exactly N pieces that rebuild the text', () => {
    const text = 'a b c d e f g h i j';
    for (const n of [1, 3, 10, 25]) {
      const pieces = splitPieces(text, n);
      assert.equal(pieces.length, n);
      assert.equal(pieces.join(''), text);
    }
    assert.deepEqual(applyStop('abc STOP def END', ['END', 'STOP']), { text: 'abc ', stopped: true });
  });

  it('fills a schema with const, anyOf and bounds', () => {
    assert.deepEqual(
      valueForSchema({
        type: 'object',
        properties: { k: { const: 'x' }, n: { anyOf: [{ type: 'integer', minimum: 3 }] }, s: { type: 'string', maxLength: 3 } },
      }),
      { k: 'x', n: 3, s: 'exa' },
    );
  });

  it('parses the duration forms of rate-limit headers', () => {
    assert.equal(parseDurationMs('2'), 2000);
    assert.equal(parseDurationMs('1.5s'), 1500);
    assert.equal(parseDurationMs('250ms'), 250);
    assert.equal(parseDurationMs('4h17m'), (4 * 3600 + 17 * 60) * 1000);
    assert.equal(parseDurationMs('soon'), undefined);
  });

  it('reads WAV duration exactly and estimates constant-bitrate MP3', () => {
    assert.equal(audioDurationSeconds(makeWav(2.5), 'wav'), 2.5);
    // MPEG-1 Layer III, 128 kbit/s: 16,000 bytes per second.
    const mp3 = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(32_000 - 4)]);
    assert.equal(sniffAudioFormat(mp3), 'mp3');
    assert.equal(audioDurationSeconds(mp3, 'mp3'), 2);
    assert.equal(sniffAudioFormat(Buffer.from('hello world')), undefined);
  });

  it('refuses a malformed run fault at start', async () => {
    await assert.rejects(startEmulator({ runFaults: [JSON.parse('{"kind":"latency"}') as never] }), /needs a numeric ms/);
  });

  it('acts on a stream fault placed beyond the end just before [DONE]', async () => {
    const emu = await startEmulator();
    try {
      emu.injectFault({ kind: 'streamError', afterChunks: 10_000 });
      const events = parseSse(await (await postJson(emu, '/v1/chat/completions', chatBody({ stream: true }))).text());
      assert.equal(events[events.length - 1]?.event, 'error');
      assert.ok(!events.some((e) => e.data === '[DONE]'));
    } finally {
      await emu.close();
    }
  });
});
