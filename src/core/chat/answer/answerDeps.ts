// What an answer shown in the chat panel needs from its host: where the panel's messages go, saving, the
// session's spend, the meter, and how an error is shown. The host gives them (host/chat/turnTypes.ts); the
// answers (plainAnswer.ts, agentAnswer.ts) turn a turn's events (../runTurn.ts) into what the panel shows
// and the conversation stores, and know nothing of VS Code.
import type { ToWebview } from '../../../shared/protocol';
import type { ErrorView } from '../../../shared/views';
import type { Logger } from '../../logger';
import type { Conversation, StoredUsage } from '../conversation';

/** Where what the panel should show is sent (the panel's channel queues until ready). */
export type PanelSink = (message: ToWebview) => void;

/** What a panel answer needs from its host. */
export interface AnswerDeps {
  readonly log: Logger;
  readonly sink: PanelSink;
  save(conversation: Conversation): Promise<void>;
  /** The save at the end of an answer: never throws; resolves with the error to show under it (and Save again). */
  saveAtEnd(conversation: Conversation): Promise<string | undefined>;
  /** An answer's (or an agent step's) figures, for the session's spend. */
  answered(usage: StoredUsage): void;
  /** Posts the meter for what the next request will carry. */
  meter(conversation: Conversation): void;
  /** How an error is shown: its words and the action that fixes it (host/service/errorView.ts). */
  errorView(error: unknown): ErrorView;
}
