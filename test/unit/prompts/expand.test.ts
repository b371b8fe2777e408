// Filling in a prompt file's variables: the editor's selection and file, the workspace folder, and
// `${input:…}` asked of the user once per name through a port; unknown variables stay as written with a
// note; a prompt that needs a selection (or a file) it does not have is refused with a clear message
// before anything is asked.
import assert from 'node:assert/strict';
import { expandPrompt, promptMessage, promptVariables, type PromptContext, type PromptInputPort } from '../../../src/core/prompts/expand';
import { promptFileTemplate } from '../../../src/core/prompts/template';
import { parsePromptFile } from '../../../src/core/prompts/promptFile';
import { PromptError, promptNoteMessage } from '../../../src/core/prompts/promptError';

const context: PromptContext = {
  selection: 'return a + b;',
  file: '/work/app/src/math.ts',
  workspaceFolder: '/work/app',
};

function answers(values: Record<string, string | undefined>): PromptInputPort & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    ask: (name, placeholder) => {
      asked.push(placeholder === undefined ? name : `${name}:${placeholder}`);
      return Promise.resolve(values[name]);
    },
  };
}

async function expandError(body: string, ctx: PromptContext, input = answers({})): Promise<PromptError> {
  try {
    await expandPrompt({ name: 'p', body }, ctx, input);
  } catch (error) {
    if (PromptError.is(error)) return error;
    throw error;
  }
  assert.fail('the prompt expanded');
}

describe('prompts/expand', () => {
  it('fills in the selection, the file, its name and folder, and the workspace folder', async () => {
    const expanded = await expandPrompt(
      {
        name: 'review',
        body: 'Review ${selection} (also ${selectedText}) in ${file}: ${fileBasename}, ${fileBasenameNoExtension}, ${fileDirname}; root ${workspaceFolder} (${workspaceFolderBasename}).',
      },
      context,
      answers({}),
    );
    assert.equal(expanded.text, 'Review return a + b; (also return a + b;) in /work/app/src/math.ts: math.ts, math, /work/app/src; root /work/app (app).');
    assert.deepEqual(expanded.notes, []);
  });

  it('asks for each ${input:…} once, in order, with its placeholder, and fills every use', async () => {
    const input = answers({ topic: 'retries', tone: 'short' });
    const expanded = await expandPrompt(
      { name: 'doc', body: 'Write about ${input:topic:what to document} in a ${input:tone} way; ${input:topic} again.' },
      context,
      input,
    );
    assert.deepEqual(input.asked, ['topic:what to document', 'tone']);
    assert.equal(expanded.text, 'Write about retries in a short way; retries again.');
    assert.deepEqual(expanded.inputs, { topic: 'retries', tone: 'short' });
  });

  it('is cancelled when the user dismisses an input, and leaves unknown variables as written with a note', async () => {
    const cancelled = await expandError('Topic ${input:topic}', context, answers({}));
    assert.equal(cancelled.reason, 'cancelled');
    assert.deepEqual(cancelled.fault, { kind: 'noInput', prompt: 'p', input: 'topic' });
    const expanded = await expandPrompt({ name: 'p', body: 'Use ${env:HOME} and ${config:x} with ${selection}.' }, context, answers({}));
    assert.equal(expanded.text, 'Use ${env:HOME} and ${config:x} with return a + b;.');
    assert.deepEqual(expanded.notes, [
      { kind: 'unknownVariable', prompt: 'p', variable: 'env:HOME' },
      { kind: 'unknownVariable', prompt: 'p', variable: 'config:x' },
    ]);
    assert.deepEqual(expanded.notes.map(promptNoteMessage), [
      '/p uses ${env:HOME}, which Cadenza does not fill in; it is sent as written.',
      '/p uses ${config:x}, which Cadenza does not fill in; it is sent as written.',
    ]);
  });

  it('refuses a prompt that uses ${selection} without a selection, or ${file} without a file, before asking anything', async () => {
    const input = answers({ topic: 'x' });
    const noSelection = await expandError('${input:topic} about ${selection}', { ...context, selection: '' }, input);
    assert.equal(noSelection.reason, 'noSelection');
    assert.match(noSelection.message, /\/p uses \$\{selection\}, but no text is selected.*select/i);
    assert.deepEqual(noSelection.fault, { kind: 'noValue', prompt: 'p', variable: 'selection' });
    assert.deepEqual(input.asked, [], 'nothing was asked before the refusal');
    const noFile = await expandError('Look at ${fileBasename}', { workspaceFolder: '/w' });
    assert.equal(noFile.reason, 'noFile');
    assert.match(noFile.message, /open a file/i);
    const noFolder = await expandError('In ${workspaceFolder}', {});
    assert.equal(noFolder.reason, 'noWorkspace');
    assert.deepEqual(noFolder.fault, { kind: 'noValue', prompt: 'p', variable: 'workspaceFolder' });
  });

  it('does not fill variables inside HTML comments: they are notes for the author and are not sent', async () => {
    const expanded = await expandPrompt(
      { name: 'p', body: '<!-- uses ${selection} and ${input:x} -->\nHello ${fileBasename}.\n<!--\nmore\n-->' },
      { file: '/a/b.ts' },
      answers({}),
    );
    assert.equal(expanded.text, 'Hello b.ts.');
  });

  it("lists the variables a body uses (for the composer's hints)", () => {
    assert.deepEqual(promptVariables('A ${selection} ${input:topic:hint} ${input:topic} ${nope} ${file}'), ['selection', 'input:topic', 'nope', 'file']);
  });

  it('marks a prompt from an untrusted workspace in the message the model reads, and appends what the user typed after /name', () => {
    const trusted = promptMessage('review', 'Review this.', 'focus on naming', false);
    assert.equal(trusted, 'Review this.\n\nfocus on naming');
    const untrusted = promptMessage('review', 'Review this.', '', true);
    assert.match(untrusted, /^The prompt file \/review comes from a workspace the user has NOT trusted/);
    assert.match(untrusted, /grants no permission/);
    assert.match(untrusted, /Review this\.$/);
  });

  it('starts a new prompt file whose front matter parses and whose commented variables are not filled in', async () => {
    const text = promptFileTemplate('review');
    const prompt = parsePromptFile(text, { origin: 'profile', kind: 'profile', uri: 'file:///u/review.prompt.md', path: 'review.prompt.md' });
    assert.equal(prompt.name, 'review');
    assert.equal(prompt.mode, 'ask');
    assert.match(prompt.description, /\S/);
    for (const variable of ['${selection}', '${file}', '${input:']) assert.ok(text.includes(variable), `the template shows ${variable}`);
    const expanded = await expandPrompt(prompt, { workspaceFolder: '/w' }, answers({}));
    assert.doesNotMatch(expanded.text, /\$\{/);
    assert.match(expanded.text, /\S/);
  });
});
