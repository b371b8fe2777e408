// A prompt file as Cadenza reads it: its name (from the file, or the front matter's `name`), the fields
// Copilot's format defines, the size limit, and which file wins when two have the same name.
import assert from 'node:assert/strict';
import { maxPromptFileBytes, mergePrompts, parsePromptFile, promptNameFromFile, type PromptSource } from '../../../src/core/prompts/promptFile';
import { PromptError, promptNoteMessage } from '../../../src/core/prompts/promptError';

const github = (file: string, folder = 'app'): PromptSource => ({
  origin: 'workspace',
  kind: 'github',
  uri: `file:///${folder}/.github/prompts/${file}`,
  path: `.github/prompts/${file}`,
  folder,
});
const cadenza = (file: string, folder = 'app'): PromptSource => ({
  origin: 'workspace',
  kind: 'cadenza',
  uri: `file:///${folder}/.cadenza/prompts/${file}`,
  path: `.cadenza/prompts/${file}`,
  folder,
});
const profile = (file: string): PromptSource => ({ origin: 'profile', kind: 'profile', uri: `file:///user/prompts/${file}`, path: file });

function parseError(text: string, source: PromptSource): PromptError {
  try {
    parsePromptFile(text, source);
  } catch (error) {
    if (PromptError.is(error)) return error;
    throw error;
  }
  assert.fail('the prompt file was accepted');
}

describe('prompts/promptFile', () => {
  it('names a prompt by its file: .prompt.md in .github/prompts and the profile, .md (or .prompt.md) in .cadenza/prompts', () => {
    assert.equal(promptNameFromFile('review.prompt.md', 'github'), 'review');
    assert.equal(promptNameFromFile('review.md', 'github'), undefined, 'Copilot reads only .prompt.md there');
    assert.equal(promptNameFromFile('release-notes.prompt.md', 'profile'), 'release-notes');
    assert.equal(promptNameFromFile('tests.md', 'cadenza'), 'tests');
    assert.equal(promptNameFromFile('tests.prompt.md', 'cadenza'), 'tests');
    assert.equal(promptNameFromFile('README.txt', 'cadenza'), undefined);
    assert.equal(promptNameFromFile('has space.prompt.md', 'github'), undefined, 'a name must be typeable after /');
    assert.equal(promptNameFromFile('.prompt.md', 'github'), undefined);
  });

  it('reads the description, mode (or agent), model, tools and argument hint, and the body after the front matter', () => {
    const prompt = parsePromptFile(
      '---\ndescription: Review the selection\nmode: edit\nmodel: Meta-Llama-3.3-70B-Instruct\ntools: [readFile]\nargument-hint: what to focus on\n---\nReview ${selection}.\n',
      github('review.prompt.md'),
    );
    assert.equal(prompt.name, 'review');
    assert.equal(prompt.description, 'Review the selection');
    assert.equal(prompt.mode, 'edit');
    assert.equal(prompt.model, 'Meta-Llama-3.3-70B-Instruct');
    assert.deepEqual(prompt.tools, ['readFile']);
    assert.equal(prompt.argumentHint, 'what to focus on');
    assert.equal(prompt.body, 'Review ${selection}.');
    assert.deepEqual(prompt.notes, []);
    // `agent` is the newer name of `mode`; a custom agent is noted, not an error.
    assert.equal(parsePromptFile('---\nagent: agent\n---\nGo.', github('go.prompt.md')).mode, 'agent');
    const custom = parsePromptFile('---\nagent: my-planner\n---\nGo.', github('go.prompt.md'));
    assert.equal(custom.mode, undefined);
    assert.deepEqual(custom.notes, [{ kind: 'unknownMode', mode: 'my-planner' }]);
    assert.match(promptNoteMessage(custom.notes[0]!), /my-planner/);
  });

  it("takes the front matter's name when it is a valid one, and a file without front matter is all body", () => {
    assert.equal(parsePromptFile('---\nname: pr\n---\nWrite the PR text.', github('pull-request.prompt.md')).name, 'pr');
    const invalid = parsePromptFile('---\nname: two words\n---\nText', github('fallback.prompt.md'));
    assert.equal(invalid.name, 'fallback');
    assert.deepEqual(invalid.notes, [{ kind: 'invalidName', declared: 'two words', name: 'fallback' }]);
    assert.match(promptNoteMessage(invalid.notes[0]!), /two words/);
    const plain = parsePromptFile('Just text.', cadenza('plain.md'));
    assert.equal(plain.description, '');
    assert.equal(plain.body, 'Just text.');
    assert.deepEqual(plain.tools, []);
  });

  it('refuses a file larger than the limit, and reports bad front matter with its line', () => {
    const big = parseError(`---\ndescription: big\n---\n${'x'.repeat(maxPromptFileBytes)}`, github('big.prompt.md'));
    assert.equal(big.reason, 'tooLarge');
    assert.match(big.message, /64 KB/);
    assert.deepEqual(big.fault, { kind: 'tooLarge', limitKb: 64 });
    assert.equal(big.file, '.github/prompts/big.prompt.md');
    const bad = parseError('---\ndescription: ok\nnot a field\n---\nBody', github('bad.prompt.md'));
    assert.equal(bad.reason, 'frontMatter');
    assert.equal(bad.line, 3);
    assert.match(bad.message, /\.github\/prompts\/bad\.prompt\.md.*line 3/);
    assert.deepEqual([bad.file, bad.fault], ['.github/prompts/bad.prompt.md', { kind: 'notAField', found: 'not a field' }]);
    const list = parseError('---\ndescription: [a, b]\n---\nBody', github('list.prompt.md'));
    assert.equal(list.line, 2);
    assert.deepEqual([list.file, list.fault], ['.github/prompts/list.prompt.md', { kind: 'notOneValue', key: 'description' }]);
  });

  it("merges by precedence: a workspace's .cadenza beats its .github, the workspace beats the profile, the first folder beats later ones, a built-in beats all", () => {
    const parse = (source: PromptSource, text = 'Body'): ReturnType<typeof parsePromptFile> => parsePromptFile(text, source);
    const merged = mergePrompts(
      [
        parse(profile('review.prompt.md')),
        parse(github('review.prompt.md', 'api')),
        parse(github('review.prompt.md')),
        parse(cadenza('Review.md')),
        parse(github('tests.prompt.md')),
        parse(profile('notes.prompt.md')),
        parse(github('explain.prompt.md')),
      ],
      ['app', 'api'],
      ['explain', 'search'],
    );
    assert.deepEqual(
      merged.prompts.map((prompt) => `${prompt.name}:${prompt.source.uri}`),
      ['notes:file:///user/prompts/notes.prompt.md', 'Review:file:///app/.cadenza/prompts/Review.md', 'tests:file:///app/.github/prompts/tests.prompt.md'],
    );
    assert.deepEqual(
      merged.shadowed.map((entry) => `${entry.prompt.source.uri} < ${entry.by}`),
      [
        'file:///app/.github/prompts/explain.prompt.md < the built-in /explain',
        'file:///app/.github/prompts/review.prompt.md < .cadenza/prompts/Review.md in app',
        'file:///api/.github/prompts/review.prompt.md < .cadenza/prompts/Review.md in app',
        'file:///user/prompts/review.prompt.md < .cadenza/prompts/Review.md in app',
      ],
    );
  });
});
