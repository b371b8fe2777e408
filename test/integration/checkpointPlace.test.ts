// Checkpoints belong to the window whose folders their turn ran in. Conversations and checkpoints live in
// the extension's global storage, which every window shares: a turn of project A seen in project B's
// window must not restore A's texts over B's files. Here, in the real extension host, a turn recorded in
// this window is rewritten to name another project's folder (what project A's window would have stored),
// and then: the panel names that folder instead of offering Restore, and Restore refuses even for a user
// who would confirm anything. Restricted Mode never restores; a checkpoint from before folders were kept
// asks first, naming the doubt; a file the user deleted after the turn comes back; and the pruning
// settings prune this workspace's checkpoints only.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Checkpoint } from '../../src/core/chat/checkpoints';
import type { FolderRoot } from '../../src/core/tools/workspacePaths';
import type { CadenzaApi } from '../../src/host/extension';
import type { CheckpointView } from '../../src/shared/views';
import { editingTurn as editingTurnIn, putBack } from './checkpointTurns';
import { cadenzaApi, openChatView, spyOnDialogs, storedConversation, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';
const day = 86_400_000;

suite('Agent checkpoints: restored only in their own window, never in Restricted Mode', () => {
  const emulator = useEmulator();
  let api: CadenzaApi;
  let panel: Panel;
  let root: string;
  let here: FolderRoot[];
  let original: string;
  /** Project A's folder: it need not exist, a window of its own would have it open. */
  const projectA: FolderRoot[] = [{ name: 'project-a', fsPath: path.join(os.tmpdir(), 'cadenza-project-a') }];
  const greetingFile = (): string => path.join(root, 'src', 'greeting.ts');
  const createdFile = (): string => path.join(root, 'src', 'checkpointed.ts');
  const editingTurn = (): Promise<CheckpointView> => editingTurnIn(api, panel, emulator(), greetingFile(), createdFile());

  /**
   * Stores checkpoint `id` again as recorded in `folders` (null: before folders were kept), in the checkpoint
   * store and in the open conversation's file, as project A's window (or an earlier Cadenza) would have left
   * them in the shared storage; then this window opens the conversation from that file.
   */
  const recordedIn = async (id: string, folders: FolderRoot[] | null): Promise<void> => {
    const store = api.agent.checkpoints.store;
    const stored = await store.load(id);
    assert.ok(stored);
    const rewritten: Checkpoint = {
      id: stored.id,
      conversationId: stored.conversationId,
      messageId: stored.messageId,
      createdAt: stored.createdAt,
      files: stored.files,
      ...(folders ? { folders } : {}),
    };
    await store.save(rewritten);
    const conversationId = (await panel.conversation()).id;
    const file = path.join(api.storage.conversationsFolder, `${conversationId}.json`);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: { checkpoint?: { id: string; files: unknown; folders?: unknown } }[] };
    const message = saved.messages.find((entry) => entry.checkpoint?.id === id);
    assert.ok(message?.checkpoint);
    message.checkpoint = { id, files: message.checkpoint.files, ...(folders ? { folders } : {}) };
    fs.writeFileSync(`${file}.rewritten`, JSON.stringify(saved));
    fs.renameSync(`${file}.rewritten`, file);
    // Another conversation first: the open one is held in memory, and switching back reads the file.
    await panel.newConversation();
    await panel.switchTo(conversationId);
  };
  const turnState = (): { greeting: string; created: boolean } => ({
    greeting: fs.readFileSync(greetingFile(), 'utf8'),
    created: fs.existsSync(createdFile()),
  });

  suiteSetup(async () => {
    api = await cadenzaApi();
    panel = drivePanel(api);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    root = folder.uri.fsPath;
    here = [{ name: folder.name, fsPath: root }];
    original = fs.readFileSync(greetingFile(), 'utf8');
    await vscode.commands.executeCommand('cadenza.setApiKey', emulator().key);
    await openChatView(api);
    await vscode.commands.executeCommand('cadenza.refreshModels');
  });
  setup(async () => {
    emulator().reset();
    await panel.newConversation();
    await panel.selectModel(toolModel);
    panel.clear();
  });
  teardown(async () => {
    api.agent.setApprovalPolicy(undefined);
    api.agent.overrideTrust(undefined);
    await putBack(greetingFile(), original);
    fs.rmSync(createdFile(), { force: true });
  });
  suiteTeardown(async () => {
    panel.dispose();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a turn recorded in another project\u2019s folder: the panel names that folder instead of Restore, and Restore refuses and says where it belongs', async () => {
    const checkpoint = await editingTurn();
    await recordedIn(checkpoint.id, projectA);
    const before = turnState();

    // The panel, shown the conversation again, is told where the turn belongs (it then offers no Restore).
    panel.clear();
    await panel.switchTo((await panel.conversation()).id);
    const shown = (): CheckpointView | undefined =>
      panel.messages
        .flatMap((message) => (message.type === 'conversation/show' ? message.conversation.messages : []))
        .find((message) => message.checkpoint?.id === checkpoint.id)?.checkpoint;
    await waitFor(() => shown() !== undefined, 'the conversation shown again');
    assert.deepEqual(shown()?.recordedIn, [projectA[0]?.fsPath]);

    // A user who would confirm anything still restores nothing.
    const dialogs = spyOnDialogs((call) => call.items.find((item) => item.startsWith('Restore')));
    try {
      assert.equal(await api.agent.checkpoints.restore(checkpoint.id), 'refused');
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), false);
    } finally {
      dialogs.restore();
    }
    assert.deepEqual(turnState(), before, 'no file of this window changed');
    assert.equal(dialogs.calls.length, 2);
    for (const call of dialogs.calls) {
      assert.equal(call.kind, 'warning');
      assert.ok(call.message.includes(`recorded in ${projectA[0]?.fsPath}`), call.message);
      assert.ok(call.message.includes(root), `the message names this window's folder too: ${call.message}`);
      assert.ok(!call.items.some((item) => item.startsWith('Restore')), `nothing to confirm: ${call.items.join(', ')}`);
    }
    const message = (await storedConversation(api, (await panel.conversation()).id))?.messages.find((entry) => entry.checkpoint?.id === checkpoint.id);
    assert.equal(message?.checkpoint?.restoredAt, undefined, 'the turn is not marked restored');
  });

  test('in Restricted Mode Restore refuses and says why; trusted again, it restores', async () => {
    const checkpoint = await editingTurn();
    const before = turnState();
    api.agent.overrideTrust(false);
    const dialogs = spyOnDialogs((call) => call.items.find((item) => item.startsWith('Restore')));
    try {
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), false);
    } finally {
      dialogs.restore();
    }
    assert.deepEqual(turnState(), before, 'nothing restored in Restricted Mode');
    assert.equal(dialogs.calls.length, 1);
    assert.match(dialogs.calls[0]?.message ?? '', /^Restricted Mode: Cadenza does not restore checkpoints/);

    api.agent.overrideTrust(undefined);
    const confirm = spyOnDialogs((call) => (call.kind === 'warning' ? 'Restore' : undefined));
    try {
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), true);
    } finally {
      confirm.restore();
    }
    assert.deepEqual(turnState(), { greeting: original, created: false });
  });

  test('a checkpoint recorded before folders were kept is restored only after a question that names the doubt', async () => {
    const checkpoint = await editingTurn();
    await recordedIn(checkpoint.id, null);
    const before = turnState();
    const dialogs = spyOnDialogs(() => undefined);
    try {
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), false);
    } finally {
      dialogs.restore();
    }
    assert.deepEqual(turnState(), before, 'not answered: nothing restored');
    assert.match(
      dialogs.calls[0]?.message ?? '',
      /was recorded before Cadenza kept each turn's folders, so it cannot tell whether its files are this window's/,
    );
    assert.ok(dialogs.calls[0]?.message.includes(root), dialogs.calls[0]?.message);
    assert.deepEqual(dialogs.calls[0]?.items, ['Restore Here']);

    const confirm = spyOnDialogs((call) => (call.kind === 'warning' ? 'Restore Here' : undefined));
    try {
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), true);
    } finally {
      confirm.restore();
    }
    assert.deepEqual(turnState(), { greeting: original, created: false });
  });

  test('a file the turn edited and the user deleted since is named, and restore creates it again with its text before the turn', async () => {
    const checkpoint = await editingTurn();
    // Deleted on disk, as `rm` in a terminal or another program would: VS Code may still hold its document.
    fs.rmSync(greetingFile());
    const dialogs = spyOnDialogs((call) => (call.kind === 'warning' ? 'Restore' : undefined));
    try {
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), true);
    } finally {
      dialogs.restore();
    }
    assert.match(dialogs.calls[0]?.message ?? '', /These changed after the turn, and those changes will be overwritten: src\/greeting\.ts\./);
    assert.equal(fs.readFileSync(greetingFile(), 'utf8'), original, 'the deleted file is back with its text before the turn');
    assert.equal(fs.existsSync(createdFile()), false);

    // The same after a reload, when no document of the deleted file is open any more: a checkpoint of a
    // file this window never opened, deleted since (a restore that took it for existing would fail to open it).
    const id = `deleted-${Date.now()}`;
    const name = `src/${id}.ts`;
    const store = api.agent.checkpoints.store;
    const files = [{ path: name, before: await store.putText('export const kept = 1;\n'), after: await store.putText('export const kept = 2;\n') }];
    await store.save({ id, conversationId: 'seeded', messageId: id, createdAt: Date.now(), folders: here, files });
    assert.ok(!vscode.workspace.textDocuments.some((document) => document.uri.fsPath === path.join(root, name)));
    const again = spyOnDialogs((call) => (call.kind === 'warning' ? 'Restore' : undefined));
    try {
      assert.equal(await api.agent.checkpoints.restore(id), 'restored');
    } finally {
      again.restore();
      await store.remove(id);
    }
    assert.match(again.calls[0]?.message ?? '', new RegExp(`overwritten: ${name.replace(/[.]/g, '\\.')}\\.`));
    assert.equal(fs.readFileSync(path.join(root, name), 'utf8'), 'export const kept = 1;\n');
    fs.rmSync(path.join(root, name), { force: true });
  });

  test('maxAgeDays and maxMegabytes prune this workspace\u2019s old and over-budget checkpoints, and leave other projects\u2019 alone', async () => {
    const store = api.agent.checkpoints.store;
    const config = vscode.workspace.getConfiguration('cadenza.agent.checkpoints');
    const seeded: string[] = [];
    const befores = new Map<string, string>();
    const text = (letter: string, kilobytes: number): string => letter.repeat(kilobytes * 1024);
    const seed = async (id: string, ageDays: number, before: string, folders: FolderRoot[] | null): Promise<void> => {
      const files = [{ path: 'src/greeting.ts', before: await store.putText(before), after: await store.putText(`${id} after`) }];
      await store.save({ id, conversationId: 'seeded', messageId: id, createdAt: Date.now() - ageDays * day, files, ...(folders ? { folders } : {}) });
      seeded.push(id);
      befores.set(id, before);
    };
    await config.update('maxAgeDays', 5, vscode.ConfigurationTarget.Global);
    await config.update('maxMegabytes', 1, vscode.ConfigurationTarget.Global);
    try {
      await seed('seed-here-old', 10, text('a', 1), here);
      await seed('seed-here-big-older', 3, text('b', 600), here);
      await seed('seed-here-big-newer', 2, text('c', 600), here);
      await seed('seed-other-old', 300, text('d', 1), projectA);
      await seed('seed-other-big', 1, text('e', 2048), projectA);
      await seed('seed-unscoped', 10, text('f', 1), null);
      // The turn's checkpoint is the newest; recording it prunes by this window's settings.
      await editingTurn();
      const left = new Set((await store.list()).map((entry) => entry.id));
      assert.deepEqual(
        seeded.filter((id) => !left.has(id)),
        ['seed-here-old', 'seed-here-big-older'],
        'pruned: this workspace\u2019s checkpoint older than 5 days, and its oldest beyond 1 MB',
      );
      // What stays keeps its texts: blobs another project's checkpoint needs are not this window's to delete.
      for (const id of ['seed-here-big-newer', 'seed-other-old', 'seed-other-big', 'seed-unscoped']) {
        const kept = await store.load(id);
        assert.equal(await store.getText(kept?.files[0]?.before ?? ''), befores.get(id), `${id} keeps its text before`);
      }
    } finally {
      await config.update('maxAgeDays', undefined, vscode.ConfigurationTarget.Global);
      await config.update('maxMegabytes', undefined, vscode.ConfigurationTarget.Global);
      for (const id of seeded) await store.remove(id);
    }
  });
});
