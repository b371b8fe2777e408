// The chat panel's answer as one turn of core/chat/runTurn.ts. Its ports: the conversation's model
// (modelResolution.ts), then the request: the system-prompt context gathered by its providers (project
// instructions, workspace search: context/turnContext.ts), the agent's plan, automatic condensing and the
// history fitted to the context. Its events go to the reply shown and stored: a plain answer or the agent's
// steps (core/chat/answer/: plainAnswer.ts, agentAnswer.ts; the agent's port: agentTurn.ts).
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { deferredStream } from '../../core/api/deferredStream';
import type { ModelInfo, RetryInfo } from '../../core/api/types';
import type { Conversation, StoredMessage } from '../../core/chat/conversation';
import { buildAudioReasoningRequest, buildChatRequest } from '../../core/chat/requestBuilder';
import { runTurn, type TurnEvent, type TurnModel, type TurnPorts, type TurnRequest } from '../../core/chat/runTurn';
import { effectiveMode } from '../../core/tools/agentMode';
import { AgentAnswer } from '../../core/chat/answer/agentAnswer';
import type { AnswerDeps } from '../../core/chat/answer/answerDeps';
import { PlainAnswer } from '../../core/chat/answer/plainAnswer';
import { agentAnswerRun, type AgentRun } from './agentTurn';
import type { ServiceConnection } from '../service/connection';
import { errorView } from '../service/errorView';
import { applySystemContext, gatherContext, roomTokens } from './context/turnContext';
import { toView } from './messageView';
import type { PanelTurnDeps, TurnOverrides } from './turnTypes';

/** Streams the answer to the conversation's last user message; resolves with its text (empty on error or when no model can be chosen). */
export async function answerInPanel(deps: PanelTurnDeps, conversation: Conversation, signal: AbortSignal, overrides: TurnOverrides = {}): Promise<string> {
  const turn = new PanelTurn(deps, conversation, overrides);
  for await (const event of runTurn(turn.ports(), signal)) await turn.take(event);
  return turn.text;
}

/** One answer of the panel: its ports, and where its events go. */
class PanelTurn {
  private reply: StoredMessage | undefined;
  private model: ModelInfo | undefined;
  /** The agent's part of this answer, when it uses the tools. */
  private agentRun: AgentRun | undefined;
  private shown: PlainAnswer | AgentAnswer | undefined;
  text = '';

  constructor(
    private readonly deps: PanelTurnDeps,
    private readonly conversation: Conversation,
    private readonly overrides: TurnOverrides,
  ) {}

  ports(): TurnPorts {
    const { deps, conversation } = this;
    const client = (): ReturnType<ServiceConnection['client']> => deps.connection.client();
    return {
      model: async (signal) => {
        // A prompt file's model answers this message only; the conversation keeps its own.
        const id = this.overrides.model ?? (await deps.resolveModel(conversation, signal));
        return id === undefined ? undefined : { id, info: deps.connection.model(id) };
      },
      context: (model, signal) => this.request(model, signal),
      stream: (request, options) => deferredStream(async () => (await client()).streamChat(request, options)),
      approve: (question, signal) => {
        const agent = this.agentRun?.agent;
        return agent
          ? agent.approvals.ask({ ...question, conversationId: conversation.id, messageId: this.shown?.messageId ?? '' }, signal)
          : Promise.resolve('denied');
      },
      onRetry: (info: RetryInfo) =>
        deps.sink({
          type: 'chat/retrying',
          messageId: this.shown?.messageId ?? '',
          seconds: Math.ceil(info.delayMs / 1000),
          attempt: info.attempt,
          ...(info.error.reason === 'rateLimited' ? {} : { reason: info.error.reason }),
        }),
    };
  }

