// The agent's part of a panel answer: its run (settings, the recorder of the files the answer changes) and
// the port core's agent answer (core/chat/answer/agentAnswer.ts) shows the turn through: checkpoints,
// Restricted Mode, and the words under a step.
import * as vscode from 'vscode';
import type { TurnRecorder } from '../../core/chat/checkpointRecorder';
import type { AgentAnswerRun } from '../../core/chat/answer/agentAnswer';
import type { ToolsWithheld } from '../../core/chat/toolLoop';
import type { AgentSettings } from '../tools/agentSettings';
import type { AgentService } from '../tools/agentService';
import { checkpointView } from './messageView';

/** The text under an answer that hit the step limit. */
export function stepLimitText(steps: number): string {
  return vscode.l10n.t(
    'Stopped after {0} steps, the limit for one answer (cadenza.agent.maxSteps). The last calls were not run. Send “continue” to go on, or raise the limit.',
    steps,
  );
}

/** The note under a step whose answer was asked for with no tools offered, and why. */
export function withoutToolsText(reason: ToolsWithheld, maxSteps: number): string {
  return reason === 'repeatedCall'
    ? vscode.l10n.t('Cadenza asked for the answer without tools: the same call repeated.')
    : vscode.l10n.t('Cadenza asked for the answer without tools: this was the last of the {0} steps of one answer (cadenza.agent.maxSteps).', maxSteps);
}

/** The agent, its settings and the recorder of the files this answer changes. */
export interface AgentRun {
  readonly agent: AgentService;
  readonly settings: AgentSettings;
  readonly recorder: TurnRecorder;
}

/** The port of an agent answer over the agent and this answer's run. */
export function agentAnswerRun(run: AgentRun): AgentAnswerRun {
  return {
    restrictedNotice: () => run.agent.restrictedNotice(),
    finishCheckpoint: (messageId) => run.agent.checkpoints.finish(run.recorder, messageId),
    checkpointView,
    stepLimitText,
    withoutToolsText: (reason) => withoutToolsText(reason, run.settings.maxSteps),
  };
}
