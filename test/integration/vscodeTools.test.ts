// The agent using the language model tools other extensions register in VS Code: a fixture extension
// (test/support/fixtures/toolsExtension, loaded beside Cadenza by the harness) registers them through
// `vscode.lm.registerTool`, among them `fixture_addNote`, not marked read-only and with a confirmation of its
// own. The emulator scripts the model's calls; the fixture records what VS Code invoked, with the input
// exactly as VS Code handed it on. In extension-test mode VS Code's dialog service accepts a tool's
// confirmation without showing it (see lmTools.test.ts), so a decline is what the caller then sees: the
// fixture throws the same CancellationError. An MCP server's tools are a real server's, in mcpServer.test.ts:
// this fixture once stood in for one with a tool tagged `mcp`, which only showed that Cadenza reads the tag
// it looks for. What stays here is what no MCP server can do: a tool's own confirmation and its decline, an
// image or a throw as a result, a name that collides with the agent's, an extension id as the origin.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import type { ApprovalQuestion } from '../../src/host/tools/approvals';
import type { ToWebview } from '../../src/shared/protocol';
import type { ToolCallView } from '../../src/shared/views';
import { cadenzaApi, openChatView, storedConversation, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

type Body = { messages: { role: string; content: unknown; tool_call_id?: string }[]; tools?: { function: { name: string; parameters: unknown } }[] };
type MenuState = Extract<ToWebview, { type: 'state/vscodeTools' }>;
interface FixtureApi {
  readonly calls: { name: string; input: unknown }[];
  reset(): void;
}

const toolModel = 'Meta-Llama-3.3-70B-Instruct';
const fixtureId = 'cadenza-tests.cadenza-test-tools';

suite('Agent: VS Code tools from other extensions', () => {
  let api: CadenzaApi;
  // Activated first: the emulator's set-up writes a Cadenza setting, which must be registered by then.
  suiteSetup(async () => {
    api = await cadenzaApi();
  });
  const emulator = useEmulator();
  let panel: Panel;
  let fixture: FixtureApi;

  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const offered = (body: Body | undefined): string[] => body?.tools?.map((tool) => tool.function.name) ?? [];
  const cards = (): ToolCallView[] => panel.messages.flatMap((message) => (message.type === 'tool/call' ? [message.call] : []));
  const finalCard = (id: string): ToolCallView | undefined =>
    cards()
      .filter((card) => card.id === id)
      .at(-1);
  const menu = async (message: { type: 'tools/list' } | { type: 'tools/enable'; name: string; enabled: boolean }): Promise<MenuState> => {
    panel.clear();
    const state = (await panel.post(message)).find((entry): entry is MenuState => entry.type === 'state/vscodeTools');
    assert.ok(state, 'the host answered with the menu state');
    return state;
  };
  const waitingCard = async (name: string): Promise<ToolCallView> => {
    let found: ToolCallView | undefined;
    await waitFor(
      () => (found = cards().find((card) => card.name === name && card.status === 'awaitingApproval')) !== undefined,
      () =>
        `a ${name} card waiting for approval (saw ${cards()
          .map((card) => `${card.name}:${card.status}`)
          .join(', ')})`,
    );
    if (!found) throw new Error('unreachable');
    return found;
  };
  const enable = async (...names: string[]): Promise<void> => {
    for (const name of names) await menu({ type: 'tools/enable', name, enabled: true });
    panel.clear();
  };

  suiteSetup(async () => {
    panel = drivePanel(api);
    const extension = vscode.extensions.getExtension<FixtureApi>(fixtureId);
    assert.ok(extension, 'the fixture extension is loaded beside Cadenza');
    fixture = await extension.activate();
    await waitFor(() => vscode.lm.tools.some((tool) => tool.name === 'fixture_addNote'), "the fixture's tools in vscode.lm.tools");
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await openChatView(api);
    await vscode.commands.executeCommand('cadenza.refreshModels');
  });
  setup(async () => {
    emulator().reset();
    fixture.reset();
    await panel.newConversation();
    await panel.selectModel(toolModel);
    panel.clear();
  });
  teardown(async () => {
    api.agent.overrideTrust(undefined);
    api.agent.setApprovalPolicy(undefined);
    for (const name of api.agent.vscodeTools.enabled()) await api.agent.vscodeTools.setEnabled(name, false);
  });
  suiteTeardown(async () => {
    panel?.dispose();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test("the menu lists other extensions' tools with their source, none enabled, never Cadenza's own; a request offers none of them", async () => {
    const state = await menu({ type: 'tools/list' });
    const rows = new Map(state.tools.map((tool) => [tool.name, tool]));
    assert.equal(state.restricted, false);
    assert.deepEqual(
      [rows.get('fixture_wordCount')?.source, rows.get('fixture_wordCount')?.kind, rows.get('fixture_wordCount')?.readOnly],
      [fixtureId, 'extension', true],
    );
    assert.deepEqual([rows.get('fixture_addNote')?.kind, rows.get('fixture_addNote')?.readOnly], ['extension', false]);
    assert.equal(rows.get('read_file')?.wireName, 'vscode_read_file', "a collision with the agent's own read_file is renamed");
    assert.ok(![...rows.keys()].some((name) => name.startsWith('cadenza_')), "Cadenza's own lm tools are never offered back to it");
    assert.ok(!rows.has('runSubagent') && !rows.has('vscode_editFile_internal'), "VS Code's chat-only helpers are left out");
    assert.ok(
      state.tools.every((tool) => !tool.enabled),
      'none is enabled by default',
    );

    emulator().scriptChat({ content: 'Hi.' });
    await panel.send('Hello');
    const names = offered(bodies()[0]);
    assert.ok(names.includes('read_file') && !names.some((name) => name.startsWith('fixture_')), names.join(', '));
  });

  test("an enabled tool not marked read-only is offered, invoked through VS Code with the model's arguments, and its result reaches the next request; a disabled one is not offered", async () => {
    const state = await menu({ type: 'tools/enable', name: 'fixture_addNote', enabled: true });
    assert.equal(state.tools.find((tool) => tool.name === 'fixture_addNote')?.enabled, true);
    assert.deepEqual([...api.agent.vscodeTools.enabled()], ['fixture_addNote'], 'remembered for the workspace');
    // Not marked read-only, so Cadenza asks first (the policy stands in for the card's Run button).
    const asked: ApprovalQuestion['preview'][] = [];
    api.agent.setApprovalPolicy((question) => {
      asked.push(question.preview);
      return 'approve';
    });
    emulator().scriptChat({ toolCalls: [{ name: 'fixture_addNote', arguments: { title: 'Groceries', body: 'milk, eggs' }, id: 'call_note' }] });
    emulator().scriptChat({ content: 'Saved your note.' });
    assert.equal((await panel.send('Note down groceries')).answer, 'Saved your note.');
    assert.deepEqual(fixture.calls, [{ name: 'fixture_addNote', input: { title: 'Groceries', body: 'milk, eggs' } }]);
    assert.deepEqual(asked, [{ kind: 'external', tool: 'fixture_addNote', origin: fixtureId, input: '{\n  "title": "Groceries",\n  "body": "milk, eggs"\n}' }]);
    const [first, second] = bodies();
    assert.ok(offered(first).includes('fixture_addNote'));
    assert.ok(!offered(first).includes('fixture_wordCount'), 'a tool not ticked is not offered');
    const sent = first?.tools?.find((tool) => tool.function.name === 'fixture_addNote')?.function.parameters;
    assert.deepEqual(sent, {
      type: 'object',
      properties: { title: { type: 'string', description: 'Title of the note' }, body: { type: 'string', description: 'Text of the note' } },
      required: ['title'],
    });
    assert.deepEqual(second?.messages.at(-1), { role: 'tool', tool_call_id: 'call_note', content: 'Note 1 saved: Groceries' });
    const card = finalCard('call_note');
    assert.equal(card?.status, 'done');
    assert.equal(card?.origin, fixtureId);
  });

  test('a tool not marked read-only waits on a card with its tool, origin and arguments, even under "allow edits for this conversation"; denied, VS Code never invokes it and the model is told; a read-only tool runs at once', async () => {
    await enable('fixture_wordCount', 'fixture_addNote');
    const scratch = vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file('/'), 'exttools-scratch.txt');
    emulator().scriptChat({ toolCalls: [{ name: 'create_file', arguments: { path: 'exttools-scratch.txt', content: 'scratch\n' }, id: 'call_create' }] });
    emulator().scriptChat({
      toolCalls: [
        { name: 'fixture_wordCount', arguments: { text: 'one two three' }, id: 'call_count' },
        { name: 'fixture_addNote', arguments: { title: 'Leak', body: 'API_TOKEN=walrusSecretToken' }, id: 'call_leak' },
      ],
    });
    emulator().scriptChat({ content: 'The note was not saved.' });
    const conversationId = (await panel.conversation()).id;
    try {
      const answering = panel.send('Count the words, then save a note.');
      const create = await waitingCard('create_file');
      assert.ok(api.agent.approvals.answer(create.id, 'allowConversation'));
      const card = await waitingCard('fixture_addNote');
      assert.equal(api.agent.approvals.allowsEdits(conversationId), true, 'edits are allowed, and still the tool asks');
      assert.deepEqual(card.change, { kind: 'external', tool: 'fixture_addNote', origin: fixtureId });
      assert.equal(JSON.parse(card.arguments).body, 'API_TOKEN=walrusSecretToken', 'the card has the arguments the tool would get');
      assert.equal(finalCard('call_count')?.status, 'done', 'the read-only tool ran without asking');
      assert.deepEqual(
        fixture.calls.map((call) => call.name),
        ['fixture_wordCount'],
        'nothing invoked the tool while its card waits',
      );
      assert.ok(api.agent.approvals.answer(card.id, 'deny'));
      assert.equal((await answering).answer, 'The note was not saved.');
      assert.deepEqual(
        fixture.calls.map((call) => call.name),
        ['fixture_wordCount'],
      );
      assert.equal(finalCard('call_leak')?.status, 'denied');
      const results = new Map(
        bodies()[2]
          ?.messages.filter((message) => message.role === 'tool')
          .map((message) => [message.tool_call_id, String(message.content)]),
      );
      assert.equal(results.get('call_count'), '3 words');
      assert.match(results.get('call_leak') ?? '', /^The user denied running fixture_addNote \(cadenza-tests\.cadenza-test-tools\); it was not run\./);
    } finally {
      await vscode.workspace.fs.delete(scratch).then(undefined, () => undefined);
    }
  });

  test('"allow this tool for this conversation" runs that tool\'s later calls unasked, in this conversation only; another tool not marked read-only is still asked', async () => {
    await enable('fixture_addNote', 'fixture_deploy');
    emulator().scriptChat({ toolCalls: [{ name: 'fixture_addNote', arguments: { title: 'One' }, id: 'call_one' }] });
    emulator().scriptChat({
      toolCalls: [
        { name: 'fixture_addNote', arguments: { title: 'Two' }, id: 'call_two' },
        { name: 'fixture_deploy', arguments: { target: 'production', token: 'walrusSecretToken' }, id: 'call_deploy' },
      ],
    });
    emulator().scriptChat({ content: 'Two notes; no deploy.' });
    const answering = panel.send('Save two notes and deploy.');
    const first = await waitingCard('fixture_addNote');
    assert.ok(api.agent.approvals.answer(first.id, 'allowTool'));
    const deploy = await waitingCard('fixture_deploy');
    assert.deepEqual(deploy.change, { kind: 'external', tool: 'fixture_deploy', origin: fixtureId }, "an extension's tool without a read-only tag asks");
    assert.equal(finalCard('call_two')?.status, 'done', 'the allowed tool ran again without asking');
    assert.ok(api.agent.approvals.answer(deploy.id, 'deny'));
    assert.equal((await answering).answer, 'Two notes; no deploy.');
    assert.deepEqual(
      fixture.calls.map((call) => call.input),
      [{ title: 'One' }, { title: 'Two' }],
    );

    // A new conversation asks again.
    panel.clear();
    await panel.newConversation();
    await panel.selectModel(toolModel);
    emulator().scriptChat({ toolCalls: [{ name: 'fixture_addNote', arguments: { title: 'Three' }, id: 'call_three' }] });
    emulator().scriptChat({ content: 'Not saved.' });
    const again = panel.send('Save a third note.');
    const third = await waitingCard('fixture_addNote');
    assert.ok(api.agent.approvals.answer(third.id, 'deny'));
    assert.equal((await again).answer, 'Not saved.');
    assert.equal(fixture.calls.length, 2);
  });

  test("a tool whose name collides with the agent's goes by vscode_read_file and runs under its own name; the agent's read_file stays", async () => {
    await enable('read_file');
    emulator().scriptChat({ toolCalls: [{ name: 'vscode_read_file', arguments: { path: 'notes/today.md' }, id: 'call_fixture_read' }] });
    emulator().scriptChat({ content: 'Done.' });
    await panel.send('Read the store');
    const names = offered(bodies()[0]);
    assert.ok(names.includes('read_file') && names.includes('vscode_read_file'), names.join(', '));
    assert.deepEqual(fixture.calls, [{ name: 'read_file', input: { path: 'notes/today.md' } }]);
    assert.equal(bodies()[1]?.messages.at(-1)?.content, 'fixture store: notes/today.md');
  });

  test("enabled tools' schemas count in the context budget: the meter's limit shrinks by their tokens", async () => {
    const meterLimit = (): number =>
      panel.messages.find((message): message is Extract<ToWebview, { type: 'context/meter' }> => message.type === 'context/meter')?.limitTokens ?? NaN;
    emulator().scriptChat({ content: 'One.' });
    await panel.send('One');
    const without = meterLimit();
    const state = await menu({ type: 'tools/enable', name: 'fixture_wordCount', enabled: true });
    const tokens = state.tools.find((tool) => tool.name === 'fixture_wordCount')?.tokens ?? 0;
    assert.ok(tokens > 20, `the schema costs tokens (${tokens})`);
    emulator().scriptChat({ content: 'Two.' });
    await panel.send('Two');
    const difference = without - meterLimit();
    assert.ok(Math.abs(difference - tokens) <= 2, `the limit shrank by ${difference}, the schema costs ${tokens}`);
  });

  test('an image result is shown in the card and described to the model; a throw and a decline become results the model reads, and the turn ends', async () => {
    await enable('fixture_renderChart', 'fixture_flaky');
    emulator().scriptChat({
      toolCalls: [
        { name: 'fixture_renderChart', arguments: { values: [1, 3, 2, 4] }, id: 'call_chart' },
        { name: 'fixture_flaky', arguments: { mode: 'throw' }, id: 'call_throw' },
        { name: 'fixture_flaky', arguments: { mode: 'decline' }, id: 'call_decline' },
      ],
    });
    emulator().scriptChat({ content: 'Here is the chart; the other tool failed.' });
    assert.equal((await panel.send('Chart it')).answer, 'Here is the chart; the other tool failed.');
    const chart = finalCard('call_chart');
    assert.equal(chart?.status, 'done');
    assert.equal(chart?.images?.length, 1);
    assert.match(chart?.images?.[0]?.dataUrl ?? '', /^data:image\/png;base64,iVBORw0KGgo/);
    const results = new Map(
      bodies()[1]
        ?.messages.filter((message) => message.role === 'tool')
        .map((message) => [message.tool_call_id, String(message.content)]),
    );
    assert.match(results.get('call_chart') ?? '', /^Chart of 4 values\.\n\[The tool returned an image \(image\/png, \d+ bytes\)\. It is shown to the user/);
    assert.equal(finalCard('call_throw')?.status, 'failed');
    assert.equal(finalCard('call_throw')?.failure, 'failed', "another extension's error is a failure of no known kind");
    assert.match(results.get('call_throw') ?? '', /^Error: .*The flaky fixture failed on purpose\./);
    assert.equal(finalCard('call_decline')?.status, 'denied');
    assert.match(results.get('call_decline') ?? '', /fixture_flaky was not run: the user declined it in VS Code's confirmation/);
    const saved = (await storedConversation(api, (await panel.conversation()).id))?.messages.flatMap((message) => message.toolCalls ?? []) ?? [];
    assert.equal(saved.find((call) => call.id === 'call_chart')?.images?.length, 1, 'the image is stored with the call, so a reload shows it');
    assert.equal(saved.find((call) => call.id === 'call_throw')?.failure, 'failed', 'why it failed is stored, so a reload says it');
  });

  test('Restricted Mode offers only tools marked read-only: the menu holds the others back and a request never carries them', async () => {
    await enable('fixture_wordCount', 'fixture_addNote');
    api.agent.overrideTrust(false);
    const state = await menu({ type: 'tools/list' });
    assert.equal(state.restricted, true);
    const rows = new Map(state.tools.map((tool) => [tool.name, tool]));
    assert.equal(rows.get('fixture_addNote')?.blocked, true);
    assert.equal(rows.get('fixture_wordCount')?.blocked, false);
    assert.ok(
      state.tools.filter((tool) => !tool.blocked).every((tool) => tool.readOnly),
      'every tool offered is read-only',
    );
    const held = state.tools.find((tool) => tool.blocked && !tool.enabled);
    assert.ok(held, "a tool that is not read-only and not enabled (VS Code's own run_task, for one)");
    const refused = await menu({ type: 'tools/enable', name: held.name, enabled: true });
    assert.equal(refused.tools.find((tool) => tool.name === held.name)?.enabled, false, 'Restricted Mode does not let it be enabled');
    emulator().scriptChat({ toolCalls: [{ name: 'fixture_addNote', arguments: { title: 'x' }, id: 'call_blocked' }] });
    emulator().scriptChat({ content: 'I cannot add notes here.' });
    await panel.send('Add a note');
    const names = offered(bodies()[0]);
    assert.ok(names.includes('fixture_wordCount'), names.join(', '));
    assert.ok(!names.includes('fixture_addNote') && !names.includes('edit_file'), names.join(', '));
    assert.deepEqual(fixture.calls, [], 'nothing was invoked');
    assert.match(String(bodies()[1]?.messages.at(-1)?.content), /fixture_addNote is not available: the workspace is in Restricted Mode/);
  });
});
