// The panel's tools menu, host side: what it lists (the VS Code tools the agent may use, each enabled or not
// for this workspace, held back in Restricted Mode unless marked read-only) and the user's ticks.
import type { ToWebview } from '../../shared/protocol';
import { readAgentSettings } from '../tools/agentSettings';
import type { AgentService } from '../tools/agentService';

/** The menu's state now (`state/vscodeTools`). */
export function toolsMenuState(agent: AgentService): Extract<ToWebview, { type: 'state/vscodeTools' }> {
  const trusted = agent.port.isTrusted();
  return { type: 'state/vscodeTools', tools: agent.vscodeTools.menu(trusted), restricted: !trusted, agentEnabled: readAgentSettings().enabled };
}

/** A tick or untick (`tools/enable`); a tool Restricted Mode holds back cannot be enabled there. Resolves with the new state. */
export async function enableTool(agent: AgentService, name: string, enabled: boolean): Promise<Extract<ToWebview, { type: 'state/vscodeTools' }>> {
  const row = agent.vscodeTools.menu(agent.port.isTrusted()).find((tool) => tool.name === name);
  if (row && !(enabled && row.blocked)) await agent.vscodeTools.setEnabled(name, enabled);
  return toolsMenuState(agent);
}
