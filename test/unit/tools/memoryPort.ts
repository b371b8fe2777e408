// A WorkspacePort over files held in memory, for the unit tests of the tools and the loop, and for the
// benchmark (no disk, so the loop's own overhead is what is measured).
import { ApiError } from '../../../src/core/api/errors';
import { collectMatches, lineMatcher } from '../../../src/core/tools/textSearch';
import { ToolError } from '../../../src/core/tools/toolTypes';
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
} from '../../../src/core/tools/workspacePort';

function normal(path: string): string {
  const trimmed = path
    .trim()
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');
  if (trimmed.startsWith('/') || trimmed.split('/').includes('..'))
    throw new ToolError('outsideWorkspace', `${path} is outside the workspace folders; only files inside them can be used.`);
  return trimmed === '.' ? '' : trimmed;
}

function check(signal: AbortSignal): void {
  if (signal.aborted) throw new ApiError('canceled', 'Stopped by the user');
}

/** Files in a Map; every call is recorded. Hooks let a test slow or break a function. */
export class MemoryPort implements WorkspacePort {
  readonly files = new Map<string, string>();
  readonly calls: string[] = [];
  trusted = true;
  commands: { command: string; cwd: string | undefined }[] = [];
  /** Runs before every function (a test can wait for the signal here). */
  before: ((name: string, signal: AbortSignal) => Promise<void>) | undefined;
  commandOutcome: CommandOutcome = { exitCode: 0, output: 'ok\n', timedOut: false, droppedChars: 0 };
  /** Paths the port reports as git-ignored. */
  readonly ignored = new Set<string>();
  /** Folder links inside the workspace: a path below a key really leads below its value. */
  readonly links = new Map<string, string>();

  private real(key: string): { realPath?: string } {
    for (const [link, target] of this.links) if (key === link || key.startsWith(`${link}/`)) return { realPath: target + key.slice(link.length) };
    return {};
  }

