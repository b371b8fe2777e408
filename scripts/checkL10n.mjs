#!/usr/bin/env node
// Checks the translations (part of `npm test`'s static tier). Two kinds of bundle, each an English file and
// one file per locale: the manifest's (package.nls.json, package.nls.<locale>.json: VS Code replaces a
// whole-string `%key%` in package.json with the text for the display language, falling back to English) and
// the extension's own (l10n/bundle.l10n.json and l10n/bundle.l10n.<locale>.json, read by `vscode.l10n.t`,
// keyed by the English text). The rules:
// - every string package.json shows to users is a `%key%` (a product name such as "Cadenza" may stay as it
//   is; what only the model reads, a tool's modelDescription and inputSchema, stays English on purpose), every
//   key it uses is defined in package.nls.json, and every key defined there is used;
// - every locale in LOCALES has both files, with exactly the English keys, none empty;
// - every text of the chat panel's catalogue (src/shared/panelStrings.ts: the page gets them from the host,
//   translated with `vscode.l10n.t`) is a key of l10n/bundle.l10n.json, with itself as its English text;
// - every placeholder of the English text survives in each translation, and none is invented: code spans
//   (`#cadenza.baseUrl#`, a command's title), `{0}` and `{name}`, `${…}`, Markdown link targets (a
//   `command:` link), and `%s`/`%d`. A translation may move them; it may not lose, alter or add one.
// - every `l10n.t(...)` in the host's code (src/host) has a literal message (a string, or a template without
//   `${…}`: what VS Code's extraction can read), that message is a key of l10n/bundle.l10n.json, and every
//   key of that bundle is the message of some call (`npm run l10n:export` rewrites the bundle from the code).
// Prints one line per check and exits non-zero when any fails.
//
//   node scripts/checkL10n.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The display languages Cadenza ships complete translations for (VS Code's locale ids). */
export const LOCALES = ['zh-cn', 'ja', 'de', 'fr', 'es', 'pt-br'];

/** Manifest values that are the same in every language: the product's name. */
const UNTRANSLATED = new Set(['Cadenza']);

/** Manifest properties whose strings users see (an array's items count as its property's). */
const VISIBLE = new Set([
  'title',
  'shortTitle',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'label',
  'displayName',
  'userDescription',
  'fullName',
  'altText',
]);

/** Subtrees only the model reads: written for it in English, never shown in the workbench. */
const MODEL_ONLY = new Set(['inputSchema', 'modelDescription']);

/**
 * The placeholders of a text, sorted and without repeats: code spans first (what is inside one is code, so
 * a `{` there is no placeholder), then `${…}`, Markdown link targets as `(target)`, `{0}`/`{name}`, `%s`/`%d`.
 */
