/**
 * What the parts of the panel need from each other, so they depend on this small interface rather
 * than on the panel object.
 */
import type { FromWebview } from '../shared/protocol';
import type { ChatOptions } from '../shared/views';

/** An edited plan: the answer it is under, the plan the box was filled with, the box's text. */
export interface PlanDraftView {
  readonly messageId: string;
  readonly plan: string;
  readonly text: string;
}

/** Services the panel offers its parts. */
export interface PanelContext {
  /** Sends a message to the extension host. */
  post(message: FromWebview): void;
  /**
   * The conversation's options ready for a request, or undefined when they cannot be sent as they
   * are (the panel then says why and opens the options).
   */
  requestOptions(): ChatOptions | undefined;
  /** Says something once through the panel's polite live region. */
  announce(text: string): void;
  /** Why the conversation's mode cannot be switched (Restricted Mode), or undefined: Act on this plan is locked meanwhile. */
  modeLocked(): string | undefined;
  /** The edited plan of the conversation shown, kept in the panel's saved state (a reload or hide-show keeps it). */
  planDraft(): PlanDraftView | undefined;
  /** Keeps the edited plan of answer `messageId` (filled with `plan`) in the saved state; `undefined` forgets it. */
  savePlanDraft(draft: PlanDraftView | undefined): void;
}
