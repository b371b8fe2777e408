// Every streamed answer is bounded by what the request asked for: its max_tokens (about a kilobyte of
// event data per token) and time (an hour by default). A runaway server that never ends its stream
// (the emulator's `endless` fault) is cut there, for chat and for audio reasoning alike; the text that
// arrived before the cut has reached the caller.
import assert from 'node:assert/strict';
import type { ChatStream } from '../../../src/core/api/types';
import { maxStreamChars } from '../../../src/core/api/stream';
import { AUDIO_MODEL, CHAT_MODEL, clientFor, expectApiError, makeWav, useEmulator } from './helpers';

const CHAT = '/v1/chat/completions';
const AUDIO = '/v1/audio/reasoning';

/** Reads a stream to its end (or error), counting the text characters that reached the caller. */
async function drain(stream: ChatStream, seen: { chars: number }): Promise<void> {
  for await (const event of stream) if (event.type === 'text') seen.chars += event.text.length;
}

describe('api/stream bounds (endless streams)', () => {
  const ctx = useEmulator();

  it('stops a streamed audio answer that goes on far past its max_tokens', async () => {
    const client = clientFor(ctx.emu, { maxRetries: 0 });
    ctx.emu.injectFault({ kind: 'endless', afterChunks: 2 }, { path: AUDIO });
    const seen = { chars: 0 };
    const error = await expectApiError(
      drain(client.streamAudioReasoning({ model: AUDIO_MODEL, audio: makeWav(1), instruction: 'Describe.', maxTokens: 16 }), seen),
      'malformedResponse',
    );
    assert.match(error.message, /far more than max_tokens/);
    assert.ok(seen.chars > 0, 'the text before the cut reached the caller');
    // What the caller saw is bounded by the cap on event data (each "la " chunk is ~150 bytes of JSON).
    assert.ok(seen.chars < maxStreamChars(16), `${seen.chars} characters of text were delivered`);
    await client.close();
  });

  it('stops a streamed chat answer that goes on far past its max_tokens (the same bound)', async () => {
    const client = clientFor(ctx.emu, { maxRetries: 0 });
    ctx.emu.injectFault({ kind: 'endless', afterChunks: 2 }, { path: CHAT });
    const seen = { chars: 0 };
    const error = await expectApiError(
      drain(client.streamChat({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'Sing.' }], maxTokens: 16 }), seen),
      'malformedResponse',
    );
    assert.match(error.message, /far more than max_tokens/);
    assert.ok(seen.chars > 0);
    await client.close();
  });

  it('stops a streamed audio answer that trickles on for longer than the stream may take', async () => {
    // A token every 50 ms: never idle long enough for the idle watchdog, and far below the max_tokens cap.
    const client = clientFor(ctx.emu, { maxRetries: 0, streamTotalMs: 1500 });
    ctx.emu.injectFault({ kind: 'endless', afterChunks: 2, intervalMs: 50 }, { path: AUDIO });
    const seen = { chars: 0 };
    const started = Date.now();
    const error = await expectApiError(
      drain(client.streamAudioReasoning({ model: AUDIO_MODEL, audio: makeWav(1), instruction: 'Describe.' }), seen),
      'timeout',
    );
    assert.match(error.message, /still streaming after 2 s/);
    assert.ok(seen.chars > 0, 'the text before the cut reached the caller');
    // A generous hang-vs-progress bound: the cut came, not a test time-out.
    assert.ok(Date.now() - started < 15_000);
    await client.close();
  });
});
