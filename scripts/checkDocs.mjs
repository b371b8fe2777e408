#!/usr/bin/env node
// Checks the documents the code leans on (part of `npm test`'s static tier): ARCHITECTURE.md stays a map
// (under 8,000 words: measurements belong in docs/decisions/ and bench/results/), and every document or
// heading a comment cites exists. A citation is read in the comments of src/, test/, scripts/ and bench/
// (and in their Markdown files), in three forms: a path `docs/….md` or `bench/results/….md`, with or without
// an anchor (`docs/service.md#streaming`); a root document with an anchor (`ARCHITECTURE.md#layers`,
// `CONTRIBUTING.md#code-conventions`); and a root document with a quoted heading (`ARCHITECTURE.md,
// "Layers"`). Anchors are GitHub's: the heading's text in lower case, without punctuation, spaces as hyphens,
// a repeated heading numbered. Strings, template literals and regular expressions are not comments, so the
// paths tests use as data are left alone. Prints one line per problem and exits non-zero on any.
//
//   node scripts/checkDocs.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** ARCHITECTURE.md must stay under this many words. */
export const MAX_ARCHITECTURE_WORDS = 8000;

/** Where citations are read; fixture workspaces are data of the tests, not the project's own text. */
const SCANNED = ['src', 'test', 'scripts', 'bench'];
const ROOT_FILES = ['eslint.config.mjs', 'esbuild.js'];
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist', 'test-results', '.git']);
const SKIPPED_PATHS = ['test/support/fixtures/workspace/', 'test/support/fixtures/toolsExtension/', 'bench/fixtures/'];

const C_STYLE = new Set(['.ts', '.js', '.mjs', '.cjs', '.css']);
const HASH_STYLE = new Set(['.sh', '.py', '.txt']);

