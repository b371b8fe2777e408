// The agent using the tools of a real MCP server: test/support/fixtures/mcpServer/server.mjs, a stdio server VS Code
// itself starts, speaks MCP to, and lists in `vscode.lm.tools` (tagged `mcp`, named and grouped by VS Code,
// not by any extension). It is registered as a user registers one: a `.vscode/mcp.json` in the workspace
// (written here, removed afterwards), and started as the "Start" CodeLens above the server in that file
// starts it: `workbench.mcp.startServer` with the definition's id and `autoTrustChanges` (the user's explicit
// start is the trust). Any other first start of a workspace server asks "Trust and run MCP server notes?"
// through the dialog service's prompt, which VS Code refuses to show in extension-test mode: a start without
// `autoTrustChanges` leaves the server stopped and its tools unlisted (tried on 1.139). The server's only
// tool with an effect, `add_note`, appends to a notes file in a folder this suite names, so a test sees on
// disk whether the call ran in the server's process. The tool calls come from the emulator's scripted model;
// the approval cards are answered as the card's buttons answer them (`tool/approve`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CadenzaApi } from '../../src/host/extension';
import type { ApprovalDecision, ToWebview } from '../../src/shared/protocol';
import type { ToolCallView, VscodeToolView } from '../../src/shared/views';
import { cadenzaApi, cadenzaExtension, waitFor } from './helpers';
import { useChatSuite } from './panelDriver';

type Body = { messages: { role: string; content: unknown; tool_call_id?: string }[]; tools?: { function: { name: string; parameters: unknown } }[] };
type MenuState = Extract<ToWebview, { type: 'state/vscodeTools' }>;

const toolModel = 'Meta-Llama-3.3-70B-Instruct';
/** The server's name in mcp.json: the user's name for it, which the card shows. */
const serverName = 'notes';
/** VS Code's id of a server in the first workspace folder's .vscode/mcp.json (what the file's CodeLens passes). */
const definitionId = `mcp.config.ws0.${serverName}`;
const origin = `MCP server ${serverName}`;

