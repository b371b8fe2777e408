// The read-only functions: each turns validated arguments into a port call and the port's answer into
// compact text for the model (plain lines, not JSON: fewer tokens for the same facts).
import type { ToolDefinition } from '../api/types';
import { readToolDefinitions } from './definitions';
import { withPathHint } from './editHints';
import { windowsSegments } from '../index/secretFiles';
import { secretFileCaution } from './sensitivePaths';
import { checkQuery } from './textSearch';
import { ToolError, type ReadTool, type ToolArgs, type ToolContext } from './toolTypes';
import type { SymbolInfo, WorkspacePort } from './workspacePort';

/** How much the read functions return at most, before the loop's own cut to the context. */
export interface ReadLimits {
  /** Characters of read_file's answer; past it the answer stops at a line and says where to go on. */
  readonly maxFileChars: number;
  readonly maxFiles: number;
  readonly maxMatches: number;
  readonly semanticHits: number;
}

/** The defaults: about 8,000 tokens of a file, 200 paths, 100 matches, 6 index hits. */
export const defaultReadLimits: ReadLimits = { maxFileChars: 32_000, maxFiles: 200, maxMatches: 100, semanticHits: 6 };

function definition(name: string): ToolDefinition {
  const found = readToolDefinitions.find((entry) => entry.name === name);
  if (!found) throw new Error(`no definition for ${name}`);
  return found;
}

/** A string argument (validated before, so a wrong type cannot reach here unless optional and absent). */
export function stringArg(args: ToolArgs, name: string): string {
  const value = args[name];
  return typeof value === 'string' ? value : '';
}

function optionalInt(args: ToolArgs, name: string): number | undefined {
  const value = args[name];
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : undefined;
}

function tool(name: string, run: (args: ToolArgs, context: ToolContext) => Promise<string>): ReadTool {
  return { definition: definition(name), effect: 'read', run };
}

/** read_file: a line range of a text file, with a header saying which lines of how many. */
async function readFile(port: WorkspacePort, limits: ReadLimits, args: ToolArgs, context: ToolContext): Promise<string> {
  const { path, text } = await withPathHint(port.readFile(stringArg(args, 'path'), context.signal));
  if (text.includes('\u0000')) throw new ToolError('binary', `${path} is a binary file; it cannot be read as text.`);
  context.session.noteRead(path, text);
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const total = lines.length;
  const start = Math.max(1, optionalInt(args, 'start_line') ?? 1);
  const end = Math.min(total, Math.max(start, optionalInt(args, 'end_line') ?? total));
  if (total === 0 || text === '') return `${path} is empty.`;
  if (start > total) throw new ToolError('invalid', `start_line ${start} is past the end of ${path} (${total} lines).`);
  // Room is left for the header and the note, so the loop's own cut never removes the note.
  const budget = Math.max(200, Math.min(limits.maxFileChars, (context.maxResultChars ?? Infinity) - 300));
  const shown: string[] = [];
  let used = 0;
  let last = start - 1;
  for (let index = start - 1; index < end; index += 1) {
    const line = lines[index] ?? '';
    if (used + line.length + 1 > budget && shown.length > 0) break;
    shown.push(line);
    used += line.length + 1;
    last = index + 1;
  }
  const whole = start === 1 && last === total;
  const header = whole ? `${path} (${total} lines)` : `${path} (lines ${start}-${last} of ${total})`;
  const more = last < end ? `\n[Stopped at line ${last} to stay within the size limit; read on with start_line ${last + 1}.]` : '';
  return `${header}\n${shown.join('\n')}${more}`;
}

function outline(symbols: readonly SymbolInfo[], depth: number, out: string[]): void {
  for (const symbol of symbols) {
    out.push(`${'  '.repeat(depth)}${symbol.kind} ${symbol.name} (lines ${symbol.startLine}-${symbol.endLine})`);
    if (symbol.children) outline(symbol.children, depth + 1, out);
  }
}

