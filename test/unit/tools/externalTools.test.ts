import { strict as assert } from 'node:assert';
import { estimateTokens } from '../../../src/core/chat/contextBudget';
import { runToolLoop, type ToolLoopEvent } from '../../../src/core/chat/toolLoop';
import { changeToolDefinitions, readToolDefinitions } from '../../../src/core/tools/definitions';
import { externalApproval } from '../../../src/core/tools/externalApproval';
import {
  externalTools,
  isOfferable,
  isReadOnly,
  isValidFunctionName,
  maxFunctions,
  selectTools,
  toolOrigin,
  toolOutput,
  toolParameters,
  wireNames,
  type ExternalToolInfo,
} from '../../../src/core/tools/externalTools';
import { ToolError, ToolSession, type ReadTool } from '../../../src/core/tools/toolTypes';
import { checkArguments } from '../../../src/core/tools/validateArgs';
import type { ChatRequest, ChatStream, ChatStreamEvent, ChatResult } from '../../../src/core/api/types';

const own: ReadonlySet<string> = new Set([...readToolDefinitions, ...changeToolDefinitions].map((definition) => definition.name));
const info = (name: string, extra: Partial<ExternalToolInfo> = {}): ExternalToolInfo => ({
  name,
  description: `${name} does things`,
  tags: [],
  fullReferenceName: `acme.tools/${name}`,
  inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'query' } }, required: ['q'] },
  ...extra,
});

