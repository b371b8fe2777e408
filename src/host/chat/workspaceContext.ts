// The chat's "workspace" toggle: the index's best chunks for the question go into the system prompt.
import type { ModelInfo } from '../../core/api/types';
import type { Conversation, StoredMessage, StoredOptions } from '../../core/chat/conversation';
import { defaultMaxTokens, fallbackContextLength } from '../../core/chat/requestBuilder';
import type { PanelSink, WorkspaceContextProvider } from './turnTypes';
import { errorView } from './presenters';

/**
 * With the workspace toggle on, puts the index's top chunks for the question into the system prompt,
 * within about a third of the room the context leaves, and keeps their locations for the answer's links.
 */
export async function withWorkspaceContext(provider: WorkspaceContextProvider | undefined, sink: PanelSink, conversation: Conversation, model: ModelInfo | undefined, reply: StoredMessage, signal: AbortSignal): Promise<StoredOptions> {
  const options = conversation.options;
  const question = [...conversation.messages].reverse().find((message) => message.role === 'user')?.text;
  if (!options.useWorkspace || !question) return options;
  if (!provider) {
    sink({ type: 'notice', level: 'warning', text: 'Workspace context is not available here (no folder is open).' });
    return options;
  }
  const room = (model?.contextLength ?? fallbackContextLength) - (options.maxTokens ?? Math.min(defaultMaxTokens, model?.maxCompletionTokens ?? defaultMaxTokens));
  const found = await provider(question, Math.max(256, Math.floor(room / 3)), signal).catch((error: unknown) => `Workspace search failed: ${errorView(error).message}`);
  if (typeof found === 'string') {
    sink({ type: 'notice', level: 'warning', text: found });
    return options;
  }
  if (found.sources.length === 0) return options;
  reply.sources = [...found.sources];
  return { ...options, systemPrompt: [options.systemPrompt?.trim() ?? '', found.text].filter((part) => part !== '').join('\n\n') };
}
