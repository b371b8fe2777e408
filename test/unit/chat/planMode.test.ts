import { strict as assert } from 'node:assert';
import { runToolLoop, type ToolCallRecord, type ToolLoopEvent } from '../../../src/core/chat/toolLoop';
import { effectiveMode, onlyReads, toolsForMode } from '../../../src/core/tools/agentMode';
import { agentSystemPrompt, changeToolDefinitions, readToolDefinitions } from '../../../src/core/tools/definitions';
import { workspaceToolset } from '../../../src/core/tools/toolset';
import { ToolSession, type ReadTool, type Tool } from '../../../src/core/tools/toolTypes';
import { MemoryPort } from '../tools/memoryPort';
import { scriptedStreams } from './scriptedStreams';

const FILES = { 'src/a.ts': 'export const a = 1;\n' };

/** A VS Code tool of another extension, as host/tools/vscodeTools.ts makes one; `ran` counts its runs. */
function external(name: string, readOnly: boolean): ReadTool & { ran: number } {
  const tool = {
    ran: 0,
    definition: { name, description: name, parameters: { type: 'object', properties: {}, required: [] } },
    effect: 'read' as const,
    origin: 'ext.sample',
    readOnly,
    run: () => {
      tool.ran += 1;
      return Promise.resolve('ran');
    },
    confirm: () => Promise.resolve(readOnly ? undefined : { kind: 'external' as const, tool: name, origin: 'ext.sample', input: '{}' }),
  };
  return tool;
}

const names = (tools: readonly Tool[]): string[] => tools.map((tool) => tool.definition.name);

describe('plan mode: only reading tools', () => {
  it('offers the reading functions and read-only external tools in Plan, everything in Act', () => {
    const port = new MemoryPort(FILES);
    const own = workspaceToolset(port, { terminalTimeoutSeconds: 5 }).tools;
    const tools = [...own, external('lookup', true), external('deploy', false)];
    const reads = readToolDefinitions.map((definition) => definition.name);
    assert.deepEqual(names(toolsForMode(tools, 'plan')), [...reads, 'lookup']);
    assert.deepEqual(names(toolsForMode(tools, 'act')), names(tools));
    assert.equal(onlyReads(external('deploy', false)), false);
    for (const change of changeToolDefinitions) assert.equal(onlyReads(own.find((tool) => tool.definition.name === change.name)!), false);
  });

  it("is always Plan in Restricted Mode; otherwise the conversation's own mode, Act when it has none", () => {
    assert.equal(effectiveMode('act', false), 'plan');
    assert.equal(effectiveMode(undefined, false), 'plan');
    assert.equal(effectiveMode('plan', true), 'plan');
    assert.equal(effectiveMode('act', true), 'act');
    assert.equal(effectiveMode(undefined, true), 'act');
  });

  it('asks in Plan for a numbered plan at the end of the answer, and says nothing of it in Act', () => {
    const plan = agentSystemPrompt(true, '', 'plan');
    assert.match(plan, /Plan mode/);
    assert.match(plan, /numbered/);
    assert.match(plan, /## Plan/);
    assert.doesNotMatch(agentSystemPrompt(true, '', 'act'), /Plan mode/);
  });
});

describe('plan mode: a forced change is refused where calls run', () => {
  async function forced(call: { name: string; arguments: string }, extra: readonly Tool[] = []) {
    const port = new MemoryPort(FILES);
    const events: ToolLoopEvent[] = [];
    let asked = 0;
    const script = scriptedStreams([{ toolCalls: [{ id: 'call_1', ...call }] }, { text: ['Here is the plan.'] }]);
    const toolset = workspaceToolset(port, { terminalTimeoutSeconds: 5 });
    // Every tool is handed to the loop: the refusal must not depend on what the host chose to offer.
    const result = await runToolLoop({
      streamChat: script.stream,
      request: { model: 'm', messages: [{ role: 'user', content: 'Change a to 2' }] },
      tools: [...toolset.tools, ...extra],
      mode: 'plan',
      session: new ToolSession(),
      approve: () => {
        asked += 1;
        return Promise.resolve('approved');
      },
      maxSteps: 4,
      maxToolResultTokens: 1000,
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
    });
    const records: ToolCallRecord[] = events.flatMap((event) => (event.type === 'stepDone' ? event.calls : []));
    return { port, result, records, asked, requests: script.calls };
  }

  it('refuses edit_file: nothing is written, nothing is asked, and the model is told why', async () => {
    const { port, result, records, asked, requests } = await forced({ name: 'edit_file', arguments: '{"path":"src/a.ts","old_text":"1","new_text":"2"}' });
    assert.equal(port.files.get('src/a.ts'), 'export const a = 1;\n');
    assert.equal(asked, 0);
    assert.equal(records[0]?.status, 'denied');
    assert.match(records[0]?.result ?? '', /refused/);
    assert.match(records[0]?.result ?? '', /Plan mode/);
    assert.equal(result.text, 'Here is the plan.');
    // The first request offered only the reading functions; the second carries the refusal back.
    const offered = (requests[0]?.request.tools ?? []).map((tool) => tool.name);
    assert.deepEqual(
      offered,
      readToolDefinitions.map((definition) => definition.name),
    );
    const told = requests[1]?.request.messages.at(-1);
    assert.equal(told?.role, 'tool');
    assert.match(String(told?.content), /Plan mode/);
  });

  it('refuses create_file and run_in_terminal too', async () => {
    const created = await forced({ name: 'create_file', arguments: '{"path":"b.ts","content":"x"}' });
    assert.equal(created.port.files.has('b.ts'), false);
    assert.equal(created.records[0]?.status, 'denied');
    const ran = await forced({ name: 'run_in_terminal', arguments: '{"command":"rm -rf ."}' });
    assert.deepEqual(ran.port.commands, []);
    assert.equal(ran.records[0]?.status, 'denied');
    assert.equal(ran.asked, 0);
  });

  it('refuses an external tool not marked read-only, and runs one that is', async () => {
    const deploy = external('deploy', false);
    const refused = await forced({ name: 'deploy', arguments: '{}' }, [deploy]);
    assert.equal(deploy.ran, 0);
    assert.equal(refused.asked, 0);
    assert.equal(refused.records[0]?.status, 'denied');
    const lookup = external('lookup', true);
    const ran = await forced({ name: 'lookup', arguments: '{}' }, [lookup]);
    assert.equal(lookup.ran, 1);
    assert.equal(ran.records[0]?.status, 'done');
  });

  it('still reads in Plan', async () => {
    const { records } = await forced({ name: 'read_file', arguments: '{"path":"src/a.ts"}' });
    assert.equal(records[0]?.status, 'done');
    assert.match(records[0]?.result ?? '', /export const a = 1;/);
  });
});
