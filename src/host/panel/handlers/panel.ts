// The panel itself: its page said `ready` (everything is sent again), and the actions that map to commands.
import * as vscode from 'vscode';
import type { PanelAction } from '../../../shared/protocol';
import { commandIds } from '../../ids';
import type { Handlers, PanelParts } from '../router';

async function runAction(action: PanelAction): Promise<void> {
  switch (action) {
    case 'setApiKey':
      await vscode.commands.executeCommand(commandIds.setApiKey);
      return;
    case 'selectModel':
      await vscode.commands.executeCommand(commandIds.selectModel);
      return;
    case 'showLog':
      await vscode.commands.executeCommand(commandIds.showLog);
      return;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'cadenza');
      return;
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}

export function panelHandlers({
  channel,
  chat,
  agent,
  mentions,
  connectionState,
}: Pick<PanelParts, 'channel' | 'chat' | 'agent' | 'mentions' | 'connectionState'>): Handlers<'ready' | 'action/run'> {
  return {
    ready: async () => {
      channel.markReady([await connectionState.message()]);
      await chat.panel.showAll();
      channel.post({ type: 'agent/allowance', conversationId: agent.approvals.allowedConversation });
      connectionState.postWorkspacePrompt();
      mentions.warm();
    },
    'action/run': (message) => runAction(message.action),
  };
}
