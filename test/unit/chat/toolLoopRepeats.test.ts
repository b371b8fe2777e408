// The loop against the calls a small model repeats (issue #35): an identical call already answered in this
// answer is not run again; the first time the model is told to call something else or answer (tools still
// offered: a small model often finds the right call then), the second time it is asked for its answer with no
// tools offered; so is the last step of the budget. Each such step is reported (`withoutTools` on its step event) so the panel can say why.
import { strict as assert } from 'node:assert';
import type { InferenceClient } from '../../../src/core/api/client';
import { runToolLoop, type Approve, type ToolCallRecord, type ToolLoopEvent, type ToolLoopOptions } from '../../../src/core/chat/toolLoop';
import { ToolSession } from '../../../src/core/tools/toolTypes';
import { workspaceToolset } from '../../../src/core/tools/toolset';
import { clientFor, useEmulator } from '../api/helpers';
import { MemoryPort } from '../tools/memoryPort';

const MODEL = 'Meta-Llama-3.1-8B-Instruct';
const FILES = { 'src/a.ts': 'export const a = 1;\nexport function hello() {\n  return "hi";\n}\nhello();\n' };

type Body = { messages: Record<string, unknown>[]; tools?: unknown[]; tool_choice?: unknown };

describe('tool loop: repeated calls and the answer without tools', () => {
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
  const steps = (): Extract<ToolLoopEvent, { type: 'step' }>[] =>
    events.filter((event): event is Extract<ToolLoopEvent, { type: 'step' }> => event.type === 'step');

  function loop(overrides: Partial<ToolLoopOptions> = {}, approve: Approve = () => Promise.resolve('approved')): ReturnType<typeof runToolLoop> {
    const toolset = workspaceToolset(port, { terminalTimeoutSeconds: 5 });
    return runToolLoop({
      streamChat: (request, options) => client.streamChat(request, options),
      request: { model: MODEL, messages: [{ role: 'user', content: 'Rename hello to greet.' }], maxTokens: 256 },
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

  it('does not run an identical call that failed before in this answer, tells the model, and at the second repeat asks for the answer without tools', async () => {
    const edit = { name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'hello', new_text: 'greet' } };
    holder.emu.scriptChat({ toolCalls: [edit] });
    holder.emu.scriptChat({ toolCalls: [edit] });
    holder.emu.scriptChat({ toolCalls: [edit] });
    holder.emu.scriptChat({ content: 'hello occurs twice; set replace_all to rename both.' });
    const result = await loop();
    assert.equal(result.stop, 'answered');
    assert.equal(result.text, 'hello occurs twice; set replace_all to rename both.');
    assert.deepEqual(
      calls().map((call) => call.status),
      ['failed', 'skipped', 'skipped'],
    );
    assert.match(String(calls()[0]?.result), /^Error: old_text occurs 2 times in src\/a\.ts/);
    assert.match(
      String(calls()[1]?.result),
      /^Not run: this exact call already failed at step 1 of this answer \(Error: old_text occurs 2 times in src\/a\.ts.*\)\. Do not send it again: call a different function \(read_file reads a whole file\), or answer now\.$/,
    );
    assert.match(
      String(calls()[2]?.result),
      /^Not run: this exact call already failed at step 1 of this answer \(Error: old_text occurs 2 times in src\/a\.ts.*\)\. Do not send it again\.$/,
    );
    assert.equal(port.calls.filter((name) => name === 'readFile').length, 1, 'the repeats never reached the workspace');
    const [first, second, third, fourth] = bodies();
    assert.ok(first?.tools && second?.tools, 'tools offered while the calls differ');
    assert.ok(third?.tools, 'tools still offered after the first repeat');
    assert.equal(fourth?.tools, undefined, 'the answer is asked for without tools after the second');
    assert.equal(fourth?.tool_choice, undefined);
    // The request that offers no tools shows no calls either: with a transcript of fenced calls to imitate,
    // a small model wrote one more call as text instead of an answer. The calls and their results are told in
    // words inside the user's turn (a turn of its own is one some chat templates refuse).
    const sent = fourth?.messages ?? [];
    assert.deepEqual(
      sent.filter((message) => message['role'] === 'tool' || message['tool_calls'] !== undefined),
      [],
      'no call or tool result in the request without tools',
    );
    assert.equal(sent.at(-1)?.['role'], 'user');
    const told = String(sent.at(-1)?.['content']);
    assert.match(told, /^Rename hello to greet\./, "the user's question first");
    assert.match(told, /edit_file \{"new_text":"greet","old_text":"hello","path":"src\/a\.ts"\} returned:\nError: old_text occurs 2 times in src\/a\.ts/);
    assert.match(
      told,
      /\[Cadenza: no more tool calls in this answer \(the same call repeated\)\. Answer the question above now in plain text from these results\.\]$/,
    );
    assert.deepEqual(
      steps().map((event) => event.withoutTools),
      [undefined, undefined, undefined, 'repeatedCall'],
    );
    assert.equal(
      result.messages.filter((message) => message.role === 'tool').every((message) => !String(message.content).includes('[Cadenza:')),
      true,
      'the instruction is not kept in the history',
    );
  });

  it('after a repeat already answered, runs the different call the model makes next, and answers with tools still offered', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: 'src' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: 'src' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] });
    holder.emu.scriptChat({ content: 'hello returns "hi".' });
    const result = await loop();
    assert.equal(result.text, 'hello returns "hi".');
    assert.deepEqual(
      calls().map((call) => call.status),
      ['done', 'skipped', 'done'],
    );
    assert.equal(
      calls()[1]?.result,
      'Not run: this exact call was already answered at step 1 of this answer; its result is above. Do not send it again: call a different function (read_file reads a whole file), or answer now.',
    );
    assert.deepEqual(
      port.calls.filter((name) => name !== 'exists'),
      ['listDirectory', 'readFile'],
    );
    assert.deepEqual(
      bodies().map((body) => body.tools === undefined),
      [false, false, false, false],
    );
    assert.deepEqual(
      steps().map((event) => event.withoutTools),
      [undefined, undefined, undefined, undefined],
    );
  });

  it('a second repeat, of any call, asks for the answer without tools', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: 'src' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: 'src' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'find_files', arguments: { glob: '**/*.ts' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'find_files', arguments: { glob: '**/*.ts' } }] });
    holder.emu.scriptChat({ content: 'src holds a.ts.' });
    const result = await loop();
    assert.equal(result.text, 'src holds a.ts.');
    assert.deepEqual(
      calls().map((call) => call.status),
      ['done', 'skipped', 'done', 'skipped'],
    );
    assert.equal(calls()[3]?.result, 'Not run: this exact call was already answered at step 3 of this answer; its result is above.');
    assert.deepEqual(port.calls, ['listDirectory', 'findFiles']);
    assert.deepEqual(
      bodies().map((body) => body.tools === undefined),
      [false, false, false, false, true],
    );
  });

  it('counts the same arguments in another key order as the same call, and runs a repeat again after a change', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts', start_line: 1 } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'return "hi";', new_text: 'return "hey";' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { start_line: 1, path: 'src/a.ts' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { start_line: 1, path: 'src/a.ts' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts', start_line: 1 } }] });
    holder.emu.scriptChat({ content: 'It now says hey.' });
    await loop();
    assert.deepEqual(
      calls().map((call) => call.status),
      ['done', 'done', 'done', 'skipped', 'skipped'],
    );
    assert.match(String(calls()[2]?.result), /return "hey";/, 'read again after the edit');
    assert.deepEqual(
      bodies().map((body) => body.tools === undefined),
      [false, false, false, false, false, true],
    );
  });

  it('asks for the answer without tools at the last step, and the step event says so', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] });
    holder.emu.scriptChat({ toolCalls: [{ name: 'find_files', arguments: { glob: '**/*.ts' } }] });
    holder.emu.scriptChat({ content: 'One file: src/a.ts.' });
    const result = await loop({ maxSteps: 3 });
    assert.equal(result.stop, 'answered');
    assert.equal(result.text, 'One file: src/a.ts.');
    assert.deepEqual(
      bodies().map((body) => body.tools === undefined),
      [false, false, true],
    );
    assert.match(
      String(bodies()[2]?.messages.at(-1)?.['content']),
      /\[Cadenza: no more tool calls in this answer \(the last step of 3\)\. Answer the question above now/,
    );
    assert.deepEqual(
      steps().map((event) => event.withoutTools),
      [undefined, undefined, 'lastStep'],
    );
  });

  it('runs nothing a model calls when no tools were offered, and stops', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, { times: 2 });
    holder.emu.scriptChat({ content: 'unused' });
    const result = await loop({ maxSteps: 2 });
    assert.equal(result.stop, 'stepLimit');
    assert.equal(bodies().length, 2);
    assert.deepEqual(
      calls().map((call) => call.status),
      ['done', 'skipped'],
    );
    assert.deepEqual(port.calls, ['listDirectory']);
    assert.deepEqual(
      result.messages.map((message) => message.role),
      ['assistant', 'tool', 'assistant', 'tool'],
    );
  });

  it('offers tools on the first step even when it is the only one', async () => {
    holder.emu.scriptChat({ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] });
    const result = await loop({ maxSteps: 1 });
    assert.equal(result.stop, 'stepLimit');
    assert.ok(bodies()[0]?.tools);
    assert.equal(steps()[0]?.withoutTools, undefined);
  });
});
