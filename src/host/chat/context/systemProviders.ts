// The context providers of the system prompt: the project's instruction files and the workspace toggle's
// index search, as adapters of the one `ContextProvider` shape.
import * as vscode from 'vscode';
import { contextPart, contextShares, shareOf, type ContextProvider } from '../../../core/chat/context/contextProvider';
import type { StoredOptions } from '../../../core/chat/conversation';
import { errorView } from '../../service/errorView';
import type { ProjectInstructions } from '../projectInstructions';
import type { WorkspaceContextProvider } from '../turnTypes';

/** Project instructions (AGENTS.md, .cadenza/instructions.md…) before the user's own system prompt, unless the conversation turned them off. */
export function instructionsProvider(instructions: ProjectInstructions | undefined, options: StoredOptions): ContextProvider {
  return {
    placement: 'beforePrompt',
    provide: async () => {
      if (!instructions || options.useInstructions === false) return [];
      const applied = await instructions.current();
      return applied.prompt === '' ? [] : [contextPart('instructions', 'project instructions', applied.prompt)];
    },
  };
}

/**
 * With the workspace toggle on, the index's top chunks for the question after the system prompt, within a
 * third of the room the context leaves, with their locations for the answer's links.
 */
export function workspaceSearchProvider(search: WorkspaceContextProvider | undefined, options: StoredOptions): ContextProvider {
  return {
    placement: 'afterPrompt',
    provide: async (turn) => {
      if (!options.useWorkspace || turn.question === '') return [];
      if (!search) return [contextPart('workspace', 'workspace', '', vscode.l10n.t('Workspace context is not available here (no folder is open).'))];
      const found = await search(turn.question, shareOf(turn.roomTokens, contextShares.afterPrompt), turn.signal).catch((error: unknown) =>
        vscode.l10n.t('Workspace search failed: {0}', errorView(error).message),
      );
      if (typeof found === 'string') return [contextPart('workspace', 'workspace', '', found)];
      if (found.sources.length === 0) return [];
      return [{ ...contextPart('workspace', 'workspace', found.text), sources: found.sources }];
    },
  };
}
