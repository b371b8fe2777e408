// Runs a chat turn's context providers and puts what they return where it belongs: project instructions
// before the user's own system prompt, workspace search after it, mentions with the user's message. A part
// that comes back empty with a note (a failed search, an empty index) is said in the panel, never dropped
// silently. The controller calls this and knows no context kind.
import * as vscode from 'vscode';
import type { ModelInfo } from '../../../core/api/types';
import { joinSections, type ContextProvider } from '../../../core/chat/context/contextProvider';
import type { StoredMessage, StoredOptions } from '../../../core/chat/conversation';
import { defaultMaxTokens, fallbackContextLength } from '../../../core/chat/requestBuilder';
import type { GatheredContext, PanelSink } from '../turnTypes';

/** What the context leaves besides the answer, for a model and the conversation's options. */
export function roomTokens(model: ModelInfo | undefined, options: StoredOptions): number {
  return (model?.contextLength ?? fallbackContextLength) - (options.maxTokens ?? Math.min(defaultMaxTokens, model?.maxCompletionTokens ?? defaultMaxTokens));
}

/** Runs the providers one after another (their order is the prompt's order); a failing provider says so and the turn goes on. */
export async function gatherContext(
  providers: readonly ContextProvider[],
  question: string,
  room: number,
  sink: PanelSink,
  signal: AbortSignal,
): Promise<GatheredContext> {
  const gathered: GatheredContext = { beforePrompt: [], afterPrompt: [], message: [] };
  for (const provider of providers) {
    const parts = await provider.provide({ question, roomTokens: room, signal }).catch((error: unknown) => {
      sink({
        type: 'notice',
        level: 'warning',
        text: vscode.l10n.t('Context could not be gathered: {0}', error instanceof Error ? error.message : String(error)),
      });
      return [];
    });
    for (const part of parts) {
      // A system-prompt part that brings nothing but a note is a notice (the message's parts show theirs on their chip).
      if (provider.placement !== 'message' && part.text === '') {
        if (part.note !== undefined) sink({ type: 'notice', level: 'warning', text: part.note });
        continue;
      }
      gathered[provider.placement].push(part);
    }
  }
  return gathered;
}

/** The options with the gathered system-prompt parts around the user's own system prompt; cited locations go to the reply. */
export function applySystemContext(options: StoredOptions, gathered: GatheredContext, reply: StoredMessage): StoredOptions {
  const sources = [...gathered.beforePrompt, ...gathered.afterPrompt].flatMap((part) => part.sources ?? []);
  if (sources.length > 0) reply.sources = [...sources];
  if (gathered.beforePrompt.length === 0 && gathered.afterPrompt.length === 0) return options;
  const systemPrompt = joinSections([
    ...gathered.beforePrompt.map((part) => part.text),
    options.systemPrompt,
    ...gathered.afterPrompt.map((part) => part.text),
  ]);
  return { ...options, systemPrompt };
}
