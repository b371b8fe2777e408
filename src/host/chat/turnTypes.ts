// The types a chat turn's parts share: what the panel is sent through, what a turn needs from the
// controller, workspace context, message audio. They live here, not in the controller or the turn, so the
// turn's parts (the panel's turn, its plain and agent answers, context providers, panel audio) import
// nothing from what coordinates them: no circle in src/host.
import type { ModelInfo } from '../../core/api/types';
import type { ContextPart, ContextPlacement, ContextProvider } from '../../core/chat/context/contextProvider';
import type { Conversation, StoredMessage, StoredOptions, StoredUsage } from '../../core/chat/conversation';
import type { Logger } from '../../core/logger';
import type { PromptTools } from '../../core/prompts/promptRun';
import type { ToWebview } from '../../shared/protocol';
import type { AgentService } from '../tools/agentService';
import type { ServiceConnection } from '../service/connection';

/** Where the controller sends what the panel should show (the panel's channel queues until ready). */
export type PanelSink = (message: ToWebview) => void;

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

/** What the panel's turns need from the controller, given once to each part. */
export interface PanelTurnDeps {
  readonly log: Logger;
  readonly connection: ServiceConnection;
  readonly sink: PanelSink;
  /** The agent (tool loop, approvals, checkpoints). */
  readonly agent: AgentService;
  /** Resolves (and keeps) the conversation's model; undefined, with the reason shown, when none can be chosen. */
  resolveModel(conversation: Conversation, signal: AbortSignal): Promise<string | undefined>;
  save(conversation: Conversation): Promise<void>;
  /** The save at the end of an answer: never throws; resolves with the error to show under it (and Save again). */
  saveAtEnd(conversation: Conversation): Promise<string | undefined>;
  /** An answer's (or an agent step's) figures, for the session's spend. */
  answered(usage: StoredUsage): void;
  /** Posts the meter for what the next request will carry. */
  meter(conversation: Conversation): void;
  /** The providers of the turn's system-prompt context, in prompt order. */
  systemContext(options: StoredOptions): readonly ContextProvider[];
  /** What the providers gave (the instructions' section is kept for the meter). */
  gathered(options: StoredOptions, gathered: GatheredContext): void;
  /** Runs just before the request is built (`cadenza.chat.autoCondense`). */
  autoCondense(conversation: Conversation, model: ModelInfo | undefined, options: StoredOptions, reserved: number, signal: AbortSignal): Promise<void>;
}
