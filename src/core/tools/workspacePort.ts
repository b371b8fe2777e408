// The small port the agent's tools need from the editor. The host implements it over the VS Code API
// (src/host/tools/vscodeWorkspace.ts); tests implement it over a folder or in memory. Every path is as
// the model wrote it; the port resolves it against the workspace folders and refuses anything outside
// them (ToolError 'outsideWorkspace'). Paths it returns are workspace-relative, with forward slashes.

/** An entry of a directory listing. */
export interface DirectoryEntry {
  readonly name: string;
  readonly kind: 'file' | 'directory' | 'other';
}

/** One line that matched a text search. */
export interface TextMatch {
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

/** What search_text looks for. */
export interface TextQuery {
  readonly text: string;
  readonly isRegex: boolean;
  /** Only files matching this glob (workspace-relative), e.g. `src/**\/*.ts`. */
  readonly glob?: string;
}

/** A hit of the semantic index. */
export interface SemanticHit {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/** A problem the language services report. */
export interface DiagnosticInfo {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  readonly source?: string;
}

/** An entry of a file's outline. */
export interface SymbolInfo {
  readonly name: string;
  readonly kind: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly children?: readonly SymbolInfo[];
}

/** What the user is looking at. */
export interface SelectionInfo {
  /** The active editor's file, if it is a workspace file. */
  readonly activePath?: string;
  readonly language?: string;
  /** 1-based, inclusive. */
  readonly selection?: {
    readonly startLine: number;
    readonly startColumn: number;
    readonly endLine: number;
    readonly endColumn: number;
    readonly text: string;
  };
  readonly openEditors: readonly string[];
}

/** A replacement in one file, applied only if the file's text is still `expectedText`. */
export interface FileEdit {
  readonly path: string;
  readonly expectedText: string;
  /** Offset and length of the replaced text in `expectedText`. */
  readonly offset: number;
  readonly length: number;
  readonly newText: string;
}

/** How a command ended. */
export interface CommandOutcome {
  /** null when it was killed (time limit, cancel). */
  readonly exitCode: number | null;
  /** stdout and stderr interleaved as they came, possibly cut at the port's output cap. */
  readonly output: string;
  readonly timedOut: boolean;
  /** Characters of output dropped at the cap. */
  readonly droppedChars: number;
}

/** The editor, as the agent's tools see it. */
export interface WorkspacePort {
  /** Whether the changing functions exist (a trusted workspace); false in Restricted Mode. */
  isTrusted(): boolean;
  /** The whole text of a file: the open editor's, unsaved changes included, else the file on disk. */
  readFile(path: string, signal: AbortSignal): Promise<{ readonly path: string; readonly text: string; readonly realPath?: string }>;
  listDirectory(path: string, signal: AbortSignal): Promise<{ readonly path: string; readonly entries: readonly DirectoryEntry[] }>;
  /** Workspace files matching a glob, honouring files.exclude and search.exclude; `more` when cut at `limit`. */
  findFiles(glob: string, limit: number, signal: AbortSignal): Promise<{ readonly paths: readonly string[]; readonly more: boolean }>;
  searchText(
    query: TextQuery,
    limit: number,
    signal: AbortSignal,
  ): Promise<{ readonly matches: readonly TextMatch[]; readonly more: boolean; readonly filesSearched: number }>;
  /** The semantic index's best chunks; throws ToolError when there is no index. */
  semanticSearch(query: string, k: number, signal: AbortSignal): Promise<readonly SemanticHit[]>;
  /** Problems of one file, or of the whole workspace when `path` is undefined. */
  diagnostics(path: string | undefined, signal: AbortSignal): Promise<readonly DiagnosticInfo[]>;
  symbols(path: string, signal: AbortSignal): Promise<{ readonly path: string; readonly symbols: readonly SymbolInfo[] }>;
  selection(signal: AbortSignal): Promise<SelectionInfo>;
  /**
   * Whether a path exists (file or directory); false outside the workspace is never returned: that throws.
   * `realPath` (here and in readFile) is where the path really leads inside the workspace when a link makes
   * that differ from `path` (so `hooks-link/pre-commit` is known to be `.git/hooks/pre-commit`).
   */
  exists(path: string, signal: AbortSignal): Promise<{ readonly path: string; readonly exists: boolean; readonly realPath?: string }>;
  /** Whether `.gitignore` (or `.cadenzaignore`) files ignore the path; ports that cannot tell leave it out. */
  isIgnored?(path: string, signal: AbortSignal): Promise<boolean>;
  /** Whether a folder above the path, below its workspace folder, holds `pyvenv.cfg` (a Python virtual environment); ports that cannot tell leave it out. */
  isInVirtualEnv?(path: string, signal: AbortSignal): Promise<boolean>;
  /** Applies one replacement as one undoable edit and saves; ToolError 'changed' if the text moved. */
  editFile(edit: FileEdit, signal: AbortSignal): Promise<void>;
  /** Creates a file; ToolError 'exists' rather than overwrite. */
  createFile(path: string, content: string, signal: AbortSignal): Promise<void>;
  /** Runs a shell command in a workspace folder with a time limit, capturing its output; the signal kills it. */
  runInTerminal(command: string, options: { readonly cwd?: string; readonly timeoutMs: number; readonly signal: AbortSignal }): Promise<CommandOutcome>;
}
