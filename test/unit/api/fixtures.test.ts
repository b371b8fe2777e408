// The reconstructed service streams (test/support/fixtures/streams, see its README) served byte for byte
// from a loopback server and read through the client's SSE path, as chat and as transcription.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InferenceClient } from '../../../src/core/api/client';
import { CHAT_MODEL, collect, makeWav, sseResponder, startTinyServer, textOf, WHISPER_MODEL } from './helpers';

// Compiled to out/test/unit/api; the fixtures stay in the source tree.
const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'support', 'fixtures', 'streams');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

async function withServer<T>(body: string, run: (client: InferenceClient) => Promise<T>): Promise<T> {
  const server = await startTinyServer(sseResponder(body));
  const client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k-fixture', timeoutMs: 2000 });
  try {
    return await run(client);
  } finally {
    await client.close();
    await server.close();
  }
}

const hello = { model: CHAT_MODEL, messages: [{ role: 'user' as const, content: 'a poem' }] };

describe('api/fixtures: reconstructed service streams', function () {
  this.timeout(10_000);

  it('Meta-Llama-3.3-70B stream: text, finish, and the captured usage block', async () => {
    await withServer(fixture('llama-3.3-70b-stream-usage.sse'), async (client) => {
      const stream = client.streamChat(hello);
      const events = await collect(stream);
      const result = await stream.result;
      assert.equal(textOf(events), "In madam moon's silver glow,");
      assert.equal(result.id, '83a7809d-e18f-44f9-9ab7-2bc494c6c661');
      assert.equal(result.model, 'Meta-Llama-3.3-70B-Instruct');
      assert.equal(result.finishReason, 'stop');
      const { usage } = result;
      assert.deepEqual([usage.promptTokens, usage.completionTokens, usage.totalTokens], [43, 350, 393]);
      assert.equal(usage.timeToFirstTokenMs, 0.06312894821166992 * 1000);
      assert.equal(usage.tokensPerSecond, 248.09314856382406);
      assert.equal(usage.totalTimeMs, 1.4649275719174653 * 1000);
      assert.equal(usage.service?.acceptanceRate, 4.058139324188232);
      assert.equal(usage.service?.completionTokensPerSec, 238.91966176995348);
      assert.equal(usage.service?.startTime, 1737583288.264706);
      assert.deepEqual(usage.source, { timeToFirstToken: 'service', tokensPerSecond: 'service', totalTime: 'service', tokens: 'service' });
    });
  });

  it('gpt-oss-120b usage chunk with choices [] and cached tokens', async () => {
    await withServer(fixture('gpt-oss-120b-usage-chunk.sse'), async (client) => {
      const result = await client.streamChat(hello).result;
      assert.equal(result.text, 'Hello world');
      assert.equal(result.usage.completionTokens, 100);
      assert.equal(result.usage.service?.cachedTokens, 0);
      assert.equal(result.usage.tokensPerSecond, 262.277);
    });
  });

  it('gpt-oss-120b tool call: the whole call in one delta, finish tool_calls', async () => {
    await withServer(fixture('gpt-oss-120b-tool-call.sse'), async (client) => {
      const result = await client.streamChat({ ...hello, tools: [{ name: 'add' }] }).result;
      assert.deepEqual(result.toolCalls, [{ id: 'call_ea56afcd4d334edcbc', name: 'add', arguments: '{"a":15,"b":27}' }]);
      assert.equal(result.finishReason, 'tool_calls');
      // acceptance_rate null is "absent", not zero.
      assert.equal(result.usage.service?.acceptanceRate, undefined);
      // No timing fields in this usage: those figures are the client's own.
      assert.equal(result.usage.source.timeToFirstToken, 'client');
      assert.equal(result.usage.source.tokens, 'service');
    });
  });

  it('Whisper transcription stream (custom_id, no role chunk) through streamTranscription', async () => {
    await withServer(fixture('whisper-transcription-stream.sse'), async (client) => {
      const stream = client.streamTranscription({ model: WHISPER_MODEL, audio: makeWav(1), language: 'es' });
      const events = await collect(stream);
      const result = await stream.result;
      assert.deepEqual(
        events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.text : '')),
        ['es un sonido'],
      );
      assert.equal(result.text, 'es un sonido');
      assert.equal(result.model, 'Whisper-Large-v3');
      assert.equal(result.usage.completionTokens, 100);
      assert.equal(result.usage.promptTokens, 43);
    });
  });
});
