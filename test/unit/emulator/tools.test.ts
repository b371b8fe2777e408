import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../support/emulator/emulator';
import { chatBody, choice0, chunksOf, json, parseSse, postJson } from './helpers';

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a file',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'file' }, lines: { type: 'integer', description: 'n' } },
        required: ['path'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'add',
      description: 'Add',
      parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    },
  },
];

type Call = { id?: string; index?: unknown; type?: string; function: { name?: string; arguments?: unknown } };

describe('emulator: tool calls', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.close());
  beforeEach(() => emu.reset());

  const complete = async (overrides: Record<string, unknown>): Promise<Record<string, unknown>> =>
    json(await postJson(emu, '/v1/chat/completions', chatBody({ tools: TOOLS, ...overrides })));
  const streamCalls = async (): Promise<{ deltas: Call[]; finish: unknown }> => {
    const raw = await (await postJson(emu, '/v1/chat/completions', chatBody({ tools: TOOLS, stream: true }))).text();
    const chunks = chunksOf(parseSse(raw));
    const deltas = chunks.flatMap((c) => ((choice0(c)['delta'] as Record<string, unknown>)['tool_calls'] as Call[] | undefined) ?? []);
    return { deltas, finish: choice0(chunks[chunks.length - 1] ?? {})['finish_reason'] };
  };

  it('returns scripted calls non-streamed in the real shape (string arguments, index null, content "")', async () => {
    emu.scriptChat({
      toolCalls: [
        { name: 'add', arguments: { a: 1, b: 2 } },
        { name: 'read_file', arguments: '{"path":"a.ts"}', id: 'call_fixed' },
      ],
    });
    const c = choice0(await complete({}));
    assert.equal(c['finish_reason'], 'tool_calls');
    const message = c['message'] as Record<string, unknown>;
    assert.equal(message['content'], '');
    const calls = message['tool_calls'] as Call[];
    assert.equal(calls.length, 2);
    assert.match(String(calls[0]?.id), /^call_[0-9a-f]{18}$/);
    assert.deepEqual(calls[0], { id: calls[0]?.id, type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' }, index: null });
    assert.equal(calls[1]?.id, 'call_fixed');
  });

  it('calls the first tool for tool_choice required, the named one otherwise, with the required arguments', async () => {
    const required = (choice0(await complete({ tool_choice: 'required' }))['message'] as Record<string, unknown>)['tool_calls'] as Call[];
    assert.equal(required[0]?.function.name, 'read_file');
    assert.deepEqual(Object.keys(JSON.parse(String(required[0]?.function.arguments)) as object), ['path']);
    const named = (choice0(await complete({ tool_choice: { type: 'function', function: { name: 'add' } } }))['message'] as Record<string, unknown>)[
      'tool_calls'
    ] as Call[];
    const args = JSON.parse(String(named[0]?.function.arguments)) as Record<string, unknown>;
    assert.equal(named[0]?.function.name, 'add');
    assert.equal(typeof args['a'], 'number');
    assert.equal(typeof args['b'], 'number');
    assert.equal(choice0(await complete({ tool_choice: 'auto' }))['finish_reason'], 'stop');
  });

  it('streams whole calls in one delta by default', async () => {
    emu.scriptChat({
      toolCalls: [
        { name: 'add', arguments: { a: 1, b: 2 } },
        { name: 'read_file', arguments: { path: 'x' } },
      ],
    });
    const { deltas, finish } = await streamCalls();
    assert.equal(finish, 'tool_calls');
    assert.equal(deltas.length, 2);
    assert.deepEqual(
      deltas.map((d) => d.index),
      [0, 1],
    );
    assert.equal(deltas[0]?.function.arguments, '{"a":1,"b":2}');
    assert.match(String(deltas[1]?.id), /^call_/);
  });

  it('streams fragmented calls OpenAI-style when asked', async () => {
    emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/some/long/file/name.ts' } }], fragmented: true });
    const { deltas, finish } = await streamCalls();
    assert.equal(finish, 'tool_calls');
    assert.ok(deltas.length > 3);
    assert.deepEqual(deltas[0], { index: 0, id: deltas[0]?.id, type: 'function', function: { name: 'read_file', arguments: '' } });
    for (const later of deltas.slice(1)) {
      assert.deepEqual(Object.keys(later).sort(), ['function', 'index']);
    }
    assert.equal(deltas.map((d) => d.function.arguments).join(''), '{"path":"src/some/long/file/name.ts"}');
  });

  it('sends arguments as an object, or malformed, when asked', async () => {
    emu.scriptChat({ toolCalls: [{ name: 'add', arguments: '{"a":1,"b":2}' }], argumentsAsObject: true });
    const asObject = ((choice0(await complete({}))['message'] as Record<string, unknown>)['tool_calls'] as Call[])[0];
    assert.deepEqual(asObject?.function.arguments, { a: 1, b: 2 });
    emu.scriptChat({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }], argumentsAsObject: true });
    const { deltas } = await streamCalls();
    assert.deepEqual(deltas[0]?.function.arguments, { a: 1, b: 2 });
    emu.scriptChat({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }], malformedArguments: true });
    const malformed = ((choice0(await complete({}))['message'] as Record<string, unknown>)['tool_calls'] as Call[])[0];
    assert.equal(typeof malformed?.function.arguments, 'string');
    assert.throws(() => JSON.parse(String(malformed?.function.arguments)));
  });

  it('accepts a tool result turn (assistant tool_calls with null content, then role tool)', async () => {
    const messages = [
      { role: 'user', content: 'add 1 and 2' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '3' },
    ];
    const response = await postJson(emu, '/v1/chat/completions', chatBody({ tools: TOOLS, messages }));
    assert.equal(response.status, 200);
  });
});
