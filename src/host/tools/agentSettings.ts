import type { AgentMode } from '../../core/tools/agentMode';
import { guardedSetting } from '../settings';

/** `cadenza.agent.*`, read at the moment of use (each answer reads them again). */
export interface AgentSettings {
  /** Whether conversations with a tool-capable model get the workspace functions. */
  readonly enabled: boolean;
  /** The mode new conversations start in (`cadenza.agent.defaultMode`). */
  readonly defaultMode: AgentMode;
  /** Requests to the model in one answer, at most. */
  readonly maxSteps: number;
  /** A tool result is cut beyond this many tokens (and to what the context leaves). */
  readonly maxToolResultTokens: number;
  /** run_in_terminal's time limit. */
  readonly terminalTimeoutSeconds: number;
  /** The first request of an answer must call a function (tool_choice "required"), for small models. */
  readonly requireToolCall: boolean;
}

/** Reads the agent settings now, clamped to sane ranges; a workspace may only lighten them (settingRules.ts). */
export function readAgentSettings(): AgentSettings {
  return {
    enabled: guardedSetting('agent.enabled'),
    defaultMode: guardedSetting('agent.defaultMode'),
    maxSteps: guardedSetting('agent.maxSteps'),
    maxToolResultTokens: guardedSetting('agent.maxToolResultTokens'),
    terminalTimeoutSeconds: guardedSetting('agent.terminalTimeoutSeconds'),
    requireToolCall: guardedSetting('agent.requireToolCall'),
  };
}