describe('VS Code tools for the agent (core rules)', () => {
  it("names: valid names stay, others are cleaned, collisions with the agent's functions or each other get vscode_ and then a number", () => {
    assert.deepEqual(wireNames(['fixture_wordCount', 'read_file', 'run_in_terminal', 'ext.tool/with spaces'], own), [
      'fixture_wordCount',
      'vscode_read_file',
      'vscode_run_in_terminal',
      'ext_tool_with_spaces',
    ]);
    assert.deepEqual(wireNames(['a.b', 'a_b', 'a-b'], new Set()), ['a_b', 'vscode_a_b', 'a-b']);
    assert.deepEqual(wireNames(['x', 'x', 'x'], new Set(['vscode_x'])), ['x', 'vscode_x_2', 'vscode_x_3']);
    const long = 'n'.repeat(80);
    const names = wireNames([long, long], new Set());
    assert.ok(names.every(isValidFunctionName), names.join());
    assert.equal(new Set(names).size, 2);
    assert.deepEqual(wireNames([''], new Set()), ['tool']);
  });

  it("origin and read-only: an extension by its id, an MCP server by its name, VS Code's own tool sets; read-only by tag or VS Code's read set", () => {
    assert.deepEqual(toolOrigin(info('lookup')), { kind: 'extension', source: 'acme.tools' });
    assert.deepEqual(toolOrigin(info('mcp_notes_add', { tags: ['mcp'], fullReferenceName: 'notes/add' })), { kind: 'mcp', source: 'MCP server notes' });
    assert.deepEqual(toolOrigin(info('mcp_x', { tags: ['mcp'], fullReferenceName: undefined })), { kind: 'mcp', source: 'an MCP server' });
    assert.deepEqual(toolOrigin(info('run_task', { fullReferenceName: 'vscodeTasks/runTask' })), { kind: 'vscode', source: 'VS Code' });
    for (const tag of ['read-only', 'readonly', 'READ_ONLY', 'readOnly']) assert.equal(isReadOnly(info('t', { tags: [tag] })), true, tag);
    assert.equal(isReadOnly(info('t', { tags: ['mcp'] })), false, 'MCP readOnlyHint does not reach extensions: not read-only');
    assert.equal(isReadOnly(info('terminal_last_command', { fullReferenceName: 'read/terminalLastCommand' })), true);
    assert.equal(isReadOnly(info('run_in_terminal', { fullReferenceName: 'execute/runInTerminal' })), false);
  });

  it("asks before every tool not marked read-only (an MCP server's, an extension's without the tag, VS Code's outside its read set), with its name, origin and indented input", () => {
    const tools = new Map(
      externalTools(
        [
          info('fixture_wordCount', { tags: ['read-only', 'text'] }),
          info('mcp_notes_add_note', { tags: ['mcp'], fullReferenceName: 'notes/add_note' }),
          info('deploy', { tags: ['deploy'] }),
          info('untagged'),
          info('terminal_last_command', { fullReferenceName: 'read/terminalLastCommand' }),
          info('run_task', { fullReferenceName: 'execute/runTask' }),
        ],
        own,
        'cadenza_',
      ).map((tool) => [tool.name, tool]),
    );
    const ask = (name: string, args: Record<string, unknown> = { q: 'x' }): unknown => {
      const tool = tools.get(name);
      assert.ok(tool, name);
      return externalApproval(tool, args);
    };
    assert.equal(ask('fixture_wordCount'), undefined);
    assert.equal(ask('terminal_last_command'), undefined);
    assert.deepEqual(ask('mcp_notes_add_note', { title: 'Leak', body: 'API_TOKEN=s3cret' }), {
      kind: 'external',
      tool: 'mcp_notes_add_note',
      origin: 'MCP server notes',
      input: '{\n  "title": "Leak",\n  "body": "API_TOKEN=s3cret"\n}',
    });
    assert.deepEqual(ask('deploy'), { kind: 'external', tool: 'deploy', origin: 'acme.tools', input: '{\n  "q": "x"\n}' });
    assert.equal((ask('untagged') as { kind?: string } | undefined)?.kind, 'external', 'no tags: unknown, so asked');
    assert.deepEqual(ask('run_task'), { kind: 'external', tool: 'run_task', origin: 'VS Code', input: '{\n  "q": "x"\n}' });
  });

  it("never offers Cadenza's own tools, VS Code's chat-only helpers, or its unreferenceable internals", () => {
    assert.equal(isOfferable(info('cadenza_semanticSearch'), 'cadenza_'), false);
    for (const name of ['runSubagent', 'manage_todo_list', 'vscode_get_confirmation', 'vscode_editFile_internal'])
      assert.equal(isOfferable(info(name, { fullReferenceName: 'x/y' }), 'cadenza_'), false, name);
    assert.equal(isOfferable(info('renderMermaidDiagram', { fullReferenceName: undefined }), 'cadenza_'), false);
    assert.equal(isOfferable(info('get_task_output', { fullReferenceName: 'vscodeTasks/getTaskOutput' }), 'cadenza_'), true);
    assert.equal(isOfferable(info('lookup'), 'cadenza_'), true);
  });

  it("schemas become the spec's parameters object, and their tokens are what the request carries", () => {
    assert.deepEqual(toolParameters(undefined), { type: 'object', properties: {} });
    assert.deepEqual(toolParameters({}), { type: 'object', properties: {} });
    assert.deepEqual(toolParameters({ type: 'string' }), { type: 'object', properties: {} });
    assert.deepEqual(toolParameters({ $schema: 'http://json-schema.org/draft-07/schema#', properties: { a: { type: 'number' } } }), {
      type: 'object',
      properties: { a: { type: 'number' } },
    });
    const tools = externalTools([info('zeta'), info('read_file', { tags: ['read-only'] }), info('cadenza_semanticSearch')], own, 'cadenza_');
    assert.deepEqual(
      tools.map((tool) => [tool.name, tool.wireName]),
      [
        ['read_file', 'vscode_read_file'],
        ['zeta', 'zeta'],
      ],
    );
    for (const tool of tools) {
      assert.equal(tool.definition.name, tool.wireName);
      assert.equal(tool.tokens, estimateTokens(JSON.stringify(tool.definition)));
    }
  });

  it("a request offers the enabled tools only, read-only ones in Restricted Mode, within the service's 128 functions", () => {
    const tools = externalTools([info('a', { tags: ['read-only'] }), info('b'), info('c')], own, 'cadenza_');
    const trusted = selectTools(tools, new Set(['a', 'b']), { trusted: true, ownCount: 11 });
    assert.deepEqual(
      trusted.tools.map((tool) => tool.name),
      ['a', 'b'],
    );
    assert.deepEqual(trusted.leftOut, []);
    const restricted = selectTools(tools, new Set(['a', 'b']), { trusted: false, ownCount: 8 });
    assert.deepEqual(
      restricted.tools.map((tool) => tool.name),
      ['a'],
    );
    assert.deepEqual(restricted.leftOut, [{ name: 'b', reason: 'restricted' }]);
    const full = selectTools(tools, new Set(['a', 'b', 'c']), { trusted: true, ownCount: maxFunctions - 1 });
    assert.deepEqual(
      full.tools.map((tool) => tool.name),
      ['a'],
    );
    assert.deepEqual(
      full.leftOut.map((left) => left.reason),
      ['tooMany', 'tooMany'],
    );
    assert.deepEqual(selectTools(tools, new Set(), { trusted: true, ownCount: 11 }).tools, []);
  });

  it('results: text and text data to the model, images to the card with a line for the model, other data described', () => {
    const png = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    const output = toolOutput([
      { kind: 'text', text: 'Chart of 4 values.' },
      { kind: 'data', mimeType: 'application/json', data: new TextEncoder().encode('{"n":4}') },
      { kind: 'data', mimeType: 'IMAGE/PNG', data: png },
      { kind: 'data', mimeType: 'application/zip', data: new Uint8Array(2048) },
    ]);
    assert.equal(output.images.length, 1);
    assert.equal(output.images[0]?.dataUrl, `data:image/png;base64,${Buffer.from(png).toString('base64')}`);
    assert.equal(output.images[0]?.bytes, 7);
    assert.equal(
      output.text,
      'Chart of 4 values.\n{"n":4}\n[The tool returned an image (image/png, 7 bytes). It is shown to the user; you cannot see it, since tool results reach you as text.]\n[The tool returned application/zip data (2.0 KB), which cannot be passed on as text.]',
    );
    assert.equal(toolOutput([]).text, '(The tool returned no content.)');
    const big = toolOutput([{ kind: 'data', mimeType: 'image/jpeg', data: new Uint8Array(1_500_000) }]);
    assert.equal(big.images.length, 0);
    assert.match(big.text, /image \(image\/jpeg, 1\.4 MB\), too large/);
  });

  it('arguments a schema allows beyond its properties pass; our own schemas still refuse unknown names', () => {
    const open = { name: 't', parameters: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true } };
    assert.equal(checkArguments(open, '{"a":"x","b":2}').ok, true);
    const closed = { name: 't', parameters: { type: 'object', properties: { a: { type: 'string' } } } };
    assert.equal(checkArguments(closed, '{"a":"x","b":2}').ok, false);
  });
});

