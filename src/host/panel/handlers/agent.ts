// The agent in the panel: answers to its proposed changes, their diffs, the edit allowance, and the tools menu.
import { enableTool, toolsMenuState } from '../../chat/toolsMenu';
import type { Handlers, PanelParts } from '../router';

export function agentHandlers({
  agent,
}: Pick<PanelParts, 'agent'>): Handlers<'tool/approve' | 'tool/showDiff' | 'agent/endAllowance' | 'tools/list' | 'tools/enable'> {
  return {
    'tool/approve': (message) => {
      agent.approvals.answer(message.callId, message.decision);
    },
    'tool/showDiff': async (message) => {
      await agent.approvals.showDiff(message.callId);
    },
    'agent/endAllowance': () => agent.approvals.endAllowance(),
    'tools/list': () => toolsMenuState(agent),
    'tools/enable': (message) => enableTool(agent, message.name, message.enabled),
  };
}
