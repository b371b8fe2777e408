// The types a chat turn's parts share: what the panel is sent through, workspace context, message audio.
// They live here, not in the controller, so the turn's parts (turn runner, agent turn, context providers, panel audio)
// import nothing from the controller that coordinates them: no circle in src/host.
import type { StoredMessage } from '../../core/chat/conversation';
import type { ToWebview } from '../../shared/protocol';

/** Where the controller sends what the panel should show (the view provider queues until ready). */
export type PanelSink = (message: ToWebview) => void;

/** Workspace context for a question: prompt text (numbered excerpts) and the locations it cites. */
export interface WorkspaceContext {
  readonly text: string;
  readonly sources: NonNullable<StoredMessage['sources']>;
}

/** Finds workspace context for a question within a token budget (the index's hybrid search). */
export type WorkspaceContextProvider = (query: string, budgetTokens: number, signal: AbortSignal) => Promise<WorkspaceContext | string>;

/** Audio attached to a message in the panel, as the conversation stores it. */
export interface MessageAudio {
  readonly name: string;
  readonly dataUrl: string;
}
