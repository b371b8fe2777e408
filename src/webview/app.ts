/**
 * The chat panel: builds the layout, routes every host message to its part through an exhaustive table,
 * and holds what the parts share (the connection, the open conversation, the options to send).
 */
import type { AudioAttachment, FromWebview, ImageAttachment, ToWebview, ToWebviewOf } from '../shared/protocol';
import type { ChatOptions, ConversationView } from '../shared/views';
import { AudioAttach } from './audioAttach';
import { Composer } from './composer';
import { ContextMeter } from './contextMeter';
import { ConversationList } from './conversationList';
import { button, el, show } from './dom';
import { ImageAttach } from './imageAttach';
import { InstructionsBar } from './instructionsBar';
import { MentionPicker } from './mentionPicker';
import { PromptPicker } from './promptPicker';
import { MessageList } from './messageList';
import { ModeSwitch } from './modeSwitch';
import { ModelPicker } from './modelPicker';
import { AllowanceBar, Announcer, KeyBanner, Notices } from './notices';
import { offersTranscription, supportsAudio, supportsVision } from './optionRules';
import { OptionsPanel } from './optionsPanel';
import { ToolsMenu } from './toolsMenu';
import type { PanelContext, PlanDraftView } from './panelContext';
import type { Host } from './vscodeApi';
import { t } from './l10n';

/** A receiver for every message the host may send. */
type Receivers = { readonly [K in ToWebview['type']]: (message: ToWebviewOf<K>) => void };

/** The whole panel. */
export class App implements PanelContext {
  private readonly announcer = new Announcer();
  private readonly notices = new Notices();
  private readonly allowance: AllowanceBar;
  private readonly banner: KeyBanner;
  private readonly conversations: ConversationList;
  private readonly messages: MessageList;
  private readonly meter: ContextMeter;
  private readonly picker: ModelPicker;
  private readonly image: ImageAttach;
  private readonly audio: AudioAttach;
  private readonly mentions: MentionPicker;
  private readonly prompts: PromptPicker;
  /** The host's last meter figures; the chips not yet sent are added to them. */
  private meterFigures = { usedTokens: 0, limitTokens: 0, droppedMessages: 0, shown: false };
  private readonly composer: Composer;
  private readonly options: OptionsPanel;
  private readonly optionsToggle: HTMLButtonElement;
  private readonly instructions: InstructionsBar;
  private readonly tools: ToolsMenu;
  /** The open conversation's Plan/Act switch. */
  private readonly mode: ModeSwitch;
  private hasKey: boolean | undefined;
  private conversationId: string | undefined;
  private scrollRestored = false;

