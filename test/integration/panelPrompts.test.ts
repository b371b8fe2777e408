// Prompt files run from the chat panel (`/name` picked in the composer's `/` list, sent as `chat/send` with
// `prompt`), in the real extension host against the emulator: the list as the host reads it, the selection,
// the file and an input filled in, the text after `/name` added, the message's chip, the file's `mode`
// (ask: no tools) and `model` (a listed one answers this message, and again when it is regenerated; an unknown
// one is named in a notice and the conversation's answers), and a dismissed input that runs nothing. The
// suite's title holds "real workspace trust", so it also runs in the Restricted Mode tier: there a workspace's
// prompt is marked untrusted, its model text says so, and in agent mode it gets only the reading tools (a
// write it forces is refused).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToWebview } from '../../src/shared/protocol';
import { cadenzaApi, spyOnDialogs, waitFor } from './helpers';
import { useChatSuite } from './panelDriver';

type Body = { model?: string; messages?: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
type Posted<T extends ToWebview['type']> = Extract<ToWebview, { type: T }>;

suite('Prompt files in the panel under the real workspace trust', () => {
  const { emulator, panel } = useChatSuite('Meta-Llama-3.3-70B-Instruct');
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  const trusted = vscode.workspace.isTrusted;
  const folder = path.join(root, '.github', 'prompts');
  const marker = path.join(root, 'prompt-marker.txt');
  const bodies = (): Body[] =>
    emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .map((request) => request.body as Body);
  const notices = (): string[] =>
    panel()
      .posted('notice')
      .map((notice) => `${notice.level}: ${notice.text}`);
  const userAdded = (): Posted<'message/add'>['message'][] =>
    panel()
      .posted('message/add')
      .map((added) => added.message)
      .filter((message) => message.role === 'user');

  suiteSetup(async () => {
    if (process.env['HARNESS_WORKSPACE_TRUST'] === 'untrusted') assert.equal(trusted, false, 'the Restricted Mode tier runs in a trusted folder');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(
      path.join(folder, 'review.prompt.md'),
      [
        '---',
        'description: Review the selected code',
        'mode: ask',
        'model: meta-llama-3.1-8b-instruct',
        '---',
        'Review this code from ${fileBasename} (${file}) for ${input:focus:what to look at}:',
        '',
        '${selection}',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(folder, 'fix.prompt.md'), '---\ndescription: Fix it\nmode: agent\nmodel: gpt-9\n---\nFix the greeting in ${fileBasename}.');
    const api = await cadenzaApi();
    await waitFor(async () => (await api.prompts.catalog()).prompts.length === 2, 'the two prompt files');
  });
  suiteTeardown(() => {
    fs.rmSync(path.join(root, '.github'), { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
  });

  test('the / list offers the prompt files with their descriptions, marked untrusted in Restricted Mode', async () => {
    const posted = await panel().post({ type: 'prompts/query', requestId: 7 });
    const list = posted.find((message): message is Posted<'prompts/list'> => message.type === 'prompts/list');
    assert.deepEqual(list, {
      type: 'prompts/list',
      requestId: 7,
      prompts: [
        { name: 'fix', description: 'Fix it', source: '.github/prompts/fix.prompt.md', untrusted: !trusted },
        { name: 'review', description: 'Review the selected code', source: '.github/prompts/review.prompt.md', untrusted: !trusted },
      ],
    });
  });

  test('/review runs filled in (selection, file, the input answered) with the text after it, in mode ask, with the model the file names', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'src', 'greeting.ts')));
    editor.selection = new vscode.Selection(1, 0, 3, 1);
    const dialogs = spyOnDialogs((call) => (call.kind === 'inputBox' && call.message === '/review: focus' ? 'naming' : undefined));
    emulator().scriptChat({ content: 'Looks fine.' });
    let turn;
    try {
      turn = await panel().send('keep it short', {}, { prompt: 'review' });
    } finally {
      dialogs.restore();
    }
    assert.equal(turn.answer, 'Looks fine.');
    assert.deepEqual(
      dialogs.calls.map((call) => [call.kind, call.message, call.prompt]),
      [['inputBox', '/review: focus', 'what to look at']],
    );
    const [body] = bodies();
    assert.equal(bodies().length, 1);
    assert.equal(body?.model, 'Meta-Llama-3.1-8B-Instruct', "the file's model answers");
    assert.equal(body?.tools, undefined, 'mode ask was offered tools');
    const sent = String(body?.messages?.at(-1)?.content);
    assert.match(
      sent,
      /Review this code from greeting\.ts \(\S*src[\\/]greeting\.ts\) for naming:\n\nexport function greeting\(name: string\): string \{\n {2}return `Hello, \$\{name\}!`;\n\}\n\nkeep it short$/,
    );
    assert.equal(/^The prompt file \/review comes from a workspace the user has NOT trusted/.test(sent), !trusted, sent);
    const [shown] = userAdded();
    assert.deepEqual(shown?.prompt, { name: 'review', source: '.github/prompts/review.prompt.md', untrusted: !trusted });
    assert.equal(shown?.text, sent, 'the message shown is not what the model got');
    assert.equal(panel().selectedModel(), 'Meta-Llama-3.3-70B-Instruct', "the conversation's model changed");
    const conversation = await panel().conversation();
    assert.equal(conversation.title, '/review keep it short');
    // Regenerate answers the message as its first run did: with the file's model and no tools, not the conversation's.
    emulator().scriptChat({ content: 'Still fine.' });
    const again = await panel().regenerate();
    assert.equal(again.answer, 'Still fine.');
    assert.equal(bodies().length, 2);
    const regenerated = bodies()[1];
    assert.equal(regenerated?.model, 'Meta-Llama-3.1-8B-Instruct', "regenerate did not use the file's model");
    assert.equal(regenerated?.tools, undefined, 'regenerate of a mode ask prompt was offered tools');
    assert.equal(String(regenerated?.messages?.at(-1)?.content), sent, 'regenerate sent another message');
    assert.equal(panel().selectedModel(), 'Meta-Llama-3.3-70B-Instruct', "the conversation's model changed");
  });

  test('a dismissed input runs nothing and says so; the composer is told the send failed', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'src', 'greeting.ts')));
    editor.selection = new vscode.Selection(1, 0, 3, 1);
    const dialogs = spyOnDialogs(() => undefined);
    try {
      await panel().post({ type: 'chat/send', text: 'typed text', prompt: 'review', options: {} });
    } finally {
      dialogs.restore();
    }
    assert.deepEqual(notices(), ['error: /review was not run: no value was given for focus. Your message is still in the box.']);
    assert.equal(bodies().length, 0, 'a request was sent');
    assert.equal(userAdded().length, 0, 'a message was added');
  });

  test(`/fix in mode agent with an unknown model: a notice, the conversation's model, and ${trusted ? 'every tool' : 'only the reading tools (a forced write refused)'}`, async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'src', 'greeting.ts')));
    const api = await cadenzaApi();
    api.agent.setApprovalPolicy(() => 'approve');
    emulator().scriptChat({ toolCalls: [{ name: 'create_file', arguments: { path: 'prompt-marker.txt', content: 'written' } }] });
    emulator().scriptChat({ content: 'Done.' });
    await panel().send('', {}, { prompt: 'fix' });
    assert.ok(
      notices().includes(`warning: /fix names the model "gpt-9", which the service does not list; it runs with the conversation's model.`),
      notices().join('\n'),
    );
    const [first, second] = bodies();
    assert.equal(first?.model, 'Meta-Llama-3.3-70B-Instruct');
    const offered = first?.tools?.map((tool) => tool.function.name) ?? [];
    const result = String(second?.messages?.at(-1)?.content);
    if (trusted) {
      assert.ok(offered.includes('edit_file') && offered.includes('create_file'), offered.join(', '));
      assert.equal(fs.readFileSync(marker, 'utf8'), 'written');
    } else {
      assert.ok(offered.includes('read_file') && !offered.some((name) => /edit|create|delete|terminal|write/.test(name)), offered.join(', '));
      assert.match(result, /^Error: create_file is not available: the workspace is in Restricted Mode/);
      assert.equal(fs.existsSync(marker), false, 'the untrusted prompt wrote a file');
      assert.ok(
        notices().includes(
          'warning: /fix comes from a workspace you have not trusted (Restricted Mode): it runs read-only, without any tool that changes files.',
        ),
        notices().join('\n'),
      );
    }
    assert.equal(userAdded()[0]?.prompt?.untrusted, !trusted);
  });
});
