// The WorkspacePort over the VS Code API: reading through WorkspaceReader, changing through the writer's
// functions, and trust from `workspace.isTrusted` (an override exists for tests of Restricted Mode,
// which the offline harness cannot open for real: it disables workspace trust).
import * as vscode from 'vscode';
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
} from '../../core/tools/workspacePort';
import { WorkspaceReader, type SemanticSearch } from './workspaceReader';
import { applyFileEdit, createWorkspaceFile, runCommand } from './workspaceWriter';

/** The editor as the agent's tools see it. */
export class VscodeWorkspacePort implements WorkspacePort {
  private readonly reader: WorkspaceReader;
  private trustOverride: boolean | undefined;

  constructor(semantic: SemanticSearch) {
    this.reader = new WorkspaceReader(semantic);
  }

  /** Pretends the workspace is (un)trusted; undefined follows VS Code again. */
  overrideTrust(trusted: boolean | undefined): void {
    this.trustOverride = trusted;
  }

  isTrusted(): boolean {
    return this.trustOverride ?? vscode.workspace.isTrusted;
  }

  readFile(path: string, signal: AbortSignal): Promise<{ path: string; text: string; realPath?: string }> {
    return this.reader.readFile(path, signal);
  }

  listDirectory(path: string, signal: AbortSignal): Promise<{ path: string; entries: DirectoryEntry[] }> {
    return this.reader.listDirectory(path, signal);
  }

  findFiles(glob: string, limit: number, signal: AbortSignal): Promise<{ paths: string[]; more: boolean }> {
    return this.reader.findFiles(glob, limit, signal);
  }

  searchText(query: TextQuery, limit: number, signal: AbortSignal): Promise<{ matches: TextMatch[]; more: boolean; filesSearched: number }> {
    return this.reader.searchText(query, limit, signal);
  }

  semanticSearch(query: string, k: number, signal: AbortSignal): Promise<readonly SemanticHit[]> {
    return this.reader.semanticSearch(query, k, signal);
  }

  diagnostics(path: string | undefined, signal: AbortSignal): Promise<DiagnosticInfo[]> {
    return this.reader.diagnostics(path, signal);
  }

  symbols(path: string, signal: AbortSignal): Promise<{ path: string; symbols: SymbolInfo[] }> {
    return this.reader.symbols(path, signal);
  }

  selection(signal: AbortSignal): Promise<SelectionInfo> {
    return this.reader.selection(signal);
  }

  isIgnored(path: string, signal: AbortSignal): Promise<boolean> {
    return this.reader.isIgnored(path, signal);
  }

  isInVirtualEnv(path: string, signal: AbortSignal): Promise<boolean> {
    return this.reader.isInVirtualEnv(path, signal);
  }

  exists(path: string, signal: AbortSignal): Promise<{ path: string; exists: boolean; realPath?: string }> {
    return this.reader.exists(path, signal);
  }

  editFile(edit: FileEdit, signal: AbortSignal): Promise<void> {
    return applyFileEdit(edit, this.isTrusted(), signal);
  }

  createFile(path: string, content: string, signal: AbortSignal): Promise<void> {
    return createWorkspaceFile(path, content, this.isTrusted(), signal);
  }

  runInTerminal(command: string, options: { readonly cwd?: string; readonly timeoutMs: number; readonly signal: AbortSignal }): Promise<CommandOutcome> {
    return runCommand(command, options, this.isTrusted());
  }
}