suite('Agent: a real MCP server registered in .vscode/mcp.json', () => {
  const { emulator, panel } = useChatSuite(toolModel);
  let api: CadenzaApi;
  let notesDir: string;
  let mcpJson: string;
  let createdVscodeFolder = false;
  /** The server's tools as Cadenza's tools menu lists them, by the tool's own name (`add_note`, `list_notes`). */
  let rows: Map<string, VscodeToolView>;

  const notesFile = (): string => path.join(notesDir, 'notes.md');
  const notes = (): string | undefined => (fs.existsSync(notesFile()) ? fs.readFileSync(notesFile(), 'utf8') : undefined);
  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const cards = (): ToolCallView[] => panel().messages.flatMap((message) => (message.type === 'tool/call' ? [message.call] : []));
  const finalCard = (id: string): ToolCallView | undefined =>
    cards()
      .filter((card) => card.id === id)
      .at(-1);
  const menu = async (message: { type: 'tools/list' } | { type: 'tools/enable'; name: string; enabled: boolean }): Promise<MenuState> => {
    const state = (await panel().post(message)).find((entry): entry is MenuState => entry.type === 'state/vscodeTools');
    assert.ok(state, 'the host answered with the menu state');
    return state;
  };
  const row = (tool: string): VscodeToolView => {
    const found = rows.get(tool);
    assert.ok(found, `the menu lists the server's ${tool}`);
    return found;
  };
  const waitingCard = async (id: string): Promise<ToolCallView> => {
    let found: ToolCallView | undefined;
    await waitFor(
      () => (found = cards().find((card) => card.id === id && card.status === 'awaitingApproval')) !== undefined,
      () =>
        `card ${id} waiting for approval (saw ${cards()
          .map((card) => `${card.id}:${card.status}`)
          .join(', ')})`,
    );
    if (!found) throw new Error('unreachable');
    return found;
  };
  const answer = async (card: ToolCallView, decision: ApprovalDecision): Promise<void> => {
    await panel().post({ type: 'tool/approve', callId: card.id, decision });
  };

  suiteSetup(async () => {
    api = await cadenzaApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    notesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadenza-mcp-notes-'));
    const vscodeFolder = path.join(folder.uri.fsPath, '.vscode');
    createdVscodeFolder = !fs.existsSync(vscodeFolder);
    fs.mkdirSync(vscodeFolder, { recursive: true });
    mcpJson = path.join(vscodeFolder, 'mcp.json');
    // The extension host's own Node runs the server: `node` on the PATH is not guaranteed to be there.
    const server = path.join(cadenzaExtension().extensionPath, 'test', 'support', 'fixtures', 'mcpServer', 'server.mjs');
    fs.writeFileSync(
      mcpJson,
      `${JSON.stringify({ servers: { [serverName]: { type: 'stdio', command: process.execPath, args: [server], env: { NOTES_DIR: notesDir } } } }, null, 2)}\n`,
    );
    // VS Code reads the new file on its own schedule: until it has, the command finds no such server.
    await waitFor(
      async () => {
        await vscode.commands.executeCommand('workbench.mcp.startServer', definitionId, { autoTrustChanges: true, waitForLiveTools: true });
        return vscode.lm.tools.filter((tool) => tool.tags.includes('mcp')).length >= 2;
      },
      () => `the server's tools in vscode.lm.tools (saw ${vscode.lm.tools.map((tool) => tool.name).join(', ')})`,
      30_000,
    );
    const state = await menu({ type: 'tools/list' });
    rows = new Map(state.tools.filter((tool) => tool.kind === 'mcp').map((tool) => [tool.name.replace(/^.*_(add_note|list_notes)$/, '$1'), tool]));
  });
  setup(async () => {
    fs.rmSync(notesFile(), { force: true });
    await panel().newConversation();
    await panel().selectModel(toolModel);
    panel().clear();
  });
  teardown(async () => {
    api.agent.overrideTrust(undefined);
    for (const name of api.agent.vscodeTools.enabled()) await api.agent.vscodeTools.setEnabled(name, false);
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.mcp.stopServer', definitionId).then(undefined, () => undefined);
    if (mcpJson) fs.rmSync(mcpJson, { force: true });
    if (createdVscodeFolder && mcpJson && fs.readdirSync(path.dirname(mcpJson)).length === 0) fs.rmdirSync(path.dirname(mcpJson));
    if (notesDir) fs.rmSync(notesDir, { recursive: true, force: true });
  });

  test("the menu lists the server's tools as an MCP server's, by the name mcp.json gives it, none enabled and none read-only (VS Code passes no readOnlyHint on); Restricted Mode holds them back", async () => {
    assert.deepEqual([...rows.keys()].sort(), ['add_note', 'list_notes'], 'exactly the tools the server lists');
    for (const tool of ['add_note', 'list_notes']) {
      assert.deepEqual([row(tool).kind, row(tool).source, row(tool).enabled], ['mcp', origin, false], tool);
    }
    assert.equal(row('add_note').readOnly, false);
    assert.equal(row('list_notes').readOnly, false, 'annotated readOnlyHint by the server, and still asked: the hint does not reach extensions');
    emulator().scriptChat({ content: 'Hi.' });
    await panel().send('Hello');
    const names = bodies()[0]?.tools?.map((tool) => tool.function.name) ?? [];
    assert.ok(names.includes('read_file') && !names.includes(row('add_note').wireName), names.join(', '));

    await menu({ type: 'tools/enable', name: row('add_note').name, enabled: true });
    api.agent.overrideTrust(false);
    const restricted = await menu({ type: 'tools/list' });
    assert.equal(restricted.tools.find((tool) => tool.name === row('add_note').name)?.blocked, true, "an MCP server's tool is not offered in Restricted Mode");
  });

  test("approved: the model's call waits on a card naming the MCP server, runs in the server's process once the user says Run (the note is on disk), and its result reaches the next request", async () => {
    const add = row('add_note');
    const state = await menu({ type: 'tools/enable', name: add.name, enabled: true });
    assert.equal(state.tools.find((tool) => tool.name === add.name)?.enabled, true);
    emulator().scriptChat({ toolCalls: [{ name: add.wireName, arguments: { title: 'Groceries', body: 'milk, eggs' }, id: 'call_note' }] });
    emulator().scriptChat({ content: 'Saved your note.' });
    const answering = panel().send('Note down groceries');
    const card = await waitingCard('call_note');
    assert.deepEqual(card.change, { kind: 'external', tool: add.name, origin });
    assert.deepEqual(JSON.parse(card.arguments), { title: 'Groceries', body: 'milk, eggs' }, 'the card shows what the server would get');
    assert.equal(notes(), undefined, 'nothing ran while the card waits');
    await answer(card, 'approve');
    assert.equal((await answering).answer, 'Saved your note.');

    assert.equal(notes(), '- Groceries: milk, eggs\n', 'the server wrote the note');
    const [first, second] = bodies();
    const sent = first?.tools?.find((tool) => tool.function.name === add.wireName)?.function.parameters;
    assert.deepEqual(
      sent,
      {
        type: 'object',
        properties: { title: { type: 'string', description: 'Title of the note' }, body: { type: 'string', description: 'Text of the note' } },
        required: ['title'],
      },
      'the schema the server listed',
    );
    const result = second?.messages.at(-1);
    assert.deepEqual([result?.role, result?.tool_call_id], ['tool', 'call_note']);
    const ran = /^Note 1 saved by server process (\d+): Groceries$/.exec(String(result?.content));
    assert.ok(ran, `the server's answer reaches the model: ${JSON.stringify(result?.content)}`);
    assert.notEqual(Number(ran[1]), process.pid, "it ran in the server's process, not the extension host");
    assert.deepEqual([finalCard('call_note')?.status, finalCard('call_note')?.origin], ['done', origin]);
  });

  test("denied: the server never sees the call and the model is told; its tool annotated readOnlyHint asks too, and once approved reads the server's notes", async () => {
    const [add, list] = [row('add_note'), row('list_notes')];
    await menu({ type: 'tools/enable', name: add.name, enabled: true });
    await menu({ type: 'tools/enable', name: list.name, enabled: true });
    fs.writeFileSync(notesFile(), '- Earlier: kept\n');
    emulator().scriptChat({
      toolCalls: [
        { name: list.wireName, arguments: {}, id: 'call_list' },
        { name: add.wireName, arguments: { title: 'Leak', body: 'API_TOKEN=walrusSecretToken' }, id: 'call_leak' },
      ],
    });
    emulator().scriptChat({ content: 'Listed; the note was not saved.' });
    const answering = panel().send('List my notes, then save one.');
    const listCard = await waitingCard('call_list');
    assert.deepEqual(listCard.change, { kind: 'external', tool: list.name, origin });
    await answer(listCard, 'approve');
    const leakCard = await waitingCard('call_leak');
    assert.deepEqual(leakCard.change, { kind: 'external', tool: add.name, origin });
    await answer(leakCard, 'deny');
    assert.equal((await answering).answer, 'Listed; the note was not saved.');

    assert.equal(notes(), '- Earlier: kept\n', 'the server wrote nothing');
    assert.deepEqual([finalCard('call_list')?.status, finalCard('call_leak')?.status], ['done', 'denied']);
    const results = new Map(
      bodies()[1]
        ?.messages.filter((message) => message.role === 'tool')
        .map((message) => [message.tool_call_id, String(message.content)]),
    );
    assert.equal(results.get('call_list'), '- Earlier: kept', "the server's list reaches the model");
    assert.match(results.get('call_leak') ?? '', new RegExp(`^The user denied running ${add.name} \\(${origin}\\); it was not run\\.`));
  });
});
