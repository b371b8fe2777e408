// The agent's two modes per conversation. Act is the agent as it always was: it reads, and proposes
// changes the user approves. Plan only reads: it is offered the functions that change nothing, and a call
// of any other is refused where calls are run (core/chat/toolLoop.ts), whatever the model names, so a
// model that calls edit_file anyway changes nothing and is told why. Restricted Mode is always Plan.
import type { AgentMode } from '../../shared/views';
import type { Tool } from './toolTypes';

export { agentModes, type AgentMode } from '../../shared/views';

/**
 * Does `tool` only read? The agent's own reading functions do; a tool of another extension or an MCP
 * server (one with an `origin`) only when it is marked read-only (externalTools.ts `isReadOnly`, the
 * classification Restricted Mode uses); the changing functions never.
 */
export function onlyReads(tool: Tool): boolean {
  if (tool.effect !== 'read') return false;
  return tool.origin === undefined || tool.readOnly === true;
}

/** The tools offered in `mode`: in Plan only those that read. */
export function toolsForMode(tools: readonly Tool[], mode: AgentMode): readonly Tool[] {
  return mode === 'plan' ? tools.filter(onlyReads) : tools;
}

/** Why a call of `name` may not run in `mode` (the model is told), or undefined when it may. */
export function modeRefusal(mode: AgentMode | undefined, name: string, tool: Tool | undefined): string | undefined {
  if (mode !== 'plan' || tool === undefined || onlyReads(tool)) return undefined;
  return `${name} was refused: this conversation is in Plan mode, where Cadenza only reads and nothing is changed or run. Do not call it again; put the change in your plan instead. The user switches to Act to carry the plan out.`;
}

/** The mode a conversation's answers run in: its own (Act when it has none), except that Restricted Mode is always Plan. */
export function effectiveMode(stored: AgentMode | undefined, trusted: boolean): AgentMode {
  if (!trusted) return 'plan';
  // A saved file is read as it is: anything but Plan is the agent as it was before modes existed.
  return stored === 'plan' ? 'plan' : 'act';
}

/** What the agent's system prompt adds in Plan: only read, and end with a numbered plan the user can edit. */
export const planInstruction =
  'This conversation is in Plan mode: you can read and search the workspace, but you cannot change files or run commands (such calls are refused). Investigate what you need, then end your answer with a section headed "## Plan": a numbered list of concrete steps, each naming the file and the change. The user may edit the plan and then switch to Act to carry it out.';
