// A link inside the workspace to a git-ignored secret, in the real extension host: a repository ships
// `config/app.txt -> ../.env` and the user creates `.env` as its README says. read_file on the link asks
// first, search_text does not return the secret, the index does not embed it (the emulator records every
// embeddings request) and the `@` list neither offers nor reads it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexRunResult } from '../../src/core/index/indexRun';
import { readTools } from '../../src/core/tools/readTools';
import { ToolSession, type ReadTool } from '../../src/core/tools/toolTypes';
import type { CadenzaApi } from '../../src/host/extension';
import type { SearchHit } from '../../src/host/index/indexService';
import { cadenzaApi, openChatView, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

const SECRET = 'pangolinLinkedSecret';

suite('A link in the workspace to an ignored secret', function () {
  this.timeout(120_000);
  const emulator = useEmulator();
  let api: CadenzaApi;
  let root = '';
  let tools: ReadTool[];
  let panel: Panel;
  const context = { signal: new AbortController().signal, session: new ToolSession() };
  const tool = (name: string): ReadTool => {
    const found = tools.find((entry) => entry.definition.name === name);
    assert.ok(found, name);
    return found;
  };

  suiteSetup(async () => {
    api = await cadenzaApi();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(root, 'the fixture workspace is open');
    tools = readTools(api.agent.port);
    panel = drivePanel(api);
    await openChatView(api);
    fs.writeFileSync(path.join(root, '.gitignore'), '.env\n');
    fs.writeFileSync(path.join(root, '.env'), `API_TOKEN=${SECRET}\n`);
    fs.mkdirSync(path.join(root, 'config'), { recursive: true });
    fs.symlinkSync('../.env', path.join(root, 'config', 'app.txt'), 'file');
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
  });
  suiteTeardown(async () => {
    panel.dispose();
    for (const name of ['config', '.env', '.gitignore']) fs.rmSync(path.join(root, name), { recursive: true, force: true });
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('read_file on the link asks first, naming where it leads; an ordinary file is read without a question', async () => {
    const asked = await tool('read_file').confirm?.({ path: 'config/app.txt' }, context);
    assert.equal(asked?.kind, 'read', JSON.stringify(asked));
    assert.match(asked?.kind === 'read' ? asked.reason : '', /config\/app\.txt leads to \.env\. \.env is ignored by git and looks like a secret/);
    assert.equal(await tool('read_file').confirm?.({ path: 'src/greeting.ts' }, context), undefined);
  });

  test('search_text does not return the secret through the link', async () => {
    assert.match(await tool('search_text').run({ query: SECRET }, context), /^No matches in \d+ files\.$/);
  });

  test('the index neither embeds the secret nor finds it', async () => {
    const before = emulator().requests.length;
    const result = await vscode.commands.executeCommand<IndexRunResult>('cadenza.index.rebuild', { fromScratch: true });
    assert.equal(result.status, 'complete', JSON.stringify(result));
    const embedded = emulator()
      .requests.slice(before)
      .filter((request) => request.path === '/v1/embeddings');
    assert.ok(embedded.length > 0, 'the workspace was embedded');
    assert.ok(!embedded.some((request) => JSON.stringify(request.body).includes(SECRET)), 'the secret was sent to the embeddings endpoint');
    const hits = await vscode.commands.executeCommand<SearchHit[]>('cadenza.search', `${SECRET} API_TOKEN`);
    assert.ok(!hits.some((hit) => hit.path.startsWith('config/') || hit.path === '.env' || hit.preview.includes(SECRET)), JSON.stringify(hits));
  });

  test('the @ list does not offer the link, and a mention of it sends nothing of the secret', async () => {
    // A fresh walk, so the list answering is one made after the link existed.
    const walks = api.mentions.catalog.walks;
    api.mentions.catalog.invalidate();
    await api.mentions.catalog.fileList();
    await waitFor(() => api.mentions.catalog.walks > walks, 'a fresh walk of the workspace for the @ list');
    // queryMentions fails when the @ list does not answer.
    const offered = await panel.queryMentions('config/app');
    assert.ok(!offered.some((candidate) => candidate.label.includes('app.txt')), JSON.stringify(offered.map((candidate) => candidate.label)));
    // The panel is untrusted: a made-up candidate for the link is judged again when attached.
    const chip = await panel.attachMention({ kind: 'file', id: vscode.Uri.file(path.join(root, 'config', 'app.txt')).toString(), label: 'config/app.txt' });
    assert.ok(chip, 'a chip came back');
    assert.match(chip.note ?? '', /leads to \.env, which looks like a secret/);
    assert.equal(chip.tokens, 0);
  });
});
