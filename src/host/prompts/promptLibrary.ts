// The prompt files of this window: found in the workspace folders and the profile (promptFolders.ts), read
// each time they are listed or run; watchers, folder changes and granted trust fire onDidChange. Which
// file answers a name is decided in core (core/prompts/promptFile.ts); whether a workspace's prompt is
// trusted is read at the moment of the question, so granting trust needs no re-read.
import * as vscode from 'vscode';
import { mergePrompts, type PromptFile, type ShadowedPrompt } from '../../core/prompts/promptFile';
import type { Logger } from '../../core/logger';
import { profilePromptFolder, promptFolders, readPromptFolder, workspacePromptFolders, type PromptProblem } from './promptFolders';

/** A prompt file as the chat offers it. */
export interface LibraryPrompt extends PromptFile {
  /** From a workspace the user has not trusted (Restricted Mode): it runs without tools, marked as such. */
  readonly untrusted: boolean;
}

/** Every prompt of the window, for one chat's built-in commands. */
export interface PromptCatalog {
  readonly prompts: readonly LibraryPrompt[];
  readonly shadowed: readonly ShadowedPrompt[];
  readonly problems: readonly PromptProblem[];
}

interface Read {
  readonly files: readonly PromptFile[];
  readonly problems: readonly PromptProblem[];
}

export class PromptLibrary implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private profileWatched = false;
  /** The profile's prompts folder (see `profilePromptFolder`). */
  readonly profileFolder: vscode.Uri;

  /** Fires when a prompt file, the workspace folders or the trust changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly log: Logger,
    globalStorageUri: vscode.Uri,
  ) {
    this.profileFolder = profilePromptFolder(globalStorageUri);
    for (const folder of workspacePromptFolders) this.watch(vscode.workspace.createFileSystemWatcher(`**/${folder.path}/**`));
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
    );
  }

  private watch(watcher: vscode.FileSystemWatcher): void {
    const changed = (): void => this.invalidate();
    this.disposables.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
  }

  /**
   * Watches the profile's folder once it exists: a watcher on a folder that is not there yet never fires, and
   * watching the whole profile for it to appear would watch every extension's storage. A folder made later is
   * seen at the next read (New Prompt File makes one and reads again).
   */
  private async watchProfile(): Promise<void> {
    if (this.profileWatched) return;
    try {
      await vscode.workspace.fs.stat(this.profileFolder);
    } catch {
      return;
    }
    this.profileWatched = true;
    this.watch(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.profileFolder, '*.md')));
  }

  /** Tells listeners the prompts may have changed (a file changed, or the New Prompt File command wrote one). */
  invalidate(): void {
    this.changed.fire();
  }

  private async read(): Promise<Read> {
    await this.watchProfile();
    const problems: PromptProblem[] = [];
    const files: PromptFile[] = [];
    for (const folder of promptFolders(this.profileFolder)) files.push(...(await readPromptFolder(folder, problems)));
    for (const problem of problems) this.log.warn(`Prompt files: ${problem.message}`);
    this.log.debug(`Prompt files: ${files.length} read (${files.map((file) => `/${file.name}`).join(', ') || 'none'}).`);
    return { files, problems };
  }

  /** The prompts that answer to their names, with `builtIns` (the chat's own commands) taking precedence. */
  async catalog(builtIns: readonly string[] = []): Promise<PromptCatalog> {
    // Read from the folders each time (a few small files): VS Code's file watchers were seen to stay silent
    // for minutes in a window's life, and a prompt must run as its file is now. The watchers only tell
    // listeners (onDidChange) that a list they show may be out of date.
    const read = await this.read();
    const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.name);
    const merged = mergePrompts(read.files, folders, builtIns);
    const untrusted = !vscode.workspace.isTrusted;
    return {
      prompts: merged.prompts.map((prompt) => ({ ...prompt, untrusted: untrusted && prompt.source.origin === 'workspace' })),
      shadowed: merged.shadowed,
      problems: read.problems,
    };
  }

  /** The prompt a name means (without regard to case), or undefined; read from the folders as they are now. */
  async find(name: string, builtIns: readonly string[] = []): Promise<LibraryPrompt | undefined> {
    const key = name.toLowerCase();
    return (await this.catalog(builtIns)).prompts.find((prompt) => prompt.name.toLowerCase() === key);
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
