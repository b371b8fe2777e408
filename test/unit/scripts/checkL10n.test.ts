import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../support/fixtures/repoRoot';

/**
 * Calls an export of scripts/checkL10n.mjs with JSON arguments and returns its JSON result. The script is
 * an ES module, as the static tier runs it, so it is called in a child Node (as checkDocs.test.ts does).
 */
function call(name: string, ...args: unknown[]): unknown {
  const url = pathToFileURL(join(repoRoot(), 'scripts', 'checkL10n.mjs')).href;
  const script = `import * as l10n from ${JSON.stringify(url)}; const out = await l10n[${JSON.stringify(name)}](...${JSON.stringify(args)}); console.log(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as unknown;
}

/** A throwaway repository: each key a path, each value the file's JSON. */
function tree(files: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), 'cadenza-checkl10n-'));
  for (const [path, value] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), JSON.stringify(value));
  }
  return root;
}

describe('scripts/checkL10n.mjs: every string in every language, placeholders intact', () => {
  it('finds the placeholders a translation must keep: code spans, {0} and {name}, ${…}, link targets, %s', () => {
    assert.deepEqual(
      call(
        'placeholdersOf',
        'Set `#cadenza.baseUrl#` to `{ "a": {0} }`, then {0} of {count} in ${workspaceFolder}; see [the docs](command:cadenza.setApiKey) (%s, %d).',
      ),
      ['${workspaceFolder}', '%d', '%s', '(command:cadenza.setApiKey)', '`#cadenza.baseUrl#`', '`{ "a": {0} }`', '{0}', '{count}'],
    );
    assert.deepEqual(call('placeholdersOf', 'Plain text with a (parenthesis) and a lone { brace.'), []);
  });

  it('reports a missing key, an extra key, an empty text and each placeholder lost or invented', () => {
    const english = {
      a: 'Open `Cadenza: Set API Key` first.',
      b: '{0} files in {1}',
      c: '[Set API key](command:cadenza.setApiKey)',
      d: 'Plain',
    };
    const german = {
      a: 'Öffnen Sie zuerst `Cadenza: API-Schlüssel festlegen`.',
      b: '{0} Dateien',
      c: '[API-Schlüssel festlegen](command:cadenza.setKey)',
      e: 'Extra',
    };
    assert.deepEqual(call('compareBundle', english, german, 'package.nls.de.json'), [
      'package.nls.de.json: "a" lost `Cadenza: Set API Key`',
      'package.nls.de.json: "a" has `Cadenza: API-Schlüssel festlegen`, which the English text does not',
      'package.nls.de.json: "b" lost {1}',
      'package.nls.de.json: "c" lost (command:cadenza.setApiKey)',
      'package.nls.de.json: "c" has (command:cadenza.setKey), which the English text does not',
      'package.nls.de.json: no "d"',
      'package.nls.de.json: "e" is not in the English bundle',
    ]);
    assert.deepEqual(call('compareBundle', { a: 'A' }, { a: ' ' }, 'x.json'), ['x.json: "a" is empty']);
  });

  it('reads an l10n bundle entry with a comment as its message', () => {
    assert.deepEqual(call('compareBundle', { 'Hello {0}': { message: 'Hello {0}', comment: ['a greeting'] } }, { 'Hello {0}': 'Hallo {0}' }, 'b.json'), []);
  });

  it('reports a manifest key without English text, an unused key, and a visible string left in English', () => {
    const manifest = {
      displayName: 'Cadenza',
      description: '%extension.description%',
      contributes: {
        commands: [
          { command: 'cadenza.a', title: '%command.a.title%', category: 'Cadenza' },
          { command: 'cadenza.b', title: 'Do B' },
        ],
        views: { cadenza: [{ id: 'cadenza.chat', name: 'Chat' }] },
        languageModelTools: [
          {
            name: 'cadenza_tool',
            displayName: '%tool.displayName%',
            modelDescription: 'For the model only.',
            inputSchema: { properties: { q: { description: 'For the model.' } } },
          },
        ],
        chatParticipants: [{ id: 'cadenza.participant', name: 'cadenza', fullName: 'Cadenza', description: '%participant.description%' }],
      },
    };
    const messages = { 'extension.description': 'All of it.', 'command.a.title': 'Do A', 'tool.displayName': 'Tool', 'unused.key': 'Nobody' };
    assert.deepEqual(call('checkManifest', manifest, messages), [
      'package.json uses %participant.description%, which package.nls.json does not define',
      'package.json contributes.commands[1].title is shown to users but not localized: "Do B"',
      'package.json contributes.views.cadenza[0].name is shown to users but not localized: "Chat"',
      'package.nls.json defines "unused.key", which package.json does not use',
    ]);
  });

  it('requires every locale of both bundles and checks each against its English bundle', () => {
    const locales = ['de', 'ja'];
    const root = tree({
      'package.json': { description: '%d%', l10n: './l10n' },
      'package.nls.json': { d: 'Run `x` now' },
      'package.nls.de.json': { d: 'Führen Sie jetzt `x` aus' },
      'package.nls.ja.json': { d: '今すぐ実行' },
      'l10n/bundle.l10n.json': { 'Saved {0}': 'Saved {0}' },
      'l10n/bundle.l10n.de.json': { 'Saved {0}': '{0} gespeichert' },
    });
    try {
      const result = call('checkRepository', root, locales) as { name: string; problems: string[] }[];
      assert.deepEqual(result.map((check) => check.problems).flat(), ['package.nls.ja.json: "d" lost `x`', 'l10n/bundle.l10n.ja.json is missing']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reports a panel text that is no key of the English bundle, or whose English text there differs', () => {
    const catalogue = { newChat: 'New chat', answerFrom: 'Answer from {model}', stop: 'Stop' };
    const bundle = { 'New chat': 'New chat', 'Answer from {model}': 'Answer by {model}' };
    assert.deepEqual(call('checkPanelStrings', catalogue, bundle), [
      'l10n/bundle.l10n.json gives "Answer from {model}" another English text: "Answer by {model}"',
      'l10n/bundle.l10n.json has no key for the panel\'s stop: "Stop"',
    ]);
  });

  it("reads each l10n.t call's message as the running code sees it, and marks one that is not a literal", () => {
    const source = [
      "const a = vscode.l10n.t('Open {0}?', name);",
      'const b = l10n.t("It\'s \\u201cdone\\u201d");',
      'const c = vscode.l10n.t(`Plain template`);',
      'const d = vscode.l10n.t(`Not ${literal}`);',
      'const e = vscode.l10n.t(message);',
      "const f = vscode.l10n.t({ message: 'With a comment', comment: ['why'] });",
      "const g = vscode.l10n.t(\n  'On the next line',\n);",
    ].join('\n');
    assert.deepEqual(call('l10nCallsIn', source), [
      { line: 1, message: 'Open {0}?' },
      { line: 2, message: "It's \u201cdone\u201d" },
      { line: 3, message: 'Plain template' },
      { line: 4 },
      { line: 5 },
      { line: 6, message: 'With a comment' },
      { line: 7, message: 'On the next line' },
    ]);
  });

  it('reports a message missing from the English bundle, one that is not a literal, and a key no call uses', () => {
    const sources = {
      'src/host/a.ts': "vscode.l10n.t('Known {0}', x);\nvscode.l10n.t('New text');",
      'src/host/b.ts': 'vscode.l10n.t(`Built ${x}`);',
    };
    assert.deepEqual(call('checkSources', sources, { 'Known {0}': 'Known {0}', 'Stale text': 'Stale text' }), [
      'src/host/a.ts:2: "New text" is not in l10n/bundle.l10n.json (npm run l10n:export)',
      "src/host/b.ts:1: l10n.t's message is not a literal string, so it cannot be in l10n/bundle.l10n.json",
      'l10n/bundle.l10n.json has "Stale text", which no l10n.t call uses',
    ]);
  });

  it("checks the host's l10n.t calls against the English bundle when the repository has src/host", () => {
    const root = tree({
      'package.json': { description: '%d%', l10n: './l10n' },
      'package.nls.json': { d: 'D' },
      'package.nls.de.json': { d: 'D' },
      'l10n/bundle.l10n.json': { 'Saved {0}': 'Saved {0}' },
      'l10n/bundle.l10n.de.json': { 'Saved {0}': '{0} gespeichert' },
    });
    try {
      mkdirSync(join(root, 'src', 'host', 'commands'), { recursive: true });
      writeFileSync(join(root, 'src', 'host', 'commands', 'save.ts'), "vscode.l10n.t('Saved {0}', name);\nvscode.l10n.t('Not saved');\n");
      const result = call('checkRepository', root, ['de']) as { name: string; problems: string[] }[];
      assert.deepEqual(result.map((check) => check.problems).flat(), [
        'src/host/commands/save.ts:2: "Not saved" is not in l10n/bundle.l10n.json (npm run l10n:export)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('passes on this repository', () => {
    const result = call('checkRepository', repoRoot()) as { name: string; problems: string[] }[];
    assert.deepEqual(
      result.flatMap((check) => check.problems),
      [],
    );
    assert.ok(result.length >= 4, `only ${result.length} checks ran`);
  });
});
