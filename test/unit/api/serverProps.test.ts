// What a self-hosted llama.cpp server says about its model (GET /props), read so a user's own server
// works without `cadenza.models.overrides`. The bodies are what llama-server (b1-7e4c0a9, the local stack's
// prebuilt server) sent for Qwen2.5-Coder-1.5B-Instruct, trimmed to the fields Cadenza reads.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { InferenceClient } from '../../../src/core/api/client';
import { readServerProps } from '../../../src/core/api/serverProps';
import { startTinyServer, type TinyServer } from './helpers';

const model = 'qwen2.5-coder-1.5b';
const listing = {
  object: 'list',
  data: [
    {
      id: model,
      aliases: [model],
      tags: [],
      object: 'model',
      created: 1795804943,
      owned_by: 'llamacpp',
      meta: { vocab_type: 2, n_vocab: 151936, n_ctx: 16384, n_ctx_train: 32768, n_embd: 1536 },
    },
  ],
};
const caps = {
  supports_object_arguments: true,
  supports_parallel_tool_calls: true,
  supports_preserve_reasoning: false,
  supports_reasoning_effort: false,
  supports_string_content: true,
  supports_system_role: true,
  supports_tool_calls: true,
  supports_tools: true,
  supports_typed_content: false,
};
const props = {
  total_slots: 1,
  model_alias: model,
  modalities: { vision: false, video: false, audio: false },
  chat_template_caps: caps,
  build_info: 'b1-7e4c0a9',
};

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

describe('api: what a llama.cpp server says about its model (/props)', () => {
  let server: TinyServer | undefined;
  let client: InferenceClient | undefined;
  const serve = async (
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    overrides?: ConstructorParameters<typeof InferenceClient>[0]['capabilities'],
  ): Promise<{ server: TinyServer; client: InferenceClient }> => {
    server = await startTinyServer(handler);
    client = new InferenceClient({
      baseUrl: server.baseUrl,
      apiKey: 'any-key',
      timeoutMs: 2000,
      maxRetries: 0,
      ...(overrides ? { capabilities: overrides } : {}),
    });
    return { server, client };
  };
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  it('offers tools for a model whose chat template renders tools and tool calls, with no override', async () => {
    const { client, server } = await serve((req, res) => json(res, 200, req.url === '/props' ? props : listing));
    const [info] = await client.listModels();
    assert.deepEqual([...(info?.capabilities ?? [])].sort(), ['chat', 'json', 'tools']);
    assert.equal(info?.contextLength, 16384);
    assert.deepEqual(
      server.hits.map((hit) => hit.url),
      ['/v1/models', '/props'],
    );
  });

  it('adds vision and audio from the modalities a projector gives, and the reasoning-effort control', async () => {
    const withMedia = { ...props, modalities: { vision: true, audio: true }, chat_template_caps: { ...caps, supports_reasoning_effort: true } };
    const { client } = await serve((req, res) => json(res, 200, req.url === '/props' ? withMedia : listing));
    const [info] = await client.listModels();
    assert.deepEqual([...(info?.capabilities ?? [])].sort(), ['audioReasoning', 'chat', 'json', 'tools', 'vision']);
    assert.deepEqual(info?.reasoning, { controls: ['effort'] });
  });

  it('lets cadenza.models.overrides win over what the server says', async () => {
    const { client } = await serve((req, res) => json(res, 200, req.url === '/props' ? props : listing), { [model]: { capabilities: ['chat'] } });
    const [info] = await client.listModels();
    assert.deepEqual(info?.capabilities, ['chat']);
  });

  it('takes tools away when the template cannot render them, even from a name the table knows for tools', async () => {
    const known = 'Meta-Llama-3.1-8B-Instruct';
    const list = { object: 'list', data: [{ ...listing.data[0], id: known, aliases: [known] }] };
    const noTools = { ...props, chat_template_caps: { ...caps, supports_tools: false, supports_tool_calls: false } };
    const { client } = await serve((req, res) => json(res, 200, req.url === '/props' ? noTools : list));
    const [info] = await client.listModels();
    assert.deepEqual([...(info?.capabilities ?? [])].sort(), ['chat', 'json']);
  });

  it('asks each model of a server that serves several (?model=), and lists them all when /props is missing', async () => {
    const two = { object: 'list', data: [listing.data[0], { ...listing.data[0], id: 'other', aliases: ['other'] }] };
    const { client, server } = await serve((req, res) => {
      if (req.url === '/v1/models') json(res, 200, two);
      else json(res, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
    });
    const models = await client.listModels();
    assert.deepEqual(
      models.map((m) => m.id),
      [model, 'other'],
    );
    assert.deepEqual(
      models.map((m) => [...m.capabilities].sort()),
      [
        ['chat', 'json'],
        ['chat', 'json'],
      ],
    );
    assert.deepEqual(server.hits.map((hit) => hit.url).sort(), ['/props?model=other', `/props?model=${model}`, '/v1/models'].sort());
  });

  it("never asks a server whose listing is not llama.cpp's (the hosted service has no /props)", async () => {
    const service = { object: 'list', data: [{ id: 'Meta-Llama-3.1-8B-Instruct', object: 'model', owned_by: 'system', context_length: 131072 }] };
    const { client, server } = await serve((_req, res) => json(res, 200, service));
    await client.listModels();
    assert.deepEqual(
      server.hits.map((hit) => hit.url),
      ['/v1/models'],
    );
  });

  it('asks a llama.cpp server for a JSON object with a schema (newer builds ignore a bare json_object), the service without', async () => {
    const answer = {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: '{}' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
    };
    const service = { object: 'list', data: [{ id: 'Meta-Llama-3.1-8B-Instruct', object: 'model', owned_by: 'system' }] };
    const formats: unknown[] = [];
    for (const [list, id] of [
      [listing, model],
      [service, 'Meta-Llama-3.1-8B-Instruct'],
    ] as const) {
      const own = createServer((req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        req.on('end', () => {
          if (req.method !== 'POST') return json(res, 200, req.url === '/props' ? props : list);
          formats.push((JSON.parse(text) as Record<string, unknown>)['response_format']);
          json(res, 200, answer);
        });
      });
      await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
      const ownClient = new InferenceClient({
        baseUrl: `http://127.0.0.1:${(own.address() as AddressInfo).port}`,
        apiKey: 'k',
        timeoutMs: 2000,
        maxRetries: 0,
      });
      try {
        await ownClient.listModels();
        await ownClient.chat({ model: id, messages: [{ role: 'user', content: 'An empty object, please.' }], responseFormat: { type: 'json_object' } });
      } finally {
        await ownClient.close();
        own.closeAllConnections();
        await new Promise((resolve) => own.close(resolve));
      }
    }
    assert.deepEqual(formats, [{ type: 'json_object', schema: { type: 'object' } }, { type: 'json_object' }]);
  });

  it('reads nothing from a body without the fields, and needs both tools and tool calls for the agent', () => {
    assert.equal(readServerProps({ total_slots: 1 }), undefined);
    assert.equal(readServerProps('nope'), undefined);
    assert.deepEqual(readServerProps({ chat_template_caps: { supports_tools: true, supports_tool_calls: false } }), { has: [], lacks: ['tools'] });
  });
});