export function placeholdersOf(text) {
  const found = new Set();
  const take = (pattern, rest, show = (match) => match[0]) => {
    for (const match of rest.matchAll(pattern)) found.add(show(match));
    return rest.replace(pattern, ' ');
  };
  let rest = take(/`[^`]+`/g, text);
  rest = take(/\$\{[^}]*\}/g, rest);
  rest = take(/\]\(([^)\s]+)\)/g, rest, (match) => `(${match[1]})`);
  rest = take(/\{\w+\}/g, rest);
  take(/%[sdi]/g, rest);
  return [...found].sort();
}

/** An entry's text: a string, or (in an English l10n bundle) `{ message, comment }`. */
function textOf(value) {
  return typeof value === 'string' ? value : typeof value?.message === 'string' ? value.message : undefined;
}

/** What is wrong with one translated bundle against its English one; `label` names the file in each line. */
export function compareBundle(english, translated, label) {
  const problems = [];
  for (const [key, value] of Object.entries(english)) {
    const text = textOf(value) ?? '';
    if (!(key in translated)) {
      problems.push(`${label}: no ${JSON.stringify(key)}`);
      continue;
    }
    const translation = translated[key];
    if (typeof translation !== 'string' || translation.trim() === '') {
      problems.push(`${label}: ${JSON.stringify(key)} is empty`);
      continue;
    }
    const want = placeholdersOf(text);
    const have = placeholdersOf(translation);
    for (const lost of want.filter((item) => !have.includes(item))) problems.push(`${label}: ${JSON.stringify(key)} lost ${lost}`);
    for (const added of have.filter((item) => !want.includes(item)))
      problems.push(`${label}: ${JSON.stringify(key)} has ${added}, which the English text does not`);
  }
  for (const key of Object.keys(translated).filter((key) => !(key in english))) problems.push(`${label}: ${JSON.stringify(key)} is not in the English bundle`);
  return problems;
}

/** Every string of a JSON value with its path (`contributes.commands[1].title`) and the property it belongs to. */
function* stringsOf(value, at = '', property = '') {
  if (typeof value === 'string') yield { at, property, value };
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* stringsOf(item, `${at}[${index}]`, property);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (!MODEL_ONLY.has(key)) yield* stringsOf(item, at ? `${at}.${key}` : key, key);
  }
}

/** What is wrong with package.json's strings against package.nls.json (`messages`). */
export function checkManifest(manifest, messages) {
  const problems = [];
  const used = new Set();
  const strings = [...stringsOf(manifest)];
  for (const { value } of strings) {
    // VS Code replaces only a whole-string `%key%` (so a `%22` inside a command link is left alone).
    const key = /^%([\w.-]+)%$/.exec(value)?.[1];
    if (key === undefined) continue;
    if (!used.has(key) && !(key in messages)) problems.push(`package.json uses %${key}%, which package.nls.json does not define`);
    used.add(key);
  }
  for (const { at, property, value } of strings) {
    // A view's `name` is its title; elsewhere `name` is an id (a tool's, a participant's, a command's).
    const visible = VISIBLE.has(property) || (property === 'name' && at.startsWith('contributes.views.'));
    if (visible && !/^%[\w.-]+%$/.test(value) && !UNTRANSLATED.has(value))
      problems.push(`package.json ${at} is shown to users but not localized: ${JSON.stringify(value)}`);
  }
  for (const key of Object.keys(messages).filter((key) => !used.has(key)))
    problems.push(`package.nls.json defines ${JSON.stringify(key)}, which package.json does not use`);
  return problems;
}

/** What is wrong with the panel's catalogue (`{ id: English text }`) against the English l10n bundle. */
export function checkPanelStrings(catalogue, bundle) {
  const problems = [];
  for (const [id, text] of Object.entries(catalogue)) {
    if (!(text in bundle)) problems.push(`l10n/bundle.l10n.json has no key for the panel's ${id}: ${JSON.stringify(text)}`);
    else if (textOf(bundle[text]) !== text)
      problems.push(`l10n/bundle.l10n.json gives ${JSON.stringify(text)} another English text: ${JSON.stringify(textOf(bundle[text]))}`);
  }
  return problems;
}

/**
 * The exports of a TypeScript module of the repository, compiled on the fly with esbuild (a dev dependency, as
 * for the build) and bundled with what it imports: a script reads the same code the extension runs.
 */
export async function importTypeScript(file) {
  const { build } = await import('esbuild');
  const result = await build({ entryPoints: [file], bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent' });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/** The folders whose `l10n.t` calls the English l10n bundle must match. */
export const SOURCE_DIRS = ['src/host'];

/** The one host file whose `l10n.t` call takes a computed message: it translates the panel's catalogue (src/shared/panelStrings.ts). */
export const CATALOGUE_FILE = 'src/host/views/webviewHtml.ts';

const ESCAPES = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', 0: '\0' };

/** A JavaScript string literal's text as the running code sees it (escapes resolved). */
function unescapeLiteral(body) {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])/g, (_, escape) => {
    if (escape.startsWith('u{')) return String.fromCodePoint(parseInt(escape.slice(2, -1), 16));
    if (/^[ux][0-9a-fA-F]/.test(escape)) return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (escape === '\n' || escape === '\r\n' || escape === '\r') return '';
    return ESCAPES[escape] ?? escape;
  });
}

/**
 * The `l10n.t(...)` calls of a source file: `{ line, message }` for each whose message is a literal (a quoted
 * string, or a template without `${…}`; also `{ message: '…' }`), `{ line, message: undefined }` for a message
 * that is not (a variable, a template with `${…}`): VS Code's extraction cannot put those in the bundle.
 */
