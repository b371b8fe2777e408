// What the checkpoint suites share: one agent turn that edits src/greeting.ts and creates
// src/checkpointed.ts (scripted in the emulator, approved by the test-mode policy), and putting a file back
// through its open document so that editor and disk agree.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { RunningEmulator } from '../support/emulator/emulator';
import type { CadenzaApi } from '../../src/host/extension';
import type { CheckpointView } from '../../src/shared/views';
import type { Panel } from './panelDriver';

/** Writes a file through its open document when there is one, so editor and disk agree. */
export async function putBack(file: string, text: string): Promise<void> {
  const document = vscode.workspace.textDocuments.find((entry) => entry.uri.fsPath === file);
  if (!document) {
    fs.writeFileSync(file, text);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
  await vscode.workspace.applyEdit(edit);
  await document.save();
}

/** One agent turn, sent in the panel, that edits src/greeting.ts and creates src/checkpointed.ts, both approved by the policy; resolves with the checkpoint the panel shows. */
export async function editingTurn(
  api: CadenzaApi,
  panel: Panel,
  emulator: RunningEmulator,
  greetingFile: string,
  createdFile: string,
): Promise<CheckpointView> {
  api.agent.setApprovalPolicy(() => 'approve');
  emulator.scriptChat({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/greeting.ts' }, id: 'call_cp_read' }] });
  emulator.scriptChat({
    toolCalls: [
      {
        name: 'edit_file',
        arguments: { path: 'src/greeting.ts', old_text: 'return `Hello, ${name}!`;', new_text: 'return `Hi, ${name}!`;' },
        id: 'call_cp_edit',
      },
      { name: 'create_file', arguments: { path: 'src/checkpointed.ts', content: 'export const made = true;\n' }, id: 'call_cp_create' },
    ],
  });
  emulator.scriptChat({ content: 'Done: shorter greeting and a new file.' });
  assert.equal((await panel.send('Shorten the greeting and add a file.')).answer, 'Done: shorter greeting and a new file.');
  assert.match(fs.readFileSync(greetingFile, 'utf8'), /Hi, \$\{name\}!/);
  assert.equal(fs.readFileSync(createdFile, 'utf8'), 'export const made = true;\n');
  const last = (await panel.conversation()).messages.at(-1);
  assert.ok(last?.checkpoint, 'the turn\u2019s last step keeps the checkpoint');
  return last.checkpoint;
}