  constructor(
    private readonly host: Host,
    root: HTMLElement,
  ) {
    const post = this.post.bind(this);
    this.banner = new KeyBanner(post);
    this.meter = new ContextMeter(post, () => this.options.current.maxTokens);
    this.allowance = new AllowanceBar(post);
    this.conversations = new ConversationList(post);
    this.messages = new MessageList(
      this,
      (streaming) => this.composer.setStreaming(streaming),
      (scrollTop, atBottom) => this.host.save({ scrollTop, atBottom }),
    );
    this.picker = new ModelPicker(
      (modelId) => post({ type: 'model/select', modelId }),
      () => post({ type: 'model/refresh' }),
      () => this.applyModel(),
    );
    this.image = new ImageAttach({ post, warn: (text) => this.notices.add('warning', text), onChange: () => this.composer.update() });
    this.audio = new AudioAttach(post, () => this.composer.update());
    this.mentions = new MentionPicker(post, () => {
      this.composer.update();
      this.updateMeter();
    });
    this.prompts = new PromptPicker(post);
    this.composer = new Composer(
      {
        send: (text, image, audio) => this.send(text, image, audio),
        stop: () => post({ type: 'chat/stop' }),
        saveDraft: (draft) => this.host.save({ draft }),
      },
      this.image,
      this.audio,
      this.mentions,
      this.prompts,
      host.state.draft,
    );
    this.options = new OptionsPanel({
      onChange: (options, schemaName) => this.optionsChanged(options, schemaName),
      pickSchema: () => post({ type: 'schema/pick' }),
    });
    this.instructions = new InstructionsBar(post, (on) => this.options.setUseInstructions(on));
    this.optionsToggle = button({ label: t('conversationOptions'), icon: 'settings', onClick: () => this.setOptionsOpen(this.options.element.hidden) });
    this.optionsToggle.setAttribute('aria-controls', this.options.element.id);
    this.tools = new ToolsMenu(post);
    this.mode = new ModeSwitch((mode) => post({ type: 'agent/setMode', mode }));
    this.composer.toolbar.append(
      this.mode.element,
      this.image.button,
      this.audio.button,
      this.audio.transcribeButton,
      this.picker.select,
      this.picker.refresh,
      this.tools.button,
      this.optionsToggle,
      this.composer.actions,
    );
    this.composer.element.append(this.mode.lockNote, this.picker.facts);
    const footer = el(
      'div',
      { className: 'panel-footer' },
      this.allowance.element,
      this.notices.element,
      this.meter.element,
      this.instructions.element,
      this.composer.element,
      this.tools.element,
      this.options.element,
    );
    // The shell marks the whole panel aria-live; that would read out every streamed token. Answers are
    // announced once, when done, through the announcer instead.
    root.setAttribute('aria-live', 'off');
    root.replaceChildren(this.conversations.header, this.conversations.list, this.banner.element, this.messages.element, footer, this.announcer.element);
    this.setOptionsOpen(host.state.optionsOpen);
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !event.defaultPrevented && this.messages.streaming) {
        event.preventDefault();
        post({ type: 'chat/stop' });
      }
    });
    this.applyModel();
  }

  /** Sends a message to the host. */
  post(message: FromWebview): void {
    this.host.post(message);
  }

  /** Says something once through the live region. */
  announce(text: string): void {
    this.announcer.say(text);
  }

  /** Why the mode switch is locked (Restricted Mode), or undefined. */
  modeLocked(): string | undefined {
    return this.mode.locked;
  }

  /** The edited plan kept for the conversation shown (one at a time: a draft of another conversation is not its). */
  planDraft(): PlanDraftView | undefined {
    const saved = this.host.state.planDraft;
    if (!saved || saved.conversationId !== this.conversationId) return undefined;
    return { messageId: saved.messageId, plan: saved.plan, text: saved.text };
  }

  /** Keeps (or forgets) the edited plan of the conversation shown; one of another conversation stays until replaced. */
  savePlanDraft(draft: PlanDraftView | undefined): void {
    const conversationId = this.conversationId;
    if (conversationId === undefined) return;
    if (draft) this.host.save({ planDraft: { conversationId, ...draft } });
    else if (this.host.state.planDraft?.conversationId === conversationId) this.host.save({ planDraft: undefined });
  }

  /** The options for a request, or undefined (and the reason shown) when they cannot be sent. */
  requestOptions(): ChatOptions | undefined {
    const prepared = this.options.prepared();
    const problem = prepared.problems[0];
    if (problem === undefined) return prepared.options;
    this.notices.add('warning', problem);
    this.setOptionsOpen(true);
    return undefined;
  }

  /** Handles one message from the host; one from a newer host that this page does not know is ignored. */
  receive(message: ToWebview): void {
    // The table pairs each type with its receiver; TypeScript cannot follow that pairing through an index by a
    // union, so the one receiver is called as a receiver of any message (`Receivers` checked the pairing).
    const receiver = (this.receivers as Partial<Record<string, (message: ToWebview) => void>>)[message.type];
    receiver?.(message);
  }

  /** What the panel does with each message from the host: a message without a receiver does not compile. */
  private readonly receivers: Receivers = {
    'state/connection': (message) => {
      this.hasKey = message.state.hasKey;
      this.banner.update(message.state);
      this.refreshComposer();
    },
    'state/models': (message) => this.picker.update(message.models, message.selected, message.loading, message.error),
    'state/instructions': (message) => {
      this.instructions.update(message.files, message.untrusted);
      this.instructions.setEnabled(this.options.current.useInstructions !== false);
    },
    'state/conversations': (message) => this.conversations.update(message.conversations, message.activeId),
    'conversation/show': (message) => this.showConversation(message.conversation),
    'message/add': (message) => {
      this.messages.add(message.message, this.options.prepared().options.jsonMode ?? 'off');
      if (message.message.role === 'user') this.composer.confirmSent();
    },
    'chat/delta': (message) => this.messages.stream(message),
    'chat/reasoning': (message) => this.messages.stream(message),
    'chat/retrying': (message) => this.messages.stream(message),
    'chat/done': (message) => {
      this.messages.stream(message);
      if (message.error) this.composer.sendFailed();
    },
    'chat/saveResult': (message) => this.messages.saveResult(message),
    'tool/call': (message) => this.messages.toolCall(message),
    'checkpoint/update': (message) => this.messages.checkpoint(message),
    'context/meter': (message) => {
      this.meterFigures = { usedTokens: message.usedTokens, limitTokens: message.limitTokens, droppedMessages: message.droppedMessages, shown: true };
      this.updateMeter();
    },
    'mention/candidates': (message) => this.mentions.showCandidates(message.requestId, message.query, message.candidates),
    'composer/mention': (message) => this.mentions.accept(message.mention),
    'prompts/list': (message) => this.prompts.showPrompts(message.requestId, message.prompts),
    'composer/addContext': (message) => this.composer.addContext(message.label, message.text, message.language),
    'composer/image': (message) => this.image.accept(message.image),
    'composer/audio': (message) => this.audio.accept(message.audio),
    'composer/insertText': (message) => this.composer.insertText(message.text),
    'composer/schema': (message) => {
      this.options.setSchema(message.name, message.schema);
      this.notices.add('info', t('schemaWillBeUsed', { name: message.name }));
    },
    'state/vscodeTools': (message) => this.tools.update(message.tools, message.restricted, message.agentEnabled),
    'agent/allowance': (message) => this.allowance.update(message.conversationId),
    'agent/mode': (message) => {
      if (message.conversationId !== this.conversationId) return;
      this.mode.set(message.mode, message.locked);
      this.messages.refreshPlans();
    },
    notice: (message) => {
      this.notices.add(message.level, message.text, message.key);
      this.image.rejected();
      if (message.level === 'error') this.composer.sendFailed();
    },
  };

  private showConversation(conversation: ConversationView): void {
    const switched = conversation.id !== this.conversationId;
    this.conversationId = conversation.id;
    this.conversations.setTitle(conversation.title);
    // Before the messages: the last Plan answer's box reads the lock.
    this.mode.set(conversation.mode, conversation.modeLocked);
    this.messages.show(conversation);
    this.composer.confirmIfShown(conversation.messages.filter((message) => message.role === 'user').map((message) => message.text));
    const pending = this.host.state.options;
    if (pending?.conversationId === conversation.id) this.options.load(pending.options, pending.schemaName);
    else if (switched || !pending) this.options.load(conversation.options, undefined);
    this.instructions.setEnabled(this.options.current.useInstructions !== false);
    if (!this.scrollRestored) {
      this.scrollRestored = true;
      const saved = this.host.state;
      if (saved.conversationId === conversation.id) this.messages.restoreScroll(saved.scrollTop, saved.atBottom);
    }
    this.host.save({ conversationId: conversation.id });
    this.refreshComposer();
  }

  private send(text: string, image: ImageAttachment | undefined, audio: AudioAttachment | undefined): boolean {
    const options = this.requestOptions();
    if (!options) return false;
    // The audio goes by its token: the host kept the file when it was picked.
    const mentions = this.mentions.tokens;
    // `/name …` of a prompt file runs it: the host fills it in; what follows the name is its extra input.
    const prompt = this.prompts.invocation(text);
    this.post({
      type: 'chat/send',
      text: prompt ? prompt.rest : text,
      ...(prompt ? { prompt: prompt.name } : {}),
      options,
      ...(image ? { image } : {}),
      ...(audio ? { audio: audio.token } : {}),
      ...(mentions.length > 0 ? { mentions } : {}),
    });
    return true;
  }

  /** The meter: the host's figures plus what the chips not yet sent would add. */
  private updateMeter(): void {
    const figures = this.meterFigures;
    if (figures.shown) this.meter.update(figures.usedTokens + this.mentions.pendingTokens, figures.limitTokens, figures.droppedMessages);
  }

  private optionsChanged(options: ChatOptions, schemaName: string | undefined): void {
    this.instructions.setEnabled(options.useInstructions !== false);
    if (this.conversationId !== undefined) {
      this.host.save({ options: { conversationId: this.conversationId, options, ...(schemaName !== undefined ? { schemaName } : {}) } });
    }
    this.refreshComposer();
  }

  /** The selected model changed (or the list did): its limits and capabilities apply. */
  private applyModel(): void {
    const model = this.picker.model;
    this.options.setModel(model);
    const id = this.picker.modelId;
    const reason = id === undefined ? t('waitingForModels') : t('modelCannotReadImages', { model: id });
    this.image.setAllowed(supportsVision(model), reason);
    this.audio.setAllowed(supportsAudio(model), id === undefined ? reason : t('modelCannotHearAudio', { model: id }));
    const transcribes = offersTranscription(this.picker.all);
    this.audio.setTranscribeAllowed(transcribes, this.picker.all.length === 0 ? t('loadingModels') : t('noTranscriptionModel'));
    this.refreshComposer();
  }

  private setOptionsOpen(open: boolean): void {
    show(this.options.element, open);
    this.optionsToggle.setAttribute('aria-expanded', String(open));
    this.optionsToggle.classList.toggle('active', open);
    if (this.host.state.optionsOpen !== open) this.host.save({ optionsOpen: open });
  }

  private refreshComposer(): void {
    const problem = this.options.prepared().problems[0];
    // No model yet is no reason to refuse: the host resolves one when the message is sent (waiting for the
    // model list if it has not arrived), or says why none can be chosen.
    const reason = this.hasKey === false ? t('setApiKeyFirst') : problem;
    this.composer.setBlocked(reason);
  }
}