export function l10nCallsIn(source) {
  const calls = [];
  for (const match of source.matchAll(/\bl10n\.t\(\s*(\{\s*message\s*:\s*)?/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const line = source.slice(0, match.index).split('\n').length;
    const quote = source[start];
    let message;
    if (quote === "'" || quote === '"' || quote === '`') {
      let end = start + 1;
      while (end < source.length && source[end] !== quote) end += source[end] === '\\' ? 2 : 1;
      const body = source.slice(start + 1, end);
      if (!(quote === '`' && /(^|[^\\])\$\{/.test(body))) message = unescapeLiteral(body);
    }
    calls.push({ line, message });
  }
  return calls;
}

/** The TypeScript files under `dir` (recursively), as paths relative to `root`. */
function sourceFiles(root, dir) {
  const found = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(child);
    }
  };
  if (fs.existsSync(path.join(root, dir))) walk(dir);
  return found.sort();
}

/**
 * What is wrong between the code's `l10n.t` calls (`sources`: `{ file: text }`) and the English l10n bundle:
 * a message that is not a literal, a message the bundle lacks, a key no call uses.
 */
export function checkSources(sources, english, bundleName = 'l10n/bundle.l10n.json', catalogue = {}) {
  const problems = [];
  // The panel's texts are translated by one computed call (CATALOGUE_FILE) and checked by checkPanelStrings.
  const used = new Set(Object.values(catalogue));
  for (const [file, text] of Object.entries(sources)) {
    for (const { line, message } of l10nCallsIn(text)) {
      if (message === undefined && file === CATALOGUE_FILE) continue;
      if (message === undefined) {
        problems.push(`${file}:${line}: l10n.t's message is not a literal string, so it cannot be in ${bundleName}`);
        continue;
      }
      used.add(message);
      if (!(message in english)) problems.push(`${file}:${line}: ${JSON.stringify(message)} is not in ${bundleName} (npm run l10n:export)`);
    }
  }
  for (const key of Object.keys(english).filter((key) => !used.has(key))) problems.push(`${bundleName} has ${JSON.stringify(key)}, which no l10n.t call uses`);
  return problems;
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The locales that have a file `<prefix>.<locale>.json` in `dir`, besides the required ones. */
function localesIn(dir, prefix, required) {
  const found = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .map((name) => new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.([a-z]{2}(?:-[a-z]+)?)\\.json$`).exec(name)?.[1])
        .filter(Boolean)
    : [];
  return [...new Set([...required, ...found])];
}

/** Runs every check on a repository; resolves with `{ name, problems }` per check. */
export async function checkRepository(root, locales = LOCALES) {
  const results = [];
  const manifest = readJson(path.join(root, 'package.json'));
  const english = readJson(path.join(root, 'package.nls.json'));
  results.push({
    name: `package.json shows users only %keys% of package.nls.json (${Object.keys(english).length} keys)`,
    problems: checkManifest(manifest, english),
  });
  const bundles = [{ dir: '.', prefix: 'package.nls' }];
  if (typeof manifest.l10n === 'string') bundles.push({ dir: path.posix.normalize(manifest.l10n), prefix: 'bundle.l10n' });
  else results.push({ name: 'package.json names its l10n folder', problems: ['package.json has no "l10n" folder for vscode.l10n.t\'s bundles'] });
  // A repository without the panel's catalogue has no panel texts to check.
  const catalogueFile = path.join(root, 'src', 'shared', 'panelStrings.ts');
  const panelStrings = fs.existsSync(catalogueFile) ? (await importTypeScript(catalogueFile)).panelStrings : {};
  if (fs.existsSync(catalogueFile) && bundles.length > 1) {
    const english = path.join(root, bundles[1].dir, 'bundle.l10n.json');
    results.push({
      name: `src/shared/panelStrings.ts: the panel's ${Object.keys(panelStrings).length} texts are keys of l10n/bundle.l10n.json`,
      problems: fs.existsSync(english) ? checkPanelStrings(panelStrings, readJson(english)) : [],
    });
  }
  for (const { dir, prefix } of bundles) {
    const file = (suffix) => path.posix.join(dir, `${prefix}${suffix}.json`);
    if (!fs.existsSync(path.join(root, file('')))) {
      results.push({ name: file(''), problems: [`${file('')} is missing`] });
      continue;
    }
    const base = readJson(path.join(root, file('')));
    const dirs = SOURCE_DIRS.filter((dir) => fs.existsSync(path.join(root, dir)));
    if (prefix === 'bundle.l10n' && dirs.length > 0) {
      const sources = Object.fromEntries(dirs.flatMap((dir) => sourceFiles(root, dir)).map((rel) => [rel, fs.readFileSync(path.join(root, rel), 'utf8')]));
      results.push({
        name: `${file('')}: the messages of the l10n.t calls in ${dirs.join(', ')} (${Object.keys(sources).length} files) and the panel's texts, no more`,
        problems: checkSources(sources, base, file(''), panelStrings),
      });
    }
    for (const locale of localesIn(path.join(root, dir), prefix, locales)) {
      const name = file(`.${locale}`);
      const problems = fs.existsSync(path.join(root, name)) ? compareBundle(base, readJson(path.join(root, name)), name) : [`${name} is missing`];
      results.push({ name: `${name}: the ${Object.keys(base).length} keys of ${file('')}, placeholders intact`, problems });
    }
  }
  return results;
}

async function main() {
  const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
  const results = await checkRepository(root);
  for (const { name, problems } of results) {
    process.stdout.write(
      `[l10n] ${problems.length === 0 ? 'ok  ' : 'FAIL'} ${name}${problems.length ? `\n           ${problems.join('\n           ')}` : ''}\n`,
    );
  }
  const failed = results.filter((result) => result.problems.length > 0).length;
  process.stdout.write(`[l10n] ${results.length - failed} passed, ${failed} failed\n`);
  process.exit(failed === 0 ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
