/**
 * One answer: streamed Markdown (or JSON), its status while streaming (waiting, retrying, stopped),
 * an inline error with its action, the JSON check, the usage line, and Copy / Regenerate.
 */
import type { JsonCheckView } from '../shared/protocol';
import type { AgentMode, CheckpointView, ErrorView, MessageView, SourceView, ToolCallView, UsageView } from '../shared/views';
import { checkpointBlock } from './checkpointBlock';
import { flash } from './codeBlocks';
import { button, el, show } from './dom';
import { errorBlock, retryStatus } from './errorView';
import { icon } from './icons';
import { MarkdownBody, type BodyKind } from './markdownBody';
import type { PanelContext } from './panelContext';
import { PlanBlock } from './planBlock';
import { ThinkingSection } from './thinking';
import { ToolCard } from './toolCard';
import { jsonCheckBlock, usageLine } from './usageLine';
import { t } from './l10n';

/** The end of a streamed answer, as `chat/done` reports it. */
export interface AnswerEnd {
  readonly stopped: boolean;
  /** How long the model thought, as the host measured it. */
  readonly reasoningMs?: number;
  readonly usage?: UsageView;
  readonly error?: ErrorView;
  readonly jsonCheck?: JsonCheckView;
  readonly sources?: readonly SourceView[];
  /** Why the agent stopped early (the step limit). */
  readonly agentStop?: string;
  /** The conversation could not be saved at the end of this answer (offered: Save again). */
  readonly saveError?: string;
}

/** An assistant message in the conversation. */
export class AssistantMessage {
  readonly element: HTMLElement;
  private readonly body: MarkdownBody;
  private readonly status = el('div', { className: 'message-status' });
  /** The agent step's tool-call cards, by their index in the step. */
  private readonly tools = el('div', { className: 'tool-calls' });
  private readonly cards = new Map<number, ToolCard>();
  private readonly extras = el('div', { className: 'message-extras' });
  /** The checkpoint of the agent turn this step closes, if it changed files. */
  private readonly checkpoint = el('div', { className: 'message-checkpoint' });
  private readonly footer = el('div', { className: 'message-footer' });
  /** The editable plan with Act on this plan, for an answer made in Plan mode (shown under the last one). */
  private readonly plan: PlanBlock | undefined;
  private readonly regenerate: HTMLButtonElement;
  private readonly copy: HTMLButtonElement;
  private streamingNow = false;
  /** The reasoning model's thinking, once any arrived. */
  private thinking: ThinkingSection | undefined;
  private last = false;
  private error: ErrorView | undefined;
  /** Stops the status countdown. */
  private statusDisposers: (() => void)[] = [];
  /** Stops the error's retry countdown. */
  private errorDisposers: (() => void)[] = [];

  /** `kind` is `json` for answers requested in JSON mode; `withSchema` when a schema was given. */
  constructor(
    readonly id: string,
    private readonly context: PanelContext,
    kind: BodyKind,
    private readonly withSchema: boolean,
    model: string | undefined,
    mode?: AgentMode,
  ) {
    this.body = new MarkdownBody(kind);
    const who = model ? t('answerFrom', { model }) : t('answer');
    this.element = el('article', {
      className: 'message assistant',
      attrs: { 'aria-label': mode ? t(mode === 'plan' ? 'answerInPlanMode' : 'answerInActMode', { who }) : who },
    });
    const header = el('div', { className: 'message-header' }, el('span', { className: 'message-role', text: 'Cadenza' }));
    // Which mode made the answer: Plan only read, Act could propose changes.
    if (mode) {
      const title = mode === 'plan' ? t('madeInPlanMode') : t('madeInActMode');
      header.append(el('span', { className: `message-mode mode-${mode}`, text: mode === 'plan' ? t('modePlan') : t('modeAct'), attrs: { title } }));
    }
    if (model) header.append(el('span', { className: 'message-model', text: model }));
    this.plan = mode === 'plan' ? new PlanBlock(context, id) : undefined;
    this.copy = button({
      label: t('copyAnswer'),
      icon: 'copy',
      onClick: () => {
        this.context.post({ type: 'code/copy', code: this.body.text });
        flash(this.copy);
      },
    });
    this.regenerate = button({
      label: t('regenerateAnswer'),
      icon: 'refresh',
      onClick: () => {
        const options = this.context.requestOptions();
        if (options) this.context.post({ type: 'chat/regenerate', options });
      },
    });
    const actions = el('div', { className: 'message-actions', attrs: { role: 'toolbar', 'aria-label': t('answerActions') } }, this.copy, this.regenerate);
    this.footer.append(actions);
    this.element.append(
      header,
      this.body.element,
      this.tools,
      this.status,
      this.extras,
      this.checkpoint,
      ...(this.plan ? [this.plan.element] : []),
      this.footer,
    );
  }

