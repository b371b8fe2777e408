import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cadenzaApi, manifestCommands, openChatView, useEmulator, waitFor } from './helpers';
import type { RunningEmulator } from '../support/emulator/emulator';
import { loadFixtures } from '../unit/audio/fixtures';

/** How a command is run here without a user: its arguments, what it must return, what it needs first. */
interface CommandRun {
  readonly args?: (emulator: RunningEmulator) => readonly unknown[];
  /** Checks the command's result; absent means "it resolves without throwing". */
  readonly check?: (result: unknown, emulator: RunningEmulator) => void | Promise<void>;
  /** Puts the workbench into the state the command works on (an editor with a selection). */
  readonly before?: () => Promise<void>;
  /**
   * Answers what the command asks while it runs, the way a user who changes their mind does: for a command
   * that takes no arguments and asks in an input box (its answered path is a UI test).
   */
  readonly answer?: (running: Promise<unknown>) => Promise<void>;
}

/**
 * Dismisses the input box the running command shows (Escape), polling until the command settles: an
 * extension host cannot see the box, only the command's end.
 */
async function dismissInputBox(running: Promise<unknown>): Promise<void> {
  let settled = false;
  void running.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await waitFor(
    async () => {
      if (!settled) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return settled;
    },
    'the command to end once its input box is dismissed',
    15_000,
  );
}

/** Chat requests the emulator received so far. */
const chatCount = (emulator: RunningEmulator): number => emulator.requests.filter((request) => request.path === '/v1/chat/completions').length;

const chatModel = 'Meta-Llama-3.1-8B-Instruct';

/** Opens a fixture file and selects all of it: the selection commands work on it. */
async function selectFixtureFile(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace is not open');
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder.uri.fsPath, 'src', 'greeting.ts')));
  const editor = await vscode.window.showTextDocument(document);
  editor.selection = new vscode.Selection(0, 0, document.lineCount, 0);
}

function isNonEmptyString(result: unknown, what: string): void {
  assert.equal(typeof result, 'string', `${what} returned ${JSON.stringify(result)}`);
  assert.ok((result as string).length > 0, `${what} returned an empty string`);
}

/**
 * Every contributed command, in the order they run here (later ones need the key and model set by
 * earlier ones). A command added to package.json without an entry fails "every contributed command has
 * a run"; its entry may stay minimal when a dedicated suite tests it in depth.
 */
const runs: ReadonlyMap<string, CommandRun> = new Map<string, CommandRun>([
  ['cadenza.setApiKey', { args: (emulator) => [emulator.key], check: (result) => assert.equal(result, true) }],
  ['cadenza.showLog', {}],
  ['cadenza.openChat', {}],
  // Its effect (an empty conversation, the next question sent without the earlier turns): chat.test.ts.
  ['cadenza.newChat', {}],
  [
    'cadenza.refreshModels',
    {
      check: (result, emulator) => {
        assert.ok(Array.isArray(result), `returned ${JSON.stringify(result)}`);
        for (const model of emulator.models) assert.ok(result.includes(model.id), `${model.id} missing from ${JSON.stringify(result)}`);
      },
    },
  ],
  ['cadenza.selectModel', { args: () => [chatModel], check: (result) => assert.equal(result, chatModel) }],
  ['cadenza.addSelectionToChat', { before: selectFixtureFile, check: (result) => assert.match(String(result), /export function greeting/) }],
  ['cadenza.explainSelection', { before: selectFixtureFile, check: (result) => isNonEmptyString(result, 'explainSelection') }],
  // Both ask first and take no arguments: dismissed, they send nothing (answered: test/ui/editorCommands.ui.mjs).
  ['cadenza.askAboutSelection', { before: selectFixtureFile, answer: dismissInputBox, check: (result) => assert.equal(result, undefined) }],
  ['cadenza.rewriteSelection', { before: selectFixtureFile, answer: dismissInputBox, check: (result) => assert.equal(result, undefined) }],
  [
    'cadenza.transcribeAudio',
    {
      args: () => [audioFixture(), { model: 'Whisper-Large-v3', language: 'en', output: 'none' }],
      check: (result) => assert.equal((result as { status?: string }[])[0]?.status, 'done', JSON.stringify(result)),
    },
  ],
  // With the model and language given, Transcribe with Options… has nothing left to ask (its pickers: audio.test.ts).
  [
    'cadenza.transcribeAudioWithOptions',
    {
      args: () => [audioFixture(), { model: 'Whisper-Large-v3', language: 'en', output: 'none' }],
      check: (result) => assert.equal((result as { status?: string }[])[0]?.status, 'done', JSON.stringify(result)),
    },
  ],
  [
    'cadenza.translateAudio',
    {
      args: () => [[audioFixture()], { model: 'Qwen2-Audio-7B-Instruct', language: 'de', output: 'none' }],
      check: (result) => assert.equal((result as { status?: string }[])[0]?.status, 'done', JSON.stringify(result)),
    },
  ],
  [
    'cadenza.askAboutAudio',
    {
      args: () => [audioFixture(), { model: 'Qwen2-Audio-7B-Instruct', question: 'What is said?' }],
      check: (result) => isNonEmptyString(result, 'askAboutAudio'),
    },
  ],
  ['cadenza.index.rebuild', { check: (result) => assert.equal((result as { status?: string }).status, 'complete', JSON.stringify(result)) }],
  // Clearing (an empty argument) returns false; the team-index suite stores a real connection.
  ['cadenza.index.setTeamConnection', { args: () => [''], check: (result) => assert.equal(result, false) }],
  ['cadenza.index.status', { check: (result) => assert.ok((result as { chunks?: number }).chunks !== undefined, JSON.stringify(result)) }],
  [
    'cadenza.search',
    {
      args: () => ['greeting'],
      check: (result) =>
        assert.ok(Array.isArray(result) && result.some((hit: { path?: string }) => hit.path?.endsWith('greeting.ts') === true), JSON.stringify(result)),
    },
  ],
  // Creates .cadenza/instructions.md (instructions.test.ts tests it in depth); removed again right after.
  [
    'cadenza.createInstructions',
    {
      check: async (result) => {
        assert.ok(typeof result === 'string' && result.endsWith('.cadenza/instructions.md'), JSON.stringify(result));
        const folder = vscode.Uri.joinPath(vscode.Uri.parse(result), '..');
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
        await vscode.workspace.fs.delete(folder, { recursive: true });
      },
    },
  ],
  // Creates the profile's commands-check.prompt.md and opens it (promptFiles.test.ts tests it in depth); removed again right after.
  [
    'cadenza.newPromptFile',
    {
      args: () => ['commands-check', 'profile'],
      check: async (result) => {
        assert.ok(typeof result === 'string' && result.endsWith('/prompts/commands-check.prompt.md'), JSON.stringify(result));
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
        await vscode.workspace.fs.delete(vscode.Uri.parse(result));
      },
    },
  ],
  // Leaves the index paused; the next Rebuild Index (a later suite's) resumes it. Its effect (a paused index
  // embeds no changed file until Resume): semanticIndex.test.ts.
  ['cadenza.index.pause', { check: (result) => assert.equal(typeof result, 'boolean') }],
  // An explicit value, so completions stay off for later suites; completions.test.ts tests them in depth.
  ['cadenza.toggleCompletions', { args: () => [false], check: (result) => assert.equal(result, false) }],
  // Its effect (nothing sent while snoozed, requests again after Resume or the snooze's end): completionControls.test.ts.
  ['cadenza.snoozeCompletions', { args: () => [0] }],
  // Its effect (the key gone from SecretStorage, no request carrying it): secrets.test.ts.
  ['cadenza.clearApiKey', {}],
]);

