// How the client copes with a self-hosted server that differs from the service: llama.cpp's
// llama-server (docs/testing.md#self-hosted-servers-llama-server-differences). The replies below
// are byte-for-byte what llama-server (llama.cpp de3ff81) sent; the llama tier (test/llama) checks the
// same against the real server.
import assert from 'node:assert/strict';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { InferenceClient } from '../../../src/core/api/client';
import { errorFromResponse, reasonFor, readErrorBody } from '../../../src/core/api/errors';
import { isRetryable } from '../../../src/core/api/retry';
import { collect, expectApiError, makeWav, PNG_DATA_URL, startTinyServer, textOf, type TinyServer } from './helpers';

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
const notFound = { error: { message: 'File Not Found', type: 'not_found_error', code: 404 } };
const noProjector = {
  error: { code: 500, message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj', type: 'server_error' },
};
const transcriptDone = {
  type: 'transcript.text.done',
  text: 'Hello!',
  usage: { type: 'tokens', input_tokens: 798, output_tokens: 3, total_tokens: 801, input_tokens_details: { cached_tokens: 0 } },
};
const model = 'cadenza-scripted-qwen2';

describe('api: self-hosted servers (llama-server differences)', () => {
  let server: TinyServer | undefined;
  let client: InferenceClient | undefined;
  const serve = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: TinyServer; client: InferenceClient }> => {
    server = await startTinyServer(handler);
    // Real back-off would make a wrongly retried 500 slow; keep retries on so a retry would show in `hits`.
    client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'any-key', timeoutMs: 2000, maxRetries: 2 });
    return { server, client };
  };
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  it("reads the context length from llama-server's model listing (meta.n_ctx), with no price", async () => {
    const listing = {
      object: 'list',
      data: [
        {
          id: model,
          aliases: [model],
          tags: [],
          object: 'model',
          created: 1795257144,
          owned_by: 'llamacpp',
          meta: { vocab_type: 2, n_vocab: 151936, n_ctx: 4096, n_ctx_train: 4096, n_embd: 64 },
        },
      ],
    };
    const { client } = await serve((_req, res) => json(res, 200, listing));
    const [info] = await client.listModels();
    assert.equal(info?.id, model);
    assert.equal(info?.ownedBy, 'llamacpp');
    assert.equal(info?.contextLength, 4096);
    assert.equal(info?.pricing, undefined);
  });

  it('reads a 500 "image input is not supported" as unsupported, names image input, and does not retry it', async () => {
    const { server, client } = await serve((_req, res) => json(res, 500, noProjector));
    const error = await expectApiError(
      client.chat({
        model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is it?' },
              { type: 'image', dataUrl: PNG_DATA_URL },
            ],
          },
        ],
      }),
      'unsupported',
    );
    assert.equal(error.status, 500);
    assert.match(error.message, /^This server does not offer image input \(HTTP 500 from \/v1\/chat\/completions\): image input is not supported/);
    assert.equal(error.missing, 'imageInput', "the missing feature, for the host to word in the user's language");
    assert.equal(server.hits.length, 1, 'no retry');
  });

  it('reads a plain {"text"} body sent back for a streamed transcription (a server that does not stream)', async () => {
    const { client } = await serve((_req, res) => json(res, 200, { text: ' And so my fellow Americans' }));
    const stream = client.streamTranscription({ model: 'whisper-base', audio: makeWav(0.5), responseFormat: 'json' });
    const events = await collect(stream);
    assert.equal(textOf(events), ' And so my fellow Americans');
    assert.equal((await stream.result).text, ' And so my fellow Americans');
  });

  it('still treats any other 500 as a retryable server failure', () => {
    const fields = readErrorBody(JSON.stringify({ error: { code: 500, message: 'failed to process mtmd chunk', type: 'server_error' } }), 'application/json');
    assert.equal(reasonFor(500, fields, 'operation'), 'server');
    const error = errorFromResponse(500, JSON.stringify(noProjector), 'application/json', undefined, 'operation', undefined, undefined, '/v1/chat/completions');
    assert.equal(error.reason, 'unsupported');
    assert.equal(isRetryable(error), false);
  });

  it('names the missing route of a 404: audio translation, audio reasoning', async () => {
    const { client } = await serve((_req, res) => json(res, 404, notFound));
    const translation = await expectApiError(client.translate({ model, audio: makeWav(1) }), 'unsupported');
    assert.match(translation.message, /^This server does not offer audio translation \(HTTP 404 from \/v1\/audio\/translations\): File Not Found$/);
    const reasoning = await expectApiError(client.audioReasoning({ model, audio: makeWav(1), instruction: 'What is it?' }), 'unsupported');
    assert.match(reasoning.message, /^This server does not offer audio reasoning /);
    assert.deepEqual([translation.missing, reasoning.missing], ['audioTranslation', 'audioReasoning']);
  });

  it('names embeddings for a 501 from a server started without --embeddings', async () => {
    const { client } = await serve((_req, res) =>
      json(res, 501, { error: { code: 501, message: 'This server does not support embeddings. Start it with `--embeddings`', type: 'not_supported_error' } }),
    );
    const error = await expectApiError(client.embed('hello', 'any'), 'unsupported');
    assert.match(error.message, /^This server does not offer embeddings \(HTTP 501 from \/v1\/embeddings\): This server does not support embeddings/);
    assert.equal(error.missing, 'embeddings');
  });

  it('reads the {"type":"transcript.text.done","text":...} transcription reply, with its token usage', async () => {
    const { client } = await serve((_req, res) => json(res, 200, transcriptDone));
    const result = await client.transcribe({ model, audio: makeWav(1) });
    assert.equal(result.text, 'Hello!');
    assert.equal(result.usage.promptTokens, 798);
    assert.equal(result.usage.completionTokens, 3);
    assert.equal(result.usage.source.tokens, 'service');
  });

  it('asks again in json when the text transcription format is refused, and asks in json from then on', async () => {
    let calls = 0;
    const { server, client } = await serve((_req, res) => {
      calls += 1;
      // llama-server refuses response_format=text; only the first request asks for it.
      if (calls === 1)
        json(res, 400, { error: { code: 400, message: "Only 'json' response_format is supported for transcription", type: 'invalid_request_error' } });
      else json(res, 200, transcriptDone);
    });
    const first = await client.transcribe({ model, audio: makeWav(1), responseFormat: 'text' });
    assert.equal(first.text, 'Hello!');
    assert.equal(server.hits.length, 2);
    const second = await client.transcribe({ model, audio: makeWav(1), responseFormat: 'text' });
    assert.equal(second.text, 'Hello!');
    assert.equal(server.hits.length, 3, 'the refused format is not asked for again');
  });

  it('reports the first refusal when the json retry of a text transcription fails too', async () => {
    const { server, client } = await serve((_req, res) => json(res, 400, { error: { code: 400, message: 'bad audio', type: 'invalid_request_error' } }));
    const error = await expectApiError(client.transcribe({ model, audio: makeWav(1), responseFormat: 'text' }), 'badRequest');
    assert.match(error.message, /bad audio/);
    assert.equal(server.hits.length, 2);
  });

  it("streams a transcription from transcript.text.delta events (llama-server's stream shape)", async () => {
    const events = [{ type: 'transcript.text.delta', delta: 'Hello' }, { type: 'transcript.text.delta', delta: '!' }, transcriptDone];
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`);
    });
    const stream = client.streamTranscription({ model, audio: makeWav(1) });
    const seen = await collect(stream);
    assert.equal(textOf(seen.flatMap((e) => (e.type === 'text' ? [e] : []))), 'Hello!');
    const result = await stream.result;
    assert.equal(result.text, 'Hello!');
    assert.equal(result.usage.completionTokens, 3);
  });

  it('hands out no event after a cancel, even from chunks that arrived in the same network read', async () => {
    const chunk = (text: string): string =>
      `data: ${JSON.stringify({ id: 'c1', model, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Four tokens in one write (llama-server often has two in one read), then the stream stays open.
      res.write(chunk('one ') + chunk('two ') + chunk('three ') + chunk('four '));
    });
    const controller = new AbortController();
    const stream = client.streamChat({ model, messages: [{ role: 'user', content: 'Count' }] }, { signal: controller.signal });
    const texts: string[] = [];
    await expectApiError(async () => {
      for await (const event of stream) {
        if (event.type !== 'text') continue;
        texts.push(event.text);
        controller.abort();
      }
    }, 'canceled');
    assert.deepEqual(texts, ['one ']);
    await expectApiError(stream.result, 'canceled');
  });

  it('streams a transcription that arrives only as one transcript.text.done event', async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(transcriptDone)}\n\ndata: [DONE]\n\n`);
    });
    const result = await client.streamTranscription({ model, audio: makeWav(1) }).result;
    assert.equal(result.text, 'Hello!');
  });
});
