// The types a chat turn's parts share: what the panel is sent through, what a turn needs from the
// controller, workspace context, message audio. They live here, not in the controller or the turn, so the
// turn's parts (the panel's turn, its plain and agent answers, context providers, panel audio) import
// nothing from what coordinates them: no circle in src/host.
import type { ModelInfo } from '../../core/api/types';
import type { ContextPart, ContextPlacement, ContextProvider } from '../../core/chat/context/contextProvider';
import type { Conversation, StoredMessage, StoredOptions } from '../../core/chat/conversation';
import type { AnswerDeps, PanelSink } from '../../core/chat/answer/answerDeps';
import type { PromptTools } from '../../core/prompts/promptRun';
import type { AgentService } from '../tools/agentService';
import type { ServiceConnection } from '../service/connection';

/** Where the controller sends what the panel should show (core/chat/answer/answerDeps.ts). */
export type { PanelSink };

/** The parts each placement of the turn's context received, in provider order. */
export type GatheredContext = Record<ContextPlacement, ContextPart[]>;

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

/**
 * What a prompt file changes for the one answer it starts (core/prompts/promptRun.ts): the model it names,
 * and `none` tools in mode ask (`readOnly` needs nothing more: Restricted Mode's toolset only reads).
 */
export interface TurnOverrides {
  readonly model?: string;
  readonly tools?: PromptTools;
}

/** What the panel's turns need from the controller, given once to each part (how an error is shown is the service's). */
export interface PanelTurnDeps extends Omit<AnswerDeps, 'errorView'> {
  readonly connection: ServiceConnection;
  /** The agent (tool loop, approvals, checkpoints). */
  readonly agent: AgentService;
  /** Resolves (and keeps) the conversation's model; undefined, with the reason shown, when none can be chosen. */
  resolveModel(conversation: Conversation, signal: AbortSignal): Promise<string | undefined>;
  /** The providers of the turn's system-prompt context, in prompt order. */
  systemContext(options: StoredOptions): readonly ContextProvider[];
  /** What the providers gave (the instructions' section is kept for the meter). */
  gathered(options: StoredOptions, gathered: GatheredContext): void;
  /** Runs just before the request is built (`cadenza.chat.autoCondense`). */
  autoCondense(conversation: Conversation, model: ModelInfo | undefined, options: StoredOptions, reserved: number, signal: AbortSignal): Promise<void>;
}
