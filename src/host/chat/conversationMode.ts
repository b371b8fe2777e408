// The open conversation's agent mode (Plan or Act, core/tools/agentMode.ts) as the panel switches it: the
// state the composer shows, the switch, and Act on this plan (switch to Act, then send the plan as the next
// message). Restricted Mode is always Plan: the switch is refused there and the panel says why.
import * as vscode from 'vscode';
import type { Conversation } from '../../core/chat/conversation';
import type { AgentMode } from '../../core/tools/agentMode';
import type { ToWebviewOf } from '../../shared/protocol';
import type { PanelSink } from './turnTypes';
import type { ChatOptions } from '../../shared/views';
import type { AgentService } from '../tools/agentService';
import type { ChatController } from './chatController';
import { modeState, restrictedModeReason } from './modeState';

function modeMessage(conversation: Conversation, trusted: boolean): ToWebviewOf<'agent/mode'> {
  return { type: 'agent/mode', conversationId: conversation.id, ...modeState(conversation, trusted) };
}

/** The composer's switch: keeps `mode` with the open conversation (refused in Restricted Mode); answers with the mode now. */
export async function setConversationMode(chat: ChatController, agent: AgentService, mode: AgentMode): Promise<ToWebviewOf<'agent/mode'>> {
  const conversation = await chat.session.current();
  const trusted = agent.port.isTrusted();
  if (trusted && conversation.mode !== mode) {
    conversation.mode = mode;
    await chat.session.save(conversation);
  }
  return modeMessage(conversation, trusted);
}

/** Act on this plan: the open conversation switches to Act and `plan` goes as the next message. Refused in Restricted Mode. */
export async function actOnPlan(chat: ChatController, agent: AgentService, sink: PanelSink, plan: string, options: ChatOptions): Promise<void> {
  const conversation = await chat.session.current();
  const trusted = agent.port.isTrusted();
  if (!trusted) {
    sink({ type: 'notice', level: 'warning', text: restrictedModeReason() });
    sink(modeMessage(conversation, trusted));
    return;
  }
  if (plan.trim() === '') {
    sink({ type: 'notice', level: 'warning', text: vscode.l10n.t('The plan is empty: write the steps to act on first.') });
    return;
  }
  conversation.mode = 'act';
  sink(modeMessage(conversation, trusted));
  // send() saves the conversation (with its new mode) before anything is sent.
  await chat.turns.send(plan, options);
}
