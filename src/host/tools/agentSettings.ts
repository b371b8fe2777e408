import * as vscode from 'vscode';
import { settingDefaults } from '../settingDefaults';

/** `cadenza.agent.*`, read at the moment of use (each answer reads them again). */
export interface AgentSettings {
  /** Whether conversations with a tool-capable model get the workspace functions. */
  readonly enabled: boolean;
  /** Requests to the model in one answer, at most. */
  readonly maxSteps: number;
  /** A tool result is cut beyond this many tokens (and to what the context leaves). */
  readonly maxToolResultTokens: number;
  /** run_in_terminal's time limit. */
  readonly terminalTimeoutSeconds: number;
  /** The first request of an answer must call a function (tool_choice "required"), for small models. */
  readonly requireToolCall: boolean;
}

/** Reads the agent settings now, clamped to sane ranges. */
export function readAgentSettings(): AgentSettings {
  const config = vscode.workspace.getConfiguration('cadenza.agent');
  const whole = (key: 'maxSteps' | 'maxToolResultTokens' | 'terminalTimeoutSeconds', low: number, high: number): number => {
    const value = config.get<number>(key, settingDefaults[`agent.${key}`]);
    return Number.isFinite(value) ? Math.min(high, Math.max(low, Math.round(value))) : settingDefaults[`agent.${key}`];
  };
  return {
    enabled: config.get<boolean>('enabled', settingDefaults['agent.enabled']),
    maxSteps: whole('maxSteps', 1, 100),
    maxToolResultTokens: whole('maxToolResultTokens', 256, 100_000),
    terminalTimeoutSeconds: whole('terminalTimeoutSeconds', 1, 3600),
    requireToolCall: config.get<boolean>('requireToolCall', settingDefaults['agent.requireToolCall']),
  };
}
