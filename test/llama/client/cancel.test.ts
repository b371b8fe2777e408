// llama-server compatibility: cancelling mid-stream. The scripted model ends its plain answers after
// two tokens, so a long stream is forced with a JSON schema whose string must be at least 1000
// characters (grammar-constrained sampling). Aborting must end the iteration with reason `canceled`,
// close the connection, and make llama-server stop generating: its /slots endpoint shows the slot idle.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import { llamaServers, useClient } from './llamaEnv';

interface Slot {
  id: number;
  is_processing: boolean;
}

async function slots(baseUrl: string): Promise<Slot[]> {
  const response = await fetch(`${baseUrl}/slots`);
  const value: unknown = await response.json();
  assert.ok(Array.isArray(value), `/slots: ${JSON.stringify(value)}`);
  return value as Slot[];
}

describe('llama-server compatibility: cancel mid-stream', function () {
  this.timeout(120_000);
  const servers = llamaServers();
  const client = useClient(() => servers.chat);

  it('aborting after a few text events ends the stream as canceled and frees the server slot', async () => {
    const controller = new AbortController();
    const stream = client().streamChat(
      {
        model: servers.chatModel,
        messages: [{ role: 'user', content: 'Write a very long note.' }],
        responseFormat: {
          type: 'json_schema',
          jsonSchema: { name: 'note', schema: { type: 'object', properties: { note: { type: 'string', minLength: 1000 } }, required: ['note'] } },
        },
        maxTokens: 1000,
        temperature: 0.8,
      },
      { signal: controller.signal },
    );
    let texts = 0;
    let busyWhileStreaming = false;
    let caught: unknown;
    try {
      for await (const event of stream) {
        if (event.type !== 'text') continue;
        texts += 1;
        if (texts === 3) busyWhileStreaming = (await slots(servers.chat)).some((slot) => slot.is_processing);
        if (texts === 4) controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    assert.ok(ApiError.is(caught, 'canceled'), `the iteration ended with ${String(caught)}`);
    assert.equal(texts, 4, 'no text after the abort');
    assert.ok(busyWhileStreaming, 'the server was generating before the cancel');
    // `result` settles as the iteration did (a stream is iterated once; result follows that iteration).
    const settled = await stream.result.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    assert.ok(ApiError.is(settled, 'canceled'), `result settled with ${String(settled)}`);

    // llama-server notices the closed connection at its next token and releases the slot.
    const deadline = Date.now() + 10_000;
    let busy = true;
    while (busy && Date.now() < deadline) {
      busy = (await slots(servers.chat)).some((slot) => slot.is_processing);
      if (busy) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(busy, false, 'llama-server was still generating 10 s after the cancel');

    // And the client (and server) carry on normally.
    const after = await client().chat({ model: servers.chatModel, messages: [{ role: 'user', content: 'Still there?' }], maxTokens: 8, temperature: 0 });
    assert.equal(after.text, 'Hello!');
  });
});
