// Prompt files in VS Code's chat: `@cadenza /name`. A participant's slash commands are fixed in
// package.json, so a prompt file's name is never a registered command: VS Code passes `/name …` as the
// prompt's text (or, were a name ever registered, as `request.command`). The prompt is filled in and answered
// through the participant's one path (participantAnswer.ts); a line says which prompt ran. A workspace's
// prompt in Restricted Mode runs with no tool at all (the participant has no tools of its own, only those the
// user attaches or the prompt names) and is marked untrusted, to the user and to the model.
import * as vscode from 'vscode';
import { expandPrompt, promptMessage } from '../../core/prompts/expand';
import { isValidPromptName } from '../../core/prompts/promptFile';
import { PromptError } from '../../core/prompts/promptError';
import type { UnknownModelNotice } from '../../core/prompts/promptRun';
import { editorPromptContext, inputBoxPort } from '../prompts/promptContext';
import type { LibraryPrompt, PromptLibrary } from '../prompts/promptLibrary';
import { promptErrorText, promptNoteText, promptRunNoticeText, promptSourceText } from '../prompts/promptTexts';
import { participantCommandNames } from '../ids';
import type { Question } from './participantAnswer';

/** The participant's own commands: a prompt file cannot take these names. */
export const participantCommands = participantCommandNames;

/** A request that names a prompt: the name, and what the user typed after it. */
export interface PromptInvocation {
  readonly name: string;
  readonly rest: string;
}

/** The prompt a request names: `request.command` when it is not a built-in, else a leading `/name` of the prompt. */
export function promptInvocation(request: vscode.ChatRequest): PromptInvocation | undefined {
  if (request.command && !(participantCommands as readonly string[]).includes(request.command)) return { name: request.command, rest: request.prompt };
  if (request.command) return undefined;
  const match = /^\s*\/(\S+)(?:\s+([\s\S]*))?$/.exec(request.prompt);
  // `/etc/hosts is what?` is a question, not a prompt: only a name that can be a prompt's counts.
  if (!match?.[1] || !isValidPromptName(match[1])) return undefined;
  return { name: match[1], rest: match[2] ?? '' };
}

function list(prompts: readonly LibraryPrompt[], folderCount: number): string {
  return prompts
    .map(
      (prompt) =>
        `- \`/${prompt.name}\`${prompt.description ? ` ${prompt.description}` : ''} (${prompt.untrusted ? vscode.l10n.t('{0}, untrusted', promptSourceText(prompt.source, folderCount)) : promptSourceText(prompt.source, folderCount)})`,
    )
    .join('\n');
}

/** Answers an unknown `/name` with the prompts there are (and any that could not be read). */
export async function listPrompts(library: PromptLibrary, name: string, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  const catalog = await library.catalog(participantCommands);
  const folderCount = vscode.workspace.workspaceFolders?.length ?? 0;
  const lines = [vscode.l10n.t('There is no prompt file named `/{0}`.', name)];
  if (catalog.prompts.length > 0) lines.push('', vscode.l10n.t('The prompt files you can run:'), '', list(catalog.prompts, folderCount));
  else lines.push('', vscode.l10n.t('Add one in `.github/prompts/<name>.prompt.md` or `.cadenza/prompts/<name>.md`, or run **Cadenza: New Prompt File**.'));
  if (catalog.problems.length > 0) lines.push('', vscode.l10n.t('Not read:'), '', ...catalog.problems.map((problem) => `- ${problem.message}`));
  stream.markdown(`${lines.join('\n')}\n`);
  return { metadata: { command: 'prompt', prompt: name, found: false, available: catalog.prompts.map((prompt) => prompt.name) } };
}

/** The line that says which prompt runs, and how. */
function ranLine(prompt: LibraryPrompt, notes: readonly string[], attachedTools: number): string {
  const where = promptSourceText(prompt.source, vscode.workspace.workspaceFolders?.length ?? 0);
  const line = !prompt.untrusted
    ? vscode.l10n.t('*Prompt file `/{0}` ({1}).*', prompt.name, where)
    : attachedTools > 0
      ? vscode.l10n.t(
          '*Prompt file `/{0}` ({1}) · from a workspace you have not trusted (Restricted Mode): it runs without tools, attached ones included.*',
          prompt.name,
          where,
        )
      : vscode.l10n.t('*Prompt file `/{0}` ({1}) · from a workspace you have not trusted (Restricted Mode): it runs without tools.*', prompt.name, where);
  return `${line}${notes.map((note) => `\n*${note}*`).join('')}\n\n`;
}

/**
 * Fills in `prompt` for this request and returns the question to answer, after writing the line that says
 * which prompt runs. Undefined when it cannot run now (no selection, a dismissed input): the reason was shown.
 */
export async function promptQuestion(
  prompt: LibraryPrompt,
  invocation: PromptInvocation,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  modelNotice?: UnknownModelNotice,
): Promise<Question | undefined> {
  let expanded;
  try {
    expanded = await expandPrompt(prompt, await editorPromptContext(request.references), inputBoxPort(prompt.name, token));
  } catch (error) {
    if (!PromptError.is(error)) throw error;
    stream.markdown(promptErrorText(error));
    return undefined;
  }
  // Its own line says when it runs without tools (Restricted Mode); an unknown model is said here.
  const notes = [...[...prompt.notes, ...expanded.notes].map(promptNoteText), ...(modelNotice !== undefined ? [promptRunNoticeText(modelNotice)] : [])];
  stream.markdown(ranLine(prompt, notes, request.toolReferences.length));
  return {
    command: 'prompt',
    text: promptMessage(prompt.name, expanded.text, invocation.rest, prompt.untrusted),
    tools: prompt.untrusted ? 'none' : prompt.tools,
  };
}