  /** The answer's text so far (Markdown, or the JSON as it streams). */
  get text(): string {
    return this.body.text;
  }

  /** Shows a finished message (from `conversation/show`). */
  showFinished(message: MessageView, kind: BodyKind): void {
    if (message.streaming === true) {
      this.body.restart(message.text);
      this.setStreaming(true);
      return;
    }
    if (message.reasoning && message.reasoning.text !== '') {
      this.thinkingSection(false).append(message.reasoning.text);
      this.thinking?.settle(message.reasoning.ms);
    }
    this.body.setText(message.text, kind);
    for (const call of message.toolCalls ?? []) this.toolCall(call, false);
    if (message.checkpoint) this.setCheckpoint(message.checkpoint);
    this.setStreaming(false);
    this.renderEnd(
      {
        stopped: message.stopped === true,
        ...(message.usage ? { usage: message.usage } : {}),
        ...(message.error ? { error: message.error } : {}),
        ...(message.sources ? { sources: message.sources } : {}),
        ...(message.agentStop ? { agentStop: message.agentStop } : {}),
      },
      false,
    );
  }

  /** Starts streaming (a placeholder arrived): shows the waiting indicator. */
  startStreaming(): void {
    this.setStreaming(true);
  }

  /** Appends streamed text; the first answer text collapses the thinking above it. */
  append(text: string): void {
    this.clearStatus();
    this.thinking?.settle();
    this.body.append(text);
  }

  /** Appends streamed thinking to the live "Thinking" section (created on the first piece). */
  appendReasoning(text: string): void {
    this.clearStatus();
    this.thinkingSection(true).append(text);
  }

  private thinkingSection(live: boolean): ThinkingSection {
    if (!this.thinking) {
      this.thinking = new ThinkingSection(live);
      this.body.element.before(this.thinking.element);
    }
    return this.thinking;
  }

  /** Adds or updates the card of a tool call; `live` when it just happened (not a reload). */
  toolCall(call: ToolCallView, live: boolean): void {
    this.clearStatus();
    this.element.classList.add('agent-step');
    const card = this.cards.get(call.index);
    if (card) {
      card.update(call, live);
      return;
    }
    const created = new ToolCard(call, this.context, live);
    this.cards.set(call.index, created);
    this.tools.append(created.element);
  }

  /** Shows (or updates) the checkpoint of the agent turn this step closes. */
  setCheckpoint(checkpoint: CheckpointView): void {
    this.checkpoint.replaceChildren(checkpointBlock(checkpoint, (message) => this.context.post(message)));
  }

  /** Marks this message as a step of an agent answer (its header is dropped after the first step). */
  markAgentStep(): void {
    this.element.classList.add('agent-step');
  }

  /** Whether this message is a step of an agent answer. */
  get isAgentStep(): boolean {
    return this.element.classList.contains('agent-step');
  }

  /** Shows the countdown before the host retries. */
  retrying(seconds: number, attempt: number, reason: string | undefined): void {
    this.clearStatus();
    const status = retryStatus(seconds, attempt, reason);
    this.statusDisposers.push(status.dispose);
    this.status.replaceChildren(status.element);
  }

