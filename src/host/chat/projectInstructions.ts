// Project instructions in the host: reads the instruction files of the workspace folder of the active
// editor (never outside that folder: real paths are checked, as read_file does), keeps them current with a
// file watcher, and hands the chat turn their prompt section. Which files apply is decided in core.
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  cadenzaInstructionFile,
  findInstructions,
  instructionsPrompt,
  instructionsTemplate,
  type InstructionFile,
  type InstructionReader,
} from '../../core/chat/instructions';
import type { Logger } from '../../core/logger';

/** Instruction files larger than this are not read (they would not fit the budget anyway). */
const maxFileBytes = 256 * 1024;

/** Reads workspace-relative files of one folder, refusing links that lead outside it. */
export function folderReader(folder: string): InstructionReader {
  return {
    async read(relativePath) {
      try {
        const root = await fs.realpath(folder);
        const real = await fs.realpath(path.join(folder, ...relativePath.split('/')));
        if (real !== root && !real.startsWith(root + path.sep)) return undefined;
        const stat = await fs.stat(real);
        if (!stat.isFile() || stat.size > maxFileBytes) return undefined;
        return await fs.readFile(real, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** The instructions that apply now, for the active editor's workspace folder. */
export interface AppliedInstructions {
  readonly files: readonly InstructionFile[];
  readonly untrusted: boolean;
  /** The system-prompt section ('' when no file applies). */
  readonly prompt: string;
}

/** Finds, caches and watches the project's instruction files. */
export class ProjectInstructions implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private cached: Promise<AppliedInstructions> | undefined;

  /** Fires when an instruction file, the active editor or the trust changed (the panel's chip updates). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: Logger) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/{AGENTS.md,copilot-instructions.md,.cursorrules,.clinerules,instructions.md}');
    const invalidate = (): void => {
      this.cached = undefined;
      this.changed.fire();
    };
    this.disposables.push(
      watcher,
      watcher.onDidCreate(invalidate),
      watcher.onDidChange(invalidate),
      watcher.onDidDelete(invalidate),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        // Nested AGENTS.md files depend on the active file; other editors (output, diff views) change nothing.
        if (editor?.document.uri.scheme === 'file') invalidate();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(invalidate),
      vscode.workspace.onDidChangeWorkspaceFolders(invalidate),
    );
  }

  /** The workspace folder instructions come from, and the active file relative to it. */
  private location(): { folder: vscode.WorkspaceFolder; activeFile: string | undefined } | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder = (active ? vscode.workspace.getWorkspaceFolder(active) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return undefined;
    const activeFile = active && active.scheme === 'file' ? path.relative(folder.uri.fsPath, active.fsPath).split(path.sep).join('/') : undefined;
    return { folder, activeFile: activeFile && !activeFile.startsWith('..') ? activeFile : undefined };
  }

  /** The instructions that apply now (cached until a file, the active editor or the trust changes). */
  current(): Promise<AppliedInstructions> {
    this.cached ??= (async (): Promise<AppliedInstructions> => {
      const where = this.location();
      const untrusted = !vscode.workspace.isTrusted;
      if (!where) return { files: [], untrusted, prompt: '' };
      const files = await findInstructions(folderReader(where.folder.uri.fsPath), where.activeFile);
      if (files.length > 0)
        this.log.debug(`Project instructions: ${files.map((file) => `${file.path} (${file.tokens} tokens${file.cut ? ', cut' : ''})`).join(', ')}.`);
      return { files, untrusted, prompt: instructionsPrompt(files, untrusted) };
    })();
    return this.cached;
  }

  /** Opens an instruction file of the current folder by its relative path (a chip of the panel). */
  async open(relativePath: string): Promise<void> {
    const where = this.location();
    if (!where || (await this.current()).files.every((file) => file.path !== relativePath)) return;
    await vscode.window.showTextDocument(vscode.Uri.joinPath(where.folder.uri, ...relativePath.split('/')));
  }

  /** `Cadenza: Create Project Instructions`: creates `.cadenza/instructions.md` from a template (or opens it). */
  async create(): Promise<vscode.Uri | undefined> {
    const folder = this.location()?.folder;
    if (!folder) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: project instructions belong to a workspace folder.'));
      return undefined;
    }
    const uri = vscode.Uri.joinPath(folder.uri, ...cadenzaInstructionFile.split('/'));
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(instructionsTemplate));
    }
    await vscode.window.showTextDocument(uri);
    this.cached = undefined;
    this.changed.fire();
    return uri;
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
