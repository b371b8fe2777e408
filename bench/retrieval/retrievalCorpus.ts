// The code-search set of bench/retrieval/retrieval: documented functions from code already on this machine (the
// TypeScript compiler's lib*.d.ts, JSDoc'd JavaScript in node_modules, Python's standard library). Each
// function's doc comment becomes a query and is cut out of the indexed text, so only the code is left
// to find; the files are chunked by Cadenza's own chunker, and the target of a query is the chunk that
// holds the function's declaration line. Deterministic for the same files on disk.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { chunkText } from '../../src/core/index/chunker';

/** One indexed chunk: its file, lines and text (doc comments of the set's functions removed). */
export interface CorpusChunk {
  readonly id: number;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/** One query: the doc comment's first paragraph, and the chunks that hold its function's declaration. */
export interface CorpusQuery {
  readonly id: number;
  readonly text: string;
  readonly path: string;
  readonly source: 'ts-lib' | 'node_modules' | 'python';
  /** Chunk ids (the chunker's overlap can put a declaration line in two chunks). */
  readonly targets: readonly number[];
}

/** One source file after doc removal, with its chunks and queries. */
interface PreparedFile {
  readonly path: string;
  readonly source: CorpusQuery['source'];
  readonly text: string;
  readonly functions: readonly { readonly query: string; readonly line: number }[];
}

interface DocFunction {
  /** 0-based line range of the doc comment to delete (inclusive). */
  readonly docFrom: number;
  readonly docTo: number;
  /** 0-based line of the declaration in the original text. */
  readonly declaration: number;
  readonly query: string;
}

/** The set: chunks, queries, and where they came from. */
export interface RetrievalSet {
  readonly chunks: CorpusChunk[];
  readonly queries: CorpusQuery[];
  readonly files: number;
}

/** A doc comment's summary: its first paragraph, tags and markup removed, whitespace collapsed. */
function summary(lines: readonly string[]): string {
  const kept: string[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (t.startsWith('@') || t.startsWith(':param') || t.startsWith(':return') || t.startsWith('>>>')) break;
    if (t === '') {
      if (kept.length > 0) break;
      continue;
    }
    kept.push(t);
  }
  return kept
    .join(' ')
    .replace(/\{@link(?:code|plain)?\s+([^}|\s]+)[^}]*\}/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/`+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const JS_DECLARATION =
  /^(?:export\s+)?(?:declare\s+)?(?:(?:async|static|public|private|protected|readonly|abstract|get|set)\s+)*(?:function\*?\s+[\w$]+|[\w$]+\s*[:=]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>)|[\w$]+\??\s*(?:<[^>]*>)?\s*\()/;
const NOT_A_FUNCTION = /^(?:if|for|while|switch|return|catch|typeof|new|throw)\b/;

/** JSDoc'd functions and methods of a JavaScript or TypeScript file. */
function jsFunctions(lines: readonly string[]): DocFunction[] {
  const out: DocFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!(lines[i] ?? '').trim().startsWith('/**')) continue;
    let end = i;
    while (end < lines.length && !(lines[end] ?? '').includes('*/')) end++;
    if (end >= lines.length) break;
    // Only a comment that owns its lines can be cut out cleanly.
    if (!(lines[end] ?? '').trim().endsWith('*/')) {
      i = end;
      continue;
    }
    let decl = end + 1;
    while (decl < lines.length && (lines[decl] ?? '').trim() === '') decl++;
    const declaration = (lines[decl] ?? '').trim();
    if (decl - end <= 2 && JS_DECLARATION.test(declaration) && !NOT_A_FUNCTION.test(declaration)) {
      const body = lines.slice(i, end + 1).map((l) =>
        l
          .replace(/^\s*\/\*\*\s?/, '')
          .replace(/\*\/\s*$/, '')
          .replace(/^\s*\*\s?/, ''),
      );
      out.push({ docFrom: i, docTo: end, declaration: decl, query: summary(body) });
    }
    i = end;
  }
  return out;
}

const PY_DEF = /^(\s*)(?:async\s+)?def\s+\w+\s*\(/;
const PY_DOC_OPEN = /^(\s*)[rRuU]?("""|''')/;

/** Python functions whose first statement is a docstring on lines of its own. */
function pyFunctions(lines: readonly string[]): DocFunction[] {
  const out: DocFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const def = PY_DEF.exec(lines[i] ?? '');
    if (!def) continue;
    // The signature may span lines; it ends at the line ending with ':'.
    let sigEnd = i;
    while (sigEnd < lines.length && !/:\s*(#.*)?$/.test(lines[sigEnd] ?? '')) sigEnd++;
    let doc = sigEnd + 1;
    while (doc < lines.length && (lines[doc] ?? '').trim() === '') doc++;
    const open = PY_DOC_OPEN.exec(lines[doc] ?? '');
    if (!open || (open[1] ?? '').length <= (def[1] ?? '').length) continue;
    const quote = open[2] ?? '"""';
    const first = (lines[doc] ?? '').slice((lines[doc] ?? '').indexOf(quote) + 3);
    let end = doc;
    if (!first.includes(quote)) {
      end = doc + 1;
      while (end < lines.length && !(lines[end] ?? '').includes(quote)) end++;
      if (end >= lines.length) continue;
    }
    if (!(lines[end] ?? '').trim().endsWith(quote)) continue;
    const body = [first, ...lines.slice(doc + 1, end + 1)].map((l) => l.replace(quote, ''));
    out.push({ docFrom: doc, docTo: end, declaration: i, query: summary(end === doc ? [first.slice(0, first.indexOf(quote))] : body) });
    i = sigEnd;
  }
  return out;
}

/** The file with every found doc comment removed, and its functions' declaration lines (1-based) after removal. */
function prepare(file: string, source: PreparedFile['source'], text: string): PreparedFile | undefined {
  const lines = text.split('\n');
  const functions = file.endsWith('.py') ? pyFunctions(lines) : jsFunctions(lines);
  if (functions.length === 0) return undefined;
  const removed = new Uint8Array(lines.length);
  for (const f of functions) removed.fill(1, f.docFrom, f.docTo + 1);
  const newLine = new Int32Array(lines.length);
  const kept: string[] = [];
  lines.forEach((line, i) => {
    newLine[i] = kept.length + 1;
    if (removed[i] === 0) kept.push(line);
  });
  return { path: file, source, text: kept.join('\n'), functions: functions.map((f) => ({ query: f.query, line: newLine[f.declaration] ?? 1 })) };
}

function walk(dir: string, accept: (file: string) => boolean, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['test', 'tests', 'idlelib', 'site-packages', 'dist-packages', '__pycache__', '.bin'].includes(entry.name)) walk(full, accept, out);
    } else if (entry.isFile() && accept(full)) out.push(full);
  }
}

/** Candidate source files, by source. */
function sourceFiles(nodeModules: string): { file: string; source: PreparedFile['source'] }[] {
  const out: { file: string; source: PreparedFile['source'] }[] = [];
  const tsLib = path.join(nodeModules, 'typescript', 'lib');
  for (const name of readdirSync(tsLib).sort()) if (/^lib\..*\.d\.ts$/.test(name)) out.push({ file: path.join(tsLib, name), source: 'ts-lib' });
  const js: string[] = [];
  // Cadenza's walker skips files over 1 MB and minified files; stay well inside that.
  walk(
    nodeModules,
    (f) =>
      /\.(?:js|mjs|cjs|d\.ts)$/.test(f) && !f.includes(`${path.sep}typescript${path.sep}lib${path.sep}`) && !/\.min\.js$/.test(f) && statSync(f).size < 200_000,
    js,
  );
  for (const file of js) out.push({ file, source: 'node_modules' });
  const py: string[] = [];
  for (const dir of readdirSync('/usr/lib')
    .filter((d) => /^python3\.\d+$/.test(d))
    .sort())
    walk(path.join('/usr/lib', dir), (f) => f.endsWith('.py') && statSync(f).size < 400_000, py);
  for (const file of py) out.push({ file, source: 'python' });
  return out;
}

/** A file's path as the set shows it: under `node_modules/…` or `python3.x/…`, wherever they are installed. */
function displayPath(file: string, nodeModules: string): string {
  return file.replace(nodeModules, 'node_modules').replace(/^\/usr\/lib\//, '');
}

/**
 * Builds the set: files in a seeded random order until both `minChunks` chunks and `minQueries`
 * usable queries are in (files with identical content, e.g. the same package installed twice, count
 * once). A usable query has 4 to 80 words and a text no other function in the whole pool shares
 * (the many "Returns a string representation of an array." would be ambiguous).
 */
export function buildRetrievalSet(options: { nodeModules: string; minChunks: number; minQueries: number; seed: number }): RetrievalSet {
  const seen = new Set<string>();
  const prepared: PreparedFile[] = [];
  for (const { file, source } of sourceFiles(options.nodeModules)) {
    const text = readFileSync(file, 'utf8');
    const digest = createHash('sha256').update(text).digest('hex');
    if (seen.has(digest) || text.includes('\u0000')) continue;
    seen.add(digest);
    const p = prepare(file, source, text);
    if (p) prepared.push(p);
  }
  const textCount = new Map<string, number>();
  for (const p of prepared) for (const f of p.functions) textCount.set(f.query.toLowerCase(), (textCount.get(f.query.toLowerCase()) ?? 0) + 1);
  const usable = (q: string): boolean => {
    const words = q.split(' ').length;
    return words >= 4 && words <= 80 && textCount.get(q.toLowerCase()) === 1;
  };
  const chunks: CorpusChunk[] = [];
  const queries: CorpusQuery[] = [];
  let files = 0;
  // Ordered by a seeded hash of each file's path rather than shuffled as a list: a package installed or
  // removed later only inserts or drops its own files, so the order of the rest (and the embeddings
  // cached for a prefix of it) survives a change in node_modules.
  const rank = (p: PreparedFile): string =>
    createHash('sha256')
      .update(`${options.seed}\u0000${displayPath(p.path, options.nodeModules)}`)
      .digest('hex');
  const ordered = prepared
    .map((p) => ({ p, key: rank(p) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ p }) => p);
  for (const p of ordered) {
    if (chunks.length >= options.minChunks && queries.length >= options.minQueries) break;
    const fileChunks = chunkText(p.text);
    const display = displayPath(p.path, options.nodeModules);
    const base = chunks.length;
    fileChunks.forEach((c) => chunks.push({ id: chunks.length, path: display, startLine: c.startLine, endLine: c.endLine, text: c.text }));
    for (const f of p.functions) {
      if (!usable(f.query)) continue;
      const targets = fileChunks.map((c, i) => (c.startLine <= f.line && f.line <= c.endLine ? base + i : -1)).filter((i) => i >= 0);
      if (targets.length > 0) queries.push({ id: queries.length, text: f.query, path: display, source: p.source, targets });
    }
    files++;
  }
  return { chunks, queries, files };
}
