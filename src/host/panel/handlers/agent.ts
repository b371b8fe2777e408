// The agent in the panel: answers to its proposed changes, their diffs, the edit allowance, the tools menu,
// and the conversation's mode (the composer's Plan/Act switch, Act on this plan).
import { actOnPlan, setConversationMode } from '../../chat/conversationMode';
import { enableTool, toolsMenuState } from '../../chat/toolsMenu';
import type { Handlers, PanelParts } from '../router';

export function agentHandlers({
  agent,
  chat,
  channel,
}: Pick<PanelParts, 'agent' | 'chat' | 'channel'>): Handlers<
  'tool/approve' | 'tool/showDiff' | 'agent/endAllowance' | 'tools/list' | 'tools/enable' | 'agent/setMode' | 'agent/actOnPlan'
> {
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
    'agent/setMode': (message) => setConversationMode(chat, agent, message.mode),
    'agent/actOnPlan': (message) => actOnPlan(chat, agent, (reply) => channel.post(reply), message.plan, message.options),
  };
}
