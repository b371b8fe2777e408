import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexRunResult } from '../../src/core/index/indexRun';
import type { IndexStats } from '../../src/core/index/workspaceIndex';
import type { SearchHit } from '../../src/host/index/indexService';
import { cadenzaApi, openChatView, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

const uploadSource = `/** Sends a file to the storage bucket, trying again with exponential backoff when the network fails. */
export async function retryFailedUploads(queue: UploadQueue): Promise<void> {
  for (const item of queue.failed()) {
    await backoffAndRetry(() => sendFile(item.file), { attempts: 5 });
  }
}
`;

suite('Semantic index', () => {
  const emulator = useEmulator();
  let panel: Panel;
  let root: string;
  const write = (relative: string, content: string | Buffer): string => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  /** Embeddings requests made to index (not the query embeddings that every search makes). */
  const embeddingRequests = (): number =>
    emulator().requests.filter((request) => request.path === '/v1/embeddings' && !JSON.stringify(request.body).includes('Instruct: ')).length;
  const search = (query: string): Thenable<SearchHit[]> => vscode.commands.executeCommand<SearchHit[]>('cadenza.search', query);

  suiteSetup(async function () {
    this.timeout(60_000);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    root = folder.uri.fsPath;
    write('src/uploads.ts', uploadSource);
    write('assets/logo.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3, 0, 0, 9]));
    write('.gitignore', 'ignored/\n');
    write('ignored/secret.ts', 'export const ignoredByGit = "retryFailedUploads";\n');
    await vscode.workspace.getConfiguration('cadenza.index').update('debounceMs', 100, vscode.ConfigurationTarget.Global);
    panel = drivePanel(await cadenzaApi());
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
  });
  suiteTeardown(async () => {
    panel.dispose();
    await vscode.workspace.getConfiguration('cadenza.index').update('debounceMs', undefined, vscode.ConfigurationTarget.Global);
    for (const file of ['src/uploads.ts', 'assets/logo.bin', '.gitignore', 'ignored/secret.ts', 'src/fresh.ts'])
      fs.rmSync(path.join(root, file), { force: true });
    await vscode.commands.executeCommand('cadenza.clearApiKey');
  });

  test('Rebuild Index embeds the workspace with the index model, skipping binary and git-ignored files', async () => {
    const result = await vscode.commands.executeCommand<IndexRunResult>('cadenza.index.rebuild', { fromScratch: true });
    assert.equal(result.status, 'complete', JSON.stringify(result));
    assert.ok(result.chunksEmbedded > 0);
    const stats = await vscode.commands.executeCommand<IndexStats>('cadenza.index.status');
    assert.equal(stats.modelId, 'E5-Mistral-7B-Instruct');
    assert.ok(stats.files >= 5 && stats.chunks >= 5, JSON.stringify(stats));
    assert.ok(stats.diskBytes > 0, 'the index is on disk');
    const bodies = emulator()
      .requests.filter((request) => request.path === '/v1/embeddings')
      .map((request) => JSON.stringify(request.body));
    assert.ok(bodies.every((body) => body.includes('E5-Mistral-7B-Instruct')));
    assert.ok(!bodies.some((body) => body.includes('ignoredByGit')), 'a git-ignored file was embedded');
  });

  test('search finds the code by meaning and by identifier, with path, lines, score and what matched', async () => {
    const byMeaning = await search('where do we retry failed uploads?');
    assert.equal(byMeaning[0]?.path.endsWith('src/uploads.ts'), true, JSON.stringify(byMeaning.map((hit) => hit.path)));
    assert.ok((byMeaning[0]?.startLine ?? 0) >= 1 && (byMeaning[0]?.endLine ?? 0) >= (byMeaning[0]?.startLine ?? 0));
    assert.ok((byMeaning[0]?.score ?? 0) > 0);
    const byName = await search('greeting');
    const hit = byName.find((candidate) => candidate.path.endsWith('src/greeting.ts'));
    assert.ok(hit, JSON.stringify(byName.map((candidate) => candidate.path)));
    assert.notEqual(hit.matched, 'semantic', 'the exact identifier is matched by keyword too');
    assert.match(hit.preview, /greeting/i);
  });

  test('a new file is indexed by the watcher (only its chunks embedded) and a deleted one drops out', async () => {
    const before = embeddingRequests();
    write('src/fresh.ts', 'export function frobnicateWidgets(count: number): number {\n  return count * 42;\n}\n');
    await waitFor(async () => (await search('frobnicateWidgets')).some((hit) => hit.path.endsWith('src/fresh.ts')), 'the new file in search results', 20_000);
    const requestsForNewFile = embeddingRequests() - before;
    assert.ok(requestsForNewFile >= 1 && requestsForNewFile <= 4, `embeddings requests for one new file: ${requestsForNewFile}`);
    fs.rmSync(path.join(root, 'src/fresh.ts'));
    await waitFor(async () => !(await search('frobnicateWidgets')).some((hit) => hit.path.endsWith('src/fresh.ts')), 'the deleted file to drop out', 20_000);
  });

  test('a corrupt index file is detected and rebuilt with a message, never a crash', async () => {
    const file = await (await cadenzaApi()).index.indexFile();
    assert.ok((await cadenzaApi()).index.available);
    assert.ok(file && fs.existsSync(file), `the index file exists: ${file}`);
    const api = await cadenzaApi();
    // Close the index (mode off), damage the file, then let it open again.
    await vscode.workspace.getConfiguration('cadenza.index').update('mode', 'off', vscode.ConfigurationTarget.Global);
    await api.index.whenSettled();
    const bytes = fs.readFileSync(file);
    for (let i = 80; i < Math.min(bytes.length, 400); i += 1) bytes[i] = (bytes[i] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    await vscode.workspace.getConfiguration('cadenza.index').update('mode', undefined, vscode.ConfigurationTarget.Global);
    await api.index.whenSettled();
    await api.index.stats();
    assert.equal(api.index.loadStatus?.kind, 'discarded', JSON.stringify(api.index.loadStatus));
    const result = await vscode.commands.executeCommand<IndexRunResult>('cadenza.index.rebuild');
    assert.equal(result.status, 'complete');
    assert.ok((await search('retry failed uploads')).some((hit) => hit.path.endsWith('src/uploads.ts')));
  });

  test('links out of the workspace folder (file and folder, relative and absolute) are never embedded or found, and are counted', async () => {
    // The harness copies the workspace into a scratch folder; its parent stands for the home folder.
    const outside = path.join(path.dirname(root), 'outside-home');
    fs.mkdirSync(path.join(outside, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'credentials'), 'aws_secret_access_key = quetzalSecretKey\n');
    fs.writeFileSync(path.join(outside, '.ssh', 'config'), 'Host narwhalSecretHost\n');
    const links = ['notes.txt', 'docs/ssh', 'keys.txt', 'home'];
    fs.symlinkSync('../outside-home/credentials', path.join(root, 'notes.txt'), 'file');
    fs.symlinkSync('../../outside-home/.ssh', path.join(root, 'docs/ssh'), 'dir');
    fs.symlinkSync(path.join(outside, '.ssh', 'config'), path.join(root, 'keys.txt'), 'file');
    fs.symlinkSync(outside, path.join(root, 'home'), 'dir');
    try {
      const before = emulator().requests.length;
      const result = await vscode.commands.executeCommand<IndexRunResult>('cadenza.index.rebuild', { fromScratch: true });
      assert.equal(result.status, 'complete', JSON.stringify(result));
      assert.equal(result.linksOutside, 4, JSON.stringify(result));
      const sent = emulator()
        .requests.slice(before)
        .map((request) => JSON.stringify(request.body))
        .join('\n');
      assert.ok(!/quetzalSecretKey|narwhalSecretHost/.test(sent), 'a file outside the workspace was sent to the embeddings endpoint');
      assert.deepEqual(
        (await search('quetzalSecretKey narwhalSecretHost')).filter((hit) => /quetzal|narwhal/.test(hit.preview)),
        [],
      );
    } finally {
      for (const link of links) fs.rmSync(path.join(root, link), { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a 429 storm during a build is backed off and the build completes', async () => {
    emulator().injectFault({ kind: 'rateLimit', afterRequests: 0, retryAfter: '0.2' }, { path: '/v1/embeddings', times: 3 });
    const result = await vscode.commands.executeCommand<IndexRunResult>('cadenza.index.rebuild', { fromScratch: true });
    assert.equal(result.status, 'complete', JSON.stringify(result));
    assert.ok(result.chunksEmbedded > 0);
  });

  test('Pause stops updates until Resume', async () => {
    assert.equal(await vscode.commands.executeCommand<boolean>('cadenza.index.pause'), true);
    // The index sees file changes through a watcher like this one; once this one has fired, the change has
    // reached the extension host, and an index that did not pause would embed it after its debounce.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, 'src/fresh.ts'));
    const seen = new Promise<void>((resolve) => {
      watcher.onDidCreate(() => resolve());
      watcher.onDidChange(() => resolve());
    });
    const embedsQuokka = (): boolean =>
      emulator().requests.some((request) => request.path === '/v1/embeddings' && JSON.stringify(request.body).includes('zanzibarQuokka = 1'));
    try {
      write('src/fresh.ts', 'export const zanzibarQuokka = 1;\n');
      await seen;
    } finally {
      watcher.dispose();
    }
    // Bounded poll over the whole window in which an unpaused index would act: its debounce, then the
    // embedding itself (generous, so a slow machine cannot make a working pause look broken or vice versa).
    const debounceMs = vscode.workspace.getConfiguration('cadenza.index').get<number>('debounceMs', 1500);
    const until = Date.now() + debounceMs + 3000;
    while (Date.now() < until) {
      assert.ok(!embedsQuokka(), 'a paused index embedded a changed file');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(!(await search('zanzibarQuokka')).some((hit) => hit.path.endsWith('src/fresh.ts')), 'a paused index did not update');
    assert.equal(await vscode.commands.executeCommand<boolean>('cadenza.index.pause'), false);
    await waitFor(async () => (await search('zanzibarQuokka')).some((hit) => hit.path.endsWith('src/fresh.ts')), 'the update after resuming', 20_000);
    assert.ok(embedsQuokka(), 'resuming embedded the file changed while paused');
  });

  test("the chat's workspace toggle puts the top chunks into the prompt and cites them", async () => {
    const api = await cadenzaApi();
    await openChatView(api);
    await panel.newConversation();
    await panel.selectModel('Meta-Llama-3.3-70B-Instruct');
    emulator().scriptChat({ content: 'Uploads are retried in retryFailedUploads [1].' });
    panel.clear();
    const { answer } = await panel.send('Where do we retry failed uploads?', { useWorkspace: true });
    assert.equal(answer, 'Uploads are retried in retryFailedUploads [1].');
    const chat = emulator()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .at(-1)?.body as { messages: { role: string; content: string }[] };
    const system = chat.messages.find((message) => message.role === 'system')?.content ?? '';
    assert.match(system, /Workspace context/);
    assert.match(system, /\[1\] .*src\/uploads\.ts:\d+-\d+/);
    const done = panel.messages.find((message) => message.type === 'chat/done');
    assert.ok(done?.type === 'chat/done' && done.sources?.some((source) => source.label.includes('src/uploads.ts')), JSON.stringify(done));
  });
});