/** GitHub's anchor for a heading's Markdown text (before numbering repeats). */
export function slugOf(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image shows its text
    .replace(/[`*]/g, '') // code spans and emphasis show their content
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings, in order; headings inside fenced code are not headings. */
export function anchorsOf(markdown) {
  const anchors = [];
  const seen = new Map();
  let fence;
  for (const line of markdown.split('\n')) {
    const opener = /^\s{0,3}(```|~~~)/.exec(line);
    if (opener) {
      if (fence === undefined) fence = opener[1];
      else if (opener[1] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slugOf(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.push(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Can a `/` after this character start a regular expression (rather than divide)? */
function regexCanFollow(previous) {
  return previous === undefined || /[(,=:[!&|?{};+\-*%<>~^]/.test(previous);
}

/**
 * The comments of a C-style source, each with the line it starts on: `//` and `/* *\/`, skipping strings,
 * template literals (with their `${…}` parts) and regular expression literals.
 */
function cStyleComments(text) {
  const comments = [];
  let line = 1;
  let previous; // the last character that was not white space, outside comments
  const templates = []; // brace depth inside each open template's `${…}`
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      comments.push({ line, text: text.slice(i + 2, stop) });
      i = stop - 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end;
      comments.push({ line, text: text.slice(i + 2, stop) });
      for (let j = i; j < stop; j++) if (text[j] === '\n') line++;
      i = stop + 1;
      continue;
    }
    if (c === "'" || c === '"') {
      for (i++; i < text.length && text[i] !== c && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      previous = c;
      continue;
    }
    if (c === '`' || (c === '}' && templates.length > 0 && templates[templates.length - 1] === 0)) {
      if (c === '}') templates.pop();
      // A template's text, up to its end or to the next `${`.
      for (i++; i < text.length && text[i] !== '`'; i++) {
        if (text[i] === '\\') {
          i++;
          continue;
        }
        if (text[i] === '\n') line++;
        if (text[i] === '$' && text[i + 1] === '{') {
          templates.push(0);
          i++;
          break;
        }
      }
      previous = '`';
      continue;
    }
    if (c === '{' && templates.length > 0) templates[templates.length - 1]++;
    if (c === '}' && templates.length > 0) templates[templates.length - 1]--;
    if (c === '/' && regexCanFollow(previous)) {
      let inClass = false;
      for (i++; i < text.length && text[i] !== '\n'; i++) {
        if (text[i] === '\\') {
          i++;
          continue;
        }
        if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        else if (text[i] === '/' && !inClass) break;
      }
      previous = '/';
      continue;
    }
    if (!/\s/.test(c)) previous = c;
  }
  return comments;
}

/** The `#` comments of a shell, Python or requirements file, skipping quoted strings. */
function hashComments(text) {
  const comments = [];
  text.split('\n').forEach((source, index) => {
    let quote;
    for (let i = 0; i < source.length; i++) {
      const c = source[i];
      if (quote !== undefined) {
        if (c === '\\') i++;
        else if (c === quote) quote = undefined;
      } else if (c === "'" || c === '"') {
        quote = c;
      } else if (c === '#' && (i === 0 || /\s/.test(source[i - 1] ?? ''))) {
        comments.push({ line: index + 1, text: source.slice(i + 1) });
        return;
      }
    }
  });
  return comments;
}

/** The text of a Markdown file outside fenced code, line by line. */
function markdownText(text) {
  const out = [];
  let fenced = false;
  text.split('\n').forEach((source, index) => {
    if (/^\s{0,3}(```|~~~)/.test(source)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) out.push({ line: index + 1, text: source });
  });
  return out;
}

/** The comment text of a file by its kind; undefined for a kind that is not read. */
function commentsOf(text, file) {
  const ext = path.extname(file).toLowerCase();
  if (C_STYLE.has(ext)) return cStyleComments(text);
  if (HASH_STYLE.has(ext)) return hashComments(text);
  if (ext === '.md') return markdownText(text);
  return undefined;
}

const DOC_PATH = /(?<![\w./-])(?:\.\.\/)*((?:docs\/[\w./-]+|bench\/results\/[\w.-]+)\.md)(?:#([\p{L}\p{N}_-]+))?/gu;
const ROOT_ANCHOR = /(?<![\w./-])((?:ARCHITECTURE|CONTRIBUTING|README|CHANGELOG)\.md)#([\p{L}\p{N}_-]+)/gu;
const ROOT_HEADING = /(?<![\w./-])(ARCHITECTURE|CONTRIBUTING|README)(?:\.md)?,?\s+["“]([^"”\n]+)["”]/gu;

/**
 * The citations in a file's comments, in order of line and position: `{ line, file, anchor? }` for a path or
 * an anchor, `{ line, file, heading }` for a quoted heading. `file` names the file's kind (its extension).
 */
export function citationsOf(text, file) {
  const comments = commentsOf(text, file) ?? [];
  const found = [];
  for (const comment of comments) {
    // A comment may span lines: each citation gets the line it is on.
    const lines = comment.text.split('\n');
    lines.forEach((part, offset) => {
      const here = [];
      for (const m of part.matchAll(DOC_PATH)) here.push({ at: m.index, line: comment.line + offset, file: m[1], ...(m[2] ? { anchor: m[2] } : {}) });
      for (const m of part.matchAll(ROOT_ANCHOR)) here.push({ at: m.index, line: comment.line + offset, file: m[1], anchor: m[2] });
      for (const m of part.matchAll(ROOT_HEADING)) here.push({ at: m.index, line: comment.line + offset, file: `${m[1]}.md`, heading: m[2] });
      here.sort((a, b) => a.at - b.at);
      for (const citation of here) {
        delete citation.at;
        found.push(citation);
      }
    });
  }
  return found;
}

/** Every file under `dir` (relative to `root`, forward slashes), skipping build output and fixture workspaces. */
function filesUnder(root, dir) {
  const out = [];
  const walk = (relative) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !SKIPPED_PATHS.some((skipped) => `${rel}/`.startsWith(skipped))) walk(rel);
      } else if (entry.isFile()) {
        out.push(rel);
      }
    }
  };
  walk(dir);
  return out;
}

/** Words as `wc -w` counts them. */
function wordCount(text) {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/**
 * Checks the repository at `root`: ARCHITECTURE.md's length and every citation. Returns the word count, how
 * many citations were checked, and one line per problem.
 */
export function checkDocs(root) {
  const problems = [];
  const architecture = path.join(root, 'ARCHITECTURE.md');
  const words = fs.existsSync(architecture) ? wordCount(fs.readFileSync(architecture, 'utf8')) : 0;
  if (words >= MAX_ARCHITECTURE_WORDS) {
    problems.push(`ARCHITECTURE.md has ${words} words; a map stays under ${MAX_ARCHITECTURE_WORDS} (move measurements to docs/decisions/ or bench/results/)`);
  }
  const anchors = new Map();
  const anchorsIn = (file) => {
    if (!anchors.has(file)) {
      const full = path.join(root, file);
      anchors.set(file, fs.existsSync(full) ? new Set(anchorsOf(fs.readFileSync(full, 'utf8'))) : undefined);
    }
    return anchors.get(file);
  };
  const files = [...SCANNED.flatMap((dir) => filesUnder(root, dir)), ...ROOT_FILES.filter((file) => fs.existsSync(path.join(root, file)))].sort();
  let citations = 0;
  for (const file of files) {
    if (commentsOf('', file) === undefined) continue;
    for (const citation of citationsOf(fs.readFileSync(path.join(root, file), 'utf8'), file)) {
      citations++;
      const known = anchorsIn(citation.file);
      const cited =
        citation.heading !== undefined ? `${citation.file}, "${citation.heading}"` : `${citation.file}${citation.anchor ? `#${citation.anchor}` : ''}`;
      if (known === undefined) problems.push(`${file}:${citation.line}: cites ${cited}, which does not exist`);
      else if (citation.anchor !== undefined && !known.has(citation.anchor))
        problems.push(`${file}:${citation.line}: cites ${cited}, but ${citation.file} has no such heading`);
      else if (citation.heading !== undefined && !known.has(slugOf(citation.heading)))
        problems.push(`${file}:${citation.line}: cites ${cited}, but ${citation.file} has no such heading`);
    }
  }
  return { words, citations, problems };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { words, citations, problems } = checkDocs(root);
  const architectureOk = words < MAX_ARCHITECTURE_WORDS;
  const citationProblems = problems.filter((problem) => !problem.startsWith('ARCHITECTURE.md has'));
  process.stdout.write(`[docs] ${architectureOk ? 'ok  ' : 'FAIL'} ARCHITECTURE.md is under ${MAX_ARCHITECTURE_WORDS} words (${words})\n`);
  process.stdout.write(
    `[docs] ${citationProblems.length === 0 ? 'ok  ' : 'FAIL'} every document and heading cited in src, test, scripts and bench exists (${citations} citations)\n`,
  );
  for (const problem of citationProblems) process.stdout.write(`[docs]      ${problem}\n`);
  const failed = (architectureOk ? 0 : 1) + (citationProblems.length === 0 ? 0 : 1);
  process.stdout.write(`[docs] ${2 - failed} passed, ${failed} failed\n`);
  process.exit(failed === 0 ? 0 : 1);
}
