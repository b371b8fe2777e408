// `Cadenza: New Prompt File`: asks for a name and a place (this workspace's `.github/prompts`, where Copilot
// reads them too, or the profile, for every workspace), writes `<name>.prompt.md` from core's template and
// opens it. An existing file is opened, never overwritten. The name and place may be given as arguments
// (`'workspace'` or `'profile'`); a name that could not be typed after `/` or would leave the folder is refused.
import * as vscode from 'vscode';
import { isValidPromptName } from '../../core/prompts/promptFile';
import { promptFileTemplate } from '../../core/prompts/template';
import { participantCommandNames } from '../ids';
import type { PromptLibrary } from '../prompts/promptLibrary';

type Place = 'workspace' | 'profile';

/** Why a name cannot be a prompt's, or undefined when it can. */
export function promptNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return vscode.l10n.t('Give the prompt a name.');
  if (/[\\/]/.test(trimmed) || trimmed.includes('..')) return vscode.l10n.t('A prompt\'s name cannot hold a path (no "/", "\\" or "..").');
  if (!isValidPromptName(trimmed)) return vscode.l10n.t('Use letters, digits, ".", "_" and "-" (the name is typed after /), at most 64.');
  if ((participantCommandNames as readonly string[]).includes(trimmed.toLowerCase()))
    return vscode.l10n.t('/{0} is a built-in command of @cadenza; choose another name.', trimmed);
  return undefined;
}

async function askPlace(folder: vscode.WorkspaceFolder | undefined): Promise<Place | undefined> {
  if (!folder) return 'profile';
  const items: (vscode.QuickPickItem & { place: Place })[] = [
    {
      label: vscode.l10n.t('This workspace'),
      description: `${folder.name}/.github/prompts`,
      detail: vscode.l10n.t('Shared with the repository (Copilot reads it too).'),
      place: 'workspace',
    },
    {
      label: vscode.l10n.t('Your profile'),
      description: vscode.l10n.t("the profile's prompts folder"),
      detail: vscode.l10n.t('Yours, in every workspace.'),
      place: 'profile',
    },
  ];
  const title = vscode.l10n.t('Cadenza: New Prompt File');
  return (await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Where should the prompt file live?') }))?.place;
}

/** Creates (or opens) the prompt file; resolves with its URI, or undefined when the user gave up or the name was refused. */
export async function newPromptFile(library: PromptLibrary, nameArgument?: unknown, placeArgument?: unknown): Promise<string | undefined> {
  const name =
    typeof nameArgument === 'string'
      ? nameArgument.trim()
      : (
          await vscode.window.showInputBox({
            title: vscode.l10n.t('Cadenza: New Prompt File'),
            prompt: vscode.l10n.t('The name you will type after / in the chat'),
            placeHolder: 'review',
            ignoreFocusOut: true,
            validateInput: promptNameProblem,
          })
        )?.trim();
  if (name === undefined) return undefined;
  const problem = promptNameProblem(name);
  if (problem) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Cadenza: "{0}" cannot be a prompt\'s name. {1}', name, problem));
    return undefined;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = (active ? vscode.workspace.getWorkspaceFolder(active) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
  const place = placeArgument === 'workspace' || placeArgument === 'profile' ? placeArgument : await askPlace(folder);
  if (!place) return undefined;
  if (place === 'workspace' && !folder) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Cadenza: open a folder first, or create the prompt file in your profile.'));
    return undefined;
  }
  const directory = place === 'workspace' && folder ? vscode.Uri.joinPath(folder.uri, '.github', 'prompts') : library.profileFolder;
  const uri = vscode.Uri.joinPath(directory, `${name}.prompt.md`);
  let exists = true;
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    exists = false;
  }
  if (!exists) {
    await vscode.workspace.fs.createDirectory(directory);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(promptFileTemplate(name)));
    library.invalidate();
  }
  await vscode.window.showTextDocument(uri);
  return uri.toString();
}
