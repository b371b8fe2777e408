// Where prompt files are found and how they are read: each workspace folder's `.github/prompts/*.prompt.md`
// (Copilot's place) and `.cadenza/prompts/*.md`, and the profile's `prompts` folder. Files are read through
// `vscode.workspace.fs`; a folder or file whose real path leaves its boundary (the workspace folder, or the
// profile's prompts folder) is not read, and a link that cannot be resolved (a remote or virtual file system)
// is not followed. What cannot be read is reported as a problem, never dropped silently.
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  maxPromptFileBytes,
  parsePromptFile,
  promptNameFromFile,
  type PromptFile,
  type PromptFolderKind,
  type PromptSource,
} from '../../core/prompts/promptFile';
import { PromptError } from '../../core/prompts/promptError';
import { promptErrorText } from './promptTexts';

/** A prompt file that could not be read, for the list and the log. */
export interface PromptProblem {
  readonly uri: string;
  readonly message: string;
}

/** The workspace-relative folders prompt files live in, by kind. */
export const workspacePromptFolders: readonly { readonly kind: Exclude<PromptFolderKind, 'profile'>; readonly path: string }[] = [
  { kind: 'cadenza', path: '.cadenza/prompts' },
  { kind: 'github', path: '.github/prompts' },
];

/**
 * The profile's prompts folder. Copilot keeps a user's prompt files in the `prompts` folder of the VS Code
 * profile (`<user data>/User/prompts`); an extension is not told where its profile is, but its global storage
 * sits in the profile's `globalStorage` folder, so the profile is two levels up. Where that layout does not
 * hold, the extension's own global storage keeps them (`<global storage>/prompts`). Desktop VS Code and
 * code-server both have the layout, so a prompt made for Copilot shows in Cadenza and the reverse.
 */
export function profilePromptFolder(globalStorageUri: vscode.Uri): vscode.Uri {
  const parent = vscode.Uri.joinPath(globalStorageUri, '..');
  return path.posix.basename(parent.path) === 'globalStorage' ? vscode.Uri.joinPath(parent, '..', 'prompts') : vscode.Uri.joinPath(globalStorageUri, 'prompts');
}

/** Whether `uri`'s real path lies inside `boundary`'s; false when either cannot be resolved (missing, or not on disk). */
async function staysInside(uri: vscode.Uri, boundary: vscode.Uri): Promise<boolean> {
  if (uri.scheme !== 'file' || boundary.scheme !== 'file') return false;
  try {
    const root = await fs.realpath(boundary.fsPath);
    const real = await fs.realpath(uri.fsPath);
    return real === root || real.startsWith(root + path.sep);
  } catch {
    return false;
  }
}

/** Where one folder of prompt files is and what bounds it. */
export interface PromptFolder {
  readonly uri: vscode.Uri;
  readonly kind: PromptFolderKind;
  /** Links must lead inside this: the workspace folder, or the profile's prompts folder itself. */
  readonly boundary: vscode.Uri;
  /** The workspace folder (workspace folders only). */
  readonly workspaceFolder?: vscode.WorkspaceFolder;
}

/** The folders to read, workspace folders first in their order, then the profile. */
export function promptFolders(profileFolder: vscode.Uri): PromptFolder[] {
  const folders: PromptFolder[] = [];
  for (const workspaceFolder of vscode.workspace.workspaceFolders ?? []) {
    for (const entry of workspacePromptFolders) {
      folders.push({
        uri: vscode.Uri.joinPath(workspaceFolder.uri, ...entry.path.split('/')),
        kind: entry.kind,
        boundary: workspaceFolder.uri,
        workspaceFolder,
      });
    }
  }
  folders.push({ uri: profileFolder, kind: 'profile', boundary: profileFolder });
  return folders;
}

/** Reads the prompt files of one folder; a missing folder has none. */
export async function readPromptFolder(folder: PromptFolder, problems: PromptProblem[]): Promise<PromptFile[]> {
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(folder.uri);
  } catch {
    return [];
  }
  // The folder itself may be a link (`.github/prompts -> /somewhere`): a workspace's must stay in the workspace.
  if (folder.workspaceFolder && !(await staysInside(folder.uri, folder.boundary))) {
    problems.push({
      uri: folder.uri.toString(),
      message: vscode.l10n.t('{0} leads outside the workspace folder; its prompt files are not read.', vscode.workspace.asRelativePath(folder.uri)),
    });
    return [];
  }
  const prompts: PromptFile[] = [];
  for (const [fileName, type] of entries.sort(([a], [b]) => a.localeCompare(b))) {
    if ((type & vscode.FileType.File) === 0 || !fileName.toLowerCase().endsWith('.md')) continue;
    const uri = vscode.Uri.joinPath(folder.uri, fileName);
    const relative = folder.workspaceFolder ? `${workspacePromptFolders.find((entry) => entry.kind === folder.kind)?.path ?? ''}/${fileName}` : fileName;
    if (!promptNameFromFile(fileName, folder.kind)) {
      // A plain `.md` in Copilot's folders is not a prompt file there (a README); elsewhere the name is the problem.
      if (folder.kind === 'cadenza' || fileName.toLowerCase().endsWith('.prompt.md'))
        problems.push({
          uri: uri.toString(),
          message: vscode.l10n.t('{0}: its name cannot be typed after / (use letters, digits, ".", "_" and "-").', relative),
        });
      continue;
    }
    if ((type & vscode.FileType.SymbolicLink) !== 0 && !(await staysInside(uri, folder.boundary))) {
      problems.push({
        uri: uri.toString(),
        message: folder.workspaceFolder
          ? vscode.l10n.t('{0} is a link that leads outside the workspace folder; it is not read.', relative)
          : vscode.l10n.t("{0} is a link that leads outside the profile's prompts folder; it is not read.", relative),
      });
      continue;
    }
    const source: PromptSource = folder.workspaceFolder
      ? { origin: 'workspace', kind: folder.kind, uri: uri.toString(), path: relative, folder: folder.workspaceFolder.name }
      : { origin: 'profile', kind: 'profile', uri: uri.toString(), path: fileName };
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > maxPromptFileBytes)
        throw new PromptError(
          'tooLarge',
          { kind: 'tooLarge', limitKb: maxPromptFileBytes / 1024 },
          `${relative} is larger than ${maxPromptFileBytes / 1024} KB, the most a prompt file may hold.`,
          { file: relative },
        );
      prompts.push(parsePromptFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), source));
    } catch (error) {
      problems.push({
        uri: uri.toString(),
        message: PromptError.is(error)
          ? promptErrorText(error)
          : vscode.l10n.t('{0} could not be read: {1}', relative, error instanceof Error ? error.message : String(error)),
      });
    }
  }
  return prompts;
}
