// A WorkspacePort over one folder on disk, for bench/agent/agentTasks.ts: the agent's own tools run on real files
// and a real shell, as the host's port does, without VS Code. Paths are resolved by core's
// resolveWorkspacePath (nothing outside the folder); search uses core's matcher; there is no index, no
// language service and no editor, each said the way the host says it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { collectMatches, lineMatcher } from '../../src/core/tools/textSearch';
import { ToolError } from '../../src/core/tools/toolTypes';
import { resolveWorkspacePath, type FolderRoot } from '../../src/core/tools/workspacePaths';
import type {
  CommandOutcome,
  DiagnosticInfo,
  DirectoryEntry,
  FileEdit,
  SelectionInfo,
  SemanticHit,
  SymbolInfo,
  TextMatch,
  TextQuery,
  WorkspacePort,
} from '../../src/core/tools/workspacePort';

const maxOutputChars = 64_000;

/** Every file below `root` (workspace-relative, forward slashes), skipping caches. */
function walk(root: string, folder = root, out: string[] = []): string[] {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === '__pycache__' || entry.name === '.git' || entry.name === 'node_modules') continue;
    const full = join(folder, entry.name);
    if (entry.isDirectory()) walk(root, full, out);
    else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
  }
  return out.sort();
}

function globPattern(glob: string): RegExp {
  const source = glob
    .trim()
    .replace(/^\.\//, '')
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '@@')
    .replace(/\*\*/g, '.*')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '.')
    .replace(/@@/g, '(.*/)?');
  // A glob without a folder matches at any depth, as VS Code's findFiles does for `*.py`.
  return new RegExp(glob.includes('/') ? `^${source}$` : `(^|/)${source}$`);
}

/** The port; `commands` records what ran. */
export class DiskPort implements WorkspacePort {
  readonly commands: string[] = [];
  private readonly folders: readonly FolderRoot[];

  constructor(readonly root: string) {
    this.folders = [{ name: 'workspace', fsPath: realpathSync(root) }];
  }

  private resolve(path: string): { absolute: string; display: string } {
    return resolveWorkspacePath(path, this.folders);
  }

  isTrusted(): boolean {
    return true;
  }

  async readFile(path: string): Promise<{ path: string; text: string }> {
    const target = this.resolve(path);
    if (!existsSync(target.absolute)) throw new ToolError('notFound', `${target.display || '.'} does not exist.`);
    if (statSync(target.absolute).isDirectory()) throw new ToolError('invalid', `${target.display || '.'} is a folder; list it with list_directory.`);
    return { path: target.display, text: readFileSync(target.absolute, 'utf8') };
  }

  async listDirectory(path: string): Promise<{ path: string; entries: DirectoryEntry[] }> {
    const target = this.resolve(path);
    if (!existsSync(target.absolute) || !statSync(target.absolute).isDirectory())
      throw new ToolError('notFound', `${target.display || '.'} is not a directory that exists.`);
    const entries = readdirSync(target.absolute, { withFileTypes: true })
      .filter((entry) => entry.name !== '__pycache__')
      .map((entry): DirectoryEntry => ({ name: entry.name, kind: entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other' }));
    return { path: target.display, entries };
  }

  async findFiles(glob: string, limit: number): Promise<{ paths: string[]; more: boolean }> {
    const pattern = globPattern(glob);
    const paths = walk(this.folders[0]?.fsPath ?? this.root).filter((path) => pattern.test(path));
    return { paths: paths.slice(0, limit), more: paths.length > limit };
  }

  async searchText(query: TextQuery, limit: number): Promise<{ matches: TextMatch[]; more: boolean; filesSearched: number }> {
    const root = this.folders[0]?.fsPath ?? this.root;
    const filter = query.glob ? globPattern(query.glob) : undefined;
    const matcher = lineMatcher(query);
    const matches: TextMatch[] = [];
    let searched = 0;
    for (const path of walk(root)) {
      if (filter && !filter.test(path)) continue;
      searched += 1;
      if (!collectMatches(path, readFileSync(join(root, path), 'utf8'), matcher, limit, matches)) return { matches, more: true, filesSearched: searched };
    }
    return { matches, more: false, filesSearched: searched };
  }

  async semanticSearch(): Promise<SemanticHit[]> {
    throw new ToolError('notFound', 'The workspace index is empty or turned off; use search_text or find_files instead.');
  }

  async diagnostics(): Promise<DiagnosticInfo[]> {
    return [];
  }

  /** Python's `def` and `class` lines, as a language service would outline them (one line each). */
  async symbols(path: string): Promise<{ path: string; symbols: SymbolInfo[] }> {
    const { path: display, text } = await this.readFile(path);
    const symbols: SymbolInfo[] = [];
    text.split('\n').forEach((line, index) => {
      const match = /^\s*(def|class)\s+(\w+)/.exec(line);
      if (match?.[1] && match[2]) symbols.push({ name: match[2], kind: match[1] === 'def' ? 'function' : 'class', startLine: index + 1, endLine: index + 1 });
    });
    return { path: display, symbols };
  }

  async selection(): Promise<SelectionInfo> {
    return { openEditors: [] };
  }

  async exists(path: string): Promise<{ path: string; exists: boolean }> {
    const target = this.resolve(path);
    return { path: target.display, exists: existsSync(target.absolute) };
  }

  async editFile(edit: FileEdit): Promise<void> {
    const target = this.resolve(edit.path);
    const current = readFileSync(target.absolute, 'utf8');
    if (current !== edit.expectedText) throw new ToolError('changed', `${edit.path} changed after the edit was proposed; it was not applied.`);
    writeFileSync(target.absolute, current.slice(0, edit.offset) + edit.newText + current.slice(edit.offset + edit.length));
  }

  async createFile(path: string, content: string): Promise<void> {
    const target = this.resolve(path);
    if (existsSync(target.absolute)) throw new ToolError('exists', `${target.display} already exists`);
    mkdirSync(dirname(target.absolute), { recursive: true });
    writeFileSync(target.absolute, content);
  }

  runInTerminal(command: string, options: { readonly cwd?: string; readonly timeoutMs: number; readonly signal: AbortSignal }): Promise<CommandOutcome> {
    const cwd = this.resolve(options.cwd ?? '.').absolute;
    this.commands.push(command);
    return new Promise((resolve) => {
      const child = spawn('sh', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      let dropped = 0;
      let timedOut = false;
      const take = (chunk: Buffer): void => {
        const text = chunk.toString('utf8');
        const room = maxOutputChars - output.length;
        output += text.slice(0, Math.max(0, room));
        dropped += Math.max(0, text.length - room);
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: timedOut ? null : code, output, timedOut, droppedChars: dropped });
      });
    });
  }
}
