import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningEmulator } from '../support/emulator/emulator';
import { waitFor } from './helpers';
import { useChatSuite } from './panelDriver';

const source = 'function add(a, b) {\n  return a + b;\n}\n\nfunction double(x) {\n  return x * 2;\n}\n';

async function openSource(): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument({ language: 'javascript', content: source });
  return vscode.window.showTextDocument(document);
}

function lastChatBody(emulator: RunningEmulator): { messages: { role: string; content: string }[] } {
  const request = emulator.requests.filter((entry) => entry.path === '/v1/chat/completions').at(-1);
  if (!request) throw new Error('no chat request reached the emulator');
  return request.body as { messages: { role: string; content: string }[] };
}

suite('Editor commands', () => {
  const { emulator, panel: recorder } = useChatSuite('Meta-Llama-3.1-8B-Instruct');

  test('Explain Selection sends the selection with file and language, streams into the chat, and returns the answer', async () => {
    const editor = await openSource();
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    emulator().scriptChat({ content: 'It adds two numbers.' });
    const answer = await vscode.commands.executeCommand<string>('cadenza.explainSelection');
    assert.equal(answer, 'It adds two numbers.');
    const prompt = lastChatBody(emulator()).messages.at(-1)?.content ?? '';
    assert.match(prompt, /Explain/);
    assert.match(prompt, /lines 1-3,/);
    assert.match(prompt, /```javascript\nfunction add\(a, b\) \{\n {2}return a \+ b;\n\}\n```/);
    assert.doesNotMatch(prompt, /double/);
    assert.ok(recorder().messages.some((message) => message.type === 'chat/done'));
  });

  test('Explain Selection with nothing selected explains the line (or function) at the cursor', async () => {
    const editor = await openSource();
    editor.selection = new vscode.Selection(5, 4, 5, 4);
    emulator().scriptChat({ content: 'Doubles x.' });
    assert.equal(await vscode.commands.executeCommand<string>('cadenza.explainSelection'), 'Doubles x.');
    const prompt = lastChatBody(emulator()).messages.at(-1)?.content ?? '';
    assert.match(prompt, /return x \* 2;/);
  });

  test('Add Selection to Chat puts the code in the composer as a context block', async () => {
    const editor = await openSource();
    // Whole lines selected the usual way: the selection ends at column 0 of the next line.
    editor.selection = new vscode.Selection(0, 0, 3, 0);
    const text = await vscode.commands.executeCommand<string>('cadenza.addSelectionToChat');
    assert.equal(text, 'function add(a, b) {\n  return a + b;\n}\n');
    await waitFor(() => recorder().messages.some((message) => message.type === 'composer/addContext'), 'composer/addContext');
    const block = recorder().messages.find((message) => message.type === 'composer/addContext');
    assert.ok(block?.type === 'composer/addContext' && block.language === 'javascript' && /:1-3$/.test(block.label));
  });
  // Ask About Selection and Rewrite Selection take no arguments: their input boxes, diff and Apply prompt
  // are driven in the real workbench (test/ui/editorCommands.ui.mjs).
});