/** The read-only functions over `port`. */
export function readTools(port: WorkspacePort, limits: ReadLimits = defaultReadLimits): ReadTool[] {
  return [
    {
      ...tool('read_file', (args, context) => readFile(port, limits, args, context)),
      // A git-ignored secret (.env, a private key) is read only after the user agrees: what the model
      // reads is sent to the service. Judged on the path as written, as Windows opens it (`.env::$DATA`),
      // and on where a link leads (`config/app.txt -> ../.env`).
      async confirm(args, context) {
        const path = stringArg(args, 'path');
        const realPath = (await port.exists(path, context.signal).catch(() => undefined))?.realPath;
        const candidates = new Set([path, windowsSegments(path).join('/'), ...(realPath === undefined ? [] : [realPath])]);
        for (const candidate of candidates) {
          const secret = secretFileCaution(candidate === realPath ? path : candidate, candidate === realPath ? realPath : undefined);
          if (secret === undefined || !(await port.isIgnored?.(candidate, context.signal))) continue;
          return { kind: 'read', path, reason: secret.text, reasonRule: secret.rule };
        }
        return undefined;
      },
    },
    tool('list_directory', async (args, context) => {
      const { path, entries } = await withPathHint(port.listDirectory(stringArg(args, 'path') || '.', context.signal));
      const sorted = [...entries].sort((a, b) => Number(b.kind === 'directory') - Number(a.kind === 'directory') || a.name.localeCompare(b.name));
      const names = sorted.map((entry) => (entry.kind === 'directory' ? `${entry.name}/` : entry.name));
      return `${path === '' ? '.' : path}/ (${entries.length} entries)\n${names.join('\n')}`;
    }),
    tool('find_files', async (args, context) => {
      const { paths, more } = await port.findFiles(stringArg(args, 'glob'), limits.maxFiles, context.signal);
      if (paths.length === 0) return 'No files match.';
      return `${paths.join('\n')}${more ? `\n[More than ${paths.length} files match; narrow the glob.]` : ''}`;
    }),
    tool('search_text', async (args, context) => {
      const glob = stringArg(args, 'glob');
      const query = { text: stringArg(args, 'query'), isRegex: args['regex'] === true, ...(glob ? { glob } : {}) };
      if (query.text === '') throw new ToolError('invalid', 'query is empty.');
      checkQuery(query);
      const { matches, more, filesSearched } = await port.searchText(query, limits.maxMatches, context.signal);
      if (matches.length === 0) return `No matches in ${filesSearched} files.`;
      const lines = matches.map((match) => `${match.path}:${match.line}: ${match.text.trim().slice(0, 200)}`);
      return `${lines.join('\n')}${more ? `\n[Stopped at ${matches.length} matches; narrow the query or the glob.]` : ''}`;
    }),
    tool('semantic_search', async (args, context) => {
      const hits = await port.semanticSearch(stringArg(args, 'query'), limits.semanticHits, context.signal);
      if (hits.length === 0) return 'The index found nothing for this query.';
      return hits.map((hit, index) => `[${index + 1}] ${hit.path}:${hit.startLine}-${hit.endLine}\n${hit.text.slice(0, 1500)}`).join('\n\n');
    }),
    tool('get_diagnostics', async (args, context) => {
      const path = stringArg(args, 'path');
      const problems = await port.diagnostics(path === '' ? undefined : path, context.signal);
      if (problems.length === 0) return path ? `No problems reported in ${path}.` : 'No problems reported in the workspace.';
      return (
        problems
          .slice(0, limits.maxMatches)
          .map(
            (problem) =>
              `${problem.path}:${problem.line}:${problem.column} ${problem.severity}: ${problem.message}${problem.source ? ` (${problem.source})` : ''}`,
          )
          .join('\n') + (problems.length > limits.maxMatches ? `\n[${problems.length - limits.maxMatches} more not shown.]` : '')
      );
    }),
    tool('get_symbols', async (args, context) => {
      const { path, symbols } = await withPathHint(port.symbols(stringArg(args, 'path'), context.signal));
      if (symbols.length === 0) return `No symbols reported for ${path} (no language support, or nothing declared).`;
      const out = [`${path}:`];
      outline(symbols, 1, out);
      return out.join('\n');
    }),
    tool('get_selection', async (_args, context) => {
      const info = await port.selection(context.signal);
      const lines = [info.activePath ? `Active editor: ${info.activePath}${info.language ? ` (${info.language})` : ''}` : 'No workspace file is active.'];
      const selection = info.selection;
      if (selection) {
        const range = `${selection.startLine}:${selection.startColumn}-${selection.endLine}:${selection.endColumn}`;
        lines.push(
          selection.text === '' ? `Cursor at ${selection.startLine}:${selection.startColumn}; nothing selected.` : `Selection ${range}:\n${selection.text}`,
        );
      }
      lines.push(`Open editors: ${info.openEditors.length > 0 ? info.openEditors.join(', ') : 'none'}`);
      return lines.join('\n');
    }),
  ];
}
