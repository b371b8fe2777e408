// How a prompt file's front matter shapes its run: the model it names and its mode, and what Restricted Mode
// takes away. One decision for every place a prompt runs (the panel's `/name`, `@cadenza /name`), so a file
// runs the same way wherever it is started.
import type { PromptMode } from './promptFile';

/**
 * The tools a run may use: `none` (mode ask: an answer, no tools), `readOnly` (a workspace's prompt in
 * Restricted Mode: reading tools only), `all` (mode agent or edit), `default` (what the chat does anyway).
 */
export type PromptTools = 'none' | 'readOnly' | 'all' | 'default';

/** How one prompt runs. */
export interface PromptRunPlan {
  /** The listed model the file names (the service's spelling); undefined: the fallback's. */
  readonly model: string | undefined;
  readonly tools: PromptTools;
  /** Said before the answer when the file names a model the service does not list. */
  readonly modelNotice: string | undefined;
  /** Said before the answer when the run is read-only because of Restricted Mode. */
  readonly readOnlyNotice: string | undefined;
}

/**
 * Decides a prompt's run. `listedModels` are the service's model ids (a named model is matched without regard
 * to case); `untrusted` is a workspace's prompt in Restricted Mode; `fallback` names what runs instead of an
 * unknown model, as the user knows it ("the conversation's model").
 */
export function planPromptRun(
  prompt: { readonly name: string; readonly mode: PromptMode | undefined; readonly model: string | undefined },
  listedModels: readonly string[],
  untrusted: boolean,
  fallback: string,
): PromptRunPlan {
  let modelNotice: string | undefined;
  let readOnlyNotice: string | undefined;
  let model: string | undefined;
  if (prompt.model !== undefined) {
    const wanted = prompt.model.trim().toLowerCase();
    model = listedModels.find((id) => id === prompt.model) ?? listedModels.find((id) => id.toLowerCase() === wanted);
    if (model === undefined) modelNotice = `/${prompt.name} names the model "${prompt.model}", which the service does not list; it runs with ${fallback}.`;
  }
  let tools: PromptTools = prompt.mode === 'ask' ? 'none' : prompt.mode === undefined ? 'default' : 'all';
  if (untrusted && tools !== 'none') {
    tools = 'readOnly';
    readOnlyNotice = `/${prompt.name} comes from a workspace you have not trusted (Restricted Mode): it runs read-only, without any tool that changes files.`;
  }
  return { model, tools, modelNotice, readOnlyNotice };
}
