// The agent's edit allowance in the panel: the panel says while it holds, and it belongs to one
// conversation, so it ends as soon as the panel shows another.
import * as vscode from 'vscode';
import type { ApprovalBroker } from '../tools/approvals';
import type { PanelChannel } from './panelChannel';

/** Wires the approvals' allowance to the panel; dispose to unwire. */
export function wireAllowance(channel: PanelChannel, approvals: ApprovalBroker): vscode.Disposable {
  return vscode.Disposable.from(
    approvals.onDidChangeAllowance((conversationId) => channel.post({ type: 'agent/allowance', conversationId })),
    channel.onWillPost((message) => {
      if (message.type === 'conversation/show') approvals.conversationShown(message.conversation.id);
    }),
  );
}
