// Prompt files in the chat panel: the composer's `/` list, and a picked `/name` made ready to send. The
// prompt is read as its file is now, filled in from the active editor (`${selection}`, `${file}`…) and input
// boxes (`${input:…}`), and its front matter decides the run (core/prompts/promptRun.ts, as for
// `@cadenza /name`): the model it names when the service lists it, no tools in mode ask, read-only for a
// workspace's prompt in Restricted Mode. When it cannot run (no such prompt, no selection, an input
// dismissed) an error notice says why, which also tells the composer to keep what was typed.
import * as vscode from 'vscode';
import { expandPrompt, promptMessage } from '../../core/prompts/expand';
import { PromptError } from '../../core/prompts/promptError';
import { planPromptRun, type PromptTools } from '../../core/prompts/promptRun';
import type { PromptCandidate } from '../../shared/protocol';
import { editorPromptContext, inputBoxPort } from '../prompts/promptContext';
import type { PromptLibrary } from '../prompts/promptLibrary';
import { promptErrorText, promptNoteText, promptRunNoticeText, promptSourceText } from '../prompts/promptTexts';
import type { ServiceConnection } from '../service/connection';
import type { PanelSink } from './turnTypes';

/** A prompt filled in and ready to send as the user's message. */
export interface PreparedPrompt {
  /** The message as the model gets it: the prompt filled in, then what the user typed after `/name`. */
  readonly text: string;
  /** What the message's chip shows. */
  readonly chip: { readonly name: string; readonly source: string; readonly untrusted: boolean };
  /** The listed model the file names; undefined: the conversation's. */
  readonly model: string | undefined;
  readonly tools: PromptTools;
}

/** The panel's side of the prompt library. */
export class PanelPrompts {
  constructor(
    private readonly library: PromptLibrary,
    private readonly connection: ServiceConnection,
    private readonly sink: PanelSink,
  ) {}

  /** The prompts the `/` list offers, as their files are now. */
  async candidates(): Promise<PromptCandidate[]> {
    const folders = vscode.workspace.workspaceFolders?.length ?? 0;
    return (await this.library.catalog()).prompts.map((prompt) => ({
      name: prompt.name,
      description: prompt.description,
      source: promptSourceText(prompt.source, folders),
      ...(prompt.argumentHint !== undefined ? { argumentHint: prompt.argumentHint } : {}),
      untrusted: prompt.untrusted,
    }));
  }

  /**
   * Fills in prompt `name` with what the user typed after it (`rest`); undefined when it cannot run now, after
   * an error notice that says why (the composer keeps the text).
   */
  async prepare(name: string, rest: string): Promise<PreparedPrompt | undefined> {
    const prompt = await this.library.find(name);
    if (!prompt) {
      this.sink({
        type: 'notice',
        level: 'error',
        text: vscode.l10n.t('There is no prompt file named /{0} now; type / to see the prompt files there are.', name),
      });
      return undefined;
    }
    let expanded;
    try {
      expanded = await expandPrompt(prompt, await editorPromptContext(), inputBoxPort(prompt.name));
    } catch (error) {
      if (!PromptError.is(error)) throw error;
      const text = error.reason === 'cancelled' ? vscode.l10n.t('{0} Your message is still in the box.', promptErrorText(error)) : promptErrorText(error);
      this.sink({ type: 'notice', level: 'error', text });
      return undefined;
    }
    await this.connection.ensureModels();
    const listed = this.connection.models.models.map((model) => model.id);
    const plan = planPromptRun(prompt, listed, prompt.untrusted, 'conversation');
    const notes = [...prompt.notes, ...expanded.notes].map(promptNoteText);
    for (const notice of [plan.modelNotice, plan.readOnlyNotice]) if (notice !== undefined) notes.push(promptRunNoticeText(notice));
    for (const note of notes) this.sink({ type: 'notice', level: 'warning', text: note });
    const folders = vscode.workspace.workspaceFolders?.length ?? 0;
    return {
      text: promptMessage(prompt.name, expanded.text, rest, prompt.untrusted),
      chip: { name: prompt.name, source: promptSourceText(prompt.source, folders), untrusted: prompt.untrusted },
      model: plan.model,
      tools: plan.tools,
    };
  }
}
