// What the user reads about prompt files, in their language: core says what is wrong (a PromptError's fault,
// a note, a run notice) with the names and lines; each gets its whole sentence here through vscode.l10n.t.
import * as vscode from 'vscode';
import type { PromptError, PromptNote } from '../../core/prompts/promptError';
import type { PromptSource } from '../../core/prompts/promptFile';
import type { PromptRunNotice } from '../../core/prompts/promptRun';

/** Why a prompt file was refused or cannot run now, as the user reads it. */
export function promptErrorText(error: PromptError): string {
  const fault = error.fault;
  const file = error.file ?? '';
  const line = error.line ?? 1;
  switch (fault.kind) {
    case 'tooLarge':
      return vscode.l10n.t('{0} is larger than {1} KB, the most a prompt file may hold; shorten it or split it.', file, fault.limitKb);
    case 'unclosed':
      return vscode.l10n.t('{0}: the front matter opened on line 1 never closes: end it with a line holding only ---.', file);
    case 'itemWithoutKey':
      return vscode.l10n.t('{0}: line {1}: a list item without its key (write `key:` on the line above).', file, line);
    case 'openQuote':
      return fault.inList
        ? vscode.l10n.t('{0}: line {1}: a quote is left open in the list.', file, line)
        : vscode.l10n.t('{0}: line {1}: a quote is left open.', file, line);
    case 'notAField':
      return vscode.l10n.t('{0}: line {1}: expected `key: value`, found `{2}`.', file, line, fault.found);
    case 'givenTwice':
      return vscode.l10n.t('{0}: line {1}: `{2}` is given twice.', file, line, fault.key);
    case 'multiLine':
      return vscode.l10n.t('{0}: line {1}: multi-line values are not supported; put the value of `{2}` on one line.', file, line, fault.key);
    case 'notPlain':
      return vscode.l10n.t('{0}: line {1}: `{2}` must be a plain value or a simple list.', file, line, fault.key);
    case 'notOneValue':
      return vscode.l10n.t('{0}: line {1}: `{2}` must be one value, not a list.', file, line, fault.key);
    case 'noInput':
      return vscode.l10n.t('/{0} was not run: no value was given for {1}.', fault.prompt, fault.input);
    case 'noValue': {
      const variable = `\${${fault.variable}}`;
      if (error.reason === 'noSelection')
        return vscode.l10n.t('/{0} uses {1}, but no text is selected: select some code in an editor, then run /{0} again.', fault.prompt, variable);
      if (error.reason === 'noWorkspace') return vscode.l10n.t('/{0} uses {1}, but no folder is open: open one, then run /{0} again.', fault.prompt, variable);
      return vscode.l10n.t('/{0} uses {1}, but no file is active: open a file in an editor, then run /{0} again.', fault.prompt, variable);
    }
  }
}

/** A note about a prompt file (read differently than written, a variable sent as written), as the user reads it. */
export function promptNoteText(note: PromptNote): string {
  switch (note.kind) {
    case 'invalidName':
      return vscode.l10n.t('The name "{0}" cannot be typed after /; the prompt is /{1}.', note.declared, note.name);
    case 'unknownMode':
      return vscode.l10n.t('The mode "{0}" is not one Cadenza knows (ask, edit, agent); the prompt runs in the chat\'s current mode.', note.mode);
    case 'unknownVariable':
      return vscode.l10n.t('/{0} uses {1}, which Cadenza does not fill in; it is sent as written.', note.prompt, `\${${note.variable}}`);
  }
}

/** What is said before a prompt's answer about how it runs (an unknown model, read-only in Restricted Mode). */
export function promptRunNoticeText(notice: PromptRunNotice): string {
  if (notice.kind === 'readOnly')
    return vscode.l10n.t(
      '/{0} comes from a workspace you have not trusted (Restricted Mode): it runs read-only, without any tool that changes files.',
      notice.prompt,
    );
  return notice.fallback === 'chat'
    ? vscode.l10n.t('/{0} names the model "{1}", which the service does not list; it runs with the chat\'s model.', notice.prompt, notice.model)
    : vscode.l10n.t('/{0} names the model "{1}", which the service does not list; it runs with the conversation\'s model.', notice.prompt, notice.model);
}

/** How a prompt file is named to the user: its workspace path (with the folder when there are several), or in the profile. */
export function promptSourceText(source: PromptSource, folderCount: number): string {
  if (source.origin === 'profile') return vscode.l10n.t('{0} in your profile', source.path);
  return folderCount > 1 && source.folder ? vscode.l10n.t('{0} in {1}', source.path, source.folder) : source.path;
}
