// Who decides whether a proposed change runs: the user, through the card's buttons in the panel (the
// host waits for `tool/approve`), or a policy the integration tests set (never reachable from the
// production API). "Allow edits for this conversation" exists for edits and new files of ordinary source
// and text files only, never for commands, and never for any other file (a change with a `caution`,
// judged in core/tools/sensitivePaths.ts): those are always asked. It holds for one conversation at a
// time, ends when the panel shows another conversation or the window closes, and the panel shows it while
// it holds.
// A call of a tool of another extension or an MCP server (an `external` preview) is never covered by it:
// it is asked every time, unless the user allowed that one tool for the conversation ("allow this tool for
// this conversation", which ends the same way).
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/chat/toolLoop';
import type { ApprovalDecision } from '../../shared/protocol';
import type { EditPreviews } from './editPreviews';

/** A change waiting for a decision, with where it belongs. */
export interface ApprovalQuestion extends ApprovalRequest {
  readonly conversationId: string;
  readonly messageId: string;
}

/** Decides instead of the user; only the integration tests set one (`CadenzaApi` in test mode). */
export type ApprovalPolicy = (question: ApprovalQuestion) => ApprovalDecision | Promise<ApprovalDecision>;

interface Waiting {
  readonly question: ApprovalQuestion;
  readonly resolve: (decision: ApprovalDecision) => void;
}

/** Routes each proposed change to its decision. */
export class ApprovalBroker implements vscode.Disposable {
  private readonly waiting = new Map<string, Waiting>();
  /** The one conversation whose ordinary edits run unasked, if any. */
  private allowed: string | undefined;
  private policy: ApprovalPolicy | undefined;
  /** The VS Code tools (by their name in VS Code) the user allowed for the conversation the panel shows. */
  private readonly allowedTools = new Map<string, Set<string>>();
  private readonly allowanceEmitter = new vscode.EventEmitter<string | undefined>();
  /** Fires with the conversation whose edits are now allowed, or undefined when the allowance ended. */
  readonly onDidChangeAllowance = this.allowanceEmitter.event;

  constructor(private readonly previews: EditPreviews) {}

  /** Sets (or with undefined removes) the policy that answers instead of the panel. For tests only. */
  setPolicy(policy: ApprovalPolicy | undefined): void {
    this.policy = policy;
  }

  /** Whether edits and new files run without asking in this conversation. */
  allowsEdits(conversationId: string): boolean {
    return this.allowed === conversationId;
  }

  /** The conversation whose edits are allowed now, if any (the panel shows it). */
  get allowedConversation(): string | undefined {
    return this.allowed;
  }

  /** Ends the allowance (of `conversationId` only, when given): later edits are asked again. */
  endAllowance(conversationId?: string): void {
    if (this.allowed === undefined || (conversationId !== undefined && this.allowed !== conversationId)) return;
    this.allowed = undefined;
    this.allowanceEmitter.fire(undefined);
  }

  /** The panel now shows `conversationId`: an allowance given in another conversation ends. */
  conversationShown(conversationId: string): void {
    if (this.allowed !== undefined && this.allowed !== conversationId) this.endAllowance();
    for (const id of this.allowedTools.keys()) if (id !== conversationId) this.allowedTools.delete(id);
  }

  /** The ids of the calls waiting for the user (tests look for them). */
  get pendingCallIds(): readonly string[] {
    return [...this.waiting.keys()];
  }

  /**
   * Asks for a decision; resolves `denied` when `signal` aborts (the loop then reports the cancel). A
   * proposed edit opens in the diff view while its card waits.
   */
  async ask(question: ApprovalQuestion, signal: AbortSignal): Promise<'approved' | 'denied'> {
    if (question.preview.kind === 'external') return this.askExternal(question, question.preview.tool, signal);
    // Commands and reads of secrets are asked one at a time; the allowance covers edits and new files only.
    const terminal = question.preview.kind === 'terminal' || question.preview.kind === 'read';
    // Any file but an ordinary source or text file is asked every time, allowance or not.
    const sensitive = (question.preview.kind === 'edit' || question.preview.kind === 'create') && question.preview.caution !== undefined;
    if (!terminal && !sensitive && this.allowed === question.conversationId) return 'approved';
    const id = question.call.id;
    // Both can be opened in the diff view from the card ("Show diff"); an edit opens there at once.
    if (question.preview.kind === 'edit' || question.preview.kind === 'create') this.previews.remember(id, question.preview);
    let decision: ApprovalDecision;
    try {
      if (this.policy) {
        decision = await this.policy(question);
      } else {
        if (question.preview.kind === 'edit') void this.previews.show(id);
        decision = await this.waitForUser(question, signal);
      }
    } finally {
      this.waiting.delete(id);
      void this.previews.forget(id);
    }
    // Commands, and files that can run code, are approved one at a time, always.
    if (decision === 'allowConversation' && !terminal && !sensitive && !signal.aborted && this.allowed !== question.conversationId) {
      this.allowed = question.conversationId;
      this.allowanceEmitter.fire(question.conversationId);
    }
    return decision === 'deny' || signal.aborted ? 'denied' : 'approved';
  }

  /**
   * Another extension's or an MCP server's tool: asked every time, whatever the edit allowance, unless the
   * user allowed this tool for this conversation (`allowTool`); `allowConversation` runs it this once.
   */
  private async askExternal(question: ApprovalQuestion, tool: string, signal: AbortSignal): Promise<'approved' | 'denied'> {
    if (this.allowedTools.get(question.conversationId)?.has(tool) === true) return 'approved';
    let decision: ApprovalDecision;
    try {
      decision = this.policy ? await this.policy(question) : await this.waitForUser(question, signal);
    } finally {
      this.waiting.delete(question.call.id);
    }
    if (decision === 'deny' || signal.aborted) return 'denied';
    if (decision === 'allowTool') {
      const tools = this.allowedTools.get(question.conversationId) ?? new Set<string>();
      this.allowedTools.set(question.conversationId, tools.add(tool));
    }
    return 'approved';
  }

  /** The panel's answer for call `callId`; false when nothing waits for it (an old card). */
  answer(callId: string, decision: ApprovalDecision): boolean {
    const waiting = this.waiting.get(callId);
    if (!waiting) return false;
    this.waiting.delete(callId);
    waiting.resolve(decision);
    return true;
  }

  /** Opens the diff of the edit or new file call `callId` proposes, while it waits. */
  showDiff(callId: string): Promise<boolean> {
    return this.previews.show(callId);
  }

  private waitForUser(question: ApprovalQuestion, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise<ApprovalDecision>((resolve) => {
      if (signal.aborted) {
        resolve('deny');
        return;
      }
      const onAbort = (): void => {
        this.waiting.delete(question.call.id);
        resolve('deny');
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(question.call.id, {
        question,
        resolve: (decision) => {
          signal.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      });
    });
  }

  dispose(): void {
    for (const waiting of this.waiting.values()) waiting.resolve('deny');
    this.waiting.clear();
    this.allowed = undefined;
    this.allowedTools.clear();
    this.allowanceEmitter.dispose();
  }
}
