// How a prompt file's front matter shapes its run: the model it names and its mode, and what Restricted Mode
// takes away. One decision for every place a prompt runs (the panel's `/name`, `@cadenza /name`), so a file
// runs the same way wherever it is started.
import type { PromptMode } from './promptFile';

/**
 * The tools a run may use: `none` (mode ask: an answer, no tools), `readOnly` (a workspace's prompt in
 * Restricted Mode: reading tools only), `all` (mode agent or edit), `default` (what the chat does anyway).
 */
export type PromptTools = 'none' | 'readOnly' | 'all' | 'default';

/** What runs instead of a model the service does not list: the panel conversation's model, or VS Code's chat's. */
export type PromptFallback = 'conversation' | 'chat';

/** The file names a model the service does not list: it runs with the fallback. */
export interface UnknownModelNotice {
  readonly kind: 'unknownModel';
  readonly prompt: string;
  /** The model as the file names it. */
  readonly model: string;
  readonly fallback: PromptFallback;
}

/** A workspace's prompt in Restricted Mode runs read-only. */
export interface ReadOnlyNotice {
  readonly kind: 'readOnly';
  readonly prompt: string;
}

/** What is said before the answer about how a prompt runs (the host words it in the user's language). */
export type PromptRunNotice = UnknownModelNotice | ReadOnlyNotice;

/** How one prompt runs. */
export interface PromptRunPlan {
  /** The listed model the file names (the service's spelling); undefined: the fallback's. */
  readonly model: string | undefined;
  readonly tools: PromptTools;
  /** Said before the answer when the file names a model the service does not list. */
  readonly modelNotice: UnknownModelNotice | undefined;
  /** Said before the answer when the run is read-only because of Restricted Mode. */
  readonly readOnlyNotice: ReadOnlyNotice | undefined;
}

/** A notice in English (for the log and tests; the user reads the host's translation). */
export function promptRunNoticeMessage(notice: PromptRunNotice): string {
  if (notice.kind === 'readOnly')
    return `/${notice.prompt} comes from a workspace you have not trusted (Restricted Mode): it runs read-only, without any tool that changes files.`;
  const fallback = notice.fallback === 'chat' ? "the chat's model" : "the conversation's model";
  return `/${notice.prompt} names the model "${notice.model}", which the service does not list; it runs with ${fallback}.`;
}

/**
 * Decides a prompt's run. `listedModels` are the service's model ids (a named model is matched without regard
 * to case); `untrusted` is a workspace's prompt in Restricted Mode; `fallback` says what runs instead of an
 * unknown model (the panel conversation's model, or VS Code chat's).
 */
export function planPromptRun(
  prompt: { readonly name: string; readonly mode: PromptMode | undefined; readonly model: string | undefined },
  listedModels: readonly string[],
  untrusted: boolean,
  fallback: PromptFallback,
): PromptRunPlan {
  let modelNotice: UnknownModelNotice | undefined;
  let readOnlyNotice: ReadOnlyNotice | undefined;
  let model: string | undefined;
  if (prompt.model !== undefined) {
    const wanted = prompt.model.trim().toLowerCase();
    model = listedModels.find((id) => id === prompt.model) ?? listedModels.find((id) => id.toLowerCase() === wanted);
    if (model === undefined) modelNotice = { kind: 'unknownModel', prompt: prompt.name, model: prompt.model, fallback };
  }
  let tools: PromptTools = prompt.mode === 'ask' ? 'none' : prompt.mode === undefined ? 'default' : 'all';
  if (untrusted && tools !== 'none') {
    tools = 'readOnly';
    readOnlyNotice = { kind: 'readOnly', prompt: prompt.name };
  }
  return { model, tools, modelNotice, readOnlyNotice };
}