  /** The request of this answer: the turn's context, the agent's plan, condensing, the history fitted. */
  private async request(model: TurnModel, signal: AbortSignal): Promise<TurnRequest> {
    const { deps, conversation } = this;
    const options = conversation.options;
    this.model = model.info;
    const agent = deps.agent;
    // Plan or Act, read now: Restricted Mode is always Plan (core/tools/agentMode.ts); the answer keeps it for its label.
    const mode = effectiveMode(conversation.mode, agent.port.isTrusted());
    const reply: StoredMessage = { id: randomUUID(), role: 'assistant', text: '', createdAt: Date.now(), model: model.id, mode };
    this.reply = reply;
    const question = [...conversation.messages].reverse().find((message) => message.role === 'user')?.text ?? '';
    const gathered = await gatherContext(deps.systemContext(options), question, roomTokens(model.info, options), deps.sink, signal);
    deps.gathered(options, gathered);
    const withContext = applySystemContext(options, gathered, reply);
    // A prompt file in mode ask is answered without tools.
    const plan =
      this.overrides.tools === 'none'
        ? { use: false as const }
        : agent.plan(
            conversation,
            model.info,
            model.info?.capabilities ?? (await deps.connection.client()).capabilitiesOf(model.id),
            deps.connection.models.models.filter((entry) => entry.capabilities.includes('tools')).map((entry) => entry.id),
          );
    if (!plan.use && plan.notice) deps.sink({ type: 'notice', level: 'info', text: plan.notice });
    const settings = plan.use ? plan.settings : undefined;
    const requestOptions = settings ? { ...withContext, systemPrompt: await agent.systemPrompt(withContext.systemPrompt, signal, mode) } : withContext;
    const reserved = settings ? agent.schemaTokens(settings, mode) : 0;
    await deps.autoCondense(conversation, model.info, requestOptions, reserved, signal);
    // The request names the turn's model: a prompt file's, for this message only.
    const asked = model.id === conversation.model ? conversation : { ...conversation, model: model.id };
    const { request, budget } = buildChatRequest(asked, model.info, requestOptions, reserved);
    const fit = {
      fits: budget.fits,
      usedTokens: budget.usedTokens,
      limitTokens: budget.limitTokens,
      droppedMessages: budget.droppedCount,
      overflow: vscode.l10n.t(
        'The conversation needs about {0} tokens but the model takes {1} besides the answer. Trim the conversation or lower max tokens.',
        budget.usedTokens,
        budget.limitTokens,
      ),
    };
    if (settings && budget.fits) {
      // Every change the turn's tools make is recorded for its checkpoint (the texts before the turn).
      const recorder = agent.checkpoints.recorder(conversation.id);
      this.agentRun = { agent, settings, recorder };
      const toolset = agent.toolset(settings, recorder.wrap(agent.port));
      return {
        request,
        fit,
        tools: {
          kind: 'loop',
          tools: toolset.tools,
          unavailable: toolset.unavailable,
          mode,
          ...(settings.requireToolCall ? { toolChoice: 'required' as const } : {}),
          session: agent.session(conversation.id),
          maxSteps: settings.maxSteps,
          maxToolResultTokens: settings.maxToolResultTokens,
          contextLimitTokens: budget.limitTokens + reserved,
        },
      };
    }
    // A conversation about an audio file is answered by audio reasoning, the audio sent with every turn.
    const audio = agent && settings ? undefined : buildAudioReasoningRequest(conversation, conversation.options);
    return {
      request,
      fit,
      ...(audio ? { send: (callOptions) => deferredStream(async () => (await deps.connection.client()).streamAudioReasoning(audio, callOptions)) } : {}),
    };
  }

  /** What the answer shown needs: the controller's deps, errors shown as the service shows them. */
  private answerDeps(): AnswerDeps {
    return { ...this.deps, errorView };
  }

  /** One event: the reply is shown once the request is fitted; the rest goes to the answer shown. */
  async take(event: TurnEvent): Promise<void> {
    const { deps, conversation } = this;
    switch (event.type) {
      case 'model':
        return;
      case 'context': {
        const reply = this.reply;
        if (!reply) return;
        deps.sink({ type: 'context/meter', usedTokens: event.fit.usedTokens, limitTokens: event.fit.limitTokens, droppedMessages: event.fit.droppedMessages });
        conversation.messages.push(reply);
        deps.sink({ type: 'message/add', message: { ...toView(reply), streaming: true } });
        if (this.agentRun) {
          const agentAnswer = new AgentAnswer(this.answerDeps(), conversation, reply, this.model, agentAnswerRun(this.agentRun));
          this.shown = agentAnswer;
          agentAnswer.start();
        } else {
          this.shown = new PlainAnswer(this.answerDeps(), conversation, reply, this.model);
        }
        return;
      }
      case 'done':
        // Before the reply was shown (no model, or stopped while it was chosen) there is nothing to close.
        if (this.shown) this.text = await this.shown.done(event);
        return;
      case 'error':
        // A port that failed before the reply was shown fails the answer, as it always has.
        if (!this.shown) throw event.error;
        this.text = await this.shown.failed(event.error);
        return;
      default:
        this.shown?.event(event);
    }
  }
}
