import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../support/emulator/emulator';
import { chatBody, choice0, chunksOf, json, parseSse, postJson, streamedText } from './helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const USAGE_FIELDS = [
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'completion_tokens_after_first_per_sec',
  'completion_tokens_after_first_per_sec_first_ten',
  'completion_tokens_per_sec',
  'end_time',
  'start_time',
  'is_last_response',
  'time_to_first_token',
  'total_latency',
  'total_tokens_per_sec',
  'acceptance_rate',
];

describe('emulator: chat completions', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.close());
  beforeEach(() => emu.reset());

  const complete = async (overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Record<string, unknown>> => {
    const response = await postJson(emu, '/v1/chat/completions', chatBody(overrides), { headers });
    assert.equal(response.status, 200);
    return json(response);
  };
  const stream = async (overrides: Record<string, unknown> = {}): Promise<{ raw: string; chunks: Record<string, unknown>[] }> => {
    const response = await postJson(emu, '/v1/chat/completions', chatBody({ stream: true, ...overrides }));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const raw = await response.text();
    return { raw, chunks: chunksOf(parseSse(raw)) };
  };

  it('answers non-streamed in the SambaNova shape with the full usage', async () => {
    const body = await complete();
    assert.match(String(body['id']), UUID);
    assert.equal(body['object'], 'chat.completion');
    assert.equal(typeof body['created'], 'number');
    assert.equal(body['system_fingerprint'], 'fastcoe');
    const c = choice0(body);
    assert.equal(c['finish_reason'], 'stop');
    assert.equal(c['logprobs'], null);
    const message = c['message'] as Record<string, unknown>;
    assert.equal(message['role'], 'assistant');
    assert.match(String(message['content']), /^You asked: How do I retry a failed upload\./);
    const usage = body['usage'] as Record<string, unknown>;
    for (const field of USAGE_FIELDS) assert.ok(field in usage, field);
    assert.equal(usage['is_last_response'], true);
    assert.equal(usage['total_tokens'], Number(usage['prompt_tokens']) + Number(usage['completion_tokens']));
  });

  it('is deterministic for the same prompt', async () => {
    const a = choice0(await complete())['message'];
    const b = choice0(await complete())['message'];
    assert.deepEqual(a, b);
  });

  it('streams role chunk, multi-token chunks, finish chunk, usage chunk, [DONE]', async () => {
    const { raw, chunks } = await stream({ stream_options: { include_usage: true } });
    assert.ok(raw.endsWith('data: [DONE]\n\n'));
    for (const line of raw.split('\n')) assert.ok(line === '' || line.startsWith('data: '), line);
    const first = chunks[0] ?? {};
    assert.deepEqual(choice0(first)['delta'], { role: 'assistant', content: '' });
    assert.ok(chunks.length >= 6);
    const ids = new Set(chunks.map((c) => c['id']));
    assert.equal(ids.size, 1);
    const last = chunks[chunks.length - 1] ?? {};
    assert.deepEqual(last['choices'], []);
    assert.equal((last['usage'] as Record<string, unknown>)['is_last_response'], true);
    const finish = chunks[chunks.length - 2] ?? {};
    assert.equal(choice0(finish)['finish_reason'], 'stop');
    for (const chunk of chunks.slice(0, -1)) {
      assert.equal(chunk['usage'], null);
      assert.equal(chunk['object'], 'chat.completion.chunk');
    }
    const middle = chunks[2] ?? {};
    const piece = String((choice0(middle)['delta'] as Record<string, unknown>)['content']);
    assert.ok(piece.trim().split(/\s+/).length >= 2, `several tokens per chunk: ${piece}`);
    assert.match(streamedText(chunks), /^You asked: How do I retry a failed upload\./);
  });

  it('omits usage entirely without include_usage', async () => {
    const { chunks } = await stream();
    for (const chunk of chunks) {
      assert.ok(!('usage' in chunk));
      assert.equal((chunk['choices'] as unknown[]).length, 1);
    }
  });

  it('honours stop (cut before the sequence, finish stop) and max_tokens (finish length)', async () => {
    const stopped = choice0(await complete({ stop: ['deterministic'] }));
    assert.equal((stopped['message'] as Record<string, unknown>)['content'], 'You asked: How do I retry a failed upload. This is a ');
    assert.equal(stopped['finish_reason'], 'stop');
    const cut = await complete({ max_tokens: 3 });
    assert.equal((choice0(cut)['message'] as Record<string, unknown>)['content'], 'You asked:');
    assert.equal(choice0(cut)['finish_reason'], 'length');
    assert.equal((cut['usage'] as Record<string, unknown>)['completion_tokens'], 3);
    const { chunks } = await stream({ max_tokens: 3 });
    assert.equal(streamedText(chunks), 'You asked:');
    assert.equal(choice0(chunks[chunks.length - 1] ?? {})['finish_reason'], 'length');
  });

  it('json_object gives a JSON object; json_schema gives an object satisfying the schema', async () => {
    const plain = JSON.parse(
      String((choice0(await complete({ response_format: { type: 'json_object' } }))['message'] as Record<string, unknown>)['content']),
    ) as unknown;
    assert.equal(typeof plain, 'object');
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'integer', minimum: 18 },
        score: { type: 'number' },
        admin: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        role: { type: 'string', enum: ['owner', 'guest'] },
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      required: ['name', 'age', 'tags', 'role', 'address'],
    };
    const body = await complete({ response_format: { type: 'json_schema', json_schema: { name: 'User', schema } } });
    const value = JSON.parse(String((choice0(body)['message'] as Record<string, unknown>)['content'])) as Record<string, unknown>;
    assert.equal(typeof value['name'], 'string');
    assert.ok(Number.isInteger(value['age']) && Number(value['age']) >= 18);
    assert.equal(typeof value['score'], 'number');
    assert.equal(typeof value['admin'], 'boolean');
    assert.ok(Array.isArray(value['tags']) && value['tags'].length >= 2);
    assert.equal(value['role'], 'owner');
    assert.equal(typeof (value['address'] as Record<string, unknown>)['city'], 'string');
  });

  it('serves scripted replies FIFO, and the x-emulator-script header for one request', async () => {
    emu.scriptChat({ content: 'first' });
    emu.scriptChat({ content: 'second' }, { times: 2 });
    const texts: unknown[] = [];
    for (let i = 0; i < 4; i++) texts.push((choice0(await complete())['message'] as Record<string, unknown>)['content']);
    assert.deepEqual(texts.slice(0, 3), ['first', 'second', 'second']);
    assert.match(String(texts[3]), /^You asked/);
    const scripted = await complete({}, { 'x-emulator-script': JSON.stringify({ content: 'from header', finishReason: 'length' }) });
    assert.equal((choice0(scripted)['message'] as Record<string, unknown>)['content'], 'from header');
    assert.equal(choice0(scripted)['finish_reason'], 'length');
  });

  it('splits content into exactly chunkCount chunks', async () => {
    emu.scriptChat({ chunkCount: 500 });
    const { chunks } = await stream();
    const content = chunks.filter((c) => {
      const delta = choice0(c)['delta'] as Record<string, unknown> | undefined;
      return choice0(c)['finish_reason'] === null && delta !== undefined && !('role' in delta);
    });
    assert.equal(content.length, 500);
  });
});
