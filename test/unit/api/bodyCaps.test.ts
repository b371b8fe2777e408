// Response bodies are read with a byte cap: an error body (of which the message keeps a thousand
// characters) and a JSON reply can be huge or endless, and were read whole, once per retry (a 300 MB
// error body cost 1.3 GB of memory). These servers never stop writing; the client must stop reading.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { InferenceClient } from '../../../src/core/api/client';
import { MAX_ERROR_BODY_BYTES, MAX_REPLY_BYTES } from '../../../src/core/api/http';
import { maxStreamChars } from '../../../src/core/api/stream';
import { expectApiError, startTinyServer, type TinyServer } from './helpers';

/** Writes `head`, then `filler` for ever (as fast as the client reads), until the connection closes. */
function endless(res: ServerResponse, head: string, filler: string, counter: { bytes: number; ended: number }): void {
  const chunk = Buffer.from(filler.repeat(Math.ceil(65536 / filler.length)));
  res.write(head);
  counter.bytes += Buffer.byteLength(head);
  const pump = (): void => {
    while (!res.destroyed && !res.writableEnded) {
      counter.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  res.on('close', () => {
    counter.ended += 1;
  });
  pump();
}

describe('api/body caps', () => {
  let server: TinyServer | undefined;
  let client: InferenceClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  it('reads only the head of an endless error body, keeps its message, and closes the connection (each retry too)', async () => {
    const counter = { bytes: 0, ended: 0 };
    server = await startTinyServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      endless(res, 'upstream overloaded: ', 'overloaded ', counter);
    });
    client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 60_000, maxRetries: 2, transport: { useEnvironment: false } });
    const error = await expectApiError(client.listModels(), 'server');
    assert.equal(error.status, 503);
    assert.match(error.serverMessage ?? error.message, /upstream overloaded/);
    assert.equal(server.hits.length, 3, 'three attempts');
    // The servers see their connections closed; what they managed to write is the cap plus socket buffers.
    const deadline = Date.now() + 10_000;
    while (counter.ended < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(counter.ended, 3, 'every connection was closed by the client');
    assert.ok(counter.bytes < 3 * (MAX_ERROR_BODY_BYTES + 16 * 1048576), `${counter.bytes} bytes were written`);
  });

  it('refuses a JSON reply larger than any reply of the API, without reading it whole', async () => {
    const counter = { bytes: 0, ended: 0 };
    server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, '{"object":"list","data":[', '{"id":"m","object":"model"},', counter);
    });
    client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 60_000, maxRetries: 0, transport: { useEnvironment: false } });
    const error = await expectApiError(client.listModels(), 'malformedResponse');
    assert.match(error.message, /larger than 64 MB/);
    assert.ok(counter.bytes < MAX_REPLY_BYTES + 16 * 1048576, `${counter.bytes} bytes were written`);
  });

  it('stops a streamed answer that goes on far past max_tokens, keeping what the caller already has', async () => {
    const counter = { bytes: 0, ended: 0 };
    server = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      endless(
        res,
        '',
        'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"la "},"finish_reason":null}]}\n\n',
        counter,
      );
    });
    client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 60_000, maxRetries: 0, transport: { useEnvironment: false } });
    const stream = client.streamChat({ model: 'm', messages: [{ role: 'user', content: 'Sing.' }], maxTokens: 16 });
    let text = 0;
    const error = await expectApiError(async () => {
      for await (const event of stream) if (event.type === 'text') text += event.text.length;
    }, 'malformedResponse');
    assert.match(error.message, /far more than max_tokens/);
    assert.ok(text > 0, 'the text before the cut reached the caller');
    assert.ok(counter.bytes < maxStreamChars(16) + 16 * 1048576, `${counter.bytes} bytes were written`);
  });
});
