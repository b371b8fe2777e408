// The client's token count: llama-server's POST /tokenize on the chat server; a server without it (the
// hosted service) answers 404, which the client reports as `unsupported`.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { InferenceClient } from '../../../src/core/api/client';
import { expectApiError } from './helpers';

interface Hit {
  method: string;
  url: string;
  body: string;
  authorization: string | undefined;
}

async function serve(answer: (hit: Hit) => { status: number; body: unknown }): Promise<{ server: Server; baseUrl: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit = { method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), authorization: req.headers.authorization };
      hits.push(hit);
      const { status, body } = answer(hit);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

describe("api: countTokens (the chat server's tokenizer)", () => {
  const servers: Server[] = [];
  const clients: InferenceClient[] = [];
  const client = (options: ConstructorParameters<typeof InferenceClient>[0]): InferenceClient => {
    const made = new InferenceClient({ timeoutMs: 2000, maxRetries: 2, transport: { useEnvironment: false }, ...options });
    clients.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((entry) => entry.close()));
    for (const server of servers.splice(0)) server.close();
  });

  it('posts {"content"} to /tokenize on the chat server, with the key, and counts the tokens it returns', async () => {
    const chat = await serve(() => ({ status: 200, body: { tokens: [791, 4062, 14198, 39935, 35308, 13] } }));
    const other = await serve(() => ({ status: 404, body: {} }));
    servers.push(chat.server, other.server);
    const count = await client({ baseUrl: `${other.baseUrl}/v1`, apiKey: 'secret-key', endpoints: { chat: { baseUrl: `${chat.baseUrl}/v1` } } }).countTokens(
      'The quick brown fox jumps.',
    );
    assert.equal(count, 6);
    assert.deepEqual(
      chat.hits.map((hit) => [hit.method, hit.url, JSON.parse(hit.body) as unknown, hit.authorization]),
      [['POST', '/tokenize', { content: 'The quick brown fox jumps.' }, 'Bearer secret-key']],
    );
    assert.equal(other.hits.length, 0, 'the default server is not asked');
  });

  it("a server without a tokenizer (llama-server's 404 body) is `unsupported`, asked once (no retry)", async () => {
    const { server, baseUrl, hits } = await serve(() => ({ status: 404, body: { error: { message: 'File Not Found', type: 'not_found_error', code: 404 } } }));
    servers.push(server);
    await expectApiError(client({ baseUrl, apiKey: 'k' }).countTokens('hello'), 'unsupported');
    assert.equal(hits.length, 1);
  });

  it('a reply without a token list is malformed', async () => {
    const { server, baseUrl } = await serve(() => ({ status: 200, body: { count: 3 } }));
    servers.push(server);
    await expectApiError(client({ baseUrl, apiKey: 'k' }).countTokens('hello'), 'malformedResponse');
  });
});
