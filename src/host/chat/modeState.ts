// A conversation's agent mode as the panel shows it: the mode its next answer runs in (core/tools/agentMode.ts)
// and, in Restricted Mode, why the composer's switch is locked on Plan.
import * as vscode from 'vscode';
import type { Conversation } from '../../core/chat/conversation';
import { effectiveMode, type AgentMode } from '../../core/tools/agentMode';

/** Why the switch is locked in an untrusted workspace, as the composer shows it. */
export function restrictedModeReason(): string {
  return vscode.l10n.t('Restricted Mode: this workspace is not trusted, so conversations stay in Plan and Cadenza only reads. Trust the workspace to act.');
}

/** The mode `conversation`'s next answer runs in, and why it cannot be switched when it cannot. */
export function modeState(conversation: Conversation, trusted: boolean): { readonly mode: AgentMode; readonly locked?: string } {
  return { mode: effectiveMode(conversation.mode, trusted), ...(trusted ? {} : { locked: restrictedModeReason() }) };
}