/** A generated speech fixture (test/support/fixtures/audio, cached outside the repo). */
function audioFixture(): vscode.Uri {
  const entry = loadFixtures().files.find((candidate) => candidate.name === 'wav-pcm16-mono-16k.wav');
  assert.ok(entry, 'the audio fixtures were not generated');
  return vscode.Uri.file(entry.path);
}

suite('Commands', () => {
  const emulator = useEmulator();
  suiteSetup(async () => {
    await cadenzaApi();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('cadenza.clearApiKey');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('every contributed command has a run here, and has the "Cadenza" category', () => {
    const contributed = manifestCommands()
      .map((command) => command.command)
      .sort();
    assert.deepEqual(contributed, [...runs.keys()].sort());
    for (const command of manifestCommands()) assert.equal(command.category, 'Cadenza', `${command.command} has no "Cadenza" category`);
  });

  test('every contributed command is registered', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifestCommands()
      .map((command) => command.command)
      .filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `not registered: ${missing.join(', ')}`);
  });

  for (const [id, run] of runs) {
    test(`${id} runs`, async () => {
      await run.before?.();
      const requestsBefore = chatCount(emulator());
      const running = Promise.resolve(vscode.commands.executeCommand<unknown>(id, ...(run.args?.(emulator()) ?? [])));
      if (run.answer) {
        await run.answer(running);
        assert.equal(chatCount(emulator()), requestsBefore, `${id} sent a chat request although its question was dismissed`);
      }
      const result: unknown = await running;
      await run.check?.(result, emulator());
    });
  }

  test('cadenza.openChat reveals the chat view', async () => {
    const api = await cadenzaApi();
    await openChatView(api);
    assert.equal(api.chatView.isResolved, true);
  });

  test('cadenza.showLog opens the "Cadenza" output channel', async () => {
    await vscode.commands.executeCommand('cadenza.showLog');
    // An output channel shown in the Output panel is backed by a text document of scheme "output".
    const isCadenzaLog = (document: vscode.TextDocument): boolean => document.uri.scheme === 'output' && /cadenza/i.test(document.uri.toString());
    await waitFor(
      () => vscode.workspace.textDocuments.some(isCadenzaLog),
      () => `a Cadenza output document among: ${vscode.workspace.textDocuments.map((document) => document.uri.toString()).join(', ')}`,
      10_000,
    );
  });

  test('the fixture file is unchanged after the dismissed rewrite', async () => {
    // The document the rewrite ran on: VS Code may have released it once its editor closed (it does so when
    // it holds no unsaved change), and then opening it again reads the file from disk, which must be unchanged too.
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'src', 'greeting.ts'));
    assert.equal(document.isDirty, false);
    assert.match(document.getText(), /export function greeting\(name: string\)/);
  });
});
