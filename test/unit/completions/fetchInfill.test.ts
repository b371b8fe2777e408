// A fill-in-the-middle completion through the real client against a loopback llama-server stand-in: the
// same cleaning as the chat path (stopped once whole, what the suffix already has trimmed), the server's
// token counts, and a cancel closing the socket.
import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import { fetchInfill } from '../../../src/core/completions/fetchInfill';
import { buildInfillPrompt } from '../../../src/core/completions/infillPrompt';
import { chunk, last, startInfillServer, type InfillServer } from '../api/infillServer';

describe('completions/fetchInfill', () => {
  let server: InfillServer;
  let client: InferenceClient;
  beforeEach(async () => {
    server = await startInfillServer({ kind: 'status', status: 404 });
    client = new InferenceClient({ baseUrl: server.baseUrl, apiKey: 'local', timeoutMs: 2000, maxRetries: 0, transport: { useEnvironment: false } });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it("stops the stream once the block is whole and drops the code that follows (the real model's answer)", async () => {
    // Qwen2.5-Coder-1.5B on llama-server answered this cursor with "a + b\n\nprint(add(1,2))\n```\n\nIn this code".
    const pieces = ['a', ' +', ' b', '\n\n', 'print', '(add', '(1,2', '))\n', '```\n\n', 'In this', ' code'];
    server.reply({ kind: 'stream', chunks: [...pieces.map((text, i) => chunk(text, i + 1, 23)), last(pieces.length, 23)], gapMs: 15 });
    const prompt = buildInfillPrompt({ path: 'calc.py', languageId: 'python', prefix: 'def add(a, b):\n    return ', suffix: '\n\nprint(add(1,2))\n' });
    const partials: string[] = [];
    const answer = await fetchInfill({
      port: client,
      model: 'qwen2.5-coder-1.5b',
      prompt,
      signal: new AbortController().signal,
      onPartial: (text) => partials.push(text),
    });
    assert.equal(answer.text, 'a + b');
    assert.equal(answer.end, 'stopped');
    assert.deepEqual(answer.usage, { promptTokens: 23, completionTokens: 8, estimated: false }, "the server's counts at the chunk where it stopped");
    assert.ok(server.written() < pieces.length + 1, `stopped before the server's last chunk (${server.written()} written)`);
    assert.equal(server.requests[0]?.body['input_prefix'], 'def add(a, b):\n    return ');
    assert.ok(partials.includes('a + b'));
  });

  it('trims what the rest of the line and the lines after the cursor already have', async () => {
    server.reply({ kind: 'stream', chunks: [chunk('a, b)', 1), chunk('\n', 2), chunk('x = 1', 3), last(3)] });
    const line = buildInfillPrompt({ path: 'a.py', languageId: 'python', prefix: 'def f(a, b):\n    result = compute(', suffix: ')\n    return result\n' });
    assert.equal(line.mode, 'line');
    assert.equal((await fetchInfill({ port: client, model: 'm', prompt: line, signal: new AbortController().signal })).text, 'a, b');
    server.reply({ kind: 'stream', chunks: [chunk('return Math.PI * r * r;\n', 1), chunk('}\n', 2), last(2)] });
    const block = buildInfillPrompt({ path: 'a.js', languageId: 'javascript', prefix: 'function area(r) {\n  ', suffix: '\n}\n' });
    assert.equal(block.mode, 'block');
    const answer = await fetchInfill({ port: client, model: 'm', prompt: block, signal: new AbortController().signal });
    assert.equal(answer.text, 'return Math.PI * r * r;');
    assert.deepEqual(answer.usage, { promptTokens: 40, completionTokens: 2, estimated: false });
  });

  it('rejects when the caller aborts, and the server sees its socket closed', async () => {
    server.reply({ kind: 'stream', chunks: Array.from({ length: 200 }, (_, i) => chunk(`x${i}`, i + 1)), gapMs: 10 });
    const prompt = buildInfillPrompt({ path: 'a.py', languageId: 'python', prefix: 'x = ', suffix: '' });
    const controller = new AbortController();
    let seen = 0;
    await assert.rejects(
      fetchInfill({ port: client, model: 'm', prompt, signal: controller.signal, onPartial: () => (++seen === 2 ? controller.abort() : undefined) }),
    );
    for (let i = 0; i < 100 && server.closedSockets() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(server.closedSockets() >= 1, 'the socket was closed');
    assert.ok(server.written() < 50, `the server stopped writing early (${server.written()} chunks)`);
  });
});

describe('completions/infillPrompt', () => {
  it("sends the other files' snippets as input_extra and cuts the text around the cursor to the budget", () => {
    const prefix = `${Array.from({ length: 400 }, (_, i) => `line${i} = ${i}`).join('\n')}\nvalue = `;
    const prompt = buildInfillPrompt({
      path: 'main.py',
      languageId: 'python',
      prefix,
      suffix: '\nprint(value)\n',
      budgetTokens: 600,
      snippets: [{ path: 'util/area.py', text: 'def area(r):\n    return 3.14 * r * r\n', source: 'edit' }],
    });
    assert.ok(prompt.prefix.endsWith('line399 = 399\nvalue = '), 'the prefix keeps the text nearest the cursor');
    assert.ok(prompt.prefix.length < prefix.length && prompt.prefix.startsWith('line'), 'cut at a line start');
    assert.equal(prompt.suffix, '\nprint(value)\n');
    assert.deepEqual(prompt.extra, [{ filename: 'util/area.py', text: 'def area(r):\n    return 3.14 * r * r\n' }]);
    assert.equal(prompt.mode, 'block');
    assert.ok(!JSON.stringify(prompt).includes('<|fim'), 'no FIM token written by hand');
  });
});