  /** Ends the answer: final render, stopped mark, error, JSON check, usage. */
  finish(end: AnswerEnd): void {
    this.clearStatus();
    this.thinking?.settle(end.reasoningMs);
    this.body.finish();
    if (end.jsonCheck?.pretty !== undefined) this.body.setText(end.jsonCheck.pretty, 'json');
    this.setStreaming(false);
    this.renderEnd(end, true);
    // From the source text: the last blocks may still be rendering over the next frames.
    const excerpt = this.body.text
      .slice(0, 2000)
      .replace(/[`*_#>|~]+/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 400);
    // A failed answer's error block is an alert already.
    // A step of an agent answer that only called tools has nothing to read out; its cards speak for it.
    if (!end.error && (this.body.text !== '' || end.stopped || this.cards.size === 0))
      this.context.announce(t(end.stopped ? 'answerStopped' : 'answerComplete', { excerpt }).trim());
  }

  /** Whether this is the conversation's last answer (only it offers Regenerate and error actions). */
  setLast(last: boolean): void {
    if (this.last === last) return;
    this.last = last;
    this.updateActions();
    if (this.error) this.renderError(this.error, false);
  }

  /** Stops timers and frames. */
  dispose(): void {
    this.body.dispose();
    this.clearStatus();
    for (const dispose of this.errorDisposers.splice(0)) dispose();
  }

  private setStreaming(streaming: boolean): void {
    this.streamingNow = streaming;
    this.element.classList.toggle('streaming', streaming);
    this.element.setAttribute('aria-busy', String(streaming));
    if (streaming && this.status.childElementCount === 0) {
      const dots = el('span', { className: 'typing', attrs: { 'aria-hidden': 'true' } }, el('span'), el('span'), el('span'));
      this.status.replaceChildren(el('p', { className: 'waiting' }, dots, el('span', { className: 'visually-hidden', text: t('generating') })));
    }
    this.updateActions();
  }

  /** Shows or hides the editable plan again (the mode's lock changed). */
  refreshPlan(): void {
    this.plan?.update(this.last && !this.streamingNow && this.body.text.trim() !== '', this.body.text);
  }

  private updateActions(): void {
    show(this.footer, !this.streamingNow);
    show(this.regenerate, this.last && !this.streamingNow);
    show(this.copy, this.body.text !== '');
    this.refreshPlan();
  }

  /** Runs for every delta: cheap when there is nothing to clear. */
  private clearStatus(): void {
    for (const dispose of this.statusDisposers.splice(0)) dispose();
    if (this.status.firstChild) this.status.replaceChildren();
  }

  private renderEnd(end: AnswerEnd, live: boolean): void {
    this.extras.replaceChildren();
    this.footer.querySelector('.usage-line')?.remove();
    this.error = end.error;
    if (end.stopped) this.extras.append(el('p', { className: 'stopped-mark', text: t('stoppedPartial') }));
    if (end.agentStop) this.extras.append(el('p', { className: 'agent-stop', text: end.agentStop, attrs: live ? { role: 'status' } : {} }));
    if (end.error) this.renderError(end.error, live);
    if (end.jsonCheck) this.extras.append(jsonCheckBlock(end.jsonCheck, this.withSchema));
    if (end.sources && end.sources.length > 0) this.extras.append(this.sourcesBlock(end.sources));
    if (end.usage) this.footer.prepend(usageLine(end.usage));
    if (end.saveError !== undefined) this.saveResult(end.saveError, live);
  }

  /** Shows that the conversation is not saved, with Save again (`error`), or that it now is (undefined). */
  saveResult(error: string | undefined, live = true): void {
    this.extras.querySelector('.save-error')?.remove();
    if (error === undefined) {
      if (live) this.context.announce(t('conversationSaved'));
      return;
    }
    const retry = button({
      text: t('saveAgain'),
      label: t('saveAgainLabel'),
      icon: 'refresh',
      className: 'text-button',
      onClick: () => {
        retry.disabled = true;
        this.context.post({ type: 'chat/retrySave', messageId: this.id });
      },
    });
    // Not an `.error-block`: that is the answer's own error, which a new render replaces.
    this.extras.append(
      el(
        'div',
        { className: 'save-error', attrs: live ? { role: 'alert' } : {} },
        el('p', { className: 'error-message' }, icon('warning'), el('span', { text: error })),
        el('div', { className: 'error-actions' }, retry),
      ),
    );
  }

  /** The workspace locations the answer drew on, numbered as the prompt numbered them; each opens its place. */
  private sourcesBlock(sources: readonly SourceView[]): HTMLElement {
    const list = el('ol', { className: 'sources-list' });
    for (const source of sources) {
      const link = button({
        text: source.label,
        label: t('openSource', { label: source.label }),
        className: 'source-link',
        onClick: () => this.context.post({ type: 'source/open', uri: source.uri, startLine: source.startLine }),
      });
      list.append(el('li', {}, link));
    }
    return el(
      'div',
      { className: 'sources', attrs: { role: 'group', 'aria-label': t('workspaceSources') } },
      el('p', { className: 'sources-title', text: t('workspaceSources') }),
      list,
    );
  }

  private renderError(error: ErrorView, live: boolean): void {
    this.extras.querySelector('.error-block')?.remove();
    for (const dispose of this.errorDisposers.splice(0)) dispose();
    const block = errorBlock(error, this.last, live, {
      post: (message) => this.context.post(message),
      retry: (trim) => {
        const options = this.context.requestOptions();
        if (options) this.context.post({ type: 'chat/retry', trim, options });
      },
    });
    this.errorDisposers.push(block.dispose);
    this.extras.append(block.element);
  }
}
