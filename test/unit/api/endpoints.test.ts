// An endpoint per operation (self-hosted stacks run chat, embeddings and speech on different servers):
// the resolver's fall-backs, the merged model list, and the client routing each operation, with its
// own key, to its own server.
import assert from 'node:assert/strict';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { InferenceClient } from '../../../src/core/api/client';
import { listingEndpoints, mergeModelLists, resolveEndpoints } from '../../../src/core/api/endpoints';
import { type ModelInfo } from '../../../src/core/api/types';
import { makeWav, startTinyServer, type TinyServer } from './helpers';

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const model = (id: string, capabilities: ModelInfo['capabilities'] = ['chat']): ModelInfo => ({
  id,
  ownedBy: undefined,
  contextLength: undefined,
  maxCompletionTokens: undefined,
  pricing: undefined,
  capabilities,
  family: undefined,
});

describe('api: an endpoint per operation', () => {
  describe('resolveEndpoints', () => {
    it('falls back to the default address and key for every operation left empty', async () => {
      const endpoints = resolveEndpoints({ baseUrl: 'https://api.example.com/v1/', apiKey: 'main' }, { chat: { baseUrl: ' ' }, audio: {} });
      for (const role of ['default', 'chat', 'embeddings', 'audio'] as const) {
        assert.equal(endpoints[role].baseUrl, 'https://api.example.com', role);
        assert.equal(await endpoints[role].key(), 'main', role);
      }
    });

    it('gives an operation its own address, and its own key when one is stored, else the default key', async () => {
      const endpoints = resolveEndpoints(
        { baseUrl: 'https://api.example.com', apiKey: async () => 'main' },
        {
          embeddings: { baseUrl: 'http://127.0.0.1:9000/', apiKey: async () => 'embed-key' },
          audio: { baseUrl: 'http://127.0.0.1:9001', apiKey: () => undefined },
        },
      );
      assert.equal(endpoints.embeddings.baseUrl, 'http://127.0.0.1:9000');
      assert.equal(await endpoints.embeddings.key(), 'embed-key');
      assert.equal(endpoints.audio.baseUrl, 'http://127.0.0.1:9001');
      assert.equal(await endpoints.audio.key(), 'main', 'no own key stored: the default key');
      assert.equal(endpoints.chat.baseUrl, 'https://api.example.com');
    });

    it('lists each distinct server once, the default first', () => {
      const endpoints = resolveEndpoints(
        { baseUrl: 'http://a', apiKey: 'k' },
        { chat: { baseUrl: 'http://a/' }, embeddings: { baseUrl: 'http://b' }, audio: { baseUrl: 'http://b' } },
      );
      assert.deepEqual(
        listingEndpoints(endpoints).map((endpoint) => endpoint.baseUrl),
        ['http://a', 'http://b'],
      );
    });
  });

  describe('mergeModelLists', () => {
    it('keeps the first listing of an id and adds override-only models nobody listed', () => {
      const merged = mergeModelLists(
        [
          [model('gemma'), model('shared')],
          [model('e5', ['embeddings']), model('shared', ['embeddings'])],
        ],
        [model('whisper', ['transcription']), model('gemma', ['embeddings'])],
      );
      assert.deepEqual(
        merged.map((entry) => entry.id),
        ['gemma', 'shared', 'e5', 'whisper'],
      );
      assert.deepEqual(merged.find((entry) => entry.id === 'shared')?.capabilities, ['chat']);
      assert.deepEqual(merged.find((entry) => entry.id === 'gemma')?.capabilities, ['chat'], 'a listed model is not replaced by its override stub');
    });
  });

  describe('InferenceClient with per-operation endpoints', () => {
    const servers: TinyServer[] = [];
    let client: InferenceClient | undefined;
    afterEach(async () => {
      await client?.close();
      client = undefined;
      await Promise.all(servers.splice(0).map((server) => server.close()));
    });

    it('sends chat, embeddings and audio each to its own server with its own key, and merges the model lists', async () => {
      const main = await startTinyServer((req, res) => {
        if (req.url === '/v1/models') json(res, 200, { object: 'list', data: [{ id: 'gemma-3-270m', object: 'model' }] });
        else
          json(res, 200, {
            id: 'x',
            object: 'chat.completion',
            model: 'gemma-3-270m',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Paris' } }],
          });
      });
      const embed = await startTinyServer((req: IncomingMessage, res) => {
        if (req.url === '/v1/models') json(res, 200, { object: 'list', data: [{ id: 'multilingual-e5-small-q4', object: 'model' }] });
        else
          json(res, 200, {
            object: 'list',
            model: 'multilingual-e5-small-q4',
            data: [{ object: 'embedding', index: 0, embedding: [0.6, 0.8] }],
            usage: { prompt_tokens: 2, total_tokens: 2 },
          });
      });
      // Like faster-whisper-server: no /v1/models at all.
      const audio = await startTinyServer((req, res) => {
        if (req.url === '/v1/models') json(res, 404, { detail: 'Not Found' });
        else json(res, 200, { text: 'ask not what your country can do for you' });
      });
      servers.push(main, embed, audio);
      client = new InferenceClient({
        baseUrl: main.baseUrl,
        apiKey: 'main-key',
        endpoints: { embeddings: { baseUrl: embed.baseUrl, apiKey: async () => 'embed-key' }, audio: { baseUrl: audio.baseUrl } },
        capabilities: {
          'whisper-base': { capabilities: ['transcription'], family: 'speechToText' },
          'multilingual-e5-small-q4': { capabilities: ['embeddings'] },
        },
        timeoutMs: 2000,
        maxRetries: 0,
      });

      const models = await client.listModels();
      assert.deepEqual(
        models.map((entry) => entry.id),
        ['gemma-3-270m', 'multilingual-e5-small-q4', 'whisper-base'],
      );
      assert.deepEqual(models.find((entry) => entry.id === 'whisper-base')?.capabilities, ['transcription']);

      const answer = await client.chat({ model: 'gemma-3-270m', messages: [{ role: 'user', content: 'Capital of France?' }] });
      assert.equal(answer.text, 'Paris');
      const vectors = await client.embed('hello', 'multilingual-e5-small-q4');
      assert.equal(vectors.embeddings.length, 1);
      const transcript = await client.transcribe({ model: 'whisper-base', audio: makeWav(0.5), responseFormat: 'json' });
      assert.match(transcript.text, /ask not/);

      const posts = (server: TinyServer): string[] => server.hits.filter((hit) => hit.method === 'POST').map((hit) => hit.url);
      assert.deepEqual(posts(main), ['/v1/chat/completions']);
      assert.deepEqual(posts(embed), ['/v1/embeddings']);
      assert.deepEqual(posts(audio), ['/v1/audio/transcriptions']);
      assert.equal(embed.hits.find((hit) => hit.method === 'POST')?.headers.authorization, 'Bearer embed-key');
      assert.equal(audio.hits.find((hit) => hit.method === 'POST')?.headers.authorization, 'Bearer main-key');
      assert.equal(main.hits.find((hit) => hit.method === 'POST')?.headers.authorization, 'Bearer main-key');
    });

    it('still fails the listing when the default server cannot list, even if another endpoint can', async () => {
      const main = await startTinyServer((_req, res) => json(res, 401, { error: { message: 'bad key', type: 'invalid_request_error' } }));
      const embed = await startTinyServer((_req, res) => json(res, 200, { object: 'list', data: [{ id: 'e5', object: 'model' }] }));
      servers.push(main, embed);
      client = new InferenceClient({
        baseUrl: main.baseUrl,
        apiKey: 'k',
        endpoints: { embeddings: { baseUrl: embed.baseUrl } },
        timeoutMs: 2000,
        maxRetries: 0,
      });
      await assert.rejects(
        client.listModels(),
        (error: unknown) => error instanceof Error && /key|401|auth/i.test(`${(error as { reason?: string }).reason ?? ''} ${error.message}`),
      );
    });
  });
});
