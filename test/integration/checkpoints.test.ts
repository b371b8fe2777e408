// Checkpoints of agent turns in the real extension host: the emulator scripts the agent's edits, the
// test-mode approval policy approves them, and the turn's checkpoint is then shown, survives a reload of
// the panel and a new store over the same folder, opens as one multi-file diff, and "Restore to before
// this turn" puts every file back (a created one deleted) after naming the file the user changed since.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CheckpointStore } from '../../src/core/chat/checkpoints';
import type { CadenzaApi } from '../../src/host/extension';
import type { CheckpointView } from '../../src/shared/views';
import { editingTurn as editingTurnIn, putBack } from './checkpointTurns';
import { cadenzaApi, openChatView, spyOnDialogs, storedConversation, useEmulator, waitFor } from './helpers';
import { drivePanel, type Panel } from './panelDriver';

const toolModel = 'Meta-Llama-3.3-70B-Instruct';

suite('Agent checkpoints: record, reload, show, restore', () => {
  const emulator = useEmulator();
  let api: CadenzaApi;
  let panel: Panel;
  let root: string;
  let original: string;
  const greetingFile = (): string => path.join(root, 'src', 'greeting.ts');
  const createdFile = (): string => path.join(root, 'src', 'checkpointed.ts');

  suiteSetup(async () => {
    api = await cadenzaApi();
    panel = drivePanel(api);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    root = folder.uri.fsPath;
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
    await putBack(greetingFile(), original);
    fs.rmSync(createdFile(), { force: true });
  });
  suiteTeardown(async () => {
    panel.dispose();
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const editingTurn = (): Promise<CheckpointView> => editingTurnIn(api, panel, emulator(), greetingFile(), createdFile());

  test('an editing turn records a checkpoint that survives a reload and a new store, and restore puts the files back', async () => {
    const checkpoint = await editingTurn();
    assert.deepEqual(checkpoint.files, [
      { path: 'src/greeting.ts', change: 'edited' },
      { path: 'src/checkpointed.ts', change: 'created' },
    ]);
    assert.ok(
      panel.messages.some((message) => message.type === 'checkpoint/update' && message.checkpoint.id === checkpoint.id),
      'the panel is shown the checkpoint',
    );

    // A reload of the panel shows it again from the stored conversation.
    panel.clear();
    await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
    await waitFor(
      () =>
        panel.messages.some(
          (message) => message.type === 'conversation/show' && message.conversation.messages.some((entry) => entry.checkpoint?.id === checkpoint.id),
        ),
      'the checkpoint in the conversation after a reload',
    );
    await openChatView(api);
    // A new store over the same folder (what the next window opens) has the texts before the turn.
    const reopened = new CheckpointStore(api.agent.checkpoints.store.root);
    const stored = await reopened.load(checkpoint.id);
    assert.ok(stored);
    // It names the folder it was recorded in: only a window with that folder restores it.
    assert.deepEqual(stored.folders, [{ name: vscode.workspace.workspaceFolders?.[0]?.name, fsPath: root }]);
    const before = stored.files[0]?.before;
    assert.equal(typeof before === 'string' ? await reopened.getText(before) : undefined, original);
    assert.equal(stored.files[1]?.before, null);

    const dialogs = spyOnDialogs((call) => (call.kind === 'warning' ? 'Restore' : undefined));
    try {
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), true);
    } finally {
      dialogs.restore();
    }
    assert.equal(dialogs.calls.length, 1);
    assert.match(dialogs.calls[0]?.message ?? '', /^Restore 2 files to before this turn \(src\/greeting\.ts, src\/checkpointed\.ts\)\?/);
    assert.equal(fs.readFileSync(greetingFile(), 'utf8'), original);
    assert.equal(fs.existsSync(createdFile()), false, 'the file the turn created is deleted');
    const marked = (await storedConversation(api, (await panel.conversation()).id))?.messages.find((message) => message.checkpoint?.id === checkpoint.id);
    assert.equal(typeof marked?.checkpoint?.restoredAt, 'number');
    await waitFor(
      () => panel.messages.some((message) => message.type === 'checkpoint/update' && message.checkpoint.restoredAt !== undefined),
      'the panel told the turn is restored',
    );
  });

  test('restore names a file changed after the turn, and cancelling it changes nothing', async () => {
    const checkpoint = await editingTurn();
    const userText = fs.readFileSync(greetingFile(), 'utf8').replace('Hi,', 'Hey there,');
    await putBack(greetingFile(), userText);
    const dialogs = spyOnDialogs(() => undefined);
    try {
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), false);
    } finally {
      dialogs.restore();
    }
    assert.match(dialogs.calls[0]?.message ?? '', /These changed after the turn, and those changes will be overwritten: src\/greeting\.ts\./);
    assert.equal(fs.readFileSync(greetingFile(), 'utf8'), userText, 'cancelled: nothing overwritten');
    assert.equal(fs.existsSync(createdFile()), true);

    const confirm = spyOnDialogs((call) => (call.kind === 'warning' ? 'Restore' : undefined));
    try {
      assert.equal(await panel.restoreCheckpoint(checkpoint.id), true);
    } finally {
      confirm.restore();
    }
    assert.equal(fs.readFileSync(greetingFile(), 'utf8'), original);
    // One undo takes the whole restore back.
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(greetingFile()));
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    await waitFor(() => document.getText() === userText, 'undo to bring back the text before the restore');
  });

  test('Show changes opens the turn as one multi-file diff of the texts before and after it', async () => {
    const checkpoint = await editingTurn();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await api.agent.checkpoints.showChanges(checkpoint.id), true);
    // The multi-diff editor's tab input is not in the stable API's types; its label is the title given.
    const tabs = (): vscode.Tab[] =>
      vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label.startsWith('Cadenza: changes of one agent turn (2 files)'));
    await waitFor(
      () => tabs().length === 1,
      () =>
        `one multi-file diff editor (tabs: ${vscode.window.tabGroups.all
          .flatMap((group) => group.tabs)
          .map((tab) => tab.label)
          .join(', ')})`,
    );
    assert.ok(!(tabs()[0]?.input instanceof vscode.TabInputTextDiff), 'one editor for all files, not a diff per file');
    // What its sides show: the stored texts before and after the turn.
    const stored = await api.agent.checkpoints.store.load(checkpoint.id);
    const greeting = stored?.files.find((file) => file.path === 'src/greeting.ts');
    assert.ok(greeting);
    const side = (hash: string | null): vscode.Uri => vscode.Uri.from({ scheme: 'cadenza-checkpoint', path: `/${hash ?? '-'}/src/greeting.ts` });
    assert.equal((await vscode.workspace.openTextDocument(side(greeting.before))).getText(), original);
    assert.match((await vscode.workspace.openTextDocument(side(greeting.after))).getText(), /Hi, \$\{name\}!/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