  constructor(files: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(files)) this.files.set(path, text);
  }

  private async enter(name: string, signal: AbortSignal): Promise<void> {
    this.calls.push(name);
    check(signal);
    await this.before?.(name, signal);
    check(signal);
  }

  isTrusted(): boolean {
    return this.trusted;
  }

  async readFile(path: string, signal: AbortSignal): Promise<{ path: string; text: string; realPath?: string }> {
    await this.enter('readFile', signal);
    const key = normal(path);
    const text = this.files.get(key);
    if (text === undefined) throw new ToolError('notFound', `${key} does not exist.`);
    return { path: key, text, ...this.real(key) };
  }

  async listDirectory(path: string, signal: AbortSignal): Promise<{ path: string; entries: DirectoryEntry[] }> {
    await this.enter('listDirectory', signal);
    const key = normal(path);
    const prefix = key === '' ? '' : `${key}/`;
    const names = new Map<string, DirectoryEntry['kind']>();
    for (const file of this.files.keys()) {
      if (!file.startsWith(prefix)) continue;
      const [head, ...rest] = file.slice(prefix.length).split('/');
      if (head) names.set(head, rest.length > 0 ? 'directory' : 'file');
    }
    if (names.size === 0) throw new ToolError('notFound', `${key || '.'} is not a directory that exists.`);
    return { path: key, entries: [...names].map(([name, kind]) => ({ name, kind })) };
  }

  async findFiles(glob: string, limit: number, signal: AbortSignal): Promise<{ paths: string[]; more: boolean }> {
    await this.enter('findFiles', signal);
    const source = glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '@@')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '.')
      .replace(/@@/g, '(.*/)?');
    const pattern = new RegExp(`^${source}$`);
    const paths = [...this.files.keys()].filter((path) => pattern.test(path)).sort();
    return { paths: paths.slice(0, limit), more: paths.length > limit };
  }

  async searchText(query: TextQuery, limit: number, signal: AbortSignal): Promise<{ matches: TextMatch[]; more: boolean; filesSearched: number }> {
    await this.enter('searchText', signal);
    const matches: TextMatch[] = [];
    const matcher = lineMatcher(query);
    let searched = 0;
    for (const [path, text] of [...this.files].sort()) {
      searched += 1;
      if (!collectMatches(path, text, matcher, limit, matches)) return { matches, more: true, filesSearched: searched };
    }
    return { matches, more: false, filesSearched: searched };
  }

  async semanticSearch(query: string, k: number, signal: AbortSignal): Promise<SemanticHit[]> {
    await this.enter('semanticSearch', signal);
    const words = query.toLowerCase().split(/\W+/).filter(Boolean);
    return [...this.files]
      .filter(([, text]) => words.some((word) => text.toLowerCase().includes(word)))
      .slice(0, k)
      .map(([path, text]) => ({ path, startLine: 1, endLine: text.split('\n').length, text }));
  }

  async diagnostics(path: string | undefined, signal: AbortSignal): Promise<DiagnosticInfo[]> {
    await this.enter('diagnostics', signal);
    const out: DiagnosticInfo[] = [];
    for (const [file, text] of this.files) {
      if (path !== undefined && normal(path) !== file) continue;
      text.split('\n').forEach((line, index) => {
        if (line.includes('TODO'))
          out.push({ path: file, line: index + 1, column: line.indexOf('TODO') + 1, severity: 'warning', message: 'A TODO is left', source: 'memory' });
      });
    }
    return out;
  }

  async symbols(path: string, signal: AbortSignal): Promise<{ path: string; symbols: SymbolInfo[] }> {
    await this.enter('symbols', signal);
    const { path: key, text } = await this.readFile(path, signal);
    const symbols: SymbolInfo[] = [];
    text.split('\n').forEach((line, index) => {
      const match = /function (\w+)/.exec(line);
      if (match?.[1]) symbols.push({ name: match[1], kind: 'function', startLine: index + 1, endLine: index + 1 });
    });
    return { path: key, symbols };
  }

  async selection(signal: AbortSignal): Promise<SelectionInfo> {
    await this.enter('selection', signal);
    return {
      activePath: 'src/a.ts',
      language: 'typescript',
      selection: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 5, text: 'the ' },
      openEditors: ['src/a.ts'],
    };
  }

  async isIgnored(path: string, signal: AbortSignal): Promise<boolean> {
    await this.enter('isIgnored', signal);
    return this.ignored.has(normal(path));
  }

  async isInVirtualEnv(path: string, signal: AbortSignal): Promise<boolean> {
    await this.enter('isInVirtualEnv', signal);
    const folders = normal(path).split('/').slice(0, -1);
    return folders.some((_, index) => this.files.has(`${folders.slice(0, index + 1).join('/')}/pyvenv.cfg`));
  }

  async exists(path: string, signal: AbortSignal): Promise<{ path: string; exists: boolean; realPath?: string }> {
    await this.enter('exists', signal);
    const key = normal(path);
    return { path: key, exists: this.files.has(key) || [...this.files.keys()].some((file) => file.startsWith(`${key}/`)), ...this.real(key) };
  }

  async editFile(edit: FileEdit, signal: AbortSignal): Promise<void> {
    await this.enter('editFile', signal);
    if (!this.trusted) throw new ToolError('restricted', 'Restricted Mode');
    const current = this.files.get(edit.path);
    if (current !== edit.expectedText) throw new ToolError('changed', `${edit.path} changed after the edit was proposed; it was not applied.`);
    this.files.set(edit.path, current.slice(0, edit.offset) + edit.newText + current.slice(edit.offset + edit.length));
  }

  async createFile(path: string, content: string, signal: AbortSignal): Promise<void> {
    await this.enter('createFile', signal);
    if (this.files.has(path)) throw new ToolError('exists', `${path} already exists`);
    this.files.set(path, content);
  }

  async runInTerminal(command: string, options: { readonly cwd?: string; readonly timeoutMs: number; readonly signal: AbortSignal }): Promise<CommandOutcome> {
    await this.enter('runInTerminal', options.signal);
    this.commands.push({ command, cwd: options.cwd });
    return this.commandOutcome;
  }
}
