import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningEmulator } from '../emulator/index';
import { useChatSuite, waitFor } from './helpers';

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

  test('Ask About Selection takes the question as its argument', async () => {
    const editor = await openSource();
    editor.selection = new vscode.Selection(4, 0, 6, 1);
    emulator().scriptChat({ content: 'Yes, it is pure.' });
    const answer = await vscode.commands.executeCommand<string>('cadenza.askAboutSelection', 'Is this pure?');
    assert.equal(answer, 'Yes, it is pure.');
    assert.match(lastChatBody(emulator()).messages.at(-1)?.content ?? '', /^Is this pure\?/);
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

  test('Rewrite Selection applies the accepted rewrite as one undoable edit', async () => {
    const editor = await openSource();
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    emulator().scriptChat({ content: '```javascript\nconst add = (a, b) => a + b;\n```' });
    const proposed = await vscode.commands.executeCommand<string>('cadenza.rewriteSelection', { instruction: 'Use an arrow function', accept: true });
    assert.equal(proposed, 'const add = (a, b) => a + b;');
    assert.ok(editor.document.getText().startsWith('const add = (a, b) => a + b;\n\nfunction double'));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), source, 'one undo restores the original');
  });

  test('Rewrite Selection does not overwrite a document that changed meanwhile', async () => {
    const editor = await openSource();
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    emulator().setLatency(800);
    emulator().scriptChat({ content: 'REWRITTEN' });
    const rewriting = vscode.commands.executeCommand<string>('cadenza.rewriteSelection', { instruction: 'anything', accept: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const meanwhile = new vscode.WorkspaceEdit();
    meanwhile.insert(editor.document.uri, new vscode.Position(7, 0), '// typed meanwhile\n');
    assert.ok(await vscode.workspace.applyEdit(meanwhile));
    assert.equal(await rewriting, 'REWRITTEN');
    assert.doesNotMatch(editor.document.getText(), /REWRITTEN/);
    assert.match(editor.document.getText(), /typed meanwhile/);
  });

  test('Rejecting a rewrite leaves the document alone', async () => {
    const editor = await openSource();
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    emulator().scriptChat({ content: 'REJECTED TEXT' });
    await vscode.commands.executeCommand<string>('cadenza.rewriteSelection', { instruction: 'anything', accept: false });
    assert.equal(editor.document.getText(), source);
  });
});
