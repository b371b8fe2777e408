import { strict as assert } from 'node:assert';
import { ApiError } from '../../../src/core/api/errors';
import type { InferenceClient } from '../../../src/core/api/client';
import type { ChatMessage } from '../../../src/core/api/types';
import { runToolLoop, type Approve, type ToolCallRecord, type ToolLoopEvent, type ToolLoopOptions } from '../../../src/core/chat/toolLoop';
import { ToolSession } from '../../../src/core/tools/toolTypes';
import { workspaceToolset } from '../../../src/core/tools/toolset';
import { clientFor, useEmulator } from '../api/helpers';
import { MemoryPort } from '../tools/memoryPort';

const MODEL = 'Meta-Llama-3.1-8B-Instruct';
const FILES = { 'src/a.ts': 'export const a = 1;\nexport function hello() {\n  return "hi";\n}\n', 'README.md': '# Demo\nTODO: write more\n' };

type Body = { messages: Record<string, unknown>[]; tools?: { type: string; function: { name: string; parameters: unknown } }[]; tool_choice?: unknown };

describe('tool loop (against the emulator)', () => {
  const holder = useEmulator();
  let client: InferenceClient;
  let port: MemoryPort;
  let events: ToolLoopEvent[];

  beforeEach(() => {
    client = clientFor(holder.emu);
    port = new MemoryPort(FILES);
    events = [];
  });
  afterEach(() => client.close());

  const bodies = (): Body[] => holder.emu.requests.filter((request) => request.path === '/v1/chat/completions').map((request) => request.body as Body);
  const calls = (): ToolCallRecord[] => events.flatMap((event) => (event.type === 'stepDone' ? event.calls : []));

  function loop(
    overrides: Partial<ToolLoopOptions> = {},
    approve: Approve = () => Promise.resolve('approved'),
  ): Promise<Awaited<ReturnType<typeof runToolLoop>>> {
    const toolset = workspaceToolset(port, { terminalTimeoutSeconds: 5 });
    return runToolLoop({
      streamChat: (request, options) => client.streamChat(request, options),
      request: { model: MODEL, messages: [{ role: 'user', content: 'What does src/a.ts export?' }], maxTokens: 256 },
      tools: toolset.tools,
      unavailable: toolset.unavailable,
      session: new ToolSession(),
      approve,
      maxSteps: 8,
      maxToolResultTokens: 4000,
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
      ...overrides,
    });
  }

  it('sends the schemas with tool_choice auto, runs the call, and sends the result back after the assistant message that asked', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' }, id: 'call_read' }] });
    holder.emu.scriptChat({ content: 'It exports a and hello.' });
    const result = await loop();
    assert.equal(result.stop, 'answered');
    assert.equal(result.text, 'It exports a and hello.');
    assert.equal(result.steps, 2);
    const [first, second] = bodies();
    assert.equal(first?.tool_choice, 'auto');
    assert.ok(first?.tools?.every((tool) => tool.type === 'function'));
    assert.deepEqual(
      first?.tools?.map((tool) => tool.function.name),
      [
        'read_file',
        'list_directory',
        'find_files',
        'search_text',
        'semantic_search',
        'get_diagnostics',
        'get_symbols',
        'get_selection',
        'edit_file',
        'create_file',
        'run_in_terminal',
      ],
    );
    const messages = second?.messages ?? [];
    assert.equal(messages.length, 3);
    assert.deepEqual(messages[1], {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_read', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } }],
    });
    assert.equal(messages[2]?.['role'], 'tool');
    assert.equal(messages[2]?.['tool_call_id'], 'call_read');
    assert.match(String(messages[2]?.['content']), /^src\/a\.ts \(4 lines\)\nexport const a = 1;/);
    assert.deepEqual(
      result.messages.map((message: ChatMessage) => message.role),
      ['assistant', 'tool', 'assistant'],
    );
    assert.equal(calls()[0]?.status, 'done');
  });

  it('forces tool_choice required or a named function on the first step only', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] });
    holder.emu.scriptChat({ content: 'done' });
    await loop({ toolChoice: { name: 'list_directory' } });
    assert.deepEqual(
      bodies().map((body) => body.tool_choice),
      [{ type: 'function', function: { name: 'list_directory' } }, 'auto'],
    );
    holder.emu.reset();
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] });
    holder.emu.scriptChat({ content: 'done' });
    await loop({ toolChoice: 'required' });
    assert.deepEqual(
      bodies().map((body) => body.tool_choice),
      ['required', 'auto'],
    );
  });

  it('runs several calls of one turn in order and answers each by its id', async () => {
    holder.emu.scriptChat({
      toolCalls: [
        { name: 'find_files', arguments: { glob: '**/*.ts' }, id: 'c1' },
        { name: 'search_text', arguments: { query: 'hello' }, id: 'c2' },
        { name: 'get_diagnostics', arguments: {}, id: 'c3' },
      ],
    });
    holder.emu.scriptChat({ content: 'Three looks.' });
    await loop();
    const messages = bodies()[1]?.messages ?? [];
    assert.deepEqual(
      messages.slice(2).map((message) => [message['role'], message['tool_call_id']]),
      [
        ['tool', 'c1'],
        ['tool', 'c2'],
        ['tool', 'c3'],
      ],
    );
    assert.equal(messages[2]?.['content'], 'src/a.ts');
    assert.equal(messages[3]?.['content'], 'src/a.ts:2: export function hello() {');
    assert.match(String(messages[4]?.['content']), /README\.md:2:1 warning: A TODO is left/);
    assert.deepEqual(port.calls, ['findFiles', 'searchText', 'diagnostics']);
  });

  it('handles calls streamed in fragments, showing the arguments as they form', async () => {
    holder.emu.scriptChat({
      toolCalls: [
        { name: 'read_file', arguments: { path: 'README.md', start_line: 2 } },
        { name: 'get_selection', arguments: {} },
      ],
      fragmented: true,
    });
    holder.emu.scriptChat({ content: 'ok' });
    await loop();
    const forming = events.filter((event): event is Extract<ToolLoopEvent, { type: 'callForming' }> => event.type === 'callForming' && event.index === 0);
    assert.ok(forming.length > 2, `fragments: ${forming.length}`);
    assert.equal(forming[0]?.name, 'read_file');
    assert.ok(
      forming.some((event) => event.arguments !== '' && event.arguments !== forming.at(-1)?.arguments),
      'the arguments grew',
    );
    assert.equal(forming.at(-1)?.arguments, '{"path":"README.md","start_line":2}');
    assert.deepEqual(
      calls().map((call) => call.status),
      ['done', 'done'],
    );
    assert.equal(calls()[0]?.result, 'README.md (lines 2-2 of 2)\nTODO: write more');
  });

  it('accepts arguments sent as a JSON object', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts', end_line: 1 } }], argumentsAsObject: true });
    holder.emu.scriptChat({ content: 'ok' });
    await loop();
    assert.equal(calls()[0]?.result, 'src/a.ts (lines 1-1 of 4)\nexport const a = 1;');
  });

  it('answers malformed calls with the error and goes on: bad JSON, an unknown function, arguments not valid for the schema', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }], malformedArguments: true });
    holder.emu.scriptChat({
      toolCalls: [
        { name: 'delete_everything', arguments: {} },
        { name: 'read_file', arguments: { file: 'src/a.ts' } },
        { name: 'read_file', arguments: { path: 'src/a.ts', start_line: 'one' } },
      ],
    });
    holder.emu.scriptChat({ content: 'Sorry.' });
    const result = await loop();
    assert.equal(result.text, 'Sorry.');
    const results = calls().map((call) => [call.status, call.result]);
    assert.equal(results[0]?.[0], 'invalid');
    assert.match(String(results[0]?.[1]), /^Error: The arguments are not valid JSON/);
    assert.match(String(results[1]?.[1]), /^Error: there is no function "delete_everything"\. The functions are: read_file, list_directory/);
    assert.match(String(results[2]?.[1]), /"path" is required; "file" is not an argument of read_file/);
    assert.match(String(results[3]?.[1]), /"start_line" must be integer, not string/);
    assert.deepEqual(port.calls, [], 'nothing malformed ran');
    assert.equal(bodies().length, 3);
  });

  it("returns a failing tool's error to the model instead of ending", async () => {
    holder.emu.scriptChat({
      toolCalls: [
        { name: 'read_file', arguments: { path: 'missing.ts' } },
        { name: 'read_file', arguments: { path: '../outside.txt' } },
      ],
    });
    holder.emu.scriptChat({ content: 'That file does not exist.' });
    const result = await loop();
    assert.equal(result.stop, 'answered');
    // The model is sent the function's own words; the card gets the kind, to say it in the user's language.
    assert.deepEqual(
      calls().map((call) => [call.status, call.result, call.failure]),
      [
        ['failed', 'Error: missing.ts does not exist. Find the right path with find_files or list_directory.', 'notFound'],
        ['failed', 'Error: ../outside.txt is outside the workspace folders; only files inside them can be used.', 'outsideWorkspace'],
      ],
    );
  });

  it('stops at the step limit with the last calls not run, and the history still valid', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, { times: 3 });
    const result = await loop({ maxSteps: 2 });
    assert.equal(result.stop, 'stepLimit');
    assert.equal(result.steps, 2);
    assert.equal(bodies().length, 2);
    assert.deepEqual(
      calls().map((call) => call.status),
      ['done', 'skipped'],
    );
    assert.match(String(calls()[1]?.result), /Not run: the limit of 2 steps/);
    assert.equal(bodies()[1]?.tools, undefined, 'the last step asks for the answer without tools');
    const roles = result.messages.map((message) => message.role);
    assert.deepEqual(roles, ['assistant', 'tool', 'assistant', 'tool']);
  });

  it('cuts a result too large for the context and says how much was left out', async () => {
    port.files.set('big.txt', Array.from({ length: 3000 }, (_, index) => `line ${index + 1} of a long file`).join('\n'));
    holder.emu.scriptChat({
      toolCalls: [
        { name: 'search_text', arguments: { query: 'long file' } },
        { name: 'read_file', arguments: { path: 'big.txt' } },
      ],
    });
    holder.emu.scriptChat({ content: 'ok' });
    await loop({ maxToolResultTokens: 300 });
    const [search, read] = calls();
    assert.ok((search?.result?.length ?? 0) < 1400, `search result ${search?.result?.length}`);
    assert.match(String(search?.result), /\[Cut to fit the context: [\d,]+ of [\d,]+ lines \([\d,]+ characters, about [\d,]+ tokens\) were left out/);
    assert.match(String(read?.result), /^big\.txt \(lines 1-\d+ of 3000\)/);
    assert.match(String(read?.result), /\[Stopped at line \d+ to stay within the size limit; read on with start_line \d+\.\]$/);
  });

  it('cuts to what the context leaves when that is less than the setting', async () => {
    port.files.set('big.txt', Array.from({ length: 200 }, () => 'x'.repeat(150)).join('\n'));
    holder.emu.scriptChat({ toolCalls: [{ name: 'search_text', arguments: { query: 'x' } }] });
    holder.emu.scriptChat({ content: 'ok' });
    await loop({ contextLimitTokens: 3000 });
    const result = calls()[0]?.result ?? '';
    assert.ok(result.length < 3000 * 4, `result of ${result.length} characters`);
    assert.match(result, /Cut to fit the context/);
  });

  it('runs a change only when approved, and tells the model when it was denied', async () => {
    const asked: string[] = [];
    holder.emu.scriptChat({
      toolCalls: [
        { name: 'read_file', arguments: { path: 'src/a.ts' } },
        { name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'return "hi";', new_text: 'return "hello";' } },
        { name: 'create_file', arguments: { path: 'src/b.ts', content: 'export const b = 2;\n' } },
        { name: 'run_in_terminal', arguments: { command: 'npm test' } },
      ],
    });
    holder.emu.scriptChat({ content: 'Edited.' });
    await loop({}, (request) => {
      asked.push(request.preview.kind);
      return Promise.resolve(request.preview.kind === 'edit' ? 'approved' : 'denied');
    });
    assert.deepEqual(asked, ['edit', 'create', 'terminal']);
    assert.equal(port.files.get('src/a.ts'), FILES['src/a.ts'].replace('return "hi";', 'return "hello";'));
    assert.equal(port.files.has('src/b.ts'), false);
    assert.deepEqual(port.commands, []);
    const results = calls().map((call) => [call.status, call.result]);
    assert.deepEqual(results.slice(1), [
      ['done', 'Edited src/a.ts at line 3: replaced 1 line(s) with 1 line(s).'],
      ['denied', 'The user denied creating src/b.ts; nothing was created. Do not try it again unless the user asks.'],
      ['denied', 'The user denied running the command; it was not run. Do not try it again unless the user asks.'],
    ]);
    const edit = calls()[1];
    assert.equal(edit?.preview?.kind, 'edit');
    assert.match(edit?.preview?.kind === 'edit' ? edit.preview.diff : '', /- {2}return "hi";\n\+ {2}return "hello";/);
  });

  it('asks before reading a git-ignored secret (.env, a private key), reads it only when allowed, and never asks for other files', async () => {
    port.files.set('.env', 'API_TOKEN=zebra-secret\n');
    port.files.set('deploy/id_ed25519', '-----BEGIN OPENSSH PRIVATE KEY-----\n');
    port.files.set('.env.example', 'API_TOKEN=\n');
    port.files.set('config/.env.local', 'committed=1\n');
    for (const path of ['.env', 'deploy/id_ed25519', '.env.example']) port.ignored.add(path);
    const asked: string[] = [];
    holder.emu.scriptChat({
      toolCalls: [
        { name: 'read_file', arguments: { path: '.env' } },
        { name: 'read_file', arguments: { path: 'deploy/id_ed25519' } },
        { name: 'read_file', arguments: { path: '.env.example' } },
        { name: 'read_file', arguments: { path: 'config/.env.local' } },
        { name: 'read_file', arguments: { path: 'src/a.ts' } },
      ],
    });
    holder.emu.scriptChat({ content: 'Read.' });
    await loop({}, (request) => {
      asked.push(request.preview.kind === 'read' ? `${request.preview.path}: ${request.preview.reason}` : request.preview.kind);
      return Promise.resolve(request.preview.kind === 'read' && request.preview.path === '.env' ? 'approved' : 'denied');
    });
    assert.equal(asked.length, 2, asked.join('\n'));
    assert.match(asked[0] ?? '', /^\.env: \.env is ignored by git and looks like a secret/);
    assert.match(asked[1] ?? '', /^deploy\/id_ed25519: /);
    const results = calls().map((call) => [call.status, call.result?.split('\n')[0]]);
    assert.deepEqual(results, [
      ['done', '.env (1 lines)'],
      ['denied', 'The user denied reading deploy/id_ed25519; it was not read. Do not try it again unless the user asks.'],
      ['done', '.env.example (1 lines)'],
      ['done', 'config/.env.local (1 lines)'],
      ['done', 'src/a.ts (4 lines)'],
    ]);
    assert.equal(calls()[1]?.preview?.kind, 'read');
    const sent = JSON.stringify(bodies()[1]?.messages);
    assert.ok(!sent.includes('OPENSSH PRIVATE KEY'), 'a denied secret reached the model');
  });

  it('cancel stops a running tool at once and records every call of the step as cancelled', async () => {
    const controller = new AbortController();
    port.before = (name, signal) =>
      new Promise<void>((resolve, reject) => {
        if (name !== 'searchText') return resolve();
        setTimeout(() => controller.abort(), 20);
        signal.addEventListener('abort', () => reject(new ApiError('canceled', 'Stopped by the user')), { once: true });
      });
    holder.emu.scriptChat({
      toolCalls: [
        { name: 'read_file', arguments: { path: 'README.md' } },
        { name: 'search_text', arguments: { query: 'slow' } },
        { name: 'find_files', arguments: { glob: '*' } },
      ],
    });
    const started = Date.now();
    await assert.rejects(loop({ signal: controller.signal }), (error: unknown) => ApiError.is(error, 'canceled'));
    assert.ok(Date.now() - started < 1500);
    assert.deepEqual(
      calls().map((call) => call.status),
      ['done', 'cancelled', 'cancelled'],
    );
    // read_file first asks where its path leads (a link to an ignored secret asks before reading).
    assert.deepEqual(port.calls, ['exists', 'readFile', 'searchText']);
    assert.equal(bodies().length, 1, 'no further request after the cancel');
  });

  it('cancel ends the wait for an approval', async () => {
    const controller = new AbortController();
    holder.emu.scriptChat({ toolCalls: [{ name: 'run_in_terminal', arguments: { command: 'sleep 100' } }] });
    const approve: Approve = (_request, signal) =>
      new Promise((resolve) => {
        setTimeout(() => controller.abort(), 20);
        signal.addEventListener('abort', () => resolve('denied'), { once: true });
      });
    await assert.rejects(loop({ signal: controller.signal }, approve), (error: unknown) => ApiError.is(error, 'canceled'));
    assert.deepEqual(
      calls().map((call) => call.status),
      ['cancelled'],
    );
    assert.deepEqual(port.commands, []);
  });

  it('cancel stops a stream mid-answer', async () => {
    const controller = new AbortController();
    holder.emu.scriptChat({ content: 'a long answer that stalls '.repeat(20), chunkCount: 20 });
    holder.emu.injectFault({ kind: 'stall', afterChunks: 3 }, { path: '/v1/chat/completions' });
    const running = loop({
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text') controller.abort();
      },
    });
    await assert.rejects(running, (error: unknown) => ApiError.is(error, 'canceled'));
  });

  it('offers only the read-only functions in Restricted Mode, and says why to a model that calls edit_file', async () => {
    port.trusted = false;
    holder.emu.scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'a', new_text: 'b' } }] });
    holder.emu.scriptChat({ content: 'I cannot edit here.' });
    await loop();
    assert.deepEqual(
      bodies()[0]?.tools?.map((tool) => tool.function.name),
      ['read_file', 'list_directory', 'find_files', 'search_text', 'semantic_search', 'get_diagnostics', 'get_symbols', 'get_selection'],
    );
    assert.match(String(calls()[0]?.result), /^Error: edit_file is not available: the workspace is in Restricted Mode/);
    assert.equal(port.files.get('src/a.ts'), FILES['src/a.ts']);
  });

  it('streams text and reports events in order', async () => {
    holder.emu.scriptChat({ content: 'Let me look.', toolCalls: [{ name: 'get_selection', arguments: {} }] });
    holder.emu.scriptChat({ content: 'You selected "the ".' });
    await loop();
    const kinds = events.map((event) => event.type).filter((type, index, all) => type !== all[index - 1]);
    assert.deepEqual(kinds, ['step', 'text', 'callForming', 'answer', 'call', 'stepDone', 'step', 'text', 'answer']);
    const first = events.find((event): event is Extract<ToolLoopEvent, { type: 'answer' }> => event.type === 'answer');
    assert.equal(first?.result.text, 'Let me look.');
    assert.equal(bodies()[1]?.messages[1]?.['content'], 'Let me look.');
  });
});