/** A stream that answers with the scripted results in turn (no network: the loop's own handling is under test). */
function scripted(results: ChatResult[]): { streamChat: (request: ChatRequest) => ChatStream; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    streamChat: (request) => {
      requests.push(request);
      const result = results[requests.length - 1] ?? ({ text: 'done', toolCalls: [], finishReason: 'stop' } as unknown as ChatResult);
      const events: ChatStreamEvent[] = [];
      return Object.assign(
        (async function* () {
          yield* events;
        })(),
        { result: Promise.resolve(result) },
      ) as unknown as ChatStream;
    },
  };
}

describe('tool loop with a VS Code tool', () => {
  const answer = (calls: { id: string; name: string; arguments: string }[]): ChatResult =>
    ({ text: '', toolCalls: calls, finishReason: 'tool_calls' }) as unknown as ChatResult;

  async function run(tool: ReadTool): Promise<ToolLoopEvent[]> {
    const events: ToolLoopEvent[] = [];
    const stream = scripted([answer([{ id: 'c1', name: tool.definition.name, arguments: '{"q":"x"}' }])]);
    await runToolLoop({
      streamChat: stream.streamChat,
      request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      tools: [tool],
      session: new ToolSession(),
      approve: () => Promise.resolve('approved'),
      maxSteps: 4,
      maxToolResultTokens: 1000,
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
    });
    return events;
  }
  const definition = { name: 'vscode_lookup', description: 'd', parameters: { type: 'object', properties: { q: { type: 'string' } } } };

  it('keeps the images and the origin on the call, and the model gets the text', async () => {
    const events = await run({
      definition,
      effect: 'read',
      origin: 'acme.tools',
      run: () => Promise.resolve('unused'),
      runWithImages: () => Promise.resolve({ text: 'found [image]', images: [{ mimeType: 'image/png', dataUrl: 'data:image/png;base64,AA==', bytes: 1 }] }),
    });
    const done = events.flatMap((event) => (event.type === 'stepDone' ? event.calls : []))[0];
    assert.equal(done?.status, 'done');
    assert.equal(done?.result, 'found [image]');
    assert.equal(done?.origin, 'acme.tools');
    assert.equal(done?.images?.length, 1);
  });

  it('a tool not marked read-only waits for approval with its origin on the card; denied, it never runs and the model is told', async () => {
    let ran = 0;
    const events: ToolLoopEvent[] = [];
    const asked: string[] = [];
    const tool: ReadTool = {
      definition,
      effect: 'read',
      origin: 'MCP server notes',
      run: () => {
        ran += 1;
        return Promise.resolve('saved');
      },
      confirm: (args) => Promise.resolve(externalApproval({ name: 'add_note', source: 'MCP server notes', readOnly: false }, args)),
    };
    const stream = scripted([answer([{ id: 'c1', name: 'vscode_lookup', arguments: '{"q":"API_TOKEN=s3cret"}' }])]);
    await runToolLoop({
      streamChat: stream.streamChat,
      request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      tools: [tool],
      session: new ToolSession(),
      approve: (request) => {
        asked.push(request.preview.kind === 'external' ? request.preview.input : '');
        return Promise.resolve('denied');
      },
      maxSteps: 4,
      maxToolResultTokens: 1000,
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
    });
    assert.equal(ran, 0);
    assert.deepEqual(asked, ['{\n  "q": "API_TOKEN=s3cret"\n}']);
    const waiting = events.flatMap((event) => (event.type === 'call' && event.call.status === 'awaitingApproval' ? [event.call] : []))[0];
    assert.equal(waiting?.origin, 'MCP server notes', 'the waiting card says where the tool comes from');
    const done = events.flatMap((event) => (event.type === 'stepDone' ? event.calls : []))[0];
    assert.deepEqual(
      [done?.status, done?.result],
      ['denied', 'The user denied running add_note (MCP server notes); it was not run. Do not try it again unless the user asks.'],
    );
  });

  it("a decline in VS Code's confirmation is a denied call the model is told about; a throw is a failed one", async () => {
    const declined = await run({
      definition,
      effect: 'read',
      origin: 'acme.tools',
      run: () => Promise.reject(new ToolError('declined', 'lookup was not run: the user declined it.')),
    });
    const first = declined.flatMap((event) => (event.type === 'stepDone' ? event.calls : []))[0];
    assert.deepEqual([first?.status, first?.result], ['denied', 'lookup was not run: the user declined it.']);
    const failed = await run({ definition, effect: 'read', run: () => Promise.reject(new Error('server down')) });
    const second = failed.flatMap((event) => (event.type === 'stepDone' ? event.calls : []))[0];
    assert.deepEqual([second?.status, second?.result], ['failed', 'Error: server down']);
  });
});
