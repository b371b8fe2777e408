// One answer at a time: starting one stops (and awaits) the one running, then runs the answer it is given
// (the panel's turn: host/chat/panelTurn.ts). A stop works while the model is still being chosen, too.
import type { Conversation } from '../conversation';

/**
 * Answers the conversation's last user message until `signal` stops it; resolves with the answer text.
 * `overrides` are what this one answer changes (a prompt file's model or tools), undefined when nothing.
 */
export type AnswerRunner<Overrides> = (conversation: Conversation, signal: AbortSignal, overrides: Overrides | undefined) => Promise<string>;

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<string>;
}

/** The conversation's one running answer. */
export class Answering<Overrides = never> {
  private running: Running | undefined;

  constructor(private readonly run: AnswerRunner<Overrides>) {}

  /** Stops the running answer at once; the partial text stays, marked as stopped. */
  stop(): void {
    this.running?.controller.abort();
  }

  /** Answers the conversation's last user message; resolves with the answer text (empty on error or when no model can be chosen). */
  async answer(conversation: Conversation, overrides?: Overrides): Promise<string> {
    if (this.running) {
      this.running.controller.abort();
      await this.running.done.catch(() => undefined);
    }
    const controller = new AbortController();
    const done = this.run(conversation, controller.signal, overrides);
    const running: Running = { controller, done };
    this.running = running;
    try {
      return await done;
    } finally {
      if (this.running === running) this.running = undefined;
    }
  }
}
