// The fill-in-the-middle prompt: budget nearest the cursor, path and language, snippets, the mode asked for.

/** Where the cursor's turn starts (after the snippets). */
const CURSOR_TURN = 'the code after the cursor:';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCompletionPrompt, keepHead, keepTail } from '../../../src/core/completions/prompt';
import { repoRoot } from '../../support/fixtures/repoRoot';

const header = `import { readFile } from 'node:fs/promises';\n\n/** Reads a JSON file. */\n`;
const body = "export async function readJson(path: string): Promise<unknown> {\n  const text = await readFile(path, 'utf8');\n  ";
const after = "\n}\n\nexport function isObject(value: unknown): value is object {\n  return typeof value === 'object' && value !== null;\n}\n";

/** The last user turn: the cursor's (the first is the worked example). */
function userText(messages: readonly { role: string; content: unknown }[]): string {
  const user = messages.filter((message) => message.role === 'user').at(-1);
  assert.ok(user && typeof user.content === 'string');
  return user.content;
}

describe('completions/prompt', () => {
  it('cuts at line boundaries', () => {
    assert.equal(keepTail('one\ntwo\nthree', 9), 'three');
    assert.equal(keepHead('one\ntwo\nthree', 9), 'one\ntwo');
    assert.equal(keepTail('short', 10), 'short');
  });

  it('shows the code after the cursor, then the code before it in an open fence ending at the cursor, with path and language', () => {
    // The code before the cursor comes last and its fence stays open, so the answer reads as its
    // continuation: Gemma 3 270M (the real-model tier) answered a marker in the whole file with an
    // unrelated import, and this layout with `return a + b` (prompt.ts cursorTurn).
    const prompt = buildCompletionPrompt({ path: 'src/json.ts', languageId: 'typescript', prefix: header + body, suffix: after });
    const user = userText(prompt.messages);
    assert.ok(user.startsWith('File src/json.ts (typescript), the code after the cursor:\n```typescript\n}\n\nexport function isObject'), user);
    assert.ok(user.endsWith(`\`\`\`typescript\n${header}${body.trimEnd()}`), 'ends with the code before the cursor, its typed indentation left out');
    assert.ok(!user.includes('<CURSOR>'));
    assert.equal(prompt.mode, 'block');
    assert.ok(/statement or block/.test(user));
    assert.ok(prompt.promptTokens > 50);
  });

  it("puts a system message and one worked example before the cursor's turn", () => {
    const prompt = buildCompletionPrompt({ path: 'a.ts', languageId: 'typescript', prefix: 'function f() {\n  ', suffix: '\n}\n' });
    assert.deepEqual(
      prompt.messages.map((message) => message.role),
      ['system', 'user', 'assistant', 'user'],
    );
    const example = prompt.messages[1]?.content;
    assert.ok(typeof example === 'string' && example.endsWith('```python\ndef greet(name):'), 'the example is laid out as the real turn');
    assert.equal(prompt.messages[2]?.content, "return 'Hello, ' + name", 'its answer is bare code, no fence and no repeat');
  });

  it('keeps the text before the cursor as it is inside a line', () => {
    const prompt = buildCompletionPrompt({ path: 'a.py', languageId: 'python', prefix: 'x = max(', suffix: ', 0)\n' });
    const user = userText(prompt.messages);
    assert.ok(user.endsWith('```python\nx = max('), 'no trimming inside a line');
    assert.ok(user.includes('```python\n, 0)\n'), 'the rest of the line is the code after the cursor');
  });

  it('asks for the rest of the line inside a line, with fewer tokens', () => {
    const prompt = buildCompletionPrompt({ path: 'a.py', languageId: 'python', prefix: 'print(', suffix: ')\n' });
    assert.equal(prompt.mode, 'line');
    assert.ok(/only the rest of that line/.test(userText(prompt.messages)));
    assert.ok(prompt.maxTokens < buildCompletionPrompt({ path: 'a.py', languageId: 'python', prefix: 'def f():', suffix: '' }).maxTokens);
  });

  it('keeps the text nearest the cursor within the budget, prefix first', () => {
    const longBefore = Array.from({ length: 2000 }, (_, i) => `const v${i} = ${i};`).join('\n') + '\n';
    const longAfter = Array.from({ length: 2000 }, (_, i) => `use(v${i});`).join('\n');
    const prompt = buildCompletionPrompt({
      path: 'big.ts',
      languageId: 'typescript',
      prefix: `${longBefore}const total = `,
      suffix: `\n${longAfter}`,
      budgetTokens: 500,
    });
    assert.ok(prompt.prefix.endsWith('const v1999 = 1999;\nconst total = '), 'the lines just before the cursor stay');
    assert.ok(!prompt.prefix.includes('const v0 = 0;'), 'far lines go');
    assert.ok(prompt.suffix.startsWith('\nuse(v0);'));
    assert.ok(prompt.prefix.length + prompt.suffix.length <= 500 * 4);
    assert.ok(prompt.prefix.length > prompt.suffix.length * 2, 'the prefix gets the larger share');
    assert.ok(prompt.prefix.startsWith('const v'), 'cut at a line start');
  });

  it("gives a short suffix's unused share to the prefix", () => {
    const longBefore = 'x = 1\n'.repeat(1000);
    const prompt = buildCompletionPrompt({ path: 'a.py', languageId: 'python', prefix: longBefore, suffix: '', budgetTokens: 500 });
    assert.ok(prompt.prefix.length > 500 * 4 * 0.85);
  });

  it('adds snippets from other files within what the budget leaves, cut to what is left', () => {
    const snippets = [{ path: 'src/types.ts', text: 'export interface Point { x: number; y: number }' }];
    const roomy = userText(buildCompletionPrompt({ path: 'a.ts', languageId: 'typescript', prefix: 'const p: Point = ', suffix: '', snippets }).messages);
    assert.ok(roomy.includes('From src/types.ts:'));
    assert.ok(roomy.indexOf('export interface Point') < roomy.indexOf(CURSOR_TURN), 'snippets come before the file');
    const huge = [{ path: 'src/huge.ts', text: 'export const big = 1;\n'.repeat(2000) }];
    const full = userText(
      buildCompletionPrompt({
        path: 'a.ts',
        languageId: 'typescript',
        prefix: 'x;\n'.repeat(5000),
        suffix: 'y;\n'.repeat(5000),
        snippets: huge,
        budgetTokens: 500,
      }).messages,
    );
    assert.ok(full.length < 500 * 4 + 1200, `the snippet is cut to what the budget leaves (${full.length} characters)`);
  });

  it("shows the local index's chunks in the order given, within the budget, dropping the lowest-ranked first", () => {
    // Real code: the chunk an index search for `estimateTokens` finds in Cadenza's own source.
    const definition = readFileSync(join(repoRoot(), 'src', 'core', 'chat', 'contextBudget.ts'), 'utf8');
    const start = definition.indexOf('export function estimateTokens');
    assert.ok(start >= 0, 'the sample function is still there');
    const chunk = definition.slice(start, definition.indexOf('\n}\n', start) + 2);
    const snippets = [
      { path: 'src/core/chat/contextBudget.ts', text: chunk, source: 'index' as const },
      { path: 'src/core/index/filler.ts', text: '// ranked last\n' + 'export const filler = 1;\n'.repeat(400), source: 'index' as const },
    ];
    const prefix = "import { estimateTokens } from '../chat/contextBudget';\n\nexport function promptCost(text: string): number {\n  return ";
    const roomy = userText(buildCompletionPrompt({ path: 'src/core/cost.ts', languageId: 'typescript', prefix, suffix: '\n}\n', snippets }).messages);
    assert.ok(roomy.includes(`From src/core/chat/contextBudget.ts:\n\`\`\`\n${chunk.trim()}\n\`\`\``), 'the index chunk is shown whole, fenced, with its path');
    assert.ok(roomy.indexOf('contextBudget.ts:') < roomy.indexOf('filler.ts'), 'in rank order');
    assert.ok(roomy.indexOf('filler.ts') < roomy.indexOf(CURSOR_TURN), 'before the file');
    // A long file takes its share (90 %): the rest holds the best chunk and no more.
    const budgetTokens = 400;
    const tight = buildCompletionPrompt({
      path: 'src/core/cost.ts',
      languageId: 'typescript',
      prefix: `${'// context line\n'.repeat(400)}${prefix}`,
      suffix: '\n}\n',
      snippets,
      budgetTokens,
    });
    const user = userText(tight.messages);
    assert.ok(user.includes('From src/core/chat/contextBudget.ts:'), 'the best chunk still fits');
    assert.ok(!user.includes('filler'), 'the lowest-ranked chunk is dropped when the budget is spent');
    const shown = user.slice(user.indexOf('From '), user.indexOf('File src/core/cost.ts'));
    assert.ok(shown.length > 0);
    assert.ok(
      tight.prefix.length + tight.suffix.length + shown.length <= budgetTokens * 4 + 40,
      `within the budget (${tight.prefix.length} + ${tight.suffix.length} + ${shown.length})`,
    );
  });

  it('fences a file that itself holds fences with a longer fence', () => {
    const prompt = buildCompletionPrompt({ path: 'README.md', languageId: 'markdown', prefix: '```js\nlet a = ', suffix: '\n```\n' });
    assert.ok(userText(prompt.messages).includes('````markdown'));
  });
});
